# bpindex: BP-tree index access method for PostgreSQL

EXTENSION = bpindex
MODULE_big = bpindex
DATA = bpindex--1.0.sql bpindex--1.0--1.1.sql bpindex--1.1--1.2.sql
PGFILEDESC = "bpindex - BP-tree index access method"

OBJS = \
	src/bpa.o \
	src/bpbuild.o \
	src/bpcheck.o \
	src/bpcost.o \
	src/bphypo.o \
	src/bpindex.o \
	src/bpinsert.o \
	src/bpinspect.o \
	src/bpoptions.o \
	src/bppagedel.o \
	src/bpscan.o \
	src/bpsearch.o \
	src/bputils.o \
	src/bpvacuum.o \
	src/bpvalidate.o \
	src/bpxlog.o

HEADERS = src/bpa.h src/bpindex.h

REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --load-extension=bpindex
ISOLATION = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))
ISOLATION_OPTS = --load-extension=bpindex
TAP_TESTS = 1

PG_CPPFLAGS = -Werror
PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(OBJS): src/bpa.h src/bpindex.h

# BPA unit tests and fuzz driver, outside the server
.PHONY: unitcheck
unitcheck:
	$(MAKE) -C test/bpa check
