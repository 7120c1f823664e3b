/*-------------------------------------------------------------------------
 *
 * bpa_test.c
 *	  Unit tests for the buffered partitioned array (src/bpa.c).
 *
 * Every operation is checked against a simple model (a sorted array, see
 * bpa_model.h); after each mutating operation bpa_check(), bpa_count()
 * and the full content (bpa_sorted() without a lower bound) are compared
 * with the model.  Layouts range from tiny ones (log 2-4 slots, 1-4
 * blocks of 2-4 slots: the log fills and blocks overflow all the time)
 * to realistic ones fitted into an 8000-byte page.
 *
 * Usage: bpa_test [seed [ops-scale]]
 *
 * Prints one line per test group and ends with "bpa: N passed, M failed";
 * exits non-zero if anything failed.  A failure line names the seed, the
 * configuration and the operation number; rerun with that seed to
 * reproduce it.
 *
 * test/bpa/bpa_test.c
 *
 *-------------------------------------------------------------------------
 */
#include <inttypes.h>

#include "bpa_model.h"

#define MAX_CONFIGS		128
#define MAX_LEAVES		512
#define PAGE_BYTES		8000

/* One layout/slot-shape combination to run tests on. */
typedef struct TestConfig
{
	char		name[80];
	BpaLayout	layout;
	size_t		region_size;	/* 0: exactly bpa_region_size() */
	int			key_domain;
	uint32_t	tid_domain;
	int			verify_every;	/* full verification interval, bulk ops */
	int			random_ops;		/* operations for the random group */
	bool		realistic;
} TestConfig;

typedef bool (*TestFn) (BmEngine *e, BmSource *s, const TestConfig *c);

static uint64_t base_seed = 20240601;
static double ops_scale = 1.0;
static int	npassed;
static int	nfailed;
static int	group_passed;
static int	group_failed;
static TestConfig configs[MAX_CONFIGS];
static int	nconfigs;
static BmStats total_stats;
static long total_ops;

/* Record the outcome of one test of the current group. */
static void
report(const char *group, const char *what, bool ok, const BmEngine *e)
{
	if (ok)
	{
		npassed++;
		group_passed++;
		return;
	}
	nfailed++;
	group_failed++;
	printf("FAIL %s [%s] seed=%" PRIu64 " op=%ld (%s): %s\n",
		   group, what, base_seed, e ? e->opno : 0L,
		   e && e->opname ? e->opname : "-", bm_err);
	fflush(stdout);
}

/* Start a test group. */
static void
group_begin(void)
{
	group_passed = 0;
	group_failed = 0;
}

/* Print the summary line of a test group. */
static void
group_end(const char *group, const char *extra)
{
	printf("%-14s %s: %d passed, %d failed%s%s\n",
		   group, group_failed ? "FAIL" : "ok  ", group_passed, group_failed,
		   extra ? " " : "", extra ? extra : "");
	fflush(stdout);
}

/* Seed for one test: derived from the base seed, group and config. */
static uint64_t
test_seed(int group, int config)
{
	return base_seed * UINT64_C(1000003) + (uint64_t) group * 7919 + (uint64_t) config;
}

/* Add a configuration; domains are sized so distinct slots are plentiful. */
static void
add_config(const char *name, const BpaLayout *layout, size_t region_size,
		   int key_domain, int random_ops, bool realistic)
{
	TestConfig *c;
	int			max_entries;

	if (nconfigs >= MAX_CONFIGS)
		abort();
	c = &configs[nconfigs++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s %s w%u log%u nb%u bs%u",
			 layout->slot_width == 8 ? "narrow" : "wide", name,
			 layout->slot_width, layout->log_size, layout->num_blocks,
			 layout->block_size);
	c->layout = *layout;
	c->region_size = region_size;
	c->key_domain = key_domain;
	max_entries = layout->num_blocks * (layout->block_size - 1) + layout->log_size;
	c->tid_domain = (uint32_t) ((4 * max_entries + key_domain - 1) / key_domain + 4);
	c->verify_every = realistic ? 16 : 1;
	c->random_ops = (int) (random_ops * ops_scale);
	if (c->random_ops < 10)
		c->random_ops = 10;
	c->realistic = realistic;
}

/* Build the list of configurations: tiny, medium and page-sized. */
static bool
make_configs(void)
{
	static const uint16_t widths[2] = {8, 24};
	int			w,
				lg,
				nb,
				bs;

	for (w = 0; w < 2; w++)
	{
		for (lg = 2; lg <= 4; lg++)
			for (nb = 1; nb <= 4; nb++)
				for (bs = 2; bs <= 4; bs++)
				{
					BpaLayout	l;

					l.slot_width = widths[w];
					l.log_size = (uint16_t) lg;
					l.num_blocks = (uint16_t) nb;
					l.block_size = (uint16_t) bs;
					add_config("tiny", &l, 0, 8, 1500, false);
				}
	}
	for (w = 0; w < 2; w++)
	{
		BpaLayout	l;

		l.slot_width = widths[w];
		l.log_size = 8;
		l.num_blocks = 8;
		l.block_size = 8;
		add_config("medium", &l, 0, 16, 3000, false);
		l.log_size = 5;
		l.num_blocks = 3;
		l.block_size = 17;
		add_config("medium", &l, 0, 16, 3000, false);
	}
	for (w = 0; w < 2; w++)
	{
		BpaLayout	l;

		if (!bpa_layout_fit(&l, PAGE_BYTES, widths[w], 0, 0))
		{
			printf("FAIL config: bpa_layout_fit(%d, %u, 0, 0) returned false\n",
				   PAGE_BYTES, widths[w]);
			return false;
		}
		add_config("page-default", &l, PAGE_BYTES, 64, 2500, true);
		if (!bpa_layout_fit(&l, PAGE_BYTES, widths[w], 32, 16))
		{
			printf("FAIL config: bpa_layout_fit(%d, %u, 32, 16) returned false\n",
				   PAGE_BYTES, widths[w]);
			return false;
		}
		add_config("page-32-16", &l, PAGE_BYTES, 64, 2500, true);
	}
	return true;
}

/* Run fn on every configuration accepted by filter. */
static void
run_group(const char *group, int gno, TestFn fn,
		  bool (*filter) (const TestConfig *c))
{
	int			i;

	group_begin();
	for (i = 0; i < nconfigs; i++)
	{
		const TestConfig *c = &configs[i];
		BmEngine	e;
		BmSource	s;
		bool		ok;

		if (filter != NULL && !filter(c))
			continue;
		bm_source_rng(&s, test_seed(gno, i));
		if (!bm_engine_init(&e, &c->layout, c->region_size, c->key_domain,
							c->tid_domain, test_seed(gno, i)))
		{
			report(group, c->name, false, NULL);
			bm_engine_free(&e);
			continue;
		}
		e.verify_every = c->verify_every;
		e.opname = "init";
		ok = bm_verify(&e, bm_main(&e)) && bm_verify(&e, bm_spare(&e));
		if (ok)
			ok = fn(&e, &s, c);
		report(group, c->name, ok, &e);
		total_ops += e.opno;
		total_stats.inserted += e.stats.inserted;
		total_stats.duplicate += e.stats.duplicate;
		total_stats.full += e.stats.full;
		total_stats.full_wrote_free_log += e.stats.full_wrote_free_log;
		total_stats.flushes += e.stats.flushes;
		total_stats.ascending += e.stats.ascending;
		total_stats.log_appends += e.stats.log_appends;
		total_stats.crowded += e.stats.crowded;
		total_stats.streams += e.stats.streams;
		total_stats.no_streams += e.stats.no_streams;
		total_stats.removed += e.stats.removed;
		total_stats.splits += e.stats.splits;
		total_stats.builds += e.stats.builds;
		total_stats.sorted += e.stats.sorted;
		total_stats.sorted_parts += e.stats.sorted_parts;
		total_stats.maps += e.stats.maps;
		bm_engine_free(&e);
	}
}

