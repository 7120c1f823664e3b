# A streaming standby replays index builds (full-page records) and VACUUM
# (generic WAL, checked page by page with wal_consistency_checking) and
# answers index scans exactly like the primary.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "wal_consistency_checking = 'generic'");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION bpindex');
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;

my @queries = (
	'SELECT k, v FROM repl_t WHERE k >= 500 ORDER BY k, v LIMIT 300',
	'SELECT count(*), sum(v) FROM repl_t WHERE k BETWEEN 10 AND 30000',
	'SELECT k FROM repl_t WHERE k < 100 OR k IS NULL ORDER BY k DESC');

# Compare index results on the standby with the primary's sequential scan.
sub check_standby
{
	my ($label) = @_;
	$primary->wait_for_catchup($standby, 'replay');
	for my $q (@queries)
	{
		is(index_result($standby, $q), seqscan_result($primary, $q),
			"$label: $q");
	}
}

load_table($primary, 'repl_t', 120000);
$primary->safe_psql('postgres',
	'CREATE INDEX repl_t_bp ON repl_t USING bpindex (k) WITH (fillfactor = 20)');
check_standby('after build');

$primary->safe_psql('postgres', 'DELETE FROM repl_t WHERE v % 3 = 0; VACUUM repl_t');
check_standby('after vacuum');

$primary->safe_psql('postgres', 'REINDEX INDEX repl_t_bp');
check_standby('after reindex');

my $plan = $standby->safe_psql('postgres',
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) $queries[0]");
like($plan, qr/Index (Only )?Scan using repl_t_bp/, 'standby uses the index');

$standby->stop;
$primary->stop;
done_testing();
