# Concurrency: several clients insert (random and ascending keys, NULLs,
# single-row and multi-row INSERTs, so leaves and internal pages split all
# the time) while other clients run ordered index scans (forward and
# backward, ORDER BY ... LIMIT across several leaves, on a one-column and a
# two-column index), parallel index scans (two workers, one with Gather
# Merge) and bitmap scans on the same table.  Each reader runs
# its query twice in one REPEATABLE READ transaction, with the index and
# with a sequential scan, and raises an error if the two differ or if the
# index scan's output is out of order.  Afterwards no client has failed,
# bpindex_check(index, true) is clean and index results equal a sequential
# scan.  One more client deletes small key ranges and runs VACUUM, whose
# leaf walk meets the concurrent splits.  Two more clients run
# bpindex_check during the inserts, which is documented to work beside
# inserts (share locks only, concurrent splits tolerated).  The clients run
# in rounds of a fixed time until the writers have split internal pages of
# both indexes, so that a slow machine runs more rounds rather than fails.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $duration = 20;    # seconds of concurrent work per round

my $node = PostgreSQL::Test::Cluster->new('concurrency');
$node->init;
preload_bpindex($node);
$node->append_conf('postgresql.conf', qq{
log_statement = 'none'
shared_buffers = 16MB
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION bpindex;
	CREATE TABLE t (k int8, v int4, u uuid);
	CREATE SEQUENCE t_seq;
	INSERT INTO t SELECT (g::int8 * 7919) % 10000000, g, md5(g::text)::uuid
	  FROM generate_series(1, 50000) g;
	CREATE INDEX t_k ON t USING bpindex (k);
	CREATE INDEX t_uk ON t USING bpindex (u, k);
	CREATE FUNCTION bp_assert(ok boolean, what text) RETURNS void
	LANGUAGE plpgsql AS $$
	BEGIN
		IF NOT ok THEN
			RAISE EXCEPTION 'index scan differs from sequential scan: %', what;
		END IF;
	END $$;
});

my %stats_before = map {
	$_ => $node->safe_psql('postgres',
		"SELECT leaf_pages || ' ' || internal_pages FROM bpindex_stats('$_')")
} ('t_k', 't_uk');

# Writers: random keys in [0, 10^7), ascending keys from 10^7 up (u too).
my %writers = (
	'w_random.sql@3' => q{
\set r random(0, 9999999)
INSERT INTO t SELECT (:r + g * 104729) % 10000000, g, gen_random_uuid()
  FROM generate_series(1, 20) g;
},
	'w_single.sql@3' => q{
\set r random(0, 9999999)
INSERT INTO t VALUES (:r, 0, gen_random_uuid());
},
	'w_ascending.sql@2' => q{
INSERT INTO t SELECT 10000000 + n, 0, lpad(to_hex(n), 32, '0')::uuid
  FROM (SELECT nextval('t_seq') AS n FROM generate_series(1, 20)) s;
},
	'w_nulls.sql@1' => q{
\set r random(0, 9999999)
INSERT INTO t SELECT NULL, :r, CASE WHEN g % 3 = 0 THEN gen_random_uuid() END
  FROM generate_series(1, 10) g;
});

# Readers.  The first SELECT uses the index (ordered scans also count
# entries that come out of order), the second a sequential scan, both in
# the same snapshot.
sub reader
{
	my ($what, $index_settings, $inner, $order_check) = @_;
	my $bad = $order_check ? "count(*) FILTER (WHERE $order_check)" : '0';
	return qq{
\\set r random(0, 9999999)
BEGIN ISOLATION LEVEL REPEATABLE READ;
$index_settings
SELECT count(*) AS c1, coalesce(sum(k), 0) AS s1, $bad AS bad
  FROM (SELECT x.*, lag(x.key) OVER () AS prev FROM ($inner) x) y \\gset
SET LOCAL enable_seqscan = on;
SET LOCAL enable_indexscan = off;
SET LOCAL enable_indexonlyscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT count(*) AS c2, coalesce(sum(k), 0) AS s2 FROM ($inner) x \\gset
SELECT bp_assert(:c1 = :c2 AND :s1 = :s2 AND :bad = 0,
	'$what, r = :r: ' || :c1 || '/' || :s1 || '/' || :bad || ' vs ' || :c2 || '/' || :s2);
COMMIT;
};
}
my $ordered = "SET LOCAL enable_seqscan = off;\nSET LOCAL enable_bitmapscan = off;";
my $bitmap = "SET LOCAL enable_seqscan = off;\nSET LOCAL enable_indexscan = off;\n"
  . "SET LOCAL enable_indexonlyscan = off;";