/* ------------------------------------------------------------------------
 * Group "layout": sizing functions
 * ------------------------------------------------------------------------
 */

/* Lower bound of the region size implied by the description in bpa.h. */
static size_t
min_region_size(const BpaLayout *l)
{
	return sizeof(BpaHeader) + 2 * (size_t) l->num_blocks +
		((size_t) l->num_blocks + 7) / 8 +
		(size_t) l->slot_width * ((size_t) l->log_size + l->num_blocks +
								  (size_t) l->num_blocks * l->block_size);
}

/* bpa_layout_valid() on hand-picked valid and invalid layouts. */
static bool
t_layout_valid(void)
{
	static const struct
	{
		uint16_t	w,
					lg,
					nb,
					bs;
		bool		valid;
	}			cases[] =
	{
		{8, 2, 1, 2, true},
		{2, 2, 1, 2, true},
		{24, 4, 3, 5, true},
		{8, 64, 30, 20, true},
		{8, 1, 1, 2, false},
		{8, 0, 1, 2, false},
		{8, 2, 0, 2, false},
		{8, 2, 1, 1, false},
		{8, 2, 1, 0, false},
		{0, 2, 1, 2, false},
		{7, 2, 1, 2, true},	/* odd widths: encoded leaves */
		{1, 2, 1, 2, false},
		{25, 4, 4, 4, true},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		BpaLayout	l;

		l.slot_width = cases[i].w;
		l.log_size = cases[i].lg;
		l.num_blocks = cases[i].nb;
		l.block_size = cases[i].bs;
		if (bpa_layout_valid(&l) != cases[i].valid)
			return bm_fail("bpa_layout_valid(%u/%u/%u/%u) = %d, expected %d",
						   l.slot_width, l.log_size, l.num_blocks, l.block_size,
						   !cases[i].valid, cases[i].valid);
	}
	return true;
}

/* bpa_region_size(), bpa_block_capacity(), bpa_fill_target() formulas. */
static bool
t_layout_sizes(void)
{
	int			w,
				lg,
				nb,
				bs,
				ff;

	for (w = 2; w <= 32; w += 2)
		for (lg = 2; lg <= 9; lg += 7)
			for (nb = 1; nb <= 40; nb += 13)
				for (bs = 2; bs <= 50; bs += 16)
				{
					BpaLayout	l,
								m;
					size_t		sz;

					l.slot_width = (uint16_t) w;
					l.log_size = (uint16_t) lg;
					l.num_blocks = (uint16_t) nb;
					l.block_size = (uint16_t) bs;
					sz = bpa_region_size(&l);
					if (sz < min_region_size(&l))
						return bm_fail("bpa_region_size(%d/%d/%d/%d) = %zu, less than the %zu its parts need",
									   w, lg, nb, bs, sz, min_region_size(&l));
					m = l;
					m.log_size++;
					if (bpa_region_size(&m) <= sz)
						return bm_fail("bpa_region_size does not grow with log_size");
					m = l;
					m.block_size++;
					if (bpa_region_size(&m) <= sz)
						return bm_fail("bpa_region_size does not grow with block_size");
					m = l;
					m.num_blocks++;
					if (bpa_region_size(&m) <= sz)
						return bm_fail("bpa_region_size does not grow with num_blocks");
					if (bpa_block_capacity(&l) != nb * (bs - 1))
						return bm_fail("bpa_block_capacity(%d/%d/%d/%d) = %d, expected %d",
									   w, lg, nb, bs, bpa_block_capacity(&l),
									   nb * (bs - 1));
					for (ff = 10; ff <= 100; ff++)
					{
						int			want = nb * (bs - 1) * ff / 100;

						if (want < 1)
							want = 1;
						if (bpa_fill_target(&l, ff) != want)
							return bm_fail("bpa_fill_target(%d/%d/%d/%d, %d) = %d, expected %d",
										   w, lg, nb, bs, ff,
										   bpa_fill_target(&l, ff), want);
					}
					(void) bpa_scratch_size(&l);
				}
	return true;
}

/* Compare two (int32 key, int32 tid) slots. */
static int
cmp_int_pairs(const void *a, const void *b, void *arg)
{
	const int32_t *x = a;
	const int32_t *y = b;

	(void) arg;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : (x[1] > y[1]);
}

/*
 * bpa_ascending_block and bpa_store_ascending after a packed build: every
 * ascending slot is stored
 * without touching the log until all blocks are full, then refuses; the
 * content always matches and every invariant holds.
 */
static bool
t_ascending_direct(void)
{
	BpaLayout	l;
	char	   *region;
	char	   *scratch;
	char	   *out;
	int32_t		init[40][2];
	int			n = 40;
	bool		ok = true;

	if (!bpa_layout_fit(&l, 8000, 8, 62, 30))
		return bm_fail("no layout");
	region = malloc(bpa_region_size(&l));
	scratch = malloc(bpa_scratch_size(&l));
	out = malloc((size_t) (bpa_block_capacity(&l) + l.log_size) * 8);
	for (int i = 0; i < 40; i++)
	{
		init[i][0] = i;
		init[i][1] = 0;
	}
	bpa_init(region, &l);
	bpa_build_packed(region, (char *) init, 40);
	for (;;)
	{
		int32_t		slot[2] = {n, 0};
		BpaTouched	touched;
		const char *problem;
		int			b = bpa_ascending_block(region, slot, cmp_int_pairs, NULL);

		if (b < 0)
			break;
		bpa_store_ascending(region, b, slot, &touched);
		n++;
		problem = bpa_check(region, bpa_region_size(&l), cmp_int_pairs, NULL);
		if (problem || bpa_log_count(region) != 0)
		{
			ok = bm_fail("after %d ascending appends: %s, log %d", n,
						 problem ? problem : "sound", bpa_log_count(region));
			break;
		}
	}
	if (ok && (n != bpa_block_capacity(&l) || bpa_used_blocks(region) != l.num_blocks))
		ok = bm_fail("appends stopped at %d entries in %d blocks, capacity %d in %d",
					 n, bpa_used_blocks(region), bpa_block_capacity(&l), l.num_blocks);
	if (ok && bpa_sorted(region, cmp_int_pairs, NULL, NULL, NULL, NULL, out, scratch) != n)
		ok = bm_fail("count %d after ascending appends, expected %d", bpa_count(region), n);
	for (int i = 0; ok && i < n; i++)
		if (((int32_t *) out)[2 * i] != i)
			ok = bm_fail("entry %d is %d", i, ((int32_t *) out)[2 * i]);
	free(region);
	free(scratch);
	free(out);
	return ok;
}

/*
 * Ascending inserts after a packed build overflow the last block into
 * unused blocks (no redistribute) until the blocks run out; the content
 * always matches and every invariant holds.
 */
