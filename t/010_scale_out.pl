# bpindex beyond one server.
#
# Shards: a coordinator holds tables partitioned by hash whose partitions
# are postgres_fdw foreign tables on two shard servers; each shard has the
# real tables with bpindex indexes (int8, text, composite) and no other
# index.  Point, range, ordered LIMIT, join and aggregate queries on the
# coordinator return what the same rows in local tables of the coordinator
# return under a sequential scan; EXPLAIN (VERBOSE) on the coordinator
# shows their conditions (and ORDER BY, and the join) in the Remote SQL sent
# to the shards; each shard plans that Remote SQL as a scan of a bpindex
# index, and its pg_stat_user_indexes counts the scans the query made.
# INSERT, UPDATE and DELETE through the coordinator (routed inserts,
# updates and deletes pushed down whole, an update joined with a local
# table) leave every shard's indexes passing bpindex_check(heapallindexed),
# and the queries still agree.  An index on the coordinator's partitioned
# table skips its foreign partitions.
#
# Logical replication: the first shard publishes two tables with bpindex
# indexes to the coordinator, which has the same indexes: one with a
# primary key, one with REPLICA IDENTITY FULL and no key.  After inserts,
# updates and deletes on the publisher, the subscriber's forced index and
# bitmap scans return what the publisher's sequential scans return.  On
# PostgreSQL 18 the apply worker finds the rows of the REPLICA IDENTITY
# FULL table through the subscriber's bpindex index (18 accepts any index
# whose operator class has an equality strategy), and the index's scan
# count grows by at least one per replicated UPDATE or DELETE; on 15 the
# apply worker does not scan it (it scans the table instead).
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BpindexTest;

my $coord = PostgreSQL::Test::Cluster->new('coordinator');
$coord->init;
preload_bpindex($coord);
$coord->start;

# shard0 also publishes the tables of the logical replication part
my @shards;
for my $n (0, 1)
{
	my $shard = PostgreSQL::Test::Cluster->new("shard$n");
	$shard->init(allows_streaming => $n == 0 ? 'logical' : 0);
	preload_bpindex($shard);
	$shard->append_conf('postgresql.conf', qq{
shared_buffers = 16MB
max_connections = 20
autovacuum = off
});
	$shard->start;
	push @shards, $shard;
}
my $pg18 = $coord->safe_psql('postgres', 'SHOW server_version_num') >= 180000;

# Each shard: the real tables, and the role the coordinator connects as.
# The shards' tables are small enough that a sequential scan often costs
# less than an index scan; the role plans without sequential scans, as a
# shard would for tables of millions of rows.
for my $n (0, 1)
{
	$shards[$n]->safe_psql('postgres', qq{
		CREATE EXTENSION bpindex;
		CREATE TABLE items_$n (id int8 NOT NULL, name text, grp int4, val int8);
		CREATE TABLE tags_$n (item_id int8, tag text);
		CREATE ROLE fdw LOGIN;
		GRANT SELECT, INSERT, UPDATE, DELETE ON items_$n, tags_$n TO fdw;
		ALTER ROLE fdw SET enable_seqscan = off;
	});
}

# The coordinator: partitioned tables whose partitions are the shards'
# tables, and local reference tables that get the same rows.
$coord->safe_psql('postgres', qq{
	CREATE EXTENSION bpindex;
	CREATE EXTENSION postgres_fdw;
});
for my $n (0, 1)
{
	my $host = $shards[$n]->host;
	my $port = $shards[$n]->port;
	$coord->safe_psql('postgres', qq{
		CREATE SERVER shard$n FOREIGN DATA WRAPPER postgres_fdw
			OPTIONS (host '$host', port '$port', dbname 'postgres',
					 use_remote_estimate 'true', batch_size '200');
		CREATE USER MAPPING FOR CURRENT_USER SERVER shard$n OPTIONS (user 'fdw');
	});
}
$coord->safe_psql('postgres', q{
	CREATE TABLE items (id int8 NOT NULL, name text, grp int4, val int8)
		PARTITION BY HASH (id);
	CREATE FOREIGN TABLE items_0 PARTITION OF items
		FOR VALUES WITH (MODULUS 2, REMAINDER 0) SERVER shard0;
	CREATE FOREIGN TABLE items_1 PARTITION OF items
		FOR VALUES WITH (MODULUS 2, REMAINDER 1) SERVER shard1;
	CREATE TABLE tags (item_id int8, tag text) PARTITION BY HASH (item_id);
	CREATE FOREIGN TABLE tags_0 PARTITION OF tags
		FOR VALUES WITH (MODULUS 2, REMAINDER 0) SERVER shard0;
	CREATE FOREIGN TABLE tags_1 PARTITION OF tags
		FOR VALUES WITH (MODULUS 2, REMAINDER 1) SERVER shard1;
	CREATE TABLE items_ref (LIKE items);
	CREATE TABLE tags_ref (LIKE tags);
	CREATE TABLE picks (id int8);
	INSERT INTO picks SELECT g * 97 FROM generate_series(1, 40) g;
});

