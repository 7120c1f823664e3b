--
-- 00_setup: the access method and its operator classes, and a self-test
-- of the helper functions that every test file includes
-- (sql/include/helpers.sql).
--

-- The access method, created by --load-extension=bpindex
SELECT amname, amtype, amhandler, obj_description(oid, 'pg_am') AS comment
FROM pg_am WHERE amname = 'bpindex';

-- Every operator class is the default for its type and passes amvalidate
SELECT opc.opcname, opc.opcintype::regtype AS type, opf.opfname AS family,
       opc.opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_opfamily opf ON opf.oid = opc.opcfamily
WHERE opc.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
ORDER BY 1;

-- Operators and support functions of each family, by type pair
SELECT opf.opfname, amop.amoplefttype::regtype AS lefttype,
       amop.amoprighttype::regtype AS righttype,
       string_agg(amop.amopstrategy || ':' || op.oprname, ' '
                  ORDER BY amop.amopstrategy) AS operators,
       (SELECT string_agg(amproc.amprocnum || ':' || amproc.amproc::regproc::text, ' ')
        FROM pg_amproc amproc
        WHERE amproc.amprocfamily = opf.oid
          AND amproc.amproclefttype = amop.amoplefttype
          AND amproc.amprocrighttype = amop.amoprighttype) AS support,
       bool_and(op.oprleft = amop.amoplefttype AND op.oprright = amop.amoprighttype
                AND amop.amoppurpose = 's') AS signatures_ok
FROM pg_opfamily opf
     JOIN pg_amop amop ON amop.amopfamily = opf.oid
     JOIN pg_operator op ON op.oid = amop.amopopr
WHERE opf.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'bpindex')
GROUP BY opf.oid, opf.opfname, amop.amoplefttype, amop.amoprighttype
ORDER BY 1, amop.amoplefttype::regtype::text, amop.amoprighttype::regtype::text;

-- Capabilities of the access method
SELECT p.name, pg_indexam_has_property(am.oid, p.name)
FROM pg_am am,
     unnest(ARRAY['can_order', 'can_unique', 'can_multi_col', 'can_exclude',
                  'can_include']) WITH ORDINALITY AS p(name, n)
WHERE am.amname = 'bpindex'
ORDER BY p.n;

-- amvalidate rejects an incomplete operator class, saying what is missing
CREATE OPERATOR FAMILY bp_broken_ops USING bpindex;
CREATE OPERATOR CLASS bp_broken_int4_ops FOR TYPE int4 USING bpindex
    FAMILY bp_broken_ops AS
    OPERATOR 1 <,
    OPERATOR 3 =;
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'bp_broken_int4_ops';
-- and one whose support function has the wrong signature
CREATE OPERATOR FAMILY bp_broken2_ops USING bpindex;
CREATE OPERATOR CLASS bp_broken2_int4_ops FOR TYPE int4 USING bpindex
    FAMILY bp_broken2_ops AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 btint4cmp(int4, int4);
ALTER OPERATOR FAMILY bp_broken2_ops USING bpindex ADD
    FUNCTION 1 (int4, int8) int48eq(int4, int8);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'bp_broken2_int4_ops';
DROP OPERATOR FAMILY bp_broken_ops USING bpindex;
DROP OPERATOR FAMILY bp_broken2_ops USING bpindex;

-- The helper functions of the test files (sql/include/helpers.sql); every
-- file includes it, so that each also runs on its own
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- The helpers themselves: a table with a bpindex index
CREATE TABLE bp_selftest (k int4);
INSERT INTO bp_selftest SELECT i % 50 FROM generate_series(1, 1000) i;
VACUUM ANALYZE bp_selftest;
CREATE INDEX bp_selftest_bp ON bp_selftest USING bpindex (k);
SELECT c.* FROM unnest(ARRAY['index', 'indexonly', 'bitmap']) AS m(mode),
     LATERAL bp_check('select k from bp_selftest where k = 7', m.mode) AS c;
SELECT * FROM bp_check('select k from bp_selftest where k > 45 order by k desc', 'index');
-- "k = 7 order by k desc" needs no backward scan (k is constant): flagged,
-- since the caller meant to test a backward scan
SELECT * FROM bp_check('select k from bp_selftest where k = 7 order by k desc', 'index');
-- a query the index cannot serve is reported as a plan failure
SELECT * FROM bp_check('select k from bp_selftest where k + 1 = 8', 'index');
-- an ORDER BY the index cannot provide needs a sort: plan failure
SELECT * FROM bp_check('select k from bp_selftest order by k nulls first', 'indexonly');
-- a result that differs from the seq scan is reported (here a qual that
-- depends on enable_seqscan, which bp_check turns off for the forced run)
SELECT * FROM bp_check('select k from bp_selftest where k = 7 and current_setting(''enable_seqscan'')::bool', 'index');
-- a btree index is not a bpindex index
DROP INDEX bp_selftest_bp;
CREATE INDEX bp_selftest_bt ON bp_selftest USING btree (k);
SELECT * FROM bp_check('select k from bp_selftest where k = 7', 'index');
DROP TABLE bp_selftest;
