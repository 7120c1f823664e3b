# pg_dump and restore of bpindex indexes: plain indexes with reloptions,
# multi-column, partial and expression indexes, an index on a partitioned
# table (dumped as CREATE INDEX ON ONLY plus ALTER INDEX ... ATTACH
# PARTITION), an exclusion constraint, an unlogged table and an operator
# class created outside the extension.  The dump is restored with psql
# (plain format) and with pg_restore --jobs (custom format, indexes built in
# parallel sessions).  In each restored database every index exists with
# USING bpindex, the same definition, reloptions and layout, answers queries
# like a sequential scan of the original, and passes bpindex_check(index,
# heapallindexed); inserts and the exclusion constraint keep working.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
preload_bpindex($node);
# no autovacuum: its ANALYZE of the restored tables could hold back the
# VACUUM whose effect is checked below
$node->append_conf('postgresql.conf', 'autovacuum = off');
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');

$node->safe_psql('src', q{
	CREATE EXTENSION bpindex;

	CREATE TABLE items (id int8, k int8, ts timestamptz, u uuid, flag bool, d date);
	INSERT INTO items
		SELECT g,
			   CASE WHEN g % 53 = 0 THEN NULL ELSE (g * 7919) % 20011 END,
			   timestamptz '2024-01-01 00:00+00' + ((g * 104729) % 50000) * interval '1 minute',
			   md5(g::text)::uuid,
			   g % 3 = 0,
			   date '2020-01-01' + (g % 1500)::int4
		FROM generate_series(1::int8, 30000) g;
	CREATE INDEX items_k ON items USING bpindex (k)
		WITH (fillfactor = 70, log_size = 64, block_size = 32);
	CREATE INDEX items_ts_id ON items USING bpindex (ts, id) WITH (fillfactor = 20);
	CREATE INDEX items_partial ON items USING bpindex (id) WHERE flag;
	CREATE INDEX items_expr ON items USING bpindex ((k % 100), (d + 7));
	CREATE INDEX items_u ON items USING bpindex (u) WITH (log_size = 8);
	CREATE INDEX items_d_flag ON items USING bpindex (d, flag, k);
	-- inserts, deletes and VACUUM after the builds
	INSERT INTO items
		SELECT g, (g * 31) % 20011, timestamptz '2024-03-01 00:00+00' + g * interval '1 second',
			   md5(g::text)::uuid, g % 2 = 0, date '2021-06-01' + (g % 100)::int4
		FROM generate_series(30001::int8, 36000) g;
	DELETE FROM items WHERE id % 7 = 0;
	VACUUM items;

	CREATE TABLE events (k int8, v int4) PARTITION BY RANGE (k);
	CREATE TABLE events_low PARTITION OF events FOR VALUES FROM (MINVALUE) TO (5000);
	CREATE TABLE events_mid PARTITION OF events FOR VALUES FROM (5000) TO (15000);
	CREATE TABLE events_high PARTITION OF events FOR VALUES FROM (15000) TO (MAXVALUE);
	CREATE TABLE events_other PARTITION OF events DEFAULT;
	INSERT INTO events
		SELECT CASE WHEN g % 101 = 0 THEN NULL ELSE (g * 7919) % 20011 END, g
		FROM generate_series(1, 20000) g;
	CREATE INDEX events_k ON events USING bpindex (k) WITH (log_size = 16);
	CREATE INDEX events_v_k ON events USING bpindex (v, k);
	INSERT INTO events SELECT (g * 13) % 20011, g FROM generate_series(20001, 22000) g;

	CREATE TABLE excl (k int4, EXCLUDE USING bpindex (k WITH =));
	INSERT INTO excl SELECT generate_series(1, 2000);

	CREATE UNLOGGED TABLE scratch (k int4);
	INSERT INTO scratch SELECT (g * 17) % 3001 FROM generate_series(1, 6000) g;
	CREATE INDEX scratch_k ON scratch USING bpindex (k) WITH (fillfactor = 100);

	CREATE OPERATOR CLASS name_dump_ops FOR TYPE name USING bpindex AS
		OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
		FUNCTION 1 btnamecmp(name, name);
	CREATE TABLE names (n name, k int2);
	INSERT INTO names SELECT 'name_' || (g % 700), g % 5 FROM generate_series(1, 3000) g;
	CREATE INDEX names_n ON names USING bpindex (n name_dump_ops, k);
});

