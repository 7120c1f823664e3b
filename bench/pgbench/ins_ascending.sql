-- insert workload, ascending: one statement of 1,000 rows whose keys are
-- above every loaded key (2^62 + batch position), in batch order
SELECT nextval('ins_batch') AS b \gset
\set lo (:b - 1) * 1000 + 1
\set hi :b * 1000
INSERT INTO @T@ (k, payload) SELECT 4611686018427387904 + g, -g FROM generate_series(:lo::int8, :hi::int8) g;
