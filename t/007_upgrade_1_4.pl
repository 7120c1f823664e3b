# Indexes of text keys written by the 1.4 library, read and written by this
# one.  The 1.4 library (built from t/old-1.4, which scripts/test.sh fills
# from the repository's history) builds indexes on URL-like paths and
# emails under "C", on (text, int4) and on bytea, then takes inserts,
# deletes and a VACUUM.  This library then answers queries on them like a
# sequential scan, passes bpindex_check before and after ALTER EXTENSION
# bpindex UPDATE, and takes inserts (which split and re-encode the 1.4
# leaves, so that new leaves store their keys without a shared prefix),
# deletes and a VACUUM that deletes pages.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $old_src = "$FindBin::RealBin/old-1.4";
plan skip_all => "the 1.4 sources are not in $old_src (scripts/test.sh "
  . "extracts them from the repository's history)"
  unless -f "$old_src/Makefile";

# Build the 1.4 library in its tree, without bitcode.
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my ($stdout, $stderr);
my $built = IPC::Run::run [ 'make', '-s', '-C', $old_src, "PG_CONFIG=$pg_config",
	'with_llvm=no' ], '>', \$stdout, '2>', \$stderr;
ok($built && -f "$old_src/bpindex.so", 'the 1.4 library builds')
  or BAIL_OUT("could not build the 1.4 library: $stderr");

my $node = PostgreSQL::Test::Cluster->new('upgrade_1_4');
$node->init;
# no autovacuum or parallel workers: no process but the tests' sessions
# loads either library
$node->append_conf('postgresql.conf',
	"autovacuum = off\nmax_parallel_maintenance_workers = 0\n"
	  . "max_parallel_workers_per_gather = 0\n");
$node->start;
$node->safe_psql('postgres', "CREATE EXTENSION bpindex VERSION '1.4'");

# Point the extension's C functions at a library: sessions started
# afterwards load it.
sub use_library
{
	my ($path) = @_;
	$node->safe_psql('postgres', qq{
		UPDATE pg_proc SET probin = '$path'
		WHERE probin IN ('\$libdir/bpindex', '$old_src/bpindex')});
}

use_library("$old_src/bpindex");
is( $node->safe_psql(
		'postgres',
		"SELECT DISTINCT probin FROM pg_proc WHERE proname = 'bpindex_handler'"),
	"$old_src/bpindex",
	'the extension uses the 1.4 library');

# Written by 1.4: builds, then inserts, deletes and a VACUUM.
$node->safe_psql('postgres', q{
	CREATE TABLE t_url (k text COLLATE "C", v int4);
	INSERT INTO t_url
		SELECT 'https://www.example.com/products/category-' || (g % 100)
			   || '/item/' || lpad((hashint8(g) & 2147483647)::text, 10, '0'), g
		FROM generate_series(1, 40000) g ORDER BY hashint8(g);
	CREATE INDEX t_url_bp ON t_url USING bpindex (k);
	CREATE TABLE t_mail (k text COLLATE "C", v int4);
	INSERT INTO t_mail
		SELECT substr(md5(g::text), 1, 4 + g % 7) || '@'
			   || (ARRAY['gmail.com', 'example.org'])[1 + g % 2], g
		FROM generate_series(1, 30000) g;
	CREATE INDEX t_mail_bp ON t_mail USING bpindex (k);
	CREATE TABLE t_pair (k text COLLATE "C", n int4);
	INSERT INTO t_pair
		SELECT 'tenant/' || (g % 50) || '/user/' || (g % 997), g % 13
		FROM generate_series(1, 30000) g;
	CREATE INDEX t_pair_bp ON t_pair USING bpindex (k, n);
	CREATE TABLE t_bytes (k bytea, v int4);
	INSERT INTO t_bytes
		SELECT convert_to(repeat('/shared/bytes', 3) || (g % 9001), 'UTF8'), g
		FROM generate_series(1, 30000) g;
	CREATE INDEX t_bytes_bp ON t_bytes USING bpindex (k);
	INSERT INTO t_url
		SELECT 'https://www.example.com/products/category-' || (g % 100)
			   || '/item/' || lpad((hashint8(g) & 2147483647)::text, 10, '0'), g
		FROM generate_series(40001, 46000) g;
	INSERT INTO t_mail SELECT 'zz' || k, v FROM t_mail WHERE v % 9 = 0;
	DELETE FROM t_url WHERE v % 5 = 0;
	DELETE FROM t_pair WHERE n = 3;
	VACUUM t_url, t_pair;
});