# Run a write on the sharded tables and the same write on the reference
# tables.
sub write_both
{
	my ($sql) = @_;
	$coord->safe_psql('postgres', $sql);
	(my $ref = $sql) =~ s/\b(items|tags)\b/$1_ref/g;
	$coord->safe_psql('postgres', $ref);
	return;
}

my $items_rows = q{
	SELECT g,
		   CASE WHEN g % 101 = 0 THEN NULL
				ELSE 'name-' || lpad(((g * 7919) % 5003)::text, 5, '0') END,
		   (g % 50)::int4,
		   CASE WHEN g % 89 = 0 THEN NULL ELSE (g * 104729) % 100003 END
	  FROM generate_series(%d, %d) g};
write_both('INSERT INTO items ' . sprintf($items_rows, 1, 6000));
write_both(q{INSERT INTO tags SELECT g % 6000 + 1, 'tag-' || (g % 17)
			   FROM generate_series(1, 9000) g});

# Indexes built on the loaded shard tables; inserts come later.
my @index_kinds = qw(id name grp_val item);
for my $n (0, 1)
{
	$shards[$n]->safe_psql('postgres', qq{
		CREATE INDEX items_${n}_id ON items_$n USING bpindex (id);
		CREATE INDEX items_${n}_name ON items_$n USING bpindex (name);
		CREATE INDEX items_${n}_grp_val ON items_$n USING bpindex (grp, val);
		CREATE INDEX tags_${n}_item ON tags_$n USING bpindex (item_id, tag);
		ANALYZE items_$n, tags_$n;
	});
	is($shards[$n]->safe_psql('postgres', qq{
			SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			  JOIN pg_am a ON a.oid = c.relam
			 WHERE i.indrelid IN ('items_$n'::regclass, 'tags_$n'::regclass)
			   AND a.amname <> 'bpindex'}),
		'0', "shard$n: its tables have no index but bpindex ones");
}
$coord->safe_psql('postgres', 'ANALYZE items_ref, tags_ref, picks');

# Name of an index of shard n: items_N_id, items_N_name, items_N_grp_val,
# tags_N_item.
sub shard_index
{
	my ($n, $kind) = @_;
	return $kind eq 'item' ? "tags_${n}_item" : "items_${n}_$kind";
}

# Wait until no session of the coordinator is connected to the shards: a
# shard's backend reports its statistics as it exits, when the
# coordinator's session closes its connection.
sub wait_shards_idle
{
	for my $shard (@shards)
	{
		$shard->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM pg_stat_activity WHERE usename = 'fdw'")
		  or die 'the coordinator\'s connections to ' . $shard->name . ' stay open';
	}
	return;
}

# Sum of idx_scan of the given kinds of index over both shards, once every
# connection of the coordinator has ended.
sub shard_scans
{
	my ($kinds) = @_;
	my $sum = 0;
	wait_shards_idle();
	for my $n (0, 1)
	{
		my $list = join(', ', map { "'" . shard_index($n, $_) . "'" } @$kinds);
		$sum += $shards[$n]->safe_psql('postgres',
			"SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes "
			  . "WHERE indexrelname IN ($list)");
	}
	return $sum;
}

# The coordinator's settings for its queries: joins of partitions on the
# same shard are pushed down to it.
my $coord_set = 'SET enable_partitionwise_join = on; ';

