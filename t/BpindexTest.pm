# Helpers shared by bpindex's TAP tests.
package BpindexTest;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(index_result seqscan_result load_table);

# Results of a query with the index paths forced.
sub index_result
{
	my ($node, $query, $db) = @_;
	return $node->safe_psql($db // 'postgres',
		"SET enable_seqscan = off; SET enable_bitmapscan = off; $query");
}

# Results of the same query with every index path disabled.
sub seqscan_result
{
	my ($node, $query, $db) = @_;
	return $node->safe_psql($db // 'postgres',
		"SET enable_indexscan = off; SET enable_indexonlyscan = off; "
		  . "SET enable_bitmapscan = off; $query");
}

# Create and fill a table of int8 keys with duplicates and NULLs.
sub load_table
{
	my ($node, $table, $rows) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $table (k int8, v int4);
		INSERT INTO $table
			SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 7919) % ($rows / 3) END, g
			FROM generate_series(1, $rows) g;
	});
}

1;
