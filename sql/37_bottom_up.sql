--
-- 37_bottom_up: bottom-up deletion.  An update that leaves an index's key
-- unchanged (aminsert's indexUnchanged) inserts the row's new version
-- beside its old ones; before a leaf splits, bpindex asks the table which
-- old versions every snapshot sees as dead and removes their entries.
-- A twin table takes the same updates written so that PostgreSQL counts
-- the key as changed (SET k = k): its indexes keep every version until
-- VACUUM.  On int8 keys and on text keys; every scan shape answers like a
-- sequential scan afterwards, and bpindex_check(heapallindexed) passes.
-- (specs/bottom_up_snapshot: versions an open snapshot sees stay.)
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE bu (id int8, k int8, name text, v int4) WITH (autovacuum_enabled = off);
INSERT INTO bu SELECT g, g, 'customer-' || lpad(g::text, 8, '0'), 0
FROM generate_series(1, 10000) g;
CREATE TABLE bu_twin (LIKE bu) WITH (autovacuum_enabled = off);
INSERT INTO bu_twin SELECT * FROM bu;
CREATE INDEX bu_k ON bu USING bpindex (k);
CREATE INDEX bu_name ON bu USING bpindex (name);
-- an index on v makes every update non-HOT
CREATE INDEX bu_v ON bu USING bpindex (v);
CREATE INDEX bu_twin_k ON bu_twin USING bpindex (k);
CREATE INDEX bu_twin_name ON bu_twin USING bpindex (name);
CREATE INDEX bu_twin_v ON bu_twin USING bpindex (v);
VACUUM ANALYZE bu, bu_twin;

-- six rounds over every row, each its own transaction: seven versions of
-- each row, one of them live
DO $$ BEGIN FOR r IN 1..6 LOOP PERFORM bp_wait_for_horizon(); UPDATE bu SET v = v + 1; COMMIT; END LOOP; END $$;
DO $$ BEGIN FOR r IN 1..6 LOOP PERFORM bp_wait_for_horizon(); UPDATE bu_twin SET v = v + 1, k = k, name = name; COMMIT; END LOOP; END $$;

-- the twin keeps all 70,000 entries; bottom-up deletion removed many old
-- versions (a leaf's first update after the build also re-encodes it for
-- the new versions' heap TIDs and splits while the old ones are still
-- live), and the index has fewer leaves
SELECT t.entries AS twin_entries,
       4 * b.entries < 3 * t.entries AS old_versions_removed,
       b.leaf_pages < t.leaf_pages AS fewer_leaves
FROM bpindex_stats('bu_k') b, bpindex_stats('bu_twin_k') t;
SELECT t.entries AS twin_entries,
       4 * b.entries < 3 * t.entries AS old_versions_removed,
       b.leaf_pages < t.leaf_pages AS fewer_leaves
FROM bpindex_stats('bu_name') b, bpindex_stats('bu_twin_name') t;
-- the index whose key changed kept its versions (nothing to remove early)
SELECT entries = 70000 AS changed_key_keeps_versions FROM bpindex_stats('bu_v');

SELECT bpindex_check('bu_k', true), bpindex_check('bu_name', true),
       bpindex_check('bu_v', true);
SELECT * FROM bp_queries('bottom-up', ARRAY[
    'select k from bu where k between 2000 and 2100 order by k',
    'select k from bu where k > 9900 order by k desc',
    'select count(*), sum(k) from bu where k >= 0',
    'select name from bu where name between ''customer-00004000'' and ''customer-00004050'' order by name',
    'select count(*) from bu where name >= ''customer-0000'''
]);
SELECT * FROM bp_queries('bottom-up, heap columns', ARRAY[
    'select k, v from bu where k between 2000 and 2100 order by k',
    'select count(*), sum(v) from bu where k >= 0',
    'select name, v from bu where name between ''customer-00004000'' and ''customer-00004050'' order by name desc',
    'select k, id from bu where k = any (''{5, 500, 5000, 9999}'') order by k'
], ARRAY['index', 'bitmap']);
SELECT * FROM bp_failures('bottom-up%');
DROP TABLE bu, bu_twin;
