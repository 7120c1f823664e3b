-- YCSB insert: one row with a fresh key, uniform over the key domain
-- (payload -1 marks the row, so it is deleted after the run)
\set nk random(-4611686018427387903, 4611686018427387903)
INSERT INTO @T@ (k, payload) VALUES (:nk, -1);
