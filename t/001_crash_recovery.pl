# Crash recovery: an index built (WAL-logged) and then vacuumed (generic
# WAL) survives an immediate shutdown, several times over, and still
# returns exactly what a sequential scan returns.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', "checkpoint_timeout = '1h'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION bpindex');

my @queries = (
	'SELECT k, v FROM crash_t WHERE k >= 1000 ORDER BY k, v LIMIT 500',
	'SELECT count(*), sum(k) FROM crash_t WHERE k BETWEEN 100 AND 20000',
	'SELECT k FROM crash_t WHERE k IS NULL OR k < 50 ORDER BY k DESC NULLS FIRST',
	'SELECT count(*) FROM crash_t WHERE k = 4242');

for my $round (1 .. 3)
{
	my $fillfactor = 30 * $round;
	load_table($node, 'crash_t', 60000);
	$node->safe_psql('postgres',
		"CREATE INDEX crash_t_bp ON crash_t USING bpindex (k) WITH (fillfactor = $fillfactor)");
	# no checkpoint: the pages must come back from WAL alone
	$node->stop('immediate');
	$node->start;

	for my $q (@queries)
	{
		is(index_result($node, $q), seqscan_result($node, $q),
			"round $round after build: $q");
	}

	$node->safe_psql('postgres',
		'DELETE FROM crash_t WHERE v % 5 = 0; VACUUM crash_t');
	$node->stop('immediate');
	$node->start;

	for my $q (@queries)
	{
		is(index_result($node, $q), seqscan_result($node, $q),
			"round $round after vacuum: $q");
	}
	my $plan = $node->safe_psql('postgres',
		"SET enable_seqscan = off; EXPLAIN (COSTS OFF) $queries[0]");
	like($plan, qr/Index (Only )?Scan using crash_t_bp/, "round $round uses the index");
	$node->safe_psql('postgres', 'DROP TABLE crash_t');
}

$node->stop;
done_testing();
