--
-- 27_packed_keys: packed leaves in indexes with variable-length keys.  An
-- entry's code holds its keys' offsets in the page's key area (2 bytes
-- each) and its heap TID and fixed-length columns encoded as in other
-- packed leaves, so that such leaves take less room than plain ones
-- (packed_leaves = off).  The code of the first key column starts with a
-- window of its key (2 bytes after the prefix the leaf's fences share),
-- which decides most comparisons without reading the key.  Every plan
-- shape is compared with a sequential scan, the leaves' encodings are read
-- with the inspection functions, and inserts that the codec cannot hold (a
-- NULL where the leaf has none, a far heap block) re-encode the leaf.
--
\set ECHO none
\i sql/include/helpers.sql
\set ECHO all

-- emails under "C", packed (the default) and plain, on two copies
CREATE TABLE t_pk (k text COLLATE "C", id int4);
INSERT INTO t_pk
SELECT CASE WHEN i % 31 = 0 THEN NULL
            ELSE substr(md5(i::text), 1, 4 + i % 9) || '.' || (i % 97) || '@example.com' END, i
FROM generate_series(1, 20000) i;
CREATE TABLE t_pk_plain AS SELECT * FROM t_pk;
VACUUM ANALYZE t_pk, t_pk_plain;
CREATE INDEX t_pk_bp ON t_pk USING bpindex (k);
CREATE INDEX t_pk_plain_bp ON t_pk_plain USING bpindex (k) WITH (packed_leaves = off);
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_bp');
SELECT packed_leaves AS packed_in_plain FROM bpindex_stats('t_pk_plain_bp');
-- the packed index takes at most three quarters of the plain one
SELECT pg_relation_size('t_pk_bp') <= 0.75 * pg_relation_size('t_pk_plain_bp') AS smaller;
-- a packed leaf: its key column's code is a 2-byte window and a 2-byte
-- offset (after a null byte with NULLs), then the TID's codes
SELECT encoding, key_bytes, entry_bytes < 12 AS narrow_entries
FROM bpindex_leaves('t_pk_bp') WHERE low_key IS NOT NULL AND high_key IS NOT NULL
ORDER BY blkno LIMIT 1;
SELECT bpindex_check('t_pk_bp', true);
SELECT bpindex_check('t_pk_plain_bp', true);
SELECT * FROM bp_matrix('packed text', 't_pk', 'k',
                        ARRAY['', '0', 'a1', 'c4ca.1@example.com', 'f', 'zzz']);
SELECT * FROM bp_failures('packed text');
SELECT * FROM bp_matrix('plain text', 't_pk_plain', 'k',
                        ARRAY['', '0', 'a1', 'c4ca.1@example.com', 'f', 'zzz']);
SELECT * FROM bp_failures('plain text');

-- inserts the codec cannot hold: NULLs into leaves that have none, TIDs
-- in far heap blocks (after a large delete and VACUUM), duplicates and
-- keys that fill the key area; the leaves re-encode or split
CREATE TABLE t_pk_ins (k text, pad text);
INSERT INTO t_pk_ins SELECT 'key' || lpad(i::text, 6, '0'), NULL FROM generate_series(1, 6000) i;
CREATE INDEX t_pk_ins_bp ON t_pk_ins USING bpindex (k);
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_ins_bp');
INSERT INTO t_pk_ins SELECT NULL, NULL FROM generate_series(1, 50);
INSERT INTO t_pk_ins SELECT 'key' || lpad((i * 7)::text, 6, '0'), repeat('p', 1500)
FROM generate_series(1, 3000) i;
INSERT INTO t_pk_ins SELECT 'key' || lpad(i::text, 6, '0') || repeat('-', i % 300), NULL
FROM generate_series(1, 6000, 5) i;
SELECT levels > 1 AS has_internal, entries, packed_leaves > 0 AS some_packed
FROM bpindex_stats('t_pk_ins_bp');
-- leaves that took a NULL have a null byte before their keys' codes, and
-- the far heap blocks widened some leaves' block codes
SELECT bool_or(key_bytes = '{5}') AS a_leaf_with_nulls,
       max(block_bytes) > min(block_bytes) AS block_codes_widened
FROM bpindex_leaves('t_pk_ins_bp');
SELECT bpindex_check('t_pk_ins_bp', true);
VACUUM ANALYZE t_pk_ins;
SELECT * FROM bp_matrix('packed text inserts', 't_pk_ins', 'k',
                        ARRAY['key000007', 'key001000', 'key002000--', 'key9']);
SELECT * FROM bp_failures('packed text inserts');
DELETE FROM t_pk_ins WHERE k LIKE '%0-%' OR k IS NULL;
VACUUM t_pk_ins;
INSERT INTO t_pk_ins SELECT NULL, NULL FROM generate_series(1, 10);
SELECT bpindex_check('t_pk_ins_bp', true);
SELECT * FROM bp_matrix('packed text vacuum', 't_pk_ins', 'k',
                        ARRAY['key000007', 'key001000', 'key9']);
SELECT * FROM bp_failures('packed text vacuum');

-- multi-column, packed: a leading int8 column (its code is compared
-- inline by point scans), and a leading text column before an int4
CREATE TABLE t_pk_tenant (tenant int8, email text, n int4);
INSERT INTO t_pk_tenant
SELECT i % 30, 'user' || (i * 7919 % 40000) || '@t' || (i % 30) || '.example', i % 1000
FROM generate_series(1, 30000) i;
VACUUM ANALYZE t_pk_tenant;
CREATE INDEX t_pk_tenant_bp ON t_pk_tenant USING bpindex (tenant, email);
CREATE INDEX t_pk_email_bp ON t_pk_tenant USING bpindex (email, n);
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_tenant_bp');
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_email_bp');
SELECT bpindex_check('t_pk_tenant_bp', true);
SELECT bpindex_check('t_pk_email_bp', true);
SELECT * FROM bp_check('select email from t_pk_tenant where tenant = 7 and email between ''user1'' and ''user2''', 'indexonly');
SELECT * FROM bp_check('select tenant, email from t_pk_tenant where tenant between 3 and 4 and email < ''user3'' order by tenant, email', 'index');
SELECT * FROM bp_check('select tenant, email from t_pk_tenant where tenant = 9 order by tenant desc, email desc', 'index');
SELECT * FROM bp_check('select email from t_pk_tenant where tenant = 11 and email >= ''user1'' and email < ''user2''', 'bitmap');
SELECT * FROM bp_check('select email, n from t_pk_tenant where email between ''user1'' and ''user12'' order by email, n', 'indexonly');
SELECT * FROM bp_check('select email, n from t_pk_tenant where email = ''user7919@t1.example''', 'indexonly');
SELECT * FROM bp_check('select email, n from t_pk_tenant where email > ''user9'' order by email desc, n desc', 'indexonly');

-- windows at the edges of the order: bytea keys with zero bytes after a
-- long shared prefix (a key and the same key with a zero byte more have
-- equal windows), and bpchar keys whose trailing blanks do not count but
-- whose tabs do ('ab\t' sorts below 'ab' || ' x'), in packed leaves split
-- by inserts
CREATE TABLE t_pk_edge (b bytea, c char(12) COLLATE "C");
CREATE INDEX t_pk_edge_b ON t_pk_edge USING bpindex (b);
CREATE INDEX t_pk_edge_c ON t_pk_edge USING bpindex (c);
INSERT INTO t_pk_edge
SELECT decode(repeat('ab', 20) || lpad(to_hex(i % 700), 4, '0') ||
              CASE i % 3 WHEN 0 THEN '' WHEN 1 THEN '00' ELSE '0000' END, 'hex'),
       'ab' || CASE i % 4 WHEN 0 THEN ' ' WHEN 1 THEN E'\t' WHEN 2 THEN ' x' ELSE '' END
            || (i % 500)::text
FROM generate_series(1, 12000) i;
SELECT bpindex_check('t_pk_edge_b', true);
SELECT bpindex_check('t_pk_edge_c', true);
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_edge_b');
SELECT leaf_pages = packed_leaves AS all_packed FROM bpindex_stats('t_pk_edge_c');
VACUUM ANALYZE t_pk_edge;
SELECT * FROM bp_matrix('packed bytea', 't_pk_edge', 'b',
                        ARRAY[decode(repeat('ab', 20) || '0010', 'hex')::text,
                              decode(repeat('ab', 20) || '001000', 'hex')::text,
                              decode(repeat('ab', 20), 'hex')::text]);
SELECT * FROM bp_failures('packed bytea');
SELECT * FROM bp_matrix('packed bpchar', 't_pk_edge', 'c',
                        ARRAY['ab', 'ab 1', E'ab\t1', 'ab x1', 'ab1']);
SELECT * FROM bp_failures('packed bpchar');