static bool
t_ascending_append(void)
{
	BpaLayout	l;
	char	   *region;
	char	   *scratch;
	char	   *out;
	int			n = 0;

	if (!bpa_layout_fit(&l, 8000, 8, 62, 30))
		return bm_fail("no layout");
	region = malloc(bpa_region_size(&l));
	scratch = malloc(bpa_scratch_size(&l));
	out = malloc((size_t) (bpa_block_capacity(&l) + l.log_size) * 8);
	bpa_init(region, &l);
	{
		int32_t		init[40][2];

		for (int i = 0; i < 40; i++)
		{
			init[i][0] = i;
			init[i][1] = 0;
		}
		bpa_build_packed(region, (char *) init, 40);
		n = 40;
	}
	if (bpa_used_blocks(region) != (40 + l.block_size - 2) / (l.block_size - 1))
		return bm_fail("packed build used %d blocks", bpa_used_blocks(region));
	for (;;)
	{
		int32_t		slot[2] = {n, 0};
		BpaInsertResult r = bpa_insert(region, slot, cmp_int_pairs, NULL, scratch);
		const char *problem = bpa_check(region, bpa_region_size(&l), cmp_int_pairs, NULL);

		if (problem)
			return bm_fail("after %d ascending inserts: %s", n, problem);
		if (r == BPA_FULL)
			break;
		n++;
		if (n == 40 + l.log_size && bpa_used_blocks(region) <= 2)
			return bm_fail("the log flush did not open new blocks");
	}
	if (bpa_sorted(region, cmp_int_pairs, NULL, NULL, NULL, NULL, out, scratch) != n)
		return bm_fail("count %d after ascending inserts, expected %d", bpa_count(region), n);
	for (int i = 0; i < n; i++)
		if (((int32_t *) out)[2 * i] != i)
			return bm_fail("entry %d is %d", i, ((int32_t *) out)[2 * i]);
	free(region);
	free(scratch);
	free(out);
	return true;
}

/* bpa_layout_fit_blocks(): keeps the block size, maximal num_blocks. */
static bool
t_layout_fit_blocks(void)
{
	static const size_t sizes[] = {64, 200, 1000, 4000, 8120, 32000};
	static const uint16_t widths[] = {2, 8, 16, 24, 64};
	static const uint16_t logs[] = {0, 2, 31, 64, 0};
	static const uint16_t bss[] = {2, 8, 21, 32, 1024};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t j = 0; j < sizeof(widths) / sizeof(widths[0]); j++)
			for (size_t k = 0; k < sizeof(logs) / sizeof(logs[0]); k++)
			{
				BpaLayout	l,
							m;

				if (!bpa_layout_fit_blocks(&l, sizes[i], widths[j], logs[k], bss[k]))
				{
					/* it must not fit with a single block */
					m.slot_width = widths[j];
					m.log_size = logs[k] ? logs[k] : 4;
					m.num_blocks = 1;
					m.block_size = bss[k];
					if (logs[k] != 0 && bpa_region_size(&m) <= sizes[i] &&
						bpa_layout_valid(&m))
						return bm_fail("bpa_layout_fit_blocks(%zu, %u, %u, %u) returned false, but one block fits",
									   sizes[i], widths[j], logs[k], bss[k]);
					continue;
				}
				if (!bpa_layout_valid(&l) || l.block_size != bss[k] ||
					(logs[k] != 0 && l.log_size != logs[k]) ||
					l.slot_width != widths[j])
					return bm_fail("bpa_layout_fit_blocks(%zu, %u, %u, %u) gave %u/%u/%u/%u",
								   sizes[i], widths[j], logs[k], bss[k],
								   l.slot_width, l.log_size, l.num_blocks, l.block_size);
				if (bpa_region_size(&l) > sizes[i])
					return bm_fail("bpa_layout_fit_blocks(%zu, ...) layout needs %zu bytes",
								   sizes[i], bpa_region_size(&l));
				m = l;
				m.num_blocks++;
				if (bpa_region_size(&m) <= sizes[i])
					return bm_fail("bpa_layout_fit_blocks(%zu, %u, %u, %u): %u blocks is not the most that fit",
								   sizes[i], widths[j], logs[k], bss[k], l.num_blocks);
			}
	return true;
}

/* bpa_layout_fit(): fits, keeps requested values, maximal block_size. */
static bool
t_layout_fit(void)
{
	static const size_t sizes[] = {40, 64, 100, 200, 256, 1000, 4000, 8000, 8152, 32000};
	static const uint16_t widths[] = {2, 4, 8, 16, 24, 64};
	static const uint16_t logs[] = {0, 2, 4, 16, 0, 64};
	static const uint16_t nbs[] = {0, 1, 2, 8, 16, 64};
	size_t		i,
				j,
				k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(widths) / sizeof(widths[0]); j++)
			for (k = 0; k < sizeof(logs) / sizeof(logs[0]); k++)
			{
				BpaLayout	l,
							m;
				bool		ok;

				memset(&l, 0x77, sizeof(l));
				ok = bpa_layout_fit(&l, sizes[i], widths[j], logs[k], nbs[k]);
				if (!ok)
				{
					/* with explicit values, the smallest block must not fit */
					if (logs[k] != 0 && nbs[k] != 0)
					{
						m.slot_width = widths[j];
						m.log_size = logs[k];
						m.num_blocks = nbs[k];
						m.block_size = 2;
						if (bpa_region_size(&m) <= sizes[i])
							return bm_fail("bpa_layout_fit(%zu, %u, %u, %u) returned false, but block_size 2 fits",
										   sizes[i], widths[j], logs[k], nbs[k]);
					}
					if (sizes[i] >= 8000 && widths[j] <= 24)
						return bm_fail("bpa_layout_fit(%zu, %u, %u, %u) returned false",
									   sizes[i], widths[j], logs[k], nbs[k]);
					continue;
				}
				if (!bpa_layout_valid(&l))
					return bm_fail("bpa_layout_fit(%zu, %u, %u, %u) gave invalid layout %u/%u/%u/%u",
								   sizes[i], widths[j], logs[k], nbs[k],
								   l.slot_width, l.log_size, l.num_blocks, l.block_size);
				if (l.slot_width != widths[j] ||
					(logs[k] != 0 && l.log_size != logs[k]) ||
					(nbs[k] != 0 && l.num_blocks != nbs[k]))
					return bm_fail("bpa_layout_fit(%zu, %u, %u, %u) ignored a requested value: %u/%u/%u/%u",
								   sizes[i], widths[j], logs[k], nbs[k],
								   l.slot_width, l.log_size, l.num_blocks, l.block_size);
				if (bpa_region_size(&l) > sizes[i])
					return bm_fail("bpa_layout_fit(%zu, ...) layout needs %zu bytes",
								   sizes[i], bpa_region_size(&l));
				m = l;
				m.block_size++;
				if (m.block_size != 0 && bpa_region_size(&m) <= sizes[i])
					return bm_fail("bpa_layout_fit(%zu, %u, %u, %u): block_size %u is not the largest that fits",
								   sizes[i], widths[j], logs[k], nbs[k], l.block_size);
			}

	/* invalid slot widths never fit */
	{
		BpaLayout	l;

		if (!bpa_layout_fit(&l, 8000, 7, 0, 0))
			return bm_fail("bpa_layout_fit refused odd slot_width 7");
		if (bpa_layout_fit(&l, 8000, 0, 0, 0))
			return bm_fail("bpa_layout_fit accepted slot_width 0");
		if (bpa_layout_fit(&l, 8000, 8, 1, 4))
			return bm_fail("bpa_layout_fit accepted log_size 1");
		if (bpa_layout_fit(&l, 0, 8, 0, 0))
			return bm_fail("bpa_layout_fit accepted region size 0");
		if (bpa_layout_fit(&l, sizeof(BpaHeader), 8, 0, 0))
			return bm_fail("bpa_layout_fit accepted a region of only a header");
	}
	return true;
}

