-- map_range: count the keys of [start, start + len * spacing), which holds
-- len keys on average (spacing = 2^63 / nkeys), len uniform in [0, maxlen];
-- run with the bitmap path forced (Bitmap Index Scan)
\set start random(-4611686018427387903, 4611686018427387903)
\set stop :start + random(0, :maxlen) * :spacing
SELECT count(*) FROM @T@ WHERE k >= :start AND k < :stop;
