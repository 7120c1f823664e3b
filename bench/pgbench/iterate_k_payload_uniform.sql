-- iterate_range with a heap column: len uniform in [0, maxlen] rows in key
-- order from a uniform start (Index Scan; sum(payload) keeps the heap access)
\set start random(-4611686018427387903, 4611686018427387903)
\set len random(0, :maxlen)
SELECT count(*), sum(payload) FROM (SELECT k, payload FROM @T@ WHERE k >= :start ORDER BY k LIMIT :len) s;