/* The "layout" group. */
static void
group_layout(void)
{
	char		buf[200];
	BpaLayout	l;

	group_begin();
	report("layout", "valid", t_layout_valid(), NULL);
	report("layout", "sizes", t_layout_sizes(), NULL);
	report("layout", "fit", t_layout_fit(), NULL);
	report("layout", "fit-blocks", t_layout_fit_blocks(), NULL);
	report("layout", "ascending-append", t_ascending_append(), NULL);
	report("layout", "ascending-direct", t_ascending_direct(), NULL);
	buf[0] = '\0';
	if (bpa_layout_fit(&l, PAGE_BYTES, 8, 0, 0))
		snprintf(buf, sizeof(buf), "(page default w8: log %u, %u blocks of %u, %zu bytes, scratch %zu)",
				 l.log_size, l.num_blocks, l.block_size, bpa_region_size(&l),
				 bpa_scratch_size(&l));
	group_end("layout", buf);
}

/* ------------------------------------------------------------------------
 * Per-configuration tests
 * ------------------------------------------------------------------------
 */

/* Read-only operations on an empty BPA, with random arguments. */
static bool
check_empty_ops(BmEngine *e, BmInst *in, BmSource *s)
{
	char		slot[BM_MAX_WIDTH];
	BmRange		rg;
	int			i;

	if (in->model.n != 0)
		return bm_fail("test bug: model not empty");
	for (i = 0; i < 12; i++)
	{
		bm_gen_slot(e, s, slot);
		e->opname = "find-empty";
		if (!bm_do_find(e, in, slot))
			return false;
		e->opname = "remove-empty";
		if (!bm_do_remove(e, in, slot, true))
			return false;
		bm_gen_range(e, in, s, &rg);
		if (i % 3 == 0)
			rg.lo_mode = rg.hi_mode = BM_BOUND_NONE;
		e->opname = "map-empty";
		if (!bm_do_map(e, in, &rg, rg.lo_mode == BM_BOUND_NONE && i % 2 == 0,
					   rg.hi_mode == BM_BOUND_NONE && i % 2 == 0))
			return false;
		e->opname = "sorted-empty";
		if (!bm_do_sorted(e, in, &rg, rg.lo_mode == BM_BOUND_NONE && i % 2 == 0,
						  i % 4 < 2))
			return false;
	}
	return bm_verify(e, in);
}

/* An empty BPA: init over garbage, all read operations, remove. */
static bool
t_empty(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);

	(void) c;
	if (!check_empty_ops(e, in, s))
		return false;
	/* bpa_init over a region full of 0xFF and of zeroes */
	memset(in->region, 0xFF, e->region_size);
	bpa_init(in->region, &e->layout);
	e->opname = "init-over-0xff";
	if (!check_empty_ops(e, in, s))
		return false;
	memset(in->region, 0, e->region_size);
	bpa_init(in->region, &e->layout);
	e->opname = "init-over-zero";
	if (!check_empty_ops(e, in, s))
		return false;
	/* building with no entries gives an empty BPA too */
	e->opname = "build-empty";
	if (!bm_rebuild(e, s, 0))
		return false;
	return check_empty_ops(e, in, s);
}

/* The first log_size inserts fill the log, then it is flushed. */
static bool
t_log_flush(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	char		slot[BM_MAX_WIDTH];
	int			round,
				k;

	(void) c;
	for (round = 0; round < 4; round++)
	{
		long		flushes = e->stats.flushes;
		BpaInsertResult r = BPA_INSERTED;

		bpa_init(in->region, &e->layout);
		in->model.n = 0;
		for (k = 1; k <= e->layout.log_size; k++)
		{
			BmHdr		hdr;

			bm_gen_new(e, in, s, slot);
			e->opname = "log-insert";
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return false;
			if (r == BPA_FULL)
				break;			/* legal only at >= capacity, checked */
			bm_read_hdr(e, in->region, &hdr);
			if (k < e->layout.log_size && hdr.h.log_count != k)
				return bm_fail("after %d inserts into an empty BPA log_count is %u",
							   k, hdr.h.log_count);
			if (k == e->layout.log_size && hdr.h.log_count != 0)
				return bm_fail("after %d inserts (log_size) log_count is %u, expected a flush",
							   k, hdr.h.log_count);
		}
		if (r != BPA_FULL && e->stats.flushes != flushes + 1)
			return bm_fail("expected exactly one flush");
		/* keep going: every log_size-th insert must flush */
		for (k = 0; k < 3 * e->layout.log_size && r != BPA_FULL; k++)
		{
			bm_gen_new(e, in, s, slot);
			e->opname = "log-insert-more";
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return false;
		}
	}
	return true;
}

/* Ordered insert patterns that overflow blocks and force redistribution. */
static bool
t_redistribute(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	int			total = e->key_domain * (int) e->tid_domain;
	int			pattern;

	(void) c;
	(void) s;
	for (pattern = 0; pattern < 5; pattern++)
	{
		BpaInsertResult r = BPA_INSERTED;
		int			i;

		bpa_init(in->region, &e->layout);
		in->model.n = 0;
		for (i = 0; r != BPA_FULL; i++)
		{
			char		slot[BM_MAX_WIDTH];
			int			idx;
			int64_t		key;
			uint32_t	tid;

			if (i > e->max_entries)
				return bm_fail("pattern %d: %d inserts without BPA_FULL", pattern, i);
			switch (pattern)
			{
				case 0:			/* ascending */
					idx = i;
					break;
				case 1:			/* descending */
					idx = total - 1 - i;
					break;
				case 2:			/* alternating low and high ends */
					idx = (i % 2) ? total - 1 - i / 2 : i / 2;
					break;
				case 3:			/* outside in */
					idx = (i % 2) ? total / 2 + i / 2 : total / 2 - 1 - i / 2;
					break;
				default:		/* one key, ascending tids */
					idx = -1;
					break;
			}
			if (idx >= 0)
			{
				key = idx / (int) e->tid_domain - e->key_domain / 2;
				tid = (uint32_t) (idx % (int) e->tid_domain);
			}
			else
			{
				key = 1;
				tid = (uint32_t) i * 3;
			}
			if (e->width != 8)
				key *= BM_WIDE_KEY_MULT;
			bm_slot_make(e->width, slot, key, tid, &e->rng);
			e->opname = "pattern-insert";
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return bm_fail("pattern %d, insert %d: %.3900s", pattern, i,
							   strcpy(bm_err_save, bm_err));
		}
		/* after BPA_FULL everything must still be findable */
		for (i = 0; i < in->model.n; i++)
		{
			e->opname = "find-after-full";
			if (!bm_do_find(e, in, bm_model_at(&in->model, i)))
				return false;
		}
	}
	return true;
}

