--
-- 32_nonleading: quals on a key column after one that has none.  A
-- bpindex scan reads every entry between the bounds of the key columns up
-- to the first one without an = or IS NULL qual and tests the other quals
-- on each entry, or skips through the distinct values of the leading
-- columns (35_skip_scan).  Where the leading column has about as many
-- values as entries, as here, skipping does not pay: the cost estimate
-- says so on every version (PostgreSQL 18's btree estimate, which bpindex
-- builds on, would cost a skip scan): a qual on the second column alone
-- costs about a scan of the whole index, and the planner takes an index
-- on that column when there is one.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE TABLE nl (a int4, b int8, c int4);
INSERT INTO nl SELECT g % 100000, g, g FROM generate_series(1, 200000) g;
CREATE INDEX nl_ab ON nl USING bpindex (a, b);
VACUUM ANALYZE nl;

-- the estimated total cost of a query's plan
CREATE FUNCTION nl_cost(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
    RETURN (plan->0->'Plan'->>'Total Cost')::float8;
END $$;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT a, b FROM nl WHERE b = 123457;
SELECT a, b FROM nl WHERE b = 123457;
-- b = 123457 reads every entry, as a full scan of the index does (whose
-- cost adds about as much again for the 200,000 rows it returns); a = 7
-- AND b = 123457 reads one value's entries
SELECT nl_cost('SELECT a, b FROM nl WHERE b = 123457') >=
       0.3 * nl_cost('SELECT a, b FROM nl WHERE a >= 0') AS reads_whole_index,
       nl_cost('SELECT a, b FROM nl WHERE a = 23457 AND b = 123457') <
       0.2 * nl_cost('SELECT a, b FROM nl WHERE b = 123457') AS bounded_is_cheaper;
-- a range on the first column bounds the scan (a fifth of the entries);
-- the second column filters
SELECT nl_cost('SELECT a, b FROM nl WHERE a BETWEEN 20000 AND 39999 AND b = 5') <
       0.6 * nl_cost('SELECT a, b FROM nl WHERE b = 5') AS leading_range_bounds;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- with an index on b as well, b = ... takes it
CREATE INDEX nl_b ON nl USING bpindex (b);
EXPLAIN (COSTS OFF) SELECT * FROM nl WHERE b = 123457;
SELECT * FROM nl WHERE b = 123457;
DROP TABLE nl;
DROP FUNCTION nl_cost(text);
