-- map_range from a hot key (zipfian over the permute()d ids); used by
-- YCSB Y, zipfian variant
\set id permute(random_zipfian(1, :nkeys, 1.01) - 1, :nkeys, 12345) + 1
\set width random(0, :maxlen) * :spacing
SELECT count(*) FROM @T@ WHERE k >= (hashint8extended(:id::int8, 1) >> 1) AND k < (hashint8extended(:id::int8, 1) >> 1) + :width;
