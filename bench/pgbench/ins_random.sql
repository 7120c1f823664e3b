-- insert workload: one statement of 1,000 rows with random fresh keys;
-- batch numbers come from a sequence, so every client inserts different
-- batches and the whole run inserts the same keys into every table
SELECT nextval('ins_batch') AS b \gset
\set lo (:b - 1) * 1000 + 1
\set hi :b * 1000
INSERT INTO @T@ (k, payload) SELECT hashint8extended(g, 2) >> 1, -g FROM generate_series(:lo::int8, :hi::int8) g;