/* Re-inserting stored entries (other padding) returns BPA_DUPLICATE. */
static bool
t_duplicates(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	char		slot[BM_MAX_WIDTH];
	int			round,
				i,
				k;

	(void) c;
	for (round = 0; round < 6; round++)
	{
		BpaInsertResult r = BPA_INSERTED;

		bpa_init(in->region, &e->layout);
		in->model.n = 0;
		/* grow to a random size, re-inserting stored entries on the way */
		k = 1 + (int) bm_src_below(s, (uint32_t) e->max_entries);
		for (i = 0; i < 4 * k && in->model.n < k && r != BPA_FULL; i++)
		{
			if (i % 3 == 2 && bm_gen_existing(e, in, s, slot))
				e->opname = "insert-dup";
			else
			{
				bm_gen_new(e, in, s, slot);
				e->opname = "insert-new";
			}
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return false;
		}
		/* every stored entry is now a duplicate, log full or not */
		for (i = 0; i < in->model.n; i++)
		{
			const char *src = bm_model_at(&in->model, i);

			bm_slot_make(e->width, slot, bm_slot_key(e->width, src),
						 bm_slot_tid(e->width, src), &e->rng);
			e->opname = "reinsert-all";
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return false;
			if (r != BPA_DUPLICATE)
				return bm_fail("re-insert did not return BPA_DUPLICATE");
		}
		/* a duplicate arriving when the log has one free slot left */
		bpa_init(in->region, &e->layout);
		in->model.n = 0;
		r = BPA_INSERTED;
		for (i = 0; i < e->layout.log_size - 1 && r == BPA_INSERTED; i++)
		{
			bm_gen_new(e, in, s, slot);
			e->opname = "fill-log";
			e->opno++;
			if (!bm_do_insert(e, in, slot, true, &r))
				return false;
		}
		if (!bm_gen_existing(e, in, s, slot))
			return bm_fail("test bug: nothing stored");
		e->opname = "dup-at-full-log";
		e->opno++;
		if (!bm_do_insert(e, in, slot, true, &r))
			return false;
	}
	/* duplicates of built content (all in blocks) */
	e->opname = "build";
	if (!bm_rebuild(e, s, bpa_fill_target(&e->layout, 100)))
		return false;
	for (i = 0; i < in->model.n; i++)
	{
		const char *src = bm_model_at(&in->model, i);

		bm_slot_make(e->width, slot, bm_slot_key(e->width, src),
					 bm_slot_tid(e->width, src), &e->rng);
		e->opname = "dup-after-build";
		e->opno++;
		if (!bm_do_insert(e, in, slot, true, NULL))
			return false;
	}
	return true;
}

/* Fill, remove everything (several orders), check empty, refill. */
static bool
t_drain(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	char	   *saved = malloc((size_t) (e->max_entries + 1) * e->width);
	int			round;
	bool		ok = true;

	(void) c;
	if (saved == NULL)
		abort();
	for (round = 0; ok && round < 6; round++)
	{
		int			n,
					i;

		e->opname = "fill-until-full";
		if (!(ok = bm_fill_until_full(e, s)))
			break;
		n = in->model.n;
		memcpy(saved, in->model.slots, (size_t) n * e->width);
		for (i = 0; ok && i < n; i++)
		{
			char		slot[BM_MAX_WIDTH];
			int			pick;

			switch (round % 3)
			{
				case 0:
					pick = (int) bm_src_below(s, (uint32_t) in->model.n);
					break;
				case 1:
					pick = 0;
					break;
				default:
					pick = in->model.n - 1;
					break;
			}
			memcpy(slot, bm_model_at(&in->model, pick), e->width);
			e->opname = "drain-remove";
			e->opno++;
			ok = bm_do_remove(e, in, slot, true);
		}
		if (!ok)
			break;
		e->opname = "empty-after-drain";
		if (!(ok = check_empty_ops(e, in, s)))
			break;
		/* reinsert the same entries in random order until full */
		for (i = n - 1; i > 0; i--)
		{
			int			j = (int) bm_src_below(s, (uint32_t) i + 1);
			char		tmp[BM_MAX_WIDTH];

			memcpy(tmp, saved + (size_t) i * e->width, e->width);
			memcpy(saved + (size_t) i * e->width, saved + (size_t) j * e->width, e->width);
			memcpy(saved + (size_t) j * e->width, tmp, e->width);
		}
		for (i = 0; ok && i < n; i++)
		{
			BpaInsertResult r;

			e->opname = "reinsert";
			e->opno++;
			ok = bm_do_insert(e, in, saved + (size_t) i * e->width, true, &r);
			if (r == BPA_FULL)
				break;
		}
		/* drain about half again, so the next round starts non-empty */
		for (i = in->model.n / 2; ok && i > 0; i--)
		{
			char		slot[BM_MAX_WIDTH];

			bm_gen_existing(e, in, s, slot);
			e->opname = "drain-half";
			e->opno++;
			ok = bm_do_remove(e, in, slot, true);
		}
	}
	free(saved);
	return ok;
}

/* bpa_build at every fill factor, over empty and populated regions. */
static bool
t_build(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	int			ff;

	(void) c;
	for (ff = 10; ff <= 100; ff += 5)
	{
		int			n = bpa_fill_target(&e->layout, ff);

		e->opname = "build-ff";
		e->opno++;
		if (!bm_rebuild(e, s, n))
			return bm_fail("fillfactor %d (%d entries): %.3900s", ff, n,
						   strcpy(bm_err_save, bm_err));
		if (ff % 20 == 0)
		{
			e->opname = "fill-after-build";
			if (!bm_fill_until_full(e, s))
				return bm_fail("filling after build at fillfactor %d: %.3900s",
							   ff, strcpy(bm_err_save, bm_err));
		}
	}
	/* every size from 0 to capacity, alternating with fresh inits */
	for (ff = 0; ff <= e->capacity; ff += 1 + e->capacity / 40)
	{
		if (ff % 2 == 0)
		{
			bpa_init(in->region, &e->layout);
			in->model.n = 0;
		}
		e->opname = "build-n";
		e->opno++;
		if (!bm_rebuild(e, s, ff))
			return false;
	}
	e->opname = "build-capacity";
	if (!bm_rebuild(e, s, e->capacity))
		return false;
	/* a full build accepts inserts into the log only up to the limit */
	e->opname = "fill-after-full-build";
	return bm_fill_until_full(e, s);
}

/* bpa_sort_slots() on arrays of many sizes. */
static bool
t_sort_slots(BmEngine *e, BmSource *s, const TestConfig *c)
{
	int			n;

	(void) c;
	e->opname = "sort-slots";
	for (n = 0; n <= 70; n++)
	{
		e->opno++;
		if (!bm_do_sort_slots(e, s, n))
			return false;
	}
	for (n = 100; n <= 1000; n += 300)
	{
		e->opno++;
		if (!bm_do_sort_slots(e, s, n))
			return false;
	}
	e->opname = "sort-slots-as-bytes";
	for (n = 0; n <= 600; n += n < 40 ? 1 : 37)
	{
		e->opno++;
		if (!bm_check_sort_bytes(e, n))
			return false;
	}
	return true;
}

/* Splits at every feasible point, into empty and populated targets. */
static bool
t_split(BmEngine *e, BmSource *s, const TestConfig *c)
{
	int			round;

	(void) c;
	for (round = 0; round < 40; round++)
	{
		BmInst	   *in = bm_main(e);
		int			lo,
					hi,
					nleft;

		e->opname = "fill-until-full";
		if (!bm_fill_until_full(e, s))
			return false;
		if (!bm_split_bounds(e, in->model.n, &lo, &hi))
		{
			/* full BPA can't be split into two legal halves: shrink it */
			while (in->model.n > 2 * e->capacity)
			{
				char		slot[BM_MAX_WIDTH];

				bm_gen_existing(e, in, s, slot);
				e->opname = "shrink";
				if (!bm_do_remove(e, in, slot, true))
					return false;
			}
			if (!bm_split_bounds(e, in->model.n, &lo, &hi))
				continue;
		}
		nleft = round % 3 == 0 ? lo : (round % 3 == 1 ? hi :
									   lo + (int) bm_src_below(s, (uint32_t) (hi - lo + 1)));
		if (round % 4 == 0)
		{
			bpa_init(bm_spare(e)->region, &e->layout);
			bm_spare(e)->model.n = 0;
		}
		e->opname = "split";
		e->opno++;
		if (!bm_do_split(e, nleft, round % 2 == 1))
			return false;
	}
	return true;
}

