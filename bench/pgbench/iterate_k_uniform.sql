-- iterate_range, index only: len uniform in [0, maxlen] keys in order from
-- a uniform start (Index Only Scan)
\set start random(-4611686018427387903, 4611686018427387903)
\set len random(0, :maxlen)
SELECT count(*) FROM (SELECT k FROM @T@ WHERE k >= :start ORDER BY k LIMIT :len) s;
