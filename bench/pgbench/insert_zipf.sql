-- YCSB insert, zipfian variant: one row with a fresh key just above a hot
-- existing key (zipfian over the permute()d ids), so the inserts go to the
-- hot leaves (payload -1 marks the row, so it is deleted after the run)
\set id permute(random_zipfian(1, :nkeys, 1.01) - 1, :nkeys, 12345) + 1
\set off random(1, 1000000)
INSERT INTO @T@ (k, payload) VALUES ((hashint8extended(:id::int8, 1) >> 1) + :off, -1);