# [label, query, index kinds the shards use for it, fragments each Remote
# SQL must contain, number of shards the query reaches]
my @queries = (
	[ 'point', 'SELECT id, name, grp, val FROM items WHERE id = 4242',
		['id'], [ qr/ WHERE \(\(id = 4242\)\)/ ], 1 ],
	[ 'text point', "SELECT id, name FROM items WHERE name = 'name-01234' ORDER BY id",
		['name'], [ qr/ WHERE \(\(name = 'name-01234'\)\)/ ], 2 ],
	[ 'range', 'SELECT id, name, val FROM items WHERE id BETWEEN 1000 AND 1300 ORDER BY id',
		['id'], [ qr/ WHERE .*\(id >= 1000\)/, qr/\(id <= 1300\)/ ], 2 ],
	[ 'text range', "SELECT id, name FROM items WHERE name >= 'name-04000' "
		  . "AND name < 'name-04100' ORDER BY name, id",
		['name'], [ qr/ WHERE .*\(name >= 'name-04000'\)/,
			qr/\(name < 'name-04100'\)/ ], 2 ],
	[ 'composite', 'SELECT id, grp, val FROM items WHERE grp = 7 '
		  . 'AND val BETWEEN 20000 AND 60000 ORDER BY grp, val, id',
		['grp_val'], [ qr/ WHERE .*\(grp = 7\)/, qr/\(val >= 20000\)/, qr/\(val <= 60000\)/ ], 2 ],
	[ 'ordered limit', 'SELECT id, name FROM items WHERE id > 2500 ORDER BY id LIMIT 25',
		['id'], [ qr/ WHERE \(\(id > 2500\)\) ORDER BY id ASC NULLS LAST/ ], 2 ],
	[ 'ordered limit, text, descending',
		"SELECT name FROM items WHERE name < 'name-03000' ORDER BY name DESC LIMIT 20",
		['name'], [ qr/ WHERE \(\(name < 'name-03000'\)\) ORDER BY name DESC NULLS FIRST/ ], 2 ],
	[ 'join', 'SELECT i.id, i.name, t.tag FROM items i JOIN tags t ON t.item_id = i.id '
		  . 'WHERE i.id BETWEEN 3000 AND 3100 ORDER BY i.id, t.tag',
		[ 'id', 'item' ], [ qr/ INNER JOIN public\.tags_\d /, qr/\(r\d+\.id >= 3000\)/ ], 2 ],
	[ 'aggregate', 'SELECT grp, count(*), sum(val) FROM items WHERE id < 2000 '
		  . 'GROUP BY grp ORDER BY grp',
		[ 'id', 'grp_val' ], [ qr/ WHERE \(\(id < 2000\)\)$/ ], 2 ]);

# A join with a local table of the coordinator, whose results are compared
# (the coordinator chooses how much of it to push down).
my @local_join = (
	'SELECT i.id, i.val, i.name FROM items i JOIN picks p ON p.id = i.id ORDER BY i.id',
	'SELECT p.id, count(t.tag) FROM picks p LEFT JOIN tags t ON t.item_id = p.id '
	  . 'GROUP BY p.id ORDER BY p.id');

# Each query on the coordinator returns what the reference tables return;
# its Remote SQL carries its conditions to the shards, whose planners scan
# a bpindex index for it, and whose statistics count the scans.
sub check_sharded
{
	my ($label) = @_;
	for my $q (@queries)
	{
		my ($name, $sql, $kinds, $fragments, $nshards) = @$q;
		(my $ref_sql = $sql) =~ s/\b(items|tags)\b/$1_ref/g;
		my $expected = seqscan_result($coord, $ref_sql);
		my $before = shard_scans($kinds);
		is($coord->safe_psql('postgres', $coord_set . $sql), $expected,
			"$label, $name: coordinator = local table");
		my $after = shard_scans($kinds);
		cmp_ok($after, '>', $before,
			"$label, $name: the shards scanned their bpindex indexes");

		my $plan = $coord->safe_psql('postgres',
			$coord_set . "EXPLAIN (VERBOSE, COSTS OFF) $sql");
		my @remote = $plan =~ /Remote SQL: (.*)$/mg;
		is(scalar(@remote), $nshards, "$label, $name: reaches $nshards shard(s)")
		  or diag($plan);
		for my $remote_sql (@remote)
		{
			for my $fragment (@$fragments)
			{
				like($remote_sql, $fragment,
					"$label, $name: pushed down: $fragment");
			}
			my ($n) = $remote_sql =~ /public\.(?:items|tags)_(\d)/;
			my $shard_plan = $shards[$n]->safe_psql('postgres',
				"SET enable_seqscan = off; EXPLAIN (COSTS OFF) $remote_sql");
			my $indexes = join('|', map { shard_index($n, $_) } @$kinds);
			like($shard_plan,
				qr/Index (?:Only )?Scan (?:Backward )?using (?:$indexes) |Bitmap Index Scan on (?:$indexes)\b/,
				"$label, $name: shard$n scans a bpindex index for the Remote SQL");
		}
	}
	for my $sql (@local_join)
	{
		(my $ref_sql = $sql) =~ s/\b(items|tags)\b/$1_ref/g;
		is($coord->safe_psql('postgres', $coord_set . $sql),
			seqscan_result($coord, $ref_sql),
			"$label: coordinator = local table: $sql");
	}
	return;
}