# Every index of the public schema: definition, access method, reloptions
# and validity; and the layout of every bpindex leaf index.
my $index_catalog = q{
	SELECT c.relname, a.amname, pg_get_indexdef(c.oid), c.reloptions, i.indisvalid,
		   c.relpersistence,
		   (SELECT string_agg(p.relname, ',' ORDER BY p.relname)
			FROM pg_inherits h JOIN pg_class p ON p.oid = h.inhparent
			WHERE h.inhrelid = c.oid) AS parent
	FROM pg_index i
		 JOIN pg_class c ON c.oid = i.indexrelid
		 JOIN pg_am a ON a.oid = c.relam
	WHERE c.relnamespace = 'public'::regnamespace
	ORDER BY c.relname COLLATE "C"};
my $layouts = q{
	SELECT c.relname, m.key_columns, m.slot_width, m.fillfactor, m.log_size,
		   m.num_blocks, m.block_size, m.leaf_capacity, m.internal_capacity
	FROM pg_class c
		 JOIN pg_am a ON a.oid = c.relam,
		 LATERAL bpindex_metap(c.oid) m
	WHERE a.amname = 'bpindex' AND c.relkind = 'i'
		  AND c.relnamespace = 'public'::regnamespace
	ORDER BY c.relname COLLATE "C"};
# bpindex_check(index, true) on every bpindex leaf index; and the number of
# entries of each next to the rows it should index
my $check_all = q{
	SELECT count(bpindex_check(c.oid, true))
	FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	WHERE a.amname = 'bpindex' AND c.relkind = 'i'
		  AND c.relnamespace = 'public'::regnamespace};
my $entries = q{
	SELECT c.relname, s.entries
	FROM pg_class c
		 JOIN pg_am a ON a.oid = c.relam,
		 LATERAL bpindex_stats(c.oid) s
	WHERE a.amname = 'bpindex' AND c.relkind = 'i'
		  AND c.relnamespace = 'public'::regnamespace
	ORDER BY c.relname COLLATE "C"};

# Queries, each with the index its forced plan must use.
my @queries = (
	[ 'items_k', 'SELECT k, id FROM items WHERE k BETWEEN 100 AND 400 ORDER BY k, id' ],
	[ 'items_k', 'SELECT k FROM items WHERE k IS NULL OR k > 19990 ORDER BY k DESC' ],
	[ 'items_ts_id', q{SELECT ts, id FROM items WHERE ts >= '2024-01-10 00:00+00' AND ts < '2024-01-10 06:00+00' ORDER BY ts, id} ],
	[ 'items_ts_id', q{SELECT ts, id FROM items WHERE ts > '2024-03-01 01:00+00' ORDER BY ts DESC, id DESC LIMIT 50} ],
	[ 'items_partial', 'SELECT id FROM items WHERE flag AND id BETWEEN 1000 AND 3000 ORDER BY id' ],
	[ 'items_expr', q{SELECT id, k FROM items WHERE k % 100 < 3 AND d + 7 BETWEEN date '2020-02-01' AND date '2020-03-01' ORDER BY id} ],
	[ 'items_u', q{SELECT id FROM items WHERE u = md5('4243')::uuid} ],
	[ 'items_u', q{SELECT u, id FROM items WHERE u < '00ff0000-0000-0000-0000-000000000000' ORDER BY u} ],
	[ 'items_d_flag', q{SELECT d, flag, k FROM items WHERE d BETWEEN '2020-02-01' AND '2020-02-10' AND flag AND k > 10000 ORDER BY d, flag, k} ],
	[ 'events_.*k_idx', 'SELECT k, v FROM events WHERE k BETWEEN 4000 AND 6000 ORDER BY k, v' ],
	[ 'events_.*k_idx', 'SELECT k FROM events WHERE k IS NULL' ],
	[ 'events_.*k_idx', 'SELECT k FROM events ORDER BY k DESC LIMIT 30' ],
	[ 'events_.*v_k_idx', 'SELECT v, k FROM events WHERE v BETWEEN 100 AND 200 ORDER BY v' ],
	[ 'excl_k_excl', 'SELECT k FROM excl WHERE k > 1990 ORDER BY k' ],
	[ 'scratch_k', 'SELECT k FROM scratch WHERE k BETWEEN 1000 AND 1010 ORDER BY k' ],
	[ 'names_n', q{SELECT n, k FROM names WHERE n = 'name_17' AND k >= 2 ORDER BY n, k} ],
	[ 'names_n', q{SELECT n, k FROM names WHERE n >= 'name_69' AND n < 'name_7' ORDER BY n DESC, k DESC} ]);

