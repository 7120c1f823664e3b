/* bpindex--1.8--1.9.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.9'" to load this file. \quit

-- 1.9: an internal page of long pivots may be filled for fewer children
-- than the capacity the metapage records (its own capacity is in its
-- header), so that keys up to the limit a leaf sets fit three to an
-- internal page: 2,588 bytes for a single variable-length key column
-- (2,257 before).  Every index 1.8 built is read and written as it is
-- (format 4); a library before 1.9 reports such an internal page as
-- corrupted.  No SQL object changes.
