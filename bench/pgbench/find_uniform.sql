-- find: point lookup of an existing key; key ids uniform in [1, nkeys]
\set id random(1, :nkeys)
SELECT payload FROM @T@ WHERE k = (hashint8extended(:id::int8, 1) >> 1);