my $src_catalog = $node->safe_psql('src', $index_catalog);
my $src_layouts = $node->safe_psql('src', $layouts);
my %src_results =
  map { $_->[1] => seqscan_result($node, $_->[1], 'src') } @queries;
is($node->safe_psql('src', $check_all), '17', 'the source indexes pass bpindex_check');
for my $q (@queries)
{
	isnt($src_results{ $q->[1] }, '', "the source has rows for: $q->[1]");
}

# What must hold in a restored database.
sub check_restored
{
	my ($db, $how) = @_;

	is($node->safe_psql($db, $index_catalog), $src_catalog,
		"$how: the same indexes, access methods, definitions and reloptions");
	like($node->safe_psql($db, $index_catalog), qr/items_k\|bpindex\|.*\{fillfactor=70,log_size=64,block_size=32\}/,
		"$how: items_k is a bpindex index with its reloptions");
	is($node->safe_psql($db, $layouts), $src_layouts,
		"$how: the same leaf layouts in the metapages");
	is($node->safe_psql($db, $check_all), '17', "$how: bpindex_check passes on all 17 indexes");

	for my $q (@queries)
	{
		my ($index, $query) = @$q;
		my $plan = $node->safe_psql($db,
			"SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) $query");
		like($plan, qr/Index (Only )?Scan (Backward )?using $index/,
			"$how: uses $index: $query");
		is(index_result($node, $query, $db), $src_results{$query},
			"$how: index scan as the source's seq scan: $query");
		is(seqscan_result($node, $query, $db), $src_results{$query},
			"$how: same rows as the source: $query");
	}

	# the restored indexes take inserts and enforce the constraint
	$node->safe_psql($db, q{
		INSERT INTO items SELECT g, g % 20011, now(), md5(g::text)::uuid, true, current_date
			FROM generate_series(40001, 42000) g;
		INSERT INTO events SELECT g % 20011, g FROM generate_series(40001, 42000) g;
		INSERT INTO scratch SELECT generate_series(1, 500);
		INSERT INTO names SELECT 'name_' || g, 9 FROM generate_series(1, 300) g;
		INSERT INTO excl VALUES (5000);
	});
	is($node->safe_psql($db, $check_all), '17', "$how: bpindex_check passes after inserts");
	my ($ret, $stdout, $stderr) = $node->psql($db, 'INSERT INTO excl VALUES (1500)');
	isnt($ret, 0, "$how: the exclusion constraint refuses a duplicate");
	like($stderr, qr/conflicting key value violates exclusion constraint "excl_k_excl"/,
		"$how: the exclusion constraint names itself");
	# the refused row left an entry behind (the check follows the insert);
	# VACUUM removes it
	$node->safe_psql($db, 'VACUUM excl');
	is(index_result($node, 'SELECT count(*) FROM items WHERE k BETWEEN 0 AND 30000', $db),
		seqscan_result($node, 'SELECT count(*) FROM items WHERE k BETWEEN 0 AND 30000', $db),
		"$how: counts after inserts");
	is($node->safe_psql($db, $entries),
		$node->safe_psql($db, q{
			SELECT relname, n FROM (VALUES
				('events_high_k_idx', (SELECT count(*) FROM events_high)),
				('events_high_v_k_idx', (SELECT count(*) FROM events_high)),
				('events_low_k_idx', (SELECT count(*) FROM events_low)),
				('events_low_v_k_idx', (SELECT count(*) FROM events_low)),
				('events_mid_k_idx', (SELECT count(*) FROM events_mid)),
				('events_mid_v_k_idx', (SELECT count(*) FROM events_mid)),
				('events_other_k_idx', (SELECT count(*) FROM events_other)),
				('events_other_v_k_idx', (SELECT count(*) FROM events_other)),
				('excl_k_excl', (SELECT count(*) FROM excl)),
				('items_d_flag', (SELECT count(*) FROM items)),
				('items_expr', (SELECT count(*) FROM items)),
				('items_k', (SELECT count(*) FROM items)),
				('items_partial', (SELECT count(*) FROM items WHERE flag)),
				('items_ts_id', (SELECT count(*) FROM items)),
				('items_u', (SELECT count(*) FROM items)),
				('names_n', (SELECT count(*) FROM names)),
				('scratch_k', (SELECT count(*) FROM scratch))) v(relname, n)
			ORDER BY relname COLLATE "C"}),
		"$how: one entry per indexed row in every index");
}