my $parallel = "$ordered\nSET LOCAL parallel_setup_cost = 0;\nSET LOCAL parallel_tuple_cost = 0;\n"
  . "SET LOCAL min_parallel_index_scan_size = 0;\nSET LOCAL max_parallel_workers_per_gather = 2;\n"
  # per-row work dominates, so that sharing it wins over a Gather Merge
  . "SET LOCAL cpu_tuple_cost = 1;\nSET LOCAL cpu_index_tuple_cost = 1;";
my %reader_queries = (
	'r_forward.sql' => [ 'forward scan', $ordered,
		'SELECT k, k AS key FROM t WHERE k >= :r ORDER BY k LIMIT 1500',
		'key < prev' ],
	'r_backward.sql' => [ 'backward scan', $ordered,
		'SELECT k, k AS key FROM t WHERE k <= :r ORDER BY k DESC LIMIT 1500',
		'key > prev' ],
	'r_backward_tail.sql' => [ 'backward scan of the ascending keys', $ordered,
		'SELECT k, k AS key FROM t WHERE k > 10000000 + :r / 100 ORDER BY k DESC LIMIT 1000',
		'key > prev' ],
	'r_uuid.sql' => [ 'forward scan of (u, k)', $ordered,
		'SELECT k, u AS key FROM t WHERE u >= md5(:r::text)::uuid ORDER BY u LIMIT 1000',
		'key < prev' ],
	'r_uuid_backward.sql' => [ 'backward scan of (u, k)', $ordered,
		'SELECT k, u AS key FROM t WHERE u < md5(:r::text)::uuid ORDER BY u DESC LIMIT 1000',
		'key > prev' ],
	'r_parallel.sql' => [ 'parallel scan', $parallel,
		'SELECT k, k AS key FROM t WHERE k BETWEEN :r AND :r + 3000000', undef ],
	'r_parallel_ordered.sql' => [ 'parallel scan under Gather Merge', $parallel,
		'SELECT k, k AS key FROM t WHERE k >= :r ORDER BY k LIMIT 20000',
		'key < prev' ],
	'r_bitmap.sql' => [ 'bitmap scan', $bitmap,
		'SELECT k, 0 AS key FROM t WHERE k BETWEEN :r AND :r + 300000', undef ],
	'r_bitmap_nulls.sql' => [ 'bitmap scan of NULLs', $bitmap,
		'SELECT v AS k, 0 AS key FROM t WHERE k IS NULL AND v < :r', undef ]);
my %readers = map { $_ => reader(@{ $reader_queries{$_} }) } keys %reader_queries;

# The plans the readers get: index scans and bitmap scans.
for my $script (sort keys %reader_queries)
{
	my ($what, $settings, $inner) = @{ $reader_queries{$script} };
	(my $q = $inner) =~ s/:r/5000000/g;
	my $plan = $node->safe_psql('postgres',
		"BEGIN; $settings EXPLAIN (COSTS OFF) $q; COMMIT;");
	like($plan,
		$settings eq $parallel ? qr/Gather.*Parallel Index (Only )?Scan using t_k/s
		: $settings eq $ordered ? qr/Index (Only )?Scan (Backward )?using t_u?k/
		: qr/Bitmap Index Scan on t_k/,
		"$what uses the index");
}

my %vacuum = ('v_vacuum.sql' => q{
\set r random(0, 9999999)
DELETE FROM t WHERE k BETWEEN :r AND :r + 3000;
DELETE FROM t WHERE k > 10000000 AND k % 1000 = :r % 1000;
VACUUM t;
\sleep 200 ms
});
my %checkers = ('c_check.sql' => q{
SELECT bpindex_check('t_k');
SELECT bpindex_check('t_uk');
\sleep 100 ms
});
my %heap_checkers = ('c_heapallindexed.sql' => q{
SELECT bpindex_check('t_k', true);
\sleep 100 ms
});

