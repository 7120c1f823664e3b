/* bpindex--1.9--1.10.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.10'" to load this file. \quit

-- 1.10: an internal page of long pivots may omit its low key (flag
-- BP_LOW_OMITTED, its pivot 0 all zeros), and a leaf whose low key, high
-- key and new entry are all long splits before the entry, so that a page
-- holds two keys at the limit beside short ones, not three: the limit is
-- 2,730 bytes of keys (a third of a page) for every index, 2,588 before
-- for a single variable-length key column.  Every index 1.9 built is read
-- and written as it is (format 4); a library before 1.10 reports an
-- internal page that omits its low key as corrupted.  No SQL object
-- changes.
