/* bpindex--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.6'" to load this file. \quit

-- 1.6: bpindex logs its changes with a WAL resource manager of its own,
-- registered when the server preloads the library
-- (shared_preload_libraries); without it every write of a bpindex index
-- raises an error.  bpindex_wal_ready tells whether this server can write.
-- The on-disk format is unchanged: indexes of 1.5 are read and written
-- as they are.
CREATE FUNCTION bpindex_wal_ready()
RETURNS boolean
AS 'MODULE_PATHNAME', 'bpindex_wal_ready'
LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bpindex_wal_ready() IS
'true if this server preloads bpindex (shared_preload_libraries), which its indexes need for any write';