# Every index of every shard passes bpindex_check(heapallindexed).
sub check_shard_indexes
{
	my ($label) = @_;
	for my $n (0, 1)
	{
		check_index($shards[$n], shard_index($n, $_), 1, "$label, shard$n")
		  for @index_kinds;
	}
	return;
}

check_sharded('after load');
check_shard_indexes('after load');

# The foreign partitions have no indexes: an index on the partitioned table
# of the coordinator skips them, and the shards get no index from it.
$coord->safe_psql('postgres',
	'CREATE INDEX items_coord_bp ON items USING bpindex (val)');
is($coord->safe_psql('postgres', q{
		SELECT count(*) FROM pg_index WHERE indrelid IN ('items_0'::regclass, 'items_1'::regclass)}),
	'0', 'an index on the partitioned table skips its foreign partitions');
is($shards[0]->safe_psql('postgres',
		"SELECT count(*) FROM pg_indexes WHERE tablename = 'items_0'"),
	'3', 'the shard got no index from the coordinator');
$coord->safe_psql('postgres', 'DROP INDEX items_coord_bp');

# Writes through the coordinator: inserts routed to the shards in batches,
# updates and deletes sent whole to the shards, an update joined with a
# local table (rows fetched, then updated one by one).
my $plan = $coord->safe_psql('postgres',
	'EXPLAIN (VERBOSE, COSTS OFF) UPDATE items SET name = name || \'-u\', val = val + 7 '
	  . 'WHERE grp IN (3, 4)');
like($plan, qr/Remote SQL: UPDATE public\.items_0 SET .* WHERE /,
	'an UPDATE is pushed down to the shards whole');
write_both('INSERT INTO items ' . sprintf($items_rows, 6001, 7500));
write_both(q{INSERT INTO tags SELECT g, 'new-' || (g % 5) FROM generate_series(6001, 7500) g});
write_both(q{UPDATE items SET name = name || '-u', val = val + 7 WHERE grp IN (3, 4)});
write_both(q{UPDATE items SET val = -val, grp = grp + 100
			  FROM picks WHERE items.id = picks.id});
write_both(q{DELETE FROM items WHERE id % 11 = 0});
write_both(q{DELETE FROM tags WHERE item_id BETWEEN 100 AND 400});
write_both(q{UPDATE tags SET tag = upper(tag) WHERE item_id % 13 = 0});
check_shard_indexes('after writes');
check_sharded('after writes');

for my $n (0, 1)
{
	$shards[$n]->safe_psql('postgres', "VACUUM items_$n, tags_$n");
}
check_shard_indexes('after VACUUM');
check_sharded('after VACUUM');

# Logical replication from shard0 to the coordinator.
my $pub = $shards[0];
my $sub = $coord;
my $lr_tables = q{
	CREATE TABLE lr_t (id int8 PRIMARY KEY, name text, val int8);
	CREATE INDEX lr_t_name ON lr_t USING bpindex (name);
	CREATE INDEX lr_t_val ON lr_t USING bpindex (val, id);
	CREATE TABLE lr_full (k int8, name text, v int4);
	CREATE INDEX lr_full_k ON lr_full USING bpindex (k);
	CREATE TABLE lr_tick (n int4);
};
$pub->safe_psql('postgres', $lr_tables . q{
	ALTER TABLE lr_full REPLICA IDENTITY FULL;
	INSERT INTO lr_t SELECT g, 'lr-' || lpad(((g * 37) % 1999)::text, 4, '0'),
		(g * 7919) % 100003 FROM generate_series(1, 3000) g;
	INSERT INTO lr_full SELECT g % 1500, 'f-' || g, g FROM generate_series(1, 3000) g;
	CREATE PUBLICATION pub FOR TABLE lr_t, lr_full, lr_tick;
});
$sub->safe_psql('postgres', $lr_tables);
my $pub_connstr = $pub->connstr . ' dbname=postgres';
$sub->safe_psql('postgres',
	"CREATE SUBSCRIPTION sub CONNECTION '$pub_connstr' PUBLICATION pub");