/*
 * bpa_check must flag the corrupted region (and bpa_check_shape too, for
 * a corruption of the layout or counters); then restore the region.
 */
static bool
expect_caught_shape(BmEngine *e, BmInst *in, const char *saved,
					const char *what, bool shape)
{
	const char *msg = bpa_check(in->region, e->region_size, bm_cmp, &e->cmparg);

	if (msg == NULL)
		return bm_fail("bpa_check did not detect: %s", what);
	if (shape && bpa_check_shape(in->region, e->region_size) == NULL)
		return bm_fail("bpa_check_shape did not detect: %s", what);
	memcpy(in->region, saved, e->region_size);
	msg = bpa_check(in->region, e->region_size, bm_cmp, &e->cmparg);
	if (msg != NULL)
		return bm_fail("bpa_check fails on the restored region: %s", msg);
	return true;
}

/* bpa_check must flag the corrupted region; then restore it. */
static bool
expect_caught(BmEngine *e, BmInst *in, const char *saved, const char *what)
{
	return expect_caught_shape(e, in, saved, what, false);
}

/* Both bpa_check and bpa_check_shape must flag it; then restore it. */
static bool
expect_shape(BmEngine *e, BmInst *in, const char *saved, const char *what)
{
	return expect_caught_shape(e, in, saved, what, true);
}

/* Write a uint16 at a byte offset of the region. */
static void
poke16(char *region, size_t off, uint16_t v)
{
	memcpy(region + off, &v, 2);
}

/* Offset of the BpaHeader field at fieldoff. */
#define HDR_OFF(field) offsetof(BpaHeader, field)

/* bpa_blocks_total of a sound region: the sum of its blocks' counts. */
static bool
blocks_total_matches(const char *region)
{
	int			sum = 0;

	for (int b = 0; b < bpa_used_blocks(region); b++)
		sum += bpa_block_count(region, b);
	if (bpa_blocks_total(region) != sum)
		return bm_fail("bpa_blocks_total %d, the blocks hold %d",
					   bpa_blocks_total(region), sum);
	return true;
}

/*
 * Corruptions bpa_check must detect: header fields, block counts, stored
 * entries (found through bpa_find, no offsets needed), sorted bits and
 * header slots (offsets from the description in bpa.h, verified first),
 * and layouts that don't fit the region.
 */
static bool
t_corrupt(BmEngine *e, BmSource *s, const TestConfig *c)
{
	BmInst	   *in = bm_main(e);
	const BpaLayout *l = &e->layout;
	char	   *saved = malloc(e->region_size);
	char		tmp[BM_MAX_WIDTH];
	char	   *p,
			   *q;
	BmHdr		hdr;
	int			n = e->capacity;
	int			w = e->width;
	bool		ok = true;
	size_t		bits_off,
				hdr_off,
				blocks_off;
	int			round;

	if (saved == NULL)
		abort();
	for (round = 0; ok && round < 3; round++)
	{
		e->opname = "build";
		if (!(ok = bm_rebuild(e, s, n)))
			break;
		memcpy(saved, in->region, e->region_size);
		bm_read_hdr(e, in->region, &hdr);
		if (!(ok = blocks_total_matches(in->region)))
			break;
		e->opname = "corrupt";

		poke16(in->region, HDR_OFF(log_count), l->log_size);
		if (!(ok = expect_shape(e, in, saved, "log_count == log_size (no free log slot)")))
			break;
		poke16(in->region, HDR_OFF(log_count), (uint16_t) (l->log_size + 7));
		if (!(ok = expect_shape(e, in, saved, "log_count > log_size")))
			break;
		poke16(in->region, HDR_OFF(nentries), (uint16_t) (hdr.h.nentries + 1));
		if (!(ok = expect_shape(e, in, saved, "nentries one too high")))
			break;
		poke16(in->region, HDR_OFF(used_blocks), (uint16_t) (l->num_blocks + 1));
		if (!(ok = expect_shape(e, in, saved, "used_blocks > num_blocks")))
			break;
		poke16(in->region, HDR_OFF(used_blocks), (uint16_t) (hdr.h.used_blocks - 1));
		if (!(ok = expect_shape(e, in, saved, "non-empty block past used_blocks")))
			break;
		poke16(in->region, sizeof(BpaHeader), l->block_size);
		poke16(in->region, HDR_OFF(nentries),
			   (uint16_t) (hdr.h.nentries + l->block_size - hdr.bc[0]));
		if (!(ok = expect_shape(e, in, saved, "block 0 full (count == block_size)")))
			break;

		/* stored entries, found through bpa_find */
		p = (char *) bpa_find(in->region, bm_model_at(&in->model, 0), bm_cmp, &e->cmparg);
		q = (char *) bpa_find(in->region, bm_model_at(&in->model, n - 1), bm_cmp, &e->cmparg);
		if (p == NULL || q == NULL)
		{
			ok = bm_fail("bpa_find failed on built content");
			break;
		}
		memcpy(q, p, w);
		if (!(ok = expect_caught(e, in, saved, "largest entry overwritten by the smallest")))
			break;
		q = (char *) bpa_find(in->region, bm_model_at(&in->model, 1), bm_cmp, &e->cmparg);
		memcpy(q, p, w);
		if (!(ok = expect_caught(e, in, saved, "entry stored twice in block 0")))
			break;
		q = (char *) bpa_find(in->region, bm_model_at(&in->model, n - 1), bm_cmp, &e->cmparg);
		bm_slot_make(w, tmp, (int64_t) (-e->key_domain) * (w == 8 ? 1 : BM_WIDE_KEY_MULT),
					 0, &e->rng);
		memcpy(q, tmp, w);
		if (!(ok = expect_caught(e, in, saved, "entry of the last block below its header slot")))
			break;

		/* an unsorted block 0 whose sorted bit is set */
		bits_off = sizeof(BpaHeader) + 2 * (size_t) l->num_blocks;
		p = (char *) bpa_find(in->region, bm_model_at(&in->model, 0), bm_cmp, &e->cmparg);
		q = (char *) bpa_find(in->region, bm_model_at(&in->model, 1), bm_cmp, &e->cmparg);
		memcpy(tmp, p, w);
		memcpy(p, q, w);
		memcpy(q, tmp, w);
		in->region[bits_off] = (char) (in->region[bits_off] | 0x81);
		if (!(ok = expect_caught(e, in, saved, "block 0 unsorted but its sorted bit set")))
			break;

		/*
		 * Clearing sorted bits is legal, and then a block may be in any
		 * order: nothing may be flagged and every operation must still
		 * work.  A duplicate inside such a block must be caught.
		 */
		memset(in->region + bits_off, 0, ((size_t) l->num_blocks + 7) / 8);
		memcpy(tmp, p, w);
		memcpy(p, q, w);
		memcpy(q, tmp, w);
		if (!bm_verify(e, in))
		{
			ok = bm_fail("legal change (sorted bits cleared, block 0 reordered) mishandled: %.3900s",
						 strcpy(bm_err_save, bm_err));
			break;
		}
		memcpy(q, p, w);
		if (!(ok = expect_caught(e, in, saved, "entry stored twice in an unsorted block")))
			break;

		/* layouts that don't fit or are invalid */
		if (bpa_check(in->region, bpa_region_size(l) - 1, bm_cmp, &e->cmparg) == NULL ||
			bpa_check_shape(in->region, bpa_region_size(l) - 1) == NULL)
		{
			ok = bm_fail("bpa_check%s did not detect a region one byte too small for its layout",
						 bpa_check(in->region, bpa_region_size(l) - 1, bm_cmp, &e->cmparg) ? "_shape" : "");
			break;
		}
		poke16(in->region, offsetof(BpaLayout, slot_width), (uint16_t) (w + 1));
		if (!(ok = expect_shape(e, in, saved, "slot_width one too large")))
			break;
		poke16(in->region, offsetof(BpaLayout, num_blocks), 0);
		if (!(ok = expect_shape(e, in, saved, "num_blocks 0")))
			break;
		poke16(in->region, offsetof(BpaLayout, block_size), 1);
		if (!(ok = expect_shape(e, in, saved, "block_size 1")))
			break;
		poke16(in->region, offsetof(BpaLayout, log_size), 1);
		if (!(ok = expect_shape(e, in, saved, "log_size 1")))
			break;
		poke16(in->region, offsetof(BpaLayout, block_size), 60000);
		if (!(ok = expect_shape(e, in, saved, "layout far larger than the region")))
			break;

		/*
		 * Header slots, at the offsets bpa.h describes; only if those
		 * offsets are confirmed by the built content.
		 */
		hdr_off = (bits_off + ((size_t) l->num_blocks + 7) / 8 + 7) & ~(size_t) 7;
		hdr_off += (size_t) l->log_size * w;
		blocks_off = hdr_off + (size_t) l->num_blocks * w;
		if (hdr.h.used_blocks >= 2)
		{
			bool		layout_ok = true;
			int			i,
						start = 0;

			p = (char *) bpa_find(in->region, bm_model_at(&in->model, 0), bm_cmp, &e->cmparg);
			if ((uintptr_t) p < (uintptr_t) in->region + blocks_off ||
				(uintptr_t) p >= (uintptr_t) in->region + blocks_off + (size_t) l->block_size * w)
				layout_ok = false;
			for (i = 1; layout_ok && i < hdr.h.used_blocks; i++)
			{
				const char *hs = in->region + hdr_off + (size_t) i * w;

				start += hdr.bc[i - 1];
				if (start >= n || bm_cmp(hs, bm_model_at(&in->model, start), &e->cmparg) > 0 ||
					bm_cmp(hs, bm_model_at(&in->model, start - 1), &e->cmparg) <= 0)
					layout_ok = false;
			}
			if (!layout_ok)
			{
				if (round == 0)
					printf("note [%s]: slot offsets differ from the description in bpa.h; header-slot corruption skipped\n",
						   c->name);
			}
			else
			{
				p = in->region + hdr_off;
				q = in->region + hdr_off + (size_t) w;
				memcpy(tmp, p, w);
				memcpy(p, q, w);
				memcpy(q, tmp, w);
				if (!(ok = expect_caught(e, in, saved, "header slots 0 and 1 swapped")))
					break;
				if (hdr.bc[1] >= 2)
				{
					memcpy(q, bm_model_at(&in->model, hdr.bc[0] + 1), w);
					if (!(ok = expect_caught(e, in, saved, "header slot 1 above the smallest entry of block 1")))
						break;
				}
				if (hdr.bc[0] >= 1)
				{
					/* header[1] = largest entry of block 0 */
					memcpy(q, bm_model_at(&in->model, hdr.bc[0] - 1), w);
					if (!(ok = expect_caught(e, in, saved, "header slot 1 not above block 0's entries")))
						break;
				}
				/* header[0] is no bound, but must stay below header[1] */
				memcpy(p, q, w);
				if (!(ok = expect_caught(e, in, saved, "header slot 0 equal to header slot 1")))
					break;
			}
		}

		/* a log entry duplicating a block entry */
		if (l->log_size >= 2)
		{
			char		slot[BM_MAX_WIDTH];
			BpaInsertResult r;

			bm_gen_new(e, in, s, slot);
			e->opname = "insert-into-log";
			if (!(ok = bm_do_insert(e, in, slot, true, &r)))
				break;
			if (r == BPA_INSERTED)
			{
				memcpy(saved, in->region, e->region_size);
				int			other = (int) bm_src_below(s, (uint32_t) in->model.n);

				/* any stored entry but the new one itself */
				if (bm_cmp(bm_model_at(&in->model, other), slot, &e->cmparg) == 0)
					other = other > 0 ? other - 1 : other + 1;
				p = (char *) bpa_find(in->region, slot, bm_cmp, &e->cmparg);
				memcpy(p, bm_model_at(&in->model, other), w);
				e->opname = "corrupt";
				if (!(ok = expect_caught(e, in, saved, "log entry equal to a block entry")))
					break;
			}
		}
		if (!(ok = bm_verify(e, in)))
			break;
	}
	free(saved);
	return ok;
}

