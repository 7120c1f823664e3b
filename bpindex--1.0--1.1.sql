/* bpindex--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bpindex UPDATE TO '1.1'" to load this file. \quit

-- bpindex_metap shows raw index content, like pageinspect's functions: it
-- is for superusers (the function checks too, before it locks the index)
REVOKE ALL ON FUNCTION bpindex_metap(regclass) FROM PUBLIC;
