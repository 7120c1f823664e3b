# Cursors on a hot standby held open across replayed VACUUM: the
# primary deletes rows inside the leaf a standby cursor stands on, VACUUMs
# them away (entries removed, their heap line pointers freed, the pages
# marked all-visible) and inserts new rows that take the freed line
# pointers, while the cursor -- index-only forward and backward, plain
# index scan, bitmap scan, on int8 and text keys -- has fetched its first
# rows.  Replay of the removal waits for the cursor's pin of the leaf
# (bpindex's redo takes a cleanup lock), so the cursor either returns
# exactly the rows of its snapshot or is cancelled by the recovery conflict
# on buffer pins; it never returns a row deleted before its snapshot, and
# never misses one.  Runs with hot_standby_feedback off and on, and with
# wal_consistency_checking for bpindex's records.  Then a scan is held on
# a leaf that VACUUM empties and deletes, whose page a split reuses; on a
# leaf whose deleted entries a split moved away before VACUUM (replay
# waits out the pins of the leaves VACUUM left unchanged); and on a leaf
# from which inserts removed entries of pruned heap tuples; while bottom-up
# deletion removes old versions the cursor's snapshot still sees; and skip
# scans and = ANY scans held between two prefix values or array elements
# while VACUUM deletes whole prefixes, and a skip scan driven by an = ANY
# array on its leading column, likewise.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $primary = PostgreSQL::Test::Cluster->new('cursor_primary');
$primary->init(allows_streaming => 1);
preload_bpindex($primary);
$primary->append_conf('postgresql.conf', qq{
wal_consistency_checking = 'bpindex'
autovacuum = off
# every bpindex record carries page images, and replay waits on cursors:
# keep the WAL a standby that lags has yet to receive (a slot would also
# keep the xmin that hot_standby_feedback reported, which VACUUM below
# must not see)
wal_keep_size = '2GB'
});
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION bpindex');
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('cursor_standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
# replay waits this long for a pin before it cancels the holder
$standby->append_conf('postgresql.conf', "max_standby_streaming_delay = '500ms'");
$standby->start;

# (on 18 enable_indexscan = off disables index-only scans too: the planner
# prefers an index-only scan to an index scan that returns the same columns)
my $index_only = 'SET enable_seqscan = off; SET enable_bitmapscan = off;';
my $plain = 'SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;';
my $bitmap = 'SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;';
my $no_index = 'SET enable_seqscan = on; SET enable_indexscan = off; '
  . 'SET enable_indexonlyscan = off; SET enable_bitmapscan = off;';

# [name, key type, key expression of g, settings, query, plan pattern]
my @cases = (
	[ 'int8 index-only forward', 'int8', 'g', $index_only,
		'SELECT k FROM %t ORDER BY k', qr/Index Only Scan using %t_k/ ],
	[ 'int8 index-only backward', 'int8', 'g', $index_only,
		'SELECT k FROM %t ORDER BY k DESC', qr/Index Only Scan Backward using %t_k/ ],
	[ 'int8 index scan', 'int8', 'g', $plain,
		'SELECT k, v FROM %t WHERE k > 0 ORDER BY k', qr/Index Scan using %t_k/ ],
	[ 'int8 bitmap scan', 'int8', 'g', $bitmap,
		'SELECT k, v FROM %t WHERE k BETWEEN 1 AND 1000', qr/Bitmap Index Scan on %t_k/ ],
	[ 'text index-only forward', 'text COLLATE "C"', "'key-' || lpad(g::text, 4, '0')", $index_only,
		'SELECT k FROM %t ORDER BY k', qr/Index Only Scan using %t_k/ ],
	[ 'text index-only backward', 'text', "'key-' || lpad(g::text, 4, '0')", $index_only,
		'SELECT k FROM %t ORDER BY k DESC', qr/Index Only Scan Backward using %t_k/ ]);

# A cursor for query opened on the standby under settings, in a REPEATABLE
# READ transaction: (session, its first n rows, what its snapshot sees by a
# sequential scan).
sub open_cursor
{
	my ($settings, $query, $n) = @_;
	my $session = $standby->background_psql('postgres', on_error_stop => 0);
	$session->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	$session->query_safe($settings);
	$session->query_safe("DECLARE c CURSOR FOR $query");
	my $first = $session->query_safe("FETCH $n FROM c");
	$session->query_safe($no_index);
	return ($session, $first, $session->query_safe($query));
}

# The rest of cursor c in session: (rows, undef), or (undef, error) if a
# recovery conflict cancelled its query or ended its session (which
# psql reports on its way out).
sub fetch_rest
{
	my ($session) = @_;
	my ($rows, $failed);
	my $ok = eval {
		($rows, $failed) = $session->query('FETCH ALL FROM c');
		1;
	};
	return (undef, $session->{stderr} . ($@ // '')) if !$ok || $failed;
	return ($rows, undef);
}

# On 18, which reports them: the index searches of query on the standby
# under settings are at least n.
sub index_searches_at_least
{
	my ($settings, $query, $n, $label) = @_;
	return if $standby->safe_psql('postgres', 'SHOW server_version_num') < 180000;
	my $plan = $standby->safe_psql('postgres',
		"$settings EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $query");
	my ($searches) = $plan =~ /Index Searches: (\d+)/;
	cmp_ok($searches // 0, '>=', $n, $label);
}

# The end of a cursor's run: its rows equal what its snapshot sees, or it
# was cancelled by a recovery conflict.
sub check_cursor
{
	my ($label, $session, $first, $expected) = @_;
	my ($rest, $error) = fetch_rest($session);
	if (defined $error)
	{
		like($error, qr/conflict with recovery/,
			"$label: the cursor was cancelled by a recovery conflict");
	}
	else
	{
		is(join("\n", grep { $_ ne '' } ($first, $rest)), $expected,
			"$label: the cursor returned its snapshot's rows");
	}
	eval { $session->quit; };
}

# The rows of the cursor, as fetched, compared with what its snapshot
# sees; a recovery conflict may cancel it instead.
sub run_case
{
	my ($n, $feedback, $case) = @_;
	my ($name, $type, $key, $settings, $query, $plan_re) = @$case;
	my $t = "c${n}_$feedback";
	(my $q = $query) =~ s/%t/$t/g;
	(my $re = $plan_re) =~ s/%t/$t/g;
	# 200 rows: every key in one leaf, the one the cursor stands on; some
	# 35 rows a heap page, so that the first and last rows (which the
	# cursor fetches first) lie on all-visible pages that VACUUM skips
	$primary->safe_psql('postgres', qq{
		CREATE TABLE $t (k $type, v int4, pad text) WITH (autovacuum_enabled = off);
		INSERT INTO $t SELECT $key, g, repeat('x', 200) FROM generate_series(1, 200) g;
		CREATE INDEX ${t}_k ON $t USING bpindex (k);
		VACUUM (FREEZE) $t;
		DELETE FROM $t WHERE v BETWEEN 60 AND 140;
	});
	is($primary->safe_psql('postgres', "SELECT leaf_pages FROM bpindex_stats('${t}_k')"),
		'1', "$name ($feedback): one leaf holds every key");
	$primary->wait_for_catchup($standby, 'replay');

	like($standby->safe_psql('postgres', "$settings EXPLAIN (COSTS OFF) $q"),
		qr/$re/, "$name ($feedback): the cursor's plan uses the index");

	my ($session, $first, $expected) = open_cursor($settings, $q, 10);

	# remove the deleted rows and reuse their line pointers
	$primary->safe_psql('postgres', "VACUUM $t");
	$primary->safe_psql('postgres',
		"INSERT INTO $t SELECT k, v, pad FROM $t WHERE v <= 59");
	$primary->safe_psql('postgres', "VACUUM $t");
	$primary->wait_for_catchup($standby, 'replay');

	check_cursor("$name ($feedback)", $session, $first, $expected);
}

my $n = 0;
for my $feedback ('off', 'on')
{
	$standby->append_conf('postgresql.conf', "hot_standby_feedback = $feedback");
	$standby->reload;
	run_case($n++, $feedback, $_) for @cases;
}

# (hot_standby_feedback off from here: VACUUM must remove the rows)
$standby->append_conf('postgresql.conf', 'hot_standby_feedback = off');
$standby->reload;

# Compressed keys (values beyond the entry limit that compress below it):
# cursors on the standby, index-only backward, plain and bitmap, held while
# the primary deletes most rows, VACUUMs them away (deleting leaves of
# compressed keys, with hot_standby_feedback off) and inserts rows that take the freed line pointers; each
# returns its snapshot's rows or is cancelled by a recovery conflict.  With
# hot_standby_feedback on, which holds back no row deleted before the
# cursors' snapshots, they return their rows: the test says so.
my @compressed_cases = (
	[ 'index-only backward', $index_only, 'SELECT md5(k) FROM %t ORDER BY k DESC',
		qr/Index Only Scan Backward using %t_k/ ],
	[ 'index scan', $plain, "SELECT md5(k), v FROM %t WHERE k > '' ORDER BY k",
		qr/Index Scan using %t_k/ ],
	[ 'bitmap scan', $bitmap, "SELECT md5(k), v FROM %t WHERE k BETWEEN '0050' AND '0550'",
		qr/Bitmap Index Scan on %t_k/ ]);
my $cn = 0;
for my $feedback ('off', 'on')
{
	$standby->append_conf('postgresql.conf', "hot_standby_feedback = $feedback");
	$standby->reload;
	run_compressed_case($cn++, $feedback, $_) for @compressed_cases;
}
$standby->append_conf('postgresql.conf', 'hot_standby_feedback = off');
$standby->reload;

# One case of @compressed_cases, in table ck<n>.
sub run_compressed_case
{
	my ($n, $feedback, $case) = @_;
	my ($name, $settings, $query, $plan_re) = @$case;
	my $t = "ck$n";
	$name .= " (feedback $feedback)";
	(my $q = $query) =~ s/%t/$t/g;
	(my $re = $plan_re) =~ s/%t/$t/g;
	$primary->safe_psql('postgres', qq{
		CREATE TABLE $t (k text COLLATE "C", v int4) WITH (autovacuum_enabled = off);
		INSERT INTO $t SELECT lpad(g::text, 4, '0') || repeat(md5((g % 5)::text), 80), g
		  FROM generate_series(1, 600) g;
		CREATE INDEX ${t}_k ON $t USING bpindex (k);
		VACUUM (FREEZE) $t;
		DELETE FROM $t WHERE v BETWEEN 100 AND 500;
	});
	$primary->wait_for_catchup($standby, 'replay');
	like($standby->safe_psql('postgres', "$settings EXPLAIN (COSTS OFF) $q"),
		qr/$re/, "compressed keys, $name: the cursor's plan uses the index");
	my ($session, $first, $expected) = open_cursor($settings, $q, 10);
	$primary->safe_psql('postgres', "VACUUM $t");
	# (with feedback on, the cursor's reported xmin defers their deletion)
	cmp_ok(index_stat($primary, "${t}_k", 'deleted_pages'), '>', 0,
		"compressed keys, $name: VACUUM deleted leaves")
	  if $feedback eq 'off';
	$primary->safe_psql('postgres', "INSERT INTO $t SELECT k, v + 1000 FROM $t WHERE v < 100");
	$primary->safe_psql('postgres', "VACUUM $t");
	$primary->wait_for_catchup($standby, 'replay');
	if ($feedback eq 'on')
	{
		my ($rest, $error) = fetch_rest($session);
		is($error, undef, "compressed keys, $name: the cursor was not cancelled");
		is(join("\n", grep { defined $_ && $_ ne '' } ($first, $rest)), $expected,
			"compressed keys, $name: the cursor returned its snapshot's rows");
		eval { $session->quit; };
	}
	else
	{
		check_cursor("compressed keys, $name", $session, $first, $expected);
	}
	check_index($standby, "${t}_k", 0, "compressed keys, $name, standby");
	compare_scans($standby, "compressed keys, $name",
		[ "SELECT md5(k), v FROM $t WHERE k >= '0' ORDER BY k, v" ], $primary);
}

# A scan that keeps the pin of a leaf VACUUM empties and deletes: the
# deletion (and the reuse of the page by a split) waits for it or cancels
# it; the standby's index is sound afterwards and answers like the
# primary's sequential scan.
$primary->safe_psql('postgres', q{
	CREATE TABLE pd (k int8, v int4) WITH (autovacuum_enabled = off);
	INSERT INTO pd SELECT g, g FROM generate_series(1, 20000) g;
	CREATE INDEX pd_k ON pd USING bpindex (k) WITH (fillfactor = 100);
	VACUUM (FREEZE) pd;
	DELETE FROM pd WHERE k BETWEEN 2000 AND 12000;
});
$primary->wait_for_catchup($standby, 'replay');
my ($session, $first, $expected) =
  open_cursor($index_only, 'SELECT k FROM pd WHERE k >= 1990 ORDER BY k', 5);
$primary->safe_psql('postgres', 'VACUUM pd');
my $deleted = $primary->safe_psql('postgres', "SELECT deleted_pages FROM bpindex_stats('pd_k')");
cmp_ok($deleted, '>', 0, 'VACUUM deleted leaves');
# the deleted pages become recyclable, then splits take them
$primary->safe_psql('postgres', 'VACUUM pd');
$primary->safe_psql('postgres',
	'INSERT INTO pd SELECT g, g FROM generate_series(2000, 12000) g');
$primary->wait_for_catchup($standby, 'replay');
check_cursor('page deletion', $session, $first, $expected);

# A leaf VACUUM leaves unchanged: the cursor copies the one leaf, whose
# top rows were deleted; inserts split the leaf, moving those entries to
# a new right sibling, from which VACUUM removes them.  On the primary
# VACUUM's cleanup lock of the unchanged leaf would wait for the cursor;
# replay takes it too (a PINS record), so the cursor is cancelled or
# returns its snapshot's rows.
$primary->safe_psql('postgres', q{
	CREATE TABLE sp (k int8, v int4, pad text) WITH (autovacuum_enabled = off);
	INSERT INTO sp SELECT g * 10, g, repeat('x', 200) FROM generate_series(1, 1200) g;
	CREATE INDEX sp_k ON sp USING bpindex (k);
	VACUUM (FREEZE) sp;
	DELETE FROM sp WHERE v > 1000;
});
is($primary->safe_psql('postgres', "SELECT leaf_pages FROM bpindex_stats('sp_k')"), '1',
	'split: one leaf holds every key');
$primary->wait_for_catchup($standby, 'replay');
($session, $first, $expected) =
  open_cursor($index_only, 'SELECT k FROM sp ORDER BY k', 10);
$primary->safe_psql('postgres',
	"INSERT INTO sp SELECT g * 10 + 5, 0, 'y' FROM generate_series(1, 1000) g");
is($primary->safe_psql('postgres',
	"SELECT count(*) > 1 AND bool_and(high_key IS NULL OR high_key::int8 <= 10000 OR blkno <> 1)
	 FROM bpindex_leaves('sp_k')"), 't',
	'split: the deleted rows moved to another leaf');
$primary->safe_psql('postgres', 'VACUUM sp');
$primary->wait_for_catchup($standby, 'replay');
check_cursor('split', $session, $first, $expected);

# An insert's removal of entries whose heap tuples are pruned (a DEAD
# record) under a cursor that copied them: the primary's index scans mark
# the deleted rows' entries dead and prune their heap pages, then inserts
# that fill the leaf's log remove the marked entries; VACUUM then frees
# the line pointers.
$primary->safe_psql('postgres', q{
	CREATE EXTENSION IF NOT EXISTS pg_walinspect;
	CREATE TABLE dd (k int8, v int4, pad text) WITH (autovacuum_enabled = off);
	INSERT INTO dd SELECT g * 10, g, repeat('x', 200) FROM generate_series(1, 200) g;
	CREATE INDEX dd_k ON dd USING bpindex (k);
	VACUUM (FREEZE) dd;
	DELETE FROM dd WHERE v BETWEEN 60 AND 140;
});
$primary->wait_for_catchup($standby, 'replay');
($session, $first, $expected) =
  open_cursor($index_only, 'SELECT k FROM dd ORDER BY k', 10);
my $dead_from = $primary->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
$primary->safe_psql('postgres', "$plain SELECT count(*) FROM dd WHERE k BETWEEN 600 AND 1400")
  for 1 .. 2;
$primary->safe_psql('postgres',
	"INSERT INTO dd SELECT 600 + g * 4 + 1, 0, 'y' FROM generate_series(1, 200) g");
is($primary->safe_psql('postgres', qq{
	SELECT count(*) > 0 FROM pg_get_wal_records_info('$dead_from', pg_current_wal_flush_lsn())
	WHERE resource_manager = 'bpindex' AND record_type = 'DEAD'}), 't',
	'dead removal: an insert removed the marked entries');
$primary->safe_psql('postgres', 'VACUUM dd');
$primary->wait_for_catchup($standby, 'replay');
check_cursor('dead removal', $session, $first, $expected);

# Bottom-up deletion on the primary while a standby cursor's snapshot still
# sees the old versions it removes: the cursor (a plain index scan, which
# holds no pin between fetches) opens before updates that leave bu_k's
# keys unchanged; once the leaves fill, inserts remove the entries of the
# versions those updates left behind.  Replay first resolves the conflict
# of their BP_XLOG_HORIZON record with the cursor's snapshot: the cursor
# is cancelled, or returns exactly its snapshot's rows.
$primary->safe_psql('postgres', q{
	CREATE TABLE bu (k int8, v int4) WITH (autovacuum_enabled = off);
	INSERT INTO bu SELECT g, g FROM generate_series(1, 4000) g;
	CREATE INDEX bu_k ON bu USING bpindex (k);
	CREATE INDEX bu_v ON bu USING bpindex (v);
	VACUUM (FREEZE) bu;
});
$primary->wait_for_catchup($standby, 'replay');
($session, $first, $expected) =
  open_cursor($plain, 'SELECT k, v FROM bu WHERE k > 0 ORDER BY k', 10);
for my $round (1 .. 2)
{
	$primary->safe_psql('postgres', "UPDATE bu SET v = v + 1 WHERE k % 4 = $_") for 0 .. 3;
}
# three versions of each row: fewer entries if old ones were removed
cmp_ok($primary->safe_psql('postgres', "SELECT entries FROM bpindex_stats('bu_k')"),
	'<', 3 * 4000, 'bottom-up deletion: inserts removed the entries of old versions');
$primary->wait_for_catchup($standby, 'replay');
check_cursor('bottom-up deletion', $session, $first, $expected);
is($standby->safe_psql('postgres', "SELECT bpindex_check('bu_k', true)"), '',
	'bottom-up deletion: the standby\'s index is sound');
is(index_result($standby, 'SELECT count(*), sum(k), sum(v) FROM bu WHERE k > 0'),
	seqscan_result($primary, 'SELECT count(*), sum(k), sum(v) FROM bu WHERE k > 0'),
	'bottom-up deletion: the standby\'s index answers like the primary\'s sequential scan');

# Skip scans (a qual on the second key column only) held between two
# prefix values while VACUUM removes whole prefixes (deleting their leaves)
# and inserts bring them back: a plain index scan forward, which drops its
# pins, and an index-only scan backward, which keeps them.  Each prefix's
# rows have heap pages of their own, so that the pruning of the deleted
# prefixes does not wait for the heap page the plain cursor pins.
$primary->safe_psql('postgres', q{
	CREATE TABLE sk (a int4, b int8) WITH (autovacuum_enabled = off);
	INSERT INTO sk SELECT (g - 1) / 2000, (g - 1) % 2000 FROM generate_series(1, 20000) g;
	CREATE INDEX sk_ab ON sk USING bpindex (a, b) WITH (fillfactor = 100);
	VACUUM (FREEZE, ANALYZE) sk;
});
$primary->wait_for_catchup($standby, 'replay');
my $skip_query = 'SELECT a, b FROM sk WHERE b BETWEEN 400 AND 600';
like($standby->safe_psql('postgres', "$plain EXPLAIN (COSTS OFF) $skip_query ORDER BY a, b"),
	qr/Index Scan using sk_ab on sk\s+Index Cond: \(\(b >= 400\) AND \(b <= 600\)\)/,
	'skip scan: a qual on the second column alone uses the index');
index_searches_at_least($plain, "$skip_query ORDER BY a, b", 2,
	'skip scan: it descends once per prefix value');
# = ANY elements on both columns: the next element's range mostly starts
# in the leaf the cursor stands on, which it reads again instead of
# descending; VACUUM deletes leaves between two elements
my $array_query = 'SELECT a, b FROM sk WHERE a = ANY (\'{0,1,2,3,4,5,6,7,8,9}\')'
  . ' AND b = ANY (\'{' . join(',', map { $_ * 50 } 0 .. 39) . '}\')';
like($standby->safe_psql('postgres', "$plain EXPLAIN (COSTS OFF) $array_query ORDER BY a, b"),
	qr/Index Scan using sk_ab on sk\s+Index Cond: \(\(a = ANY .*\(b = ANY /,
	'array keys: both arrays are index conditions');
for my $skip (['forward', $plain, "$skip_query ORDER BY a, b", 250],
	['backward', $index_only, "$skip_query ORDER BY a DESC, b DESC", 250],
	['array forward', $plain, "$array_query ORDER BY a, b", 100],
	['array backward', $index_only, "$array_query ORDER BY a DESC, b DESC", 100])
{
	my ($dir, $settings, $query, $nfirst) = @$skip;
	$primary->safe_psql('postgres', 'DELETE FROM sk WHERE a IN (4, 5, 6)');
	$primary->wait_for_catchup($standby, 'replay');
	($session, $first, $expected) = open_cursor($settings, $query, $nfirst);
	$primary->safe_psql('postgres', 'VACUUM sk');
	cmp_ok($primary->safe_psql('postgres', "SELECT deleted_pages FROM bpindex_stats('sk_ab')"),
		'>', 0, "skip scan $dir: VACUUM deleted the leaves of whole prefixes");
	# (no second VACUUM: the pages stay deleted, not reused, so replay has
	# no conflict with the cursor's snapshot and the cursor can go on)
	$primary->safe_psql('postgres',
		'INSERT INTO sk SELECT a, b FROM generate_series(4, 6) a, generate_series(0, 1999) b');
	$primary->wait_for_catchup($standby, 'replay');
	check_cursor("skip scan $dir", $session, $first, $expected);
}
is($standby->safe_psql('postgres', "SELECT bpindex_check('sk_ab', true)"), '',
	'skip scan: the standby\'s index is sound');
is(index_result($standby, "$skip_query ORDER BY a, b"),
	seqscan_result($primary, "$skip_query ORDER BY a, b"),
	'skip scan: the standby\'s index answers like the primary\'s sequential scan');
is(index_result($standby, "$array_query ORDER BY a, b"),
	seqscan_result($primary, "$array_query ORDER BY a, b"),
	'array keys: the standby\'s index answers like the primary\'s sequential scan');

# A skip scan driven by an = ANY array on the leading column (each
# element's range a skip scan of its own over the middle column), held
# between two values of that column; VACUUM deletes the leaves of whole
# elements ahead of the cursor, and of the current element's middle
# values, and inserts take the rows back.  The cursor's descents start from
# its copy of the level-1 page (the root here), whose links now lead to
# deleted pages: they descend from the root again instead.
# One table per direction: the pages deleted for the first cursor are not
# recycled under the second (a conflict with its snapshot).
my $drive_query = 'SELECT a, m, b FROM %t WHERE a = ANY (\'{1,3,4,5,6,8}\') AND b BETWEEN 40 AND 60';
# (the rows deleted lie in other elements than the cursor's, so that the
# pruning and the leaf deletions wait for no page the cursor pins)
for my $drive (['forward', $plain, 'ORDER BY a, m, b', 8],
	['backward', $index_only, 'ORDER BY a DESC, m DESC, b DESC', 1])
{
	my ($dir, $settings, $order, $ahead) = @$drive;
	my $t = "ska_$dir";
	(my $q = $drive_query) =~ s/%t/$t/;
	$primary->safe_psql('postgres', qq{
		CREATE TABLE $t (a int4, m int4, b int8) WITH (autovacuum_enabled = off);
		INSERT INTO $t SELECT (g - 1) / 2000, ((g - 1) % 2000) / 100, (g - 1) % 100
			FROM generate_series(1, 20000) g;
		CREATE INDEX ${t}_amb ON $t USING bpindex (a, m, b) WITH (fillfactor = 100);
		VACUUM (FREEZE, ANALYZE) $t;
	});
	$primary->wait_for_catchup($standby, 'replay');
	like($standby->safe_psql('postgres', "$settings EXPLAIN (COSTS OFF) $q $order"),
		qr/Index (?:Only )?Scan(?: Backward)? using ${t}_amb on $t\s+Index Cond: \(\(a = ANY .*\(b >= 40\) AND \(b <= 60\)/,
		"array-driven skip scan $dir: the array and the range are index conditions");
	index_searches_at_least($settings, "$q $order", 6,
		"array-driven skip scan $dir: it searches each element's range");
	$primary->safe_psql('postgres',
		"DELETE FROM $t WHERE a IN (4, 5) OR (a = $ahead AND m BETWEEN 15 AND 18)");
	$primary->wait_for_catchup($standby, 'replay');
	($session, $first, $expected) = open_cursor($settings, "$q $order", 300);
	$primary->safe_psql('postgres', "VACUUM $t");
	cmp_ok($primary->safe_psql('postgres', "SELECT deleted_pages FROM bpindex_stats('${t}_amb')"),
		'>', 0, "array-driven skip scan $dir: VACUUM deleted leaves");
	$primary->safe_psql('postgres', qq{
		INSERT INTO $t SELECT a, m, b FROM generate_series(4, 5) a,
			generate_series(0, 19) m, generate_series(0, 99) b;
		INSERT INTO $t SELECT $ahead, m, b FROM generate_series(15, 18) m,
			generate_series(0, 99) b;
	});
	$primary->wait_for_catchup($standby, 'replay');
	check_cursor("array-driven skip scan $dir", $session, $first, $expected);
	is($standby->safe_psql('postgres', "SELECT bpindex_check('${t}_amb', true)"), '',
		"array-driven skip scan $dir: the standby's index is sound");
	is(index_result($standby, "$q $order"), seqscan_result($primary, "$q $order"),
		"array-driven skip scan $dir: the standby's index answers like the primary's sequential scan");
}

is($standby->safe_psql('postgres', "SELECT bpindex_check('pd_k')"), '',
	'the standby\'s index is sound');
is(index_result($standby, 'SELECT count(*), sum(k) FROM pd WHERE k >= 1000'),
	seqscan_result($primary, 'SELECT count(*), sum(k) FROM pd WHERE k >= 1000'),
	'the standby\'s index answers like the primary\'s sequential scan');

$standby->stop;
$primary->stop;
done_testing();