/* Random operations (see bm_step). */
static bool
t_random(BmEngine *e, BmSource *s, const TestConfig *c)
{
	int			i;

	for (i = 0; i < c->random_ops; i++)
	{
		if (!bm_step(e, s))
			return false;
	}
	return bm_verify(e, bm_main(e)) && bm_verify(e, bm_spare(e));
}

/* ------------------------------------------------------------------------
 * Group "forest": a one-level B-tree of BPAs, splitting on BPA_FULL
 * ------------------------------------------------------------------------
 */
typedef struct Forest
{
	int			n;
	BmInst		leaf[MAX_LEAVES];
	char		sep[MAX_LEAVES][BM_MAX_WIDTH];	/* lower bound, leaf > 0 */
} Forest;

/* Allocate and initialize a leaf. */
static void
leaf_alloc(BmEngine *e, BmInst *in)
{
	in->region = bm_galloc(e->region_size, 0xCC);
	in->model.width = e->width;
	in->model.n = 0;
	in->model.cap = e->max_entries + 2;
	in->model.slots = malloc((size_t) in->model.cap * e->width);
	if (in->model.slots == NULL)
		abort();
	bpa_init(in->region, &e->layout);
}

/* Leaf whose range contains slot. */
static int
leaf_route(BmEngine *e, Forest *f, const char *slot)
{
	int			i = f->n - 1;

	while (i > 0 && bm_cmp(slot, f->sep[i], &e->cmparg) < 0)
		i--;
	return i;
}

/* Split leaf i at its middle into a new leaf i + 1. */
static bool
leaf_split(BmEngine *e, Forest *f, int i)
{
	BmInst	   *l = &f->leaf[i];
	BmInst	   *r;
	int			n = l->model.n;
	int			lo,
				hi,
				nleft,
				ret;

	if (!bm_split_bounds(e, n, &lo, &hi))
		return bm_fail("leaf of %d entries can't be split", n);
	nleft = n / 2;
	if (nleft < lo)
		nleft = lo;
	if (nleft > hi)
		nleft = hi;
	memmove(&f->leaf[i + 2], &f->leaf[i + 1], (size_t) (f->n - i - 1) * sizeof(BmInst));
	memmove(f->sep[i + 2], f->sep[i + 1], (size_t) (f->n - i - 1) * BM_MAX_WIDTH);
	f->n++;
	r = &f->leaf[i + 1];
	leaf_alloc(e, r);
	/* half the time, the new leaf holds stale content first */
	if (f->n % 2 == 0 && l->model.n > 0)
		bpa_build(r->region, l->model.slots, l->model.n < e->capacity ? l->model.n : e->capacity);
	bm_scribble(e);
	ret = bpa_split(l->region, r->region, nleft, bm_cmp, &e->cmparg, e->scratch);
	if (ret != n - nleft)
		return bm_fail("bpa_split(%d at %d) returned %d", n, nleft, ret);
	memcpy(r->model.slots, bm_model_at(&l->model, nleft), (size_t) ret * e->width);
	r->model.n = ret;
	l->model.n = nleft;
	memcpy(f->sep[i + 1], r->model.slots, e->width);
	e->stats.splits++;
	if (!bm_verify(e, l))
		return bm_fail("left leaf after split: %.3900s", strcpy(bm_err_save, bm_err));
	if (!bm_verify(e, r))
		return bm_fail("right leaf after split: %.3900s", strcpy(bm_err_save, bm_err));
	return true;
}