$sub->wait_for_subscription_sync($pub, 'sub');

my @lr_queries = (
	"SELECT id, name, val FROM lr_t WHERE name >= 'lr-0400' AND name < 'lr-0600' ORDER BY name, id",
	'SELECT id, val FROM lr_t WHERE val BETWEEN 1000 AND 30000 ORDER BY val, id',
	'SELECT count(*), sum(val) FROM lr_t WHERE name IS NOT NULL',
	'SELECT k, name, v FROM lr_full WHERE k BETWEEN 100 AND 300 ORDER BY k, v, name',
	'SELECT count(*), sum(v), sum(k) FROM lr_full WHERE k >= 0');

# The subscriber's index and bitmap scans return what the publisher's and
# its own sequential scans return; its indexes pass bpindex_check.
sub check_subscriber
{
	my ($label) = @_;
	compare_scans($sub, "$label, subscriber vs publisher", \@lr_queries, $pub);
	for my $q (@lr_queries)
	{
		is(seqscan_result($sub, $q), seqscan_result($pub, $q),
			"$label, subscriber's sequential scan: $q");
	}
	for my $index ('lr_t_name', 'lr_t_val', 'lr_full_k')
	{
		check_index($sub, $index, 1, "$label, subscriber");
		check_index($pub, $index, 1, "$label, publisher");
	}
	return;
}

check_subscriber('after initial sync');

# The apply worker reports its statistics after a commit, at most once a
# second: replicate a transaction of lr_tick, then wait a second.
sub replicate_tick
{
	$pub->safe_psql('postgres', 'INSERT INTO lr_tick VALUES (1)');
	$pub->wait_for_catchup('sub');
	sleep 1;
	return;
}

# Scans of lr_full_k, once the sessions of check_subscriber have ended and
# reported theirs.
my $full_scans = "SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'lr_full_k'";
$sub->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()})
  or die 'sessions of the subscriber stay open';
replicate_tick() for 1 .. 2;
my $scans_before = $sub->safe_psql('postgres', $full_scans);

$pub->safe_psql('postgres', q{
	INSERT INTO lr_t SELECT g, 'lr-' || lpad(((g * 37) % 1999)::text, 4, '0'),
		(g * 7919) % 100003 FROM generate_series(3001, 4500) g;
	UPDATE lr_t SET name = name || '-x', val = val * 3 WHERE id % 5 = 0;
	DELETE FROM lr_t WHERE id % 7 = 0;
	INSERT INTO lr_full SELECT g % 1500, 'f-' || g, g FROM generate_series(3001, 3600) g;
});
my $changed = $pub->safe_psql('postgres',
	'SELECT count(*) FROM lr_full WHERE k % 4 = 0 OR k % 9 = 0');
$pub->safe_psql('postgres', q{
	UPDATE lr_full SET v = v + 100000, name = upper(name) WHERE k % 4 = 0;
	DELETE FROM lr_full WHERE k % 9 = 0;
});
$pub->wait_for_catchup('sub');

if ($pg18)
{
	# one search of lr_full_k for each replicated UPDATE or DELETE (the
	# rows of k % 36 = 0 get both)
	my $query = "SELECT ($full_scans) >= $scans_before + $changed";
	for (my $i = 0;
		$i < $PostgreSQL::Test::Utils::timeout_default
		  && $sub->safe_psql('postgres', $query) ne 't';
		$i++)
	{
		replicate_tick();
	}
	is($sub->safe_psql('postgres', $query), 't',
		'REPLICA IDENTITY FULL: the apply worker found the rows through the bpindex index');
}
else
{
	# PostgreSQL 15's apply worker looks rows up only through the
	# subscriber's replica identity index or primary key (unique indexes,
	# which bpindex does not make), and by a sequential scan otherwise; 16
	# added other btree indexes for REPLICA IDENTITY FULL, 17 hash indexes,
	# 18 any index whose operator class has an equality strategy.  The
	# changes are applied all the same (checked below).
	replicate_tick() for 1 .. 2;
	is($sub->safe_psql('postgres', $full_scans), $scans_before,
		'PostgreSQL 15: the apply worker does not scan the bpindex index');
}
note('lr_full_k scans: ' . $sub->safe_psql('postgres', $full_scans)
	  . " (before: $scans_before, replicated rows updated or deleted: $changed)");
check_subscriber('after inserts, updates and deletes');

$sub->safe_psql('postgres', 'DROP SUBSCRIPTION sub');
done_testing();