my @queries = (
	q{SELECT count(*), md5(string_agg(k, ',' ORDER BY k, v)) FROM t_url
	  WHERE k >= 'https://www.example.com/products/category-4'
		AND k < 'https://www.example.com/products/category-6'},
	q{SELECT v FROM t_url WHERE k = (SELECT k FROM t_url WHERE v = 1234)},
	q{SELECT count(*), md5(string_agg(k, ',' ORDER BY k, v)) FROM t_mail
	  WHERE k BETWEEN '3' AND 'b'},
	q{SELECT count(*) FROM t_mail WHERE k LIKE 'zz%' AND k >= 'zz' AND k < 'zz~'},
	q{SELECT count(*), sum(n) FROM t_pair WHERE k = 'tenant/7/user/557' AND n >= 2},
	q{SELECT count(*), sum(n) FROM t_pair WHERE k >= 'tenant/4' AND k < 'tenant/5'},
	q{SELECT count(*), sum(v) FROM t_bytes
	  WHERE k >= convert_to(repeat('/shared/bytes', 3) || '2', 'UTF8')
		AND k < convert_to(repeat('/shared/bytes', 3) || '4', 'UTF8')});
my @indexes = qw(t_url_bp t_mail_bp t_pair_bp t_bytes_bp);

# Read by this library, with the 1.4 definitions of the SQL functions.
# The 1.4 library wrote generic WAL and ran without a preload; this one
# logs through its resource manager, so the server preloads it from here
# on (not before: the preloaded library would stand in every session
# beside the 1.4 one).
use_library('$libdir/bpindex');
preload_bpindex($node);
$node->restart;
compare_scans($node, '1.4 indexes, this library', \@queries);
check_index($node, $_, 1, '1.4 indexes, this library') for @indexes;

$node->safe_psql('postgres', 'ALTER EXTENSION bpindex UPDATE');
is($node->safe_psql('postgres',
		"SELECT extversion FROM pg_extension WHERE extname = 'bpindex'"),
	'1.10', 'the extension is at 1.10');
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM pg_opclass bt
	WHERE bt.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
	  AND bt.opcdefault
	  AND NOT EXISTS (SELECT FROM pg_opclass bp
					  WHERE bp.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
						AND bp.opcdefault AND bp.opcintype = bt.opcintype)}),
	'0',
	'after the update, every type with a default btree operator class has a bpindex one');
is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FILTER (WHERE prefix_bytes > 0) FROM bpindex_leaves('t_url_bp')"),
	'0',
	'every leaf 1.4 wrote keeps its keys whole');

# Written by this library: inserts below, among and above the 1.4 keys,
# deletes that empty leaves, and a VACUUM.
$node->safe_psql('postgres', q{
	INSERT INTO t_url
		SELECT 'https://www.example.com/products/category-' || (g % 100)
			   || '/item/' || lpad((hashint8(g) & 2147483647)::text, 10, '0'), g
		FROM generate_series(46001, 90000) g;
	INSERT INTO t_url VALUES ('a', -1), ('https://www.example.com/', -2), ('zzz', -3);
	INSERT INTO t_mail SELECT 'aa' || k, v FROM t_mail WHERE v % 4 = 0;
	INSERT INTO t_pair
		SELECT 'tenant/' || (g % 50) || '/user/' || (g % 997), g % 13
		FROM generate_series(30001, 50000) g;
	INSERT INTO t_bytes
		SELECT convert_to(repeat('/shared/bytes', 3) || (g % 9001) || '/more', 'UTF8'), g
		FROM generate_series(30001, 45000) g;
	DELETE FROM t_url WHERE k >= 'https://www.example.com/products/category-2'
		AND k < 'https://www.example.com/products/category-3';
	DELETE FROM t_mail WHERE k < '8';
	VACUUM t_url, t_mail, t_pair, t_bytes;
});
compare_scans($node, 'after writes by this library', \@queries);
check_index($node, $_, 1, 'after writes by this library') for @indexes;
ok( $node->safe_psql(
		'postgres',
		"SELECT count(*) FILTER (WHERE prefix_bytes > 0) FROM bpindex_leaves('t_url_bp')"
	) > 0,
	'leaves this library wrote store their keys without their shared prefix');
ok( $node->safe_psql(
		'postgres', "SELECT deleted_pages FROM bpindex_stats('t_url_bp')") > 0,
	'the VACUUM deleted emptied pages of a 1.4 index');

$node->stop;
done_testing();