# One round of the concurrent run: every client for $duration seconds.
sub concurrent_round
{
	my ($round) = @_;
	my @benches = (
		[ 'writers', start_pgbench($node, \%writers, '-c', '3', '-j', '3', '-T', $duration) ],
		[ 'readers', start_pgbench($node, \%readers, '-c', '2', '-j', '2', '-T', $duration) ],
		[ 'vacuum', start_pgbench($node, \%vacuum, '-c', '1', '-T', $duration) ],
		[ 'structure checker', start_pgbench($node, \%checkers, '-c', '1', '-T', $duration) ],
		[ 'heapallindexed checker',
			start_pgbench($node, \%heap_checkers, '-c', '1', '-T', $duration) ]);
	my %script_counts = (writers => scalar(keys %writers), readers => scalar(keys %readers));
	for my $b (@benches)
	{
		my ($name, $bench) = @$b;
		my ($rc, $out, $err) = finish_pgbench($bench);
		is($rc, 0, "$name: pgbench exit status 0");
		unlike($err, qr/error|abort/i, "$name: no client failed") or diag($err);
		like($out, qr/number of failed transactions: 0 /, "$name: no failed transactions");
		my ($n) = $out =~ /number of transactions actually processed: (\d+)/;
		cmp_ok($n // 0, '>', 0, "$name: transactions ran");
		note("$name: " . ($n // 0) . ' transactions');
		# every script of the writers and readers ran
		if ($script_counts{$name})
		{
			my @per_script = $out =~ /- (\d+) transactions \(/g;
			is(scalar(grep { $_ > 0 } @per_script), $script_counts{$name},
				"$name: every script ran");
		}
	}
}

# Rounds until both indexes' internal pages have split (the writers' rows,
# not the clock, decide that: a slow machine takes more rounds), at most
# $max_rounds.
sub internal_pages
{
	my ($index) = @_;
	return $node->safe_psql('postgres',
		"SELECT internal_pages FROM bpindex_stats('$index')");
}
my $max_rounds = 10;
for my $round (1 .. $max_rounds)
{
	concurrent_round($round);
	my @unsplit = grep {
		internal_pages($_) <= (split / /, $stats_before{$_})[1]
	} ('t_k', 't_uk');
	last unless @unsplit;
	note("round $round: internal pages of @unsplit not split yet, one more round");
}

# the indexes grew by splits during the run
for my $index ('t_k', 't_uk')
{
	my $after = $node->safe_psql('postgres',
		"SELECT leaf_pages || ' ' || internal_pages FROM bpindex_stats('$index')");
	my ($leaves_before, $internal_before) = split / /, $stats_before{$index};
	my ($leaves_after, $internal_after) = split / /, $after;
	cmp_ok($leaves_after, '>', $leaves_before, "$index: leaves split");
	cmp_ok($internal_after, '>', $internal_before, "$index: internal pages split");
	note("$index: $leaves_before -> $leaves_after leaves, "
		  . "$internal_before -> $internal_after internal pages, "
		  . index_stat($node, $index, 'levels') . ' levels');
	check_index($node, $index, 1, 'after the concurrent run');
}

compare_scans($node, 'after the concurrent run', [
	'SELECT k, v FROM t WHERE k >= 5000000 ORDER BY k, v LIMIT 500',
	'SELECT count(*), sum(k), sum(v) FROM t WHERE k BETWEEN 1000000 AND 4000000',
	'SELECT k FROM t WHERE k > 10000000 ORDER BY k DESC LIMIT 500',
	'SELECT count(*), sum(k) FROM t WHERE k >= 10000000',
	'SELECT count(*), sum(v) FROM t WHERE k IS NULL',
	"SELECT u, k FROM t WHERE u >= '40000000-0000-0000-0000-000000000000' ORDER BY u, k LIMIT 500",
	"SELECT count(*), sum(k) FROM t WHERE u < '00000000-0000-0000-0001-000000000000'",
	'SELECT count(*), sum(v) FROM t WHERE u IS NULL']);

$node->stop;
done_testing();
