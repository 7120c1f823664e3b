-- iterate_range with a heap column from a hot key (zipfian over the
-- permute()d ids); used by YCSB E and X, zipfian variant
\set id permute(random_zipfian(1, :nkeys, 1.01) - 1, :nkeys, 12345) + 1
\set len random(0, :maxlen)
SELECT count(*), sum(payload) FROM (SELECT k, payload FROM @T@ WHERE k >= (hashint8extended(:id::int8, 1) >> 1) ORDER BY k LIMIT :len) s;
