--
-- 30_key_fuzz: keyed leaves under size pressure, randomized
-- (sql/include/key_fuzz.sql).  Indexes built over short keys take keys of
-- every length up to the limit, in phases (short, long, any, the layout's
-- boundaries), duplicates of mixed lengths, neighbours that differ in
-- their last bytes, deletes, updates and VACUUMs.  After every step each
-- scan shape is compared with a sequential scan and bpindex_check runs
-- with heapallindexed; a difference is an ERROR in this output.
-- bash scripts/key_fuzz.sh runs the same steps for longer.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
SET client_min_messages = warning;
\set ECHO none
\i sql/include/key_fuzz.sql
\set ECHO all
SELECT setseed(0.36);

SELECT kf_setup('text_c', 'text COLLATE "C"', 'CREATE INDEX %I ON %I USING bpindex (k)');
SELECT kf_setup('text_db', 'text', 'CREATE INDEX %I ON %I USING bpindex (k DESC)');
SELECT kf_setup('url_desc', 'text COLLATE "C"',
                'CREATE INDEX %I ON %I USING bpindex (k DESC NULLS LAST) WITH (fillfactor = 70)');
SELECT kf_setup('varchar', 'varchar', 'CREATE INDEX %I ON %I USING bpindex (k) WITH (fillfactor = 100)');
SELECT kf_setup('bpchar', 'bpchar', 'CREATE INDEX %I ON %I USING bpindex (k)');
SELECT kf_setup('bytea', 'bytea', 'CREATE INDEX %I ON %I USING bpindex (k)');
SELECT kf_setup('text_int', 'text', 'CREATE INDEX %I ON %I USING bpindex (k, v)');
SELECT kf_setup('plain', 'text COLLATE "C"',
                'CREATE INDEX %I ON %I USING bpindex (k) WITH (packed_leaves = off)');

-- the steps print nothing; an ERROR of any of them shows here
\set ECHO none
\o /dev/null
SELECT s FROM kf_runs, kf_steps(kf_runs.name, 0, 59) s ORDER BY kf_runs.name \gexec
\o
\set ECHO all

SELECT name, s.* FROM kf_runs, kf_summary(kf_runs.name) s ORDER BY name;
