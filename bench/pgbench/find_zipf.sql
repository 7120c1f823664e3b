-- find: point lookup of an existing key; key ids zipfian (s = 1.01, the
-- smallest pgbench allows), permute()d so the hot ids are scattered
\set id permute(random_zipfian(1, :nkeys, 1.01) - 1, :nkeys, 12345) + 1
SELECT payload FROM @T@ WHERE k = (hashint8extended(:id::int8, 1) >> 1);