# plain dump, restored with psql
my $tempdir = PostgreSQL::Test::Utils::tempdir;
my $plain = "$tempdir/src.sql";
$node->command_ok([ 'pg_dump', '-d', $node->connstr('src'), '-f', $plain ],
	'pg_dump (plain)');
my $dump_text = slurp_file($plain);
like($dump_text, qr/CREATE EXTENSION IF NOT EXISTS bpindex/, 'the dump creates the extension');
like($dump_text, qr/CREATE INDEX items_k ON public\.items USING bpindex \(k\) WITH \(fillfactor='70', log_size='64', block_size='32'\);/,
	'the dump has the index with its reloptions');
like($dump_text, qr/CREATE INDEX events_k ON ONLY public\.events USING bpindex \(k\) WITH \(log_size='16'\);/,
	'the partitioned index is dumped ON ONLY the parent');
like($dump_text, qr/ALTER INDEX public\.events_k ATTACH PARTITION public\.events_low_k_idx;/,
	'the partitions\' indexes are attached');
like($dump_text, qr/CREATE OPERATOR CLASS public\.name_dump_ops\s+FOR TYPE name USING bpindex/,
	'the operator class outside the extension is dumped');
unlike($dump_text, qr/CREATE OPERATOR CLASS public\.int8_ops/,
	'the extension\'s operator classes are not dumped');

$node->safe_psql('postgres', 'CREATE DATABASE dst_plain');
$node->command_ok(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('dst_plain'), '-f', $plain ],
	'restore with psql');
check_restored('dst_plain', 'psql restore');

# custom-format dump, restored with parallel jobs
my $custom = "$tempdir/src.dump";
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('src'), '-f', $custom ],
	'pg_dump (custom)');
$node->safe_psql('postgres', 'CREATE DATABASE dst_jobs');
$node->command_ok(
	[ 'pg_restore', '--exit-on-error', '-j', '4', '-d', $node->connstr('dst_jobs'), $custom ],
	'pg_restore --jobs 4');
check_restored('dst_jobs', 'pg_restore -j 4');

# a data-only dump into the restored schema: the rows go through the
# indexes by COPY, with inserts into the built indexes
$node->safe_psql('postgres', 'CREATE DATABASE dst_data');
$node->command_ok(
	[ 'pg_restore', '--exit-on-error', '--schema-only', '-d', $node->connstr('dst_data'), $custom ],
	'pg_restore --schema-only');
$node->command_ok(
	[ 'pg_restore', '--exit-on-error', '--data-only', '-d', $node->connstr('dst_data'), $custom ],
	'pg_restore --data-only into indexed tables');
check_restored('dst_data', 'schema, then data');

$node->stop;
done_testing();
