# Crash during page deletion.
#
# VACUUM empties thousands of leaves (the lowest keys, which merge into
# right siblings, and a middle range, which merges into left siblings) and
# deletes them one WAL record each; the whole server is killed with
# SIGKILL while it does.  After recovery the index passes bpindex_check
# with heapallindexed and index and bitmap scans equal a sequential scan;
# a second VACUUM finishes the deletions, a third (once no snapshot is
# older than them) recycles the pages, and inserts reuse them.  Then the
# same crash during the deletions of a text index's leaves.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('pagedel');
$node->init;
preload_bpindex($node);
$node->append_conf('postgresql.conf', qq{
checkpoint_timeout = '1h'
autovacuum = off
shared_buffers = 16MB
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION bpindex');

# int8 keys at fillfactor 10 in plain leaves: some 50 entries a leaf,
# 8000 leaves, enough for the slow VACUUM below to be killed part-way
# (packed leaves hold several times as many: the VACUUM could end first)
$node->safe_psql('postgres', q{
	CREATE TABLE pd_t (k int8, v int4);
	INSERT INTO pd_t SELECT g, g FROM generate_series(1, 400000) g;
	CREATE INDEX pd_t_bp ON pd_t USING bpindex (k) WITH (fillfactor = 10, packed_leaves = off);
	DELETE FROM pd_t WHERE k <= 150000 OR k BETWEEN 200000 AND 350000;
});

my @queries = (
	'SELECT k, v FROM pd_t WHERE k >= 140000 ORDER BY k, v LIMIT 300',
	'SELECT k FROM pd_t WHERE k <= 360000 ORDER BY k DESC LIMIT 300',
	'SELECT count(*), sum(k), sum(v) FROM pd_t WHERE k BETWEEN 1 AND 400000',
	'SELECT count(*) FROM pd_t WHERE k = 199999');

# a slow VACUUM, killed while it walks the leaves and deletes them
my $bench = start_pgbench($node,
	{ 'vacuum.sql' => "SET vacuum_cost_delay = 1;\nSET vacuum_cost_limit = 200;\nVACUUM pd_t;\n" },
	'-c', '1', '-t', '1');
ok(wait_for_pgbench($node, $bench,
		"SELECT deleted_pages > 100 FROM bpindex_stats('pd_t_bp')"),
	'VACUUM is deleting leaves');
crash_node($node);
finish_pgbench($bench);
$node->start;

my $deleted = index_stat($node, 'pd_t_bp', 'deleted_pages');
cmp_ok($deleted, '>', 100, "leaves deleted before the crash survive ($deleted)");
note('after the crash: ' . index_stat($node, 'pd_t_bp', 'leaf_pages') . ' leaves, '
	  . index_stat($node, 'pd_t_bp', 'empty_leaves') . " empty, $deleted deleted");
check_index($node, 'pd_t_bp', 1, 'after the crash');
compare_scans($node, 'after the crash', \@queries);

$node->safe_psql('postgres', 'VACUUM pd_t');
cmp_ok(index_stat($node, 'pd_t_bp', 'deleted_pages'), '>', $deleted,
	'the next VACUUM deletes the rest');
cmp_ok(index_stat($node, 'pd_t_bp', 'empty_leaves'), '<',
	index_stat($node, 'pd_t_bp', 'internal_pages'),
	'the only empty leaves left are the only children of their parents');
check_index($node, 'pd_t_bp', 1, 'after the second VACUUM');
compare_scans($node, 'after the second VACUUM', \@queries);

$node->safe_psql('postgres', 'SELECT txid_current()');
$node->safe_psql('postgres', 'VACUUM pd_t');
my $recyclable = index_stat($node, 'pd_t_bp', 'recyclable_pages');
cmp_ok($recyclable, '>', 1000, "the deleted pages are recyclable ($recyclable)");
my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('pd_t_bp')");
$node->safe_psql('postgres', q{
	INSERT INTO pd_t SELECT g, -g FROM generate_series(400001, 450000) g;
	INSERT INTO pd_t SELECT g * 3, -g FROM generate_series(70000, 100000) g;
});
is($node->safe_psql('postgres', "SELECT pg_relation_size('pd_t_bp')"), $size,
	'the inserts took recycled pages instead of extending the index');
check_index($node, 'pd_t_bp', 1, 'after inserts into recycled pages');
compare_scans($node, 'after inserts into recycled pages', \@queries);

# a crash right after inserts reused pages: recovery replays the reuse
crash_node($node);
$node->start;
check_index($node, 'pd_t_bp', 1, 'after a crash following the reuse');
compare_scans($node, 'after a crash following the reuse', \@queries);

# The same with text keys: the fences and pivots that move take their keys
# into their new pages (keys of about 100 bytes: a few dozen a leaf).
$node->safe_psql('postgres', q{
	CREATE TABLE pd_s (k text COLLATE "C", v int4);
	INSERT INTO pd_s SELECT lpad(g::text, 7, '0') || repeat('z', 90), g
	FROM generate_series(1, 200000) g;
	CREATE INDEX pd_s_bp ON pd_s USING bpindex (k) WITH (fillfactor = 30);
	DELETE FROM pd_s WHERE v <= 70000 OR v BETWEEN 100000 AND 180000;
});
my @text_queries = (
	q{SELECT k, v FROM pd_s WHERE k >= '0069000' ORDER BY k, v LIMIT 300},
	q{SELECT v FROM pd_s WHERE k <= '0181000' ORDER BY k DESC LIMIT 300},
	q{SELECT count(*), sum(v) FROM pd_s WHERE k BETWEEN '0000001' AND '0200001'},
	q{SELECT count(*) FROM pd_s WHERE k = '0099999' || repeat('z', 90)});
# slower than the VACUUM above: a few dozen keys a leaf make many more
# leaves to delete, and at the same pace the crash could come after the last
$bench = start_pgbench($node,
	{ 'vacuum_s.sql' => "SET vacuum_cost_delay = 1;\nSET vacuum_cost_limit = 5;\nVACUUM pd_s;\n" },
	'-c', '1', '-t', '1');
ok(wait_for_pgbench($node, $bench,
		"SELECT deleted_pages > 100 FROM bpindex_stats('pd_s_bp')"),
	'VACUUM is deleting leaves of the text index');
crash_node($node);
finish_pgbench($bench);
$node->start;
$deleted = index_stat($node, 'pd_s_bp', 'deleted_pages');
cmp_ok($deleted, '>', 100, "text leaves deleted before the crash survive ($deleted)");
check_index($node, 'pd_s_bp', 1, 'text: after the crash');
compare_scans($node, 'text: after the crash', \@text_queries);
$node->safe_psql('postgres', 'VACUUM pd_s');
cmp_ok(index_stat($node, 'pd_s_bp', 'deleted_pages'), '>', $deleted,
	'text: the next VACUUM deletes the rest');
check_index($node, 'pd_s_bp', 1, 'text: after the second VACUUM');
compare_scans($node, 'text: after the second VACUUM', \@text_queries);
$node->safe_psql('postgres', q{
	INSERT INTO pd_s SELECT lpad(g::text, 7, '0') || repeat('y', 60), -g
	FROM generate_series(100000, 180000, 3) g;
});
crash_node($node);
$node->start;
check_index($node, 'pd_s_bp', 1, 'text: after inserts and a crash');
compare_scans($node, 'text: after inserts and a crash', \@text_queries);

$node->stop;
done_testing();
