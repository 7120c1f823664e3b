/* bpindex--1.7--1.8.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.8'" to load this file. \quit

-- 1.8: btree's pattern operator classes.  They order strings byte by byte
-- whatever the column's collation, so that LIKE 'prefix%' can use the
-- index under a linguistic collation: bpindex's planner hook turns the
-- pattern's fixed prefix into the bounds col ~>=~ 'prefix' AND col ~<~
-- 'prefiy', as PostgreSQL's planner does for btree's pattern classes.
-- varchar_pattern_ops is a second class of text_pattern_ops, as in btree.
-- The on-disk format is unchanged.

CREATE OPERATOR FAMILY text_pattern_ops USING bpindex;
CREATE OPERATOR CLASS text_pattern_ops
	FOR TYPE text USING bpindex FAMILY text_pattern_ops AS
	OPERATOR 1 ~<~,
	OPERATOR 2 ~<=~,
	OPERATOR 3 =,
	OPERATOR 4 ~>=~,
	OPERATOR 5 ~>~,
	FUNCTION 1 bttext_pattern_cmp(text, text);
CREATE OPERATOR CLASS varchar_pattern_ops
	FOR TYPE text USING bpindex FAMILY text_pattern_ops AS
	STORAGE text;

CREATE OPERATOR FAMILY bpchar_pattern_ops USING bpindex;
CREATE OPERATOR CLASS bpchar_pattern_ops
	FOR TYPE bpchar USING bpindex FAMILY bpchar_pattern_ops AS
	OPERATOR 1 ~<~,
	OPERATOR 2 ~<=~,
	OPERATOR 3 =,
	OPERATOR 4 ~>=~,
	OPERATOR 5 ~>~,
	FUNCTION 1 btbpchar_pattern_cmp(bpchar, bpchar);

-- and btree's other non-default classes, so that every btree operator
-- class has a bpindex one of the same name: varchar_ops (text_ops for
-- varchar), cidr_ops (network_ops for cidr) and record_image_ops (records
-- compared by their binary images, the *< operators)
CREATE OPERATOR CLASS varchar_ops
	FOR TYPE text USING bpindex FAMILY text_ops AS
	STORAGE text;
CREATE OPERATOR CLASS cidr_ops
	FOR TYPE inet USING bpindex FAMILY network_ops AS
	STORAGE inet;
CREATE OPERATOR FAMILY record_image_ops USING bpindex;
CREATE OPERATOR CLASS record_image_ops
	FOR TYPE record USING bpindex FAMILY record_image_ops AS
	OPERATOR 1 *<,
	OPERATOR 2 *<=,
	OPERATOR 3 *=,
	OPERATOR 4 *>=,
	OPERATOR 5 *>,
	FUNCTION 1 btrecordimagecmp(record, record);
