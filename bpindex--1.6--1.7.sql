/* bpindex--1.6--1.7.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.7'" to load this file. \quit

-- 1.7: a default operator class for every type that has a default btree
-- operator class, with btree's operators and comparison function
-- (support function 1), in families named and shaped as btree's.  Types
-- of a fixed length compare through their function in full-width slots;
-- variable-length ones live in the key area of their page, as text does.
-- The polymorphic classes (anyarray, anyenum, anyrange, anymultirange,
-- record) serve every type of their kind.  The on-disk format is
-- unchanged.

-- name_ops: name joins text_ops, with btree's cross-type operators
-- between name and text
CREATE OPERATOR CLASS name_ops
	DEFAULT FOR TYPE name USING bpindex FAMILY text_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btnamecmp(name, name);
ALTER OPERATOR FAMILY text_ops USING bpindex ADD
	OPERATOR 1 < (name, text),
	OPERATOR 2 <= (name, text),
	OPERATOR 3 = (name, text),
	OPERATOR 4 >= (name, text),
	OPERATOR 5 > (name, text),
	FUNCTION 1 (name, text) btnametextcmp(name, text),
	OPERATOR 1 < (text, name),
	OPERATOR 2 <= (text, name),
	OPERATOR 3 = (text, name),
	OPERATOR 4 >= (text, name),
	OPERATOR 5 > (text, name),
	FUNCTION 1 (text, name) bttextnamecmp(text, name);

-- array_ops: every array type (element by element, then by dimensions)
CREATE OPERATOR FAMILY array_ops USING bpindex;
CREATE OPERATOR CLASS array_ops
	DEFAULT FOR TYPE anyarray USING bpindex FAMILY array_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btarraycmp(anyarray, anyarray);

-- bit_ops and varbit_ops: bit strings
CREATE OPERATOR FAMILY bit_ops USING bpindex;
CREATE OPERATOR CLASS bit_ops
	DEFAULT FOR TYPE bit USING bpindex FAMILY bit_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bitcmp(bit, bit);

CREATE OPERATOR FAMILY varbit_ops USING bpindex;
CREATE OPERATOR CLASS varbit_ops
	DEFAULT FOR TYPE varbit USING bpindex FAMILY varbit_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 varbitcmp(varbit, varbit);

-- char_ops: "char"
CREATE OPERATOR FAMILY char_ops USING bpindex;
CREATE OPERATOR CLASS char_ops
	DEFAULT FOR TYPE "char" USING bpindex FAMILY char_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btcharcmp("char", "char");

-- enum_ops: every enum type, in the order of its labels
CREATE OPERATOR FAMILY enum_ops USING bpindex;
CREATE OPERATOR CLASS enum_ops
	DEFAULT FOR TYPE anyenum USING bpindex FAMILY enum_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 enum_cmp(anyenum, anyenum);

-- interval_ops: '1 day' = '24 hours', as in btree's
CREATE OPERATOR FAMILY interval_ops USING bpindex;
CREATE OPERATOR CLASS interval_ops
	DEFAULT FOR TYPE interval USING bpindex FAMILY interval_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 interval_cmp(interval, interval);

-- jsonb_ops: jsonb's btree order
CREATE OPERATOR FAMILY jsonb_ops USING bpindex;
CREATE OPERATOR CLASS jsonb_ops
	DEFAULT FOR TYPE jsonb USING bpindex FAMILY jsonb_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 jsonb_cmp(jsonb, jsonb);

-- macaddr_ops and macaddr8_ops
CREATE OPERATOR FAMILY macaddr_ops USING bpindex;
CREATE OPERATOR CLASS macaddr_ops
	DEFAULT FOR TYPE macaddr USING bpindex FAMILY macaddr_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 macaddr_cmp(macaddr, macaddr);

CREATE OPERATOR FAMILY macaddr8_ops USING bpindex;
CREATE OPERATOR CLASS macaddr8_ops
	DEFAULT FOR TYPE macaddr8 USING bpindex FAMILY macaddr8_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 macaddr8_cmp(macaddr8, macaddr8);

-- money_ops
CREATE OPERATOR FAMILY money_ops USING bpindex;
CREATE OPERATOR CLASS money_ops
	DEFAULT FOR TYPE money USING bpindex FAMILY money_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 cash_cmp(money, money);

-- multirange_ops: every multirange type
CREATE OPERATOR FAMILY multirange_ops USING bpindex;
CREATE OPERATOR CLASS multirange_ops
	DEFAULT FOR TYPE anymultirange USING bpindex FAMILY multirange_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 multirange_cmp(anymultirange, anymultirange);

-- network_ops: inet, and cidr through it (cidr is binary-coercible to inet),
-- as in btree's
CREATE OPERATOR FAMILY network_ops USING bpindex;
CREATE OPERATOR CLASS inet_ops
	DEFAULT FOR TYPE inet USING bpindex FAMILY network_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 network_cmp(inet, inet);

-- oidvector_ops
CREATE OPERATOR FAMILY oidvector_ops USING bpindex;
CREATE OPERATOR CLASS oidvector_ops
	DEFAULT FOR TYPE oidvector USING bpindex FAMILY oidvector_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btoidvectorcmp(oidvector, oidvector);

-- pg_lsn_ops
CREATE OPERATOR FAMILY pg_lsn_ops USING bpindex;
CREATE OPERATOR CLASS pg_lsn_ops
	DEFAULT FOR TYPE pg_lsn USING bpindex FAMILY pg_lsn_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 pg_lsn_cmp(pg_lsn, pg_lsn);

-- range_ops: every range type
CREATE OPERATOR FAMILY range_ops USING bpindex;
CREATE OPERATOR CLASS range_ops
	DEFAULT FOR TYPE anyrange USING bpindex FAMILY range_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 range_cmp(anyrange, anyrange);

-- record_ops: every composite type, column by column
CREATE OPERATOR FAMILY record_ops USING bpindex;
CREATE OPERATOR CLASS record_ops
	DEFAULT FOR TYPE record USING bpindex FAMILY record_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 btrecordcmp(record, record);

-- tid_ops
CREATE OPERATOR FAMILY tid_ops USING bpindex;
CREATE OPERATOR CLASS tid_ops
	DEFAULT FOR TYPE tid USING bpindex FAMILY tid_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bttidcmp(tid, tid);

-- timetz_ops
CREATE OPERATOR FAMILY timetz_ops USING bpindex;
CREATE OPERATOR CLASS timetz_ops
	DEFAULT FOR TYPE timetz USING bpindex FAMILY timetz_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 timetz_cmp(timetz, timetz);

-- tsquery_ops and tsvector_ops
CREATE OPERATOR FAMILY tsquery_ops USING bpindex;
CREATE OPERATOR CLASS tsquery_ops
	DEFAULT FOR TYPE tsquery USING bpindex FAMILY tsquery_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 tsquery_cmp(tsquery, tsquery);

CREATE OPERATOR FAMILY tsvector_ops USING bpindex;
CREATE OPERATOR CLASS tsvector_ops
	DEFAULT FOR TYPE tsvector USING bpindex FAMILY tsvector_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 tsvector_cmp(tsvector, tsvector);

-- xid8_ops
CREATE OPERATOR FAMILY xid8_ops USING bpindex;
CREATE OPERATOR CLASS xid8_ops
	DEFAULT FOR TYPE xid8 USING bpindex FAMILY xid8_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 xid8cmp(xid8, xid8);
