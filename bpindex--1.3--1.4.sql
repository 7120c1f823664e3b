/* bpindex--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.4'" to load this file. \quit

-- 1.4: variable-length keys.  A slot holds a prefix of each such key and a
-- reference to the whole key in its page's key area; indexes of fixed-length
-- types keep their format.

-- text_ops: btree's text operators and comparison (varchar columns use it
-- too, as btree's do); the collation is the column's
CREATE OPERATOR FAMILY text_ops USING bpindex;
CREATE OPERATOR CLASS text_ops
	DEFAULT FOR TYPE text USING bpindex FAMILY text_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bttextcmp(text, text);

-- bpchar_ops: trailing blanks do not count, as in btree's
CREATE OPERATOR FAMILY bpchar_ops USING bpindex;
CREATE OPERATOR CLASS bpchar_ops
	DEFAULT FOR TYPE bpchar USING bpindex FAMILY bpchar_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bpcharcmp(bpchar, bpchar);

-- bytea_ops: bytewise
CREATE OPERATOR FAMILY bytea_ops USING bpindex;
CREATE OPERATOR CLASS bytea_ops
	DEFAULT FOR TYPE bytea USING bpindex FAMILY bytea_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 byteacmp(bytea, bytea);

-- numeric_ops: 1.0 = 1.00, NaN above every number, as in btree's
CREATE OPERATOR FAMILY numeric_ops USING bpindex;
CREATE OPERATOR CLASS numeric_ops
	DEFAULT FOR TYPE numeric USING bpindex FAMILY numeric_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 numeric_cmp(numeric, numeric);
