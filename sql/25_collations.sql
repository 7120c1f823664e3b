--
-- 25_collations: text keys under an ICU collation (the operator class
-- compares them, never a stored sort key), and a nondeterministic
-- collation, which bpindex refuses.  A server built without ICU skips both
-- (expected/25_collations_1.out).
--
SELECT EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu') AS have_icu \gset
\if :have_icu
-- ICU's root order: case and accents second to letters, unlike "C"
CREATE TABLE t_icu (k text COLLATE "und-x-icu");
INSERT INTO t_icu
SELECT CASE WHEN i % 19 = 0 THEN NULL
            WHEN i % 4 = 0 THEN upper(substr(md5(i::text), 1, 3 + i % 9))
            WHEN i % 4 = 1 THEN 'é' || substr(md5(i::text), 1, 2 + i % 7)
            WHEN i % 4 = 2 THEN 'e' || substr(md5(i::text), 1, 2 + i % 7)
            ELSE substr(md5(i::text), 1, 3 + i % 9) END
FROM generate_series(1, 8000) i;
VACUUM ANALYZE t_icu;
CREATE INDEX t_icu_bp ON t_icu USING bpindex (k);
SELECT bpindex_check('t_icu_bp', true);
SELECT * FROM bp_matrix('icu', 't_icu', 'k', ARRAY['0', 'A', 'a1', 'e', 'é', 'F', 'zz']);
SELECT * FROM bp_failures('icu');
-- a nondeterministic collation is refused, naming the column and collation
CREATE COLLATION bp_case_insensitive (provider = icu, locale = 'und-u-ks-level2',
                                      deterministic = false);
CREATE TABLE t_nd (k text COLLATE bp_case_insensitive);
CREATE INDEX t_nd_bp ON t_nd USING bpindex (k);
DROP TABLE t_nd;
DROP COLLATION bp_case_insensitive;
\else
SELECT 'ICU is not available: skipped' AS note;
\endif
