--
-- 36_citext: a column whose type is binary-coercible to text but has a
-- default btree operator class of its own (citext's citext_ops, which
-- compares case-insensitively) would get bpindex's text_ops by default,
-- and an index that cannot find its case-insensitive equals.  CREATE INDEX
-- refuses it, naming the column, its type and the operator class.  It
-- needs the citext extension (contrib); installcheck skips it where the
-- server lacks it.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all
CREATE EXTENSION citext;
CREATE TABLE t_ci (ci citext, n int4);
INSERT INTO t_ci
SELECT (ARRAY['Mixed', 'mixed', 'MIXED', 'other', 'Other'])[1 + i % 5] || (i % 37), i
FROM generate_series(1, 3000) i;
VACUUM ANALYZE t_ci;

-- text_ops chosen by default: refused, by CREATE INDEX and by a
-- hypothetical index
CREATE INDEX t_ci_bp ON t_ci USING bpindex (ci);
CREATE INDEX t_ci_bp ON t_ci USING bpindex (n, ci);
SELECT * FROM bpindex_hypo_create_index('CREATE INDEX ON t_ci USING bpindex (ci)');
-- naming text_ops cannot be told from leaving it out (pg_dump would leave
-- it out of the definition it restores), so it is refused too
CREATE INDEX t_ci_bp ON t_ci USING bpindex (ci text_ops);
-- a domain over citext orders as citext: refused
CREATE DOMAIN ci_domain AS citext;
CREATE TABLE t_ci_domain (d ci_domain);
CREATE INDEX t_ci_domain_bp ON t_ci_domain USING bpindex (d);
DROP TABLE t_ci_domain;
DROP DOMAIN ci_domain;
-- the expression (ci::text) is text: accepted, and compares as text
CREATE INDEX t_ci_text ON t_ci USING bpindex ((ci::text));
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM t_ci WHERE ci::text = 'Mixed1';
SELECT count(*) FROM t_ci WHERE ci::text = 'Mixed1';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM t_ci WHERE ci::text = 'Mixed1';
SELECT bpindex_check('t_ci_text', true);
DROP INDEX t_ci_text;

-- a non-default operator class named in CREATE INDEX is the user's choice:
-- accepted, and its definition names it
CREATE OPERATOR CLASS text_as_is_ops FOR TYPE text USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 bttextcmp(text, text);
CREATE INDEX t_ci_as_is ON t_ci USING bpindex (ci text_as_is_ops);
SELECT pg_get_indexdef('t_ci_as_is'::regclass);
SELECT bpindex_check('t_ci_as_is', true);
DROP INDEX t_ci_as_is;

-- an operator class of bpindex for citext, with citext's comparison: the
-- index finds the case-insensitive equals, in every plan shape
CREATE OPERATOR CLASS citext_bp_ops FOR TYPE citext USING bpindex AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 citext_cmp(citext, citext);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'citext_bp_ops';
CREATE INDEX t_ci_bp ON t_ci USING bpindex (ci citext_bp_ops);
SELECT * FROM bp_queries('citext', ARRAY[
    'select ci from t_ci where ci = ''MIXED1''',
    'select ci from t_ci where ci >= ''mixed3'' and ci < ''MIXED4''',
    'select lower(ci::text) from t_ci where ci > ''OTHER30'' order by ci desc'
]);
SELECT count(*) FROM t_ci WHERE ci = 'MIXED1';
SELECT bpindex_check('t_ci_bp', true);

DROP TABLE t_ci;
DROP OPERATOR CLASS text_as_is_ops USING bpindex;
DROP OPERATOR FAMILY text_as_is_ops USING bpindex;
DROP EXTENSION citext CASCADE;