/* Grow a forest of BPAs by random inserts and removes; split when full. */
static bool
t_forest(BmEngine *e, BmSource *s, const TestConfig *c)
{
	Forest	   *f = calloc(1, sizeof(Forest));
	BmModel		all;
	int			ninserts = c->realistic ? (int) (12000 * ops_scale) : (int) (1500 * ops_scale);
	int			op,
				i,
				k;
	bool		ok = true;
	char	   *out;

	if (f == NULL)
		abort();
	all.width = e->width;
	all.n = 0;
	all.cap = ninserts + 1;
	all.slots = malloc((size_t) all.cap * e->width);
	if (all.slots == NULL)
		abort();
	f->n = 1;
	leaf_alloc(e, &f->leaf[0]);
	for (op = 0; ok && op < ninserts; op++)
	{
		char		slot[BM_MAX_WIDTH];
		bool		found;
		bool		verify = (op % e->verify_every) == 0;

		e->opno++;
		if (all.n > 0 && bm_src_below(s, 100) < 15)
		{
			int			pos = (int) bm_src_below(s, (uint32_t) all.n);

			memcpy(slot, bm_model_at(&all, pos), e->width);
			i = leaf_route(e, f, slot);
			bm_model_lower(&f->leaf[i].model, slot, &e->cmparg, &found);
			if (!found)
			{
				ok = bm_fail("test bug: %s routed to leaf %d which lacks it",
							 bm_slot_str(e->width, slot), i);
				break;
			}
			e->opname = "forest-remove";
			ok = bm_do_remove(e, &f->leaf[i], slot, verify);
			bm_model_delete_at(&all, pos);
			continue;
		}
		bm_gen_slot(e, s, slot);
		for (k = 0; ok && k < 2; k++)
		{
			BpaInsertResult r;

			i = leaf_route(e, f, slot);
			e->opname = k == 0 ? "forest-insert" : "forest-insert-after-split";
			ok = bm_do_insert(e, &f->leaf[i], slot, verify, &r);
			if (!ok)
				break;
			if (r == BPA_INSERTED)
			{
				bm_model_add(&all, slot, &e->cmparg);
				break;
			}
			if (r == BPA_DUPLICATE)
				break;
			if (k == 1)
			{
				ok = bm_fail("BPA_FULL right after a split");
				break;
			}
			if (f->n >= MAX_LEAVES)
			{
				op = ninserts;
				break;
			}
			e->opname = "forest-split";
			ok = leaf_split(e, f, i);
		}
	}
	/* every leaf valid, in range, and together equal to the global model */
	for (i = 0, k = 0; ok && i < f->n; i++)
	{
		BmInst	   *in = &f->leaf[i];

		e->opname = "forest-final";
		if (!(ok = bm_verify(e, in)))
			break;
		if (k + in->model.n > all.n ||
			memcmp(in->model.slots, bm_model_at(&all, k), (size_t) in->model.n * e->width) != 0)
		{
			ok = bm_fail("test bug: leaf models don't add up to the global model");
			break;
		}
		out = bm_galloc((size_t) in->model.n * e->width, 0);
		if (bpa_sorted(in->region, bm_cmp, &e->cmparg, NULL, NULL, NULL, out, e->scratch) != in->model.n ||
			memcmp(out, bm_model_at(&all, k), (size_t) in->model.n * e->width) != 0)
			ok = bm_fail("leaf %d content differs from the global model", i);
		bm_gfree(out);
		k += in->model.n;
	}
	if (ok && k != all.n)
		ok = bm_fail("leaves hold %d entries, expected %d", k, all.n);
	for (i = 0; i < f->n; i++)
	{
		bm_gfree(f->leaf[i].region);
		free(f->leaf[i].model.slots);
	}
	free(all.slots);
	free(f);
	return ok;
}

/* Configurations whose full BPA can be split in two legal halves. */
static bool
filter_splittable(const TestConfig *c)
{
	int			cap = c->layout.num_blocks * (c->layout.block_size - 1);

	/* halves of a full BPA (< 2 * cap entries) are below capacity */
	return cap >= 2 && c->layout.log_size - 1 < cap;
}

/* Configurations where every block holds >= 2 entries when built full. */
static bool
filter_corruptible(const TestConfig *c)
{
	return c->layout.num_blocks >= 2 && c->layout.block_size >= 3;
}

/* Parse arguments, run every group, print the summary. */
int
main(int argc, char **argv)
{
	char		buf[300];

	if (argc > 1)
		base_seed = strtoull(argv[1], NULL, 0);
	if (argc > 2)
		ops_scale = atof(argv[2]);
	if (ops_scale <= 0)
		ops_scale = 1.0;
	printf("bpa_test: seed %" PRIu64 "\n", base_seed);

	group_layout();
	if (!make_configs())
	{
		nfailed++;
		printf("bpa: %d passed, %d failed\n", npassed, nfailed);
		return 1;
	}

	run_group("empty", 1, t_empty, NULL);
	group_end("empty", NULL);
	run_group("log-flush", 2, t_log_flush, NULL);
	group_end("log-flush", NULL);
	run_group("redistribute", 3, t_redistribute, NULL);
	group_end("redistribute", NULL);
	run_group("duplicates", 4, t_duplicates, NULL);
	group_end("duplicates", NULL);
	run_group("drain", 5, t_drain, NULL);
	group_end("drain", NULL);
	run_group("build", 6, t_build, NULL);
	group_end("build", NULL);
	run_group("sort-slots", 7, t_sort_slots, NULL);
	group_end("sort-slots", NULL);
	run_group("split", 8, t_split, NULL);
	group_end("split", NULL);
	run_group("full-split", 9, t_forest, filter_splittable);
	group_end("full-split", NULL);
	run_group("check-corrupt", 10, t_corrupt, filter_corruptible);
	group_end("check-corrupt", NULL);

	if (total_stats.full_wrote_free_log > 0)
		printf("note: %ld of %ld bpa_insert calls returning BPA_FULL wrote into a free log slot (content unchanged)\n",
			   total_stats.full_wrote_free_log, total_stats.full);
	memset(&total_stats, 0, sizeof(total_stats));
	total_ops = 0;
	run_group("random", 11, t_random, NULL);
	snprintf(buf, sizeof(buf),
			 "(%ld ops: %ld inserted, %ld duplicate, %ld full, %ld crowded, %ld flushes, %ld ascending, %ld log appends, %ld streams, %ld not streams, %ld removed, %ld splits, %ld builds, %ld sorted (%ld parts cut), %ld maps)",
			 total_ops, total_stats.inserted, total_stats.duplicate,
			 total_stats.full, total_stats.crowded, total_stats.flushes,
			 total_stats.ascending, total_stats.log_appends, total_stats.streams, total_stats.no_streams,
			 total_stats.removed,
			 total_stats.splits, total_stats.builds, total_stats.sorted,
			 total_stats.sorted_parts, total_stats.maps);
	group_end("random", buf);

	printf("bpa: %d passed, %d failed\n", npassed, nfailed);
	return nfailed > 0 ? 1 : 0;
}
