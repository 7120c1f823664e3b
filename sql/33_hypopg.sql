--
-- 33_hypopg: hypothetical bpindex indexes beside HypoPG's hypothetical
-- btree indexes, in the same plans.  Needs the hypopg extension, so it runs
-- only where the server has it (see the Makefile).
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE EXTENSION IF NOT EXISTS hypopg;

-- hypo_explain() and the table t_hypo
\i sql/include/hypo_setup.sql

-- a hypothetical bpindex index on k8 and HypoPG's hypothetical btree on j:
-- both appear in one plan
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM bpindex_hypo_create_index('CREATE INDEX ON t_hypo USING bpindex (k8)');
SELECT regexp_replace(indexname, '<\d+>', '<oid>') AS indexname
FROM hypopg_create_index('CREATE INDEX ON t_hypo USING btree (j)');
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE k8 = 4242 OR j = 17');
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE j = 17');
-- each tool lists only its own
SELECT count(*) AS bpindex_hypo FROM bpindex_hypo_list_indexes();
SELECT count(*) AS hypopg FROM hypopg_list_indexes;

-- bpindex's reset leaves HypoPG's index; HypoPG's reset removes it
SELECT bpindex_hypo_reset();
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE j = 17');
SELECT hypopg_reset();
SELECT * FROM hypo_explain('SELECT * FROM t_hypo WHERE j = 17');

DROP TABLE t_hypo;
DROP FUNCTION hypo_explain(text);
