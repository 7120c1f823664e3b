/*-------------------------------------------------------------------------
 *
 * bpcodec_test.c
 *	  Unit tests of the leaf codec (src/bpcodec.c), and of BPA regions of
 *	  encoded entries that re-encode when an insert does not fit.
 *
 * Usage: bpcodec_test [seed]
 *
 * For random column shapes (1 to 3 columns, integer or bytes, NULLs or
 * not, the last ones INCLUDE columns or not) and value distributions
 * (constant, narrow, wide, at the extremes of the 64-bit image), every
 * width of every column and of the TID occurs.
 * Checks: each entry encodes and decodes to itself; memcmp of encodings
 * orders entries as the index does; each width is the fewest bytes that
 * cover the bound or span; values and TIDs outside the codec are refused;
 * a stored codec loads back and damaged ones are refused; a BPA of encoded
 * entries that re-encodes on a refused insert keeps exactly the entries
 * of a sorted model.
 *
 * test/bpa/bpcodec_test.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/bpa.h"
#include "../../src/bpcodec.h"

#define MAX_ENTRIES 600
#define REGION_BYTES 8000

typedef struct Entry
{
	BpcValue	values[3];
	uint32_t	block;
	uint16_t	offset;
} Entry;

static uint64_t rng_state;
static int	npassed;
static int	nfailed;
static int	width_seen[3][20];	/* [kind: int, bytes, block/offset][width] */
static int	include_rounds;	/* rounds with INCLUDE columns */
static long single_integer_decodes;	/* checks of bpc_decode_integer */
static int	nulls_first_columns;	/* columns with NULLs first */
static long total_reencodes;	/* inserts that re-encoded a region */

/* xorshift64* */
static uint64_t
next_random(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static uint64_t
random_below(uint64_t n)
{
	return n == 0 ? 0 : next_random() % n;
}

static bool
fail(const char *what, int round)
{
	printf("FAIL round %d: %s\n", round, what);
	return false;
}

/* Three-way comparison of column i of two entries, NULLs last. */
static int
compare_column(const BpcColumns *columns, int i, const Entry *a, const Entry *b)
{
	const BpcValue *x = &a->values[i];
	const BpcValue *y = &b->values[i];
	int			c;

	if (x->isnull || y->isnull)
		return x->isnull == y->isnull ? 0 :
			(x->isnull != columns->nulls_first[i] ? 1 : -1);
	if (columns->kind[i] == BPC_BYTES)
		c = memcmp(x->bytes, y->bytes, columns->length[i]);
	else
		c = x->image < y->image ? -1 : (x->image > y->image ? 1 : 0);
	return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/* The index order of two entries: key columns with NULLs last, then TID. */
static int
compare_entries(const BpcColumns *columns, const Entry *a, const Entry *b)
{
	for (int i = 0; i < columns->nkeys; i++)
	{
		int			c = compare_column(columns, i, a, b);

		if (c != 0)
			return c;
	}
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	return a->offset < b->offset ? -1 : (a->offset > b->offset ? 1 : 0);
}

/* Do two entries hold the same TID and values in every column? */
static bool
entries_equal(const BpcColumns *columns, const Entry *a, const Entry *b)
{
	for (int i = 0; i < columns->natts; i++)
		if (compare_column(columns, i, a, b) != 0)
			return false;
	return a->block == b->block && a->offset == b->offset;
}

static const BpcColumns *sort_columns;

static int
qsort_entries(const void *a, const void *b)
{
	return compare_entries(sort_columns, a, b);
}

/* Comparator of encoded entries: memcmp over the codec's width. */
static int
compare_encoded(const void *a, const void *b, void *arg)
{
	int			c = memcmp(a, b, *(const uint16_t *) arg);

	return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/* A distribution of one integer column: a center and a spread. */
typedef struct Distribution
{
	uint64_t	center;
	uint64_t	spread;			/* 0: constant */
	int			null_percent;
} Distribution;

static void
random_distribution(Distribution *d)
{
	static const uint64_t spreads[] = {0, 1, 200, 60000, 1u << 20, 1u << 30,
		UINT64_C(1) << 40, UINT64_C(1) << 52, UINT64_C(1) << 62, UINT64_MAX / 2};
	int			where = (int) random_below(4);

	d->spread = spreads[random_below(sizeof(spreads) / sizeof(spreads[0]))];
	d->center = where == 0 ? 0 : (where == 1 ? UINT64_MAX - d->spread :
								  next_random() / 2);
	d->null_percent = random_below(3) == 0 ? (int) random_below(40) : 0;
}

static void
random_value(const BpcColumns *columns, int i, const Distribution *d,
			 BpcValue *v)
{
	memset(v, 0, sizeof(*v));
	v->isnull = (int) random_below(100) < d->null_percent;
	if (columns->kind[i] == BPC_BYTES)
	{
		for (int j = 0; j < columns->length[i]; j++)
			v->bytes[j] = (uint8_t) (j < 2 ? d->center >> (8 * j) : next_random());
		return;
	}
	v->image = d->center + random_below(d->spread == UINT64_MAX ? d->spread :
										d->spread + 1);
}

/* Is width the fewest bytes (1..8) whose non-NULL codes cover span? */
static bool
fewest_bytes(int width, uint64_t span)
{
	return width >= 1 && width <= 8 && span <= bpc_max_code(width) &&
		(width == 1 || span > bpc_max_code(width - 1));
}

/* Check one codec over its entries: round trips, order, widths. */
static bool
check_codec(const BpcColumns *columns, const BpCodec *codec,
			const BpcBound *bounds, Entry *entries, int n, int round)
{
	static uint8_t enc[MAX_ENTRIES][300];

	sort_columns = columns;
	qsort(entries, n, sizeof(Entry), qsort_entries);
	for (int k = 0; k < n; k++)
	{
		Entry		back;

		memset(&back, 0, sizeof(back));
		if (!bpc_encode(codec, entries[k].values, entries[k].block,
						entries[k].offset, enc[k]))
			return fail("an entry the codec was chosen for does not encode", round);
		bpc_decode(codec, enc[k], back.values, &back.block, &back.offset);
		for (int i = 0; i < columns->natts; i++)
			if (entries[k].values[i].isnull)
				back.values[i] = entries[k].values[i];
		if (!entries_equal(columns, &back, &entries[k]))
			return fail("an entry does not decode to itself", round);
		for (int i = 0; i < columns->natts; i++)
			if (back.values[i].isnull != entries[k].values[i].isnull)
				return fail("a NULL does not decode to NULL", round);
		if (columns->natts == 1 && columns->kind[0] == BPC_INTEGER)
		{
			uint64_t	image;
			uint32_t	block;
			uint16_t	offset;
			bool		isnull = bpc_decode_integer(codec, enc[k], &image,
													&block, &offset);

			if (isnull != entries[k].values[0].isnull ||
				(!isnull && image != entries[k].values[0].image) ||
				block != entries[k].block || offset != entries[k].offset)
				return fail("bpc_decode_integer disagrees with bpc_decode", round);
			single_integer_decodes++;
		}
		if (k > 0 && memcmp(enc[k - 1], enc[k], codec->width) >= 0)
			return fail("memcmp of encodings disagrees with the index order", round);
	}
	for (int i = 0; i < columns->natts; i++)
	{
		int			w = codec->att_width[i];

		if (columns->kind[i] == BPC_BYTES)
		{
			width_seen[1][w]++;
			continue;
		}
		width_seen[0][w]++;
		/* a bounded column takes no more bytes than its whole bound needs */
		if (bounds[i].bounded && w > 0 &&
			!fewest_bytes(w, bounds[i].hi - bounds[i].lo) &&
			w > 1 && bounds[i].hi - bounds[i].lo <= bpc_max_code(w - 1))
			return fail("a bounded column's code is wider than its bound needs", round);
	}
	width_seen[2][codec->block_width]++;
	width_seen[2][5 + codec->offset_width]++;
	return true;
}

/* Values and TIDs outside the codec are refused. */
static bool
check_refusals(const BpcColumns *columns, const BpCodec *codec,
			   const Entry *entry, int round)
{
	uint8_t		out[300];
	Entry		e = *entry;

	for (int i = 0; i < columns->natts; i++)
	{
		if (columns->kind[i] != BPC_INTEGER || codec->att_width[i] >= 8 ||
			(codec->att_flags[i] & BPC_ATT_CONST_NULL))
			continue;
		e = *entry;
		e.values[i].isnull = false;
		if (codec->att_base[i] > 0)
		{
			e.values[i].image = codec->att_base[i] - 1;
			if (bpc_encode(codec, e.values, e.block, e.offset, out))
				return fail("a value below the base encoded", round);
		}
		e.values[i].image = codec->att_base[i] + bpc_max_code(codec->att_width[i]) + 1;
		if (e.values[i].image > codec->att_base[i] &&
			bpc_encode(codec, e.values, e.block, e.offset, out))
			return fail("a value above the codes encoded", round);
		if (codec->att_width[i] == 0)
		{
			e = *entry;
			e.values[i].isnull = true;
			if (bpc_encode(codec, e.values, e.block, e.offset, out))
				return fail("a NULL encoded in a constant column", round);
		}
	}
	e = *entry;
	if (codec->block_width < 4)
	{
		e.block = codec->block_base + (uint32_t) (UINT64_C(1) << (8 * codec->block_width));
		if (e.block > codec->block_base &&
			bpc_encode(codec, e.values, e.block, e.offset, out))
			return fail("a block beyond the block codes encoded", round);
	}
	e = *entry;
	if (codec->offset_width == 1)
	{
		e.offset = 256;
		if (bpc_encode(codec, e.values, e.block, e.offset, out))
			return fail("an offset of 256 encoded in one byte", round);
	}
	return true;
}

/* A stored codec loads back; damaged ones are refused. */
static bool
check_store(const BpcColumns *columns, const BpCodec *codec, int round)
{
	uint8_t		stored[1024];
	BpCodec		loaded;
	size_t		size = bpc_stored_size(columns->natts);

	bpc_store(codec, stored);
	/* bpc_load writes the natts columns' entries only; the rest stay zero */
	memset(&loaded, 0, sizeof(BpCodec));
	if (bpc_load(stored, columns->natts, columns, &loaded) != NULL ||
		memcmp(&loaded, codec, sizeof(BpCodec)) != 0)
		return fail("a stored codec does not load back", round);
	if (size % 8 != 0)
		return fail("the stored size is not a multiple of 8", round);
	stored[1] = 5;
	if (bpc_load(stored, columns->natts, columns, &loaded) == NULL)
		return fail("a block width of 5 loaded", round);
	bpc_store(codec, stored);
	stored[16] = 9;
	if (bpc_load(stored, columns->natts, columns, &loaded) == NULL)
		return fail("a column width of 9 loaded", round);
	bpc_store(codec, stored);
	stored[4]++;
	if (bpc_load(stored, columns->natts, columns, &loaded) == NULL)
		return fail("an entry width that differs from its columns loaded", round);
	bpc_store(codec, stored);
	if (bpc_load(stored, columns->natts + 1, columns, &loaded) == NULL)
		return fail("a codec of another column count loaded", round);
	return true;
}

/*
 * Fence bounds of the integer key columns: around the entries, or none
 * (fences never bound an INCLUDE column).
 */
static void
random_bounds(const BpcColumns *columns, const BpcRange *range, BpcBound *bounds)
{
	for (int i = 0; i < columns->natts; i++)
	{
		memset(&bounds[i], 0, sizeof(BpcBound));
		if (i >= columns->nkeys ||
			columns->kind[i] != BPC_INTEGER || random_below(2) == 0 ||
			!range->any_value[i] || range->any_null[i])
			continue;
		bounds[i].bounded = true;
		bounds[i].no_nulls = true;
		bounds[i].lo = range->min[i] - random_below(range->min[i] < 1000 ? range->min[i] + 1 : 1000);
		bounds[i].hi = range->max[i] + random_below(UINT64_MAX - range->max[i] < 1000 ?
													UINT64_MAX - range->max[i] + 1 : 1000);
	}
}

/* Choose a codec for entries; false (and no codec) if none holds them. */
static bool
choose_for(const BpcColumns *columns, const Entry *entries, int n,
		   const BpcBound *bounds, BpCodec *codec)
{
	BpcRange	range;

	bpc_range_init(&range, columns->natts);
	for (int k = 0; k < n; k++)
		bpc_range_add(&range, entries[k].values, entries[k].block,
					  entries[k].offset);
	return bpc_choose(columns, &range, bounds, codec);
}

/*
 * Insert entries one by one into a BPA of encoded entries, re-encoding the
 * region when one does not fit its codec, then compare it with the model.
 */
static bool
check_reencode(const BpcColumns *columns, Entry *entries, int n, int round)
{
	static char region[REGION_BYTES];
	static char scratch[8 * REGION_BYTES];
	static uint8_t sorted[MAX_ENTRIES * 300];
	Entry		model[MAX_ENTRIES];
	BpCodec		codec;
	BpaLayout	layout;
	int			stored = 0;
	int			reencodes = 0;
	uint8_t		enc[300];

	if (!choose_for(columns, entries, 1, NULL, &codec) ||
		!bpa_layout_fit(&layout, REGION_BYTES, codec.width, 0, 0))
		return true;
	bpa_init(region, &layout);
	for (int k = 0; k < n; k++)
	{
		if (!bpc_encode(&codec, entries[k].values, entries[k].block,
						entries[k].offset, enc))
		{
			BpCodec		wider;

			model[stored] = entries[k];
			if (!choose_for(columns, model, stored + 1, NULL, &wider))
				return true;	/* the 64-bit extremes: no codec holds both */
			if (!bpa_layout_fit(&layout, REGION_BYTES, wider.width, 0, 0) ||
				stored + 1 > bpa_block_capacity(&layout))
				break;			/* a leaf would split here */
			codec = wider;
			sort_columns = columns;
			qsort(model, stored + 1, sizeof(Entry), qsort_entries);
			for (int j = 0; j <= stored; j++)
				if (!bpc_encode(&codec, model[j].values, model[j].block,
								model[j].offset, sorted + (size_t) j * codec.width))
					return fail("a re-chosen codec does not hold its entries", round);
			bpa_init(region, &layout);
			bpa_build(region, (char *) sorted, ++stored);
			reencodes++;
			continue;
		}
		if (bpa_insert(region, enc, compare_encoded, &codec.width, scratch) != BPA_INSERTED)
			break;
		model[stored++] = entries[k];
	}
	if (bpa_check(region, REGION_BYTES, compare_encoded, &codec.width) != NULL)
		return fail("the encoded region is invalid", round);
	if (bpa_count(region) != stored)
		return fail("the encoded region lost or gained entries", round);
	sort_columns = columns;
	qsort(model, stored, sizeof(Entry), qsort_entries);
	if (bpa_sorted(region, compare_encoded, &codec.width, NULL, NULL, NULL,
				   (char *) sorted, scratch) != stored)
		return fail("bpa_sorted returned another count", round);
	for (int k = 0; k < stored; k++)
	{
		Entry		back;

		memset(&back, 0, sizeof(back));
		bpc_decode(&codec, sorted + (size_t) k * codec.width, back.values,
				   &back.block, &back.offset);
		for (int i = 0; i < columns->natts; i++)
			if (back.values[i].isnull)
				back.values[i] = model[k].values[i];
		if (!entries_equal(columns, &back, &model[k]))
			return fail("the encoded region's sorted entries differ from the model", round);
	}
	total_reencodes += reencodes;
	return true;
}

/* Do the codes of 8 bytes cover column i with its bound or head room? */
static bool
fits_64_bits(const BpcRange *range, const BpcBound *bound, int i)
{
	uint64_t	lo = range->min[i];
	uint64_t	hi = range->max[i];
	uint64_t	extra = (hi - lo) / 4;

	if (bound->bounded)
		return bound->hi - bound->lo <= bpc_max_code(8);
	lo = lo >= extra ? lo - extra : 0;
	hi = hi <= UINT64_MAX - extra ? hi + extra : UINT64_MAX;
	return hi - lo <= bpc_max_code(8);
}

/* Shuffle entries (Fisher-Yates). */
static void
shuffle(Entry *entries, int n)
{
	for (int k = n - 1; k > 0; k--)
	{
		int			j = (int) random_below((uint64_t) k + 1);
		Entry		t = entries[k];

		entries[k] = entries[j];
		entries[j] = t;
	}
}

/* One random round: a column shape, a distribution, entries, checks. */
static bool
run_round(int round)
{
	BpcColumns	columns;
	Distribution dists[3];
	Entry		entries[MAX_ENTRIES];
	BpcBound	bounds[3];
	BpcRange	range;
	BpCodec		codec;
	int			n = 1 + (int) random_below(MAX_ENTRIES - 1);
	uint32_t	block_base = (uint32_t) (random_below(3) == 0 ? UINT32_MAX - 70000 :
										 random_below(1000));
	uint32_t	block_spread = (uint32_t) (random_below(5) == 0 ? 0 :
										   (1u << random_below(31)));
	int			offset_limit = random_below(4) == 0 ? 2047 : 200;
	int			nblocks;
	uint32_t	stride;

	memset(&columns, 0, sizeof(columns));
	columns.natts = 1 + (int) random_below(3);
	columns.nkeys = random_below(2) == 0 ? columns.natts :
		1 + (int) random_below(columns.natts);
	if (columns.nkeys < columns.natts)
		include_rounds++;
	for (int i = 0; i < columns.natts; i++)
	{
		columns.kind[i] = random_below(5) == 0 ? BPC_BYTES : BPC_INTEGER;
		columns.length[i] = columns.kind[i] == BPC_BYTES ? 16 : 0;
		/* a key column of integers may put its NULLs first */
		columns.nulls_first[i] = columns.kind[i] == BPC_INTEGER &&
			i < columns.nkeys && random_below(3) == 0;
		nulls_first_columns += columns.nulls_first[i];
		random_distribution(&dists[i]);
	}
	if (block_spread > UINT32_MAX - block_base)
		block_spread = UINT32_MAX - block_base;
	nblocks = (n + offset_limit - 1) / offset_limit;
	stride = nblocks > 1 ? block_spread / (uint32_t) (nblocks - 1) : 0;
	if (stride == 0)
		offset_limit = 2047;	/* one block holds them all */
	/* distinct TIDs: offsets 1.. within a block, blocks stride apart */
	for (int k = 0; k < n; k++)
	{
		for (int i = 0; i < columns.natts; i++)
			random_value(&columns, i, &dists[i], &entries[k].values[i]);
		entries[k].block = block_base + (uint32_t) (k / offset_limit) * stride;
		entries[k].offset = (uint16_t) (1 + k % offset_limit);
	}

	bpc_range_init(&range, columns.natts);
	for (int k = 0; k < n; k++)
		bpc_range_add(&range, entries[k].values, entries[k].block,
					  entries[k].offset);
	random_bounds(&columns, &range, bounds);
	if (!bpc_choose(&columns, &range, bounds, &codec))
	{
		/* only a span no width covers may refuse */
		for (int i = 0; i < columns.natts; i++)
			if (columns.kind[i] == BPC_INTEGER && range.any_value[i] &&
				!fits_64_bits(&range, &bounds[i], i))
				return true;
		return fail("bpc_choose refused entries some codec holds", round);
	}
	return check_codec(&columns, &codec, bounds, entries, n, round) &&
		check_refusals(&columns, &codec, &entries[0], round) &&
		check_store(&columns, &codec, round) &&
		(shuffle(entries, n), check_reencode(&columns, entries, n, round));
}

/*
 * bpc_get_big_endian (one load per 2, 4 or 8 bytes) against the byte loop,
 * for every width, at every alignment, reading no byte past the width.
 */
static bool
check_big_endian_loads(void)
{
	uint8_t		bytes[24];

	for (int round = 0; round < 1000; round++)
		for (int width = 0; width <= 8; width++)
			for (int start = 0; start < 8; start++)
			{
				for (int i = 0; i < (int) sizeof(bytes); i++)
					bytes[i] = (uint8_t) next_random();
				if (bpc_get_big_endian(bytes + start, width) !=
					bpc_load_be_bytes(bytes + start, width))
				{
					printf("FAIL big-endian load of width %d at offset %d\n",
						   width, start);
					return false;
				}
			}
	return true;
}

int
main(int argc, char **argv)
{
	uint64_t	seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 20261123;
	int			rounds = 4000;

	rng_state = seed * 2 + 1;
	for (int round = 0; round < rounds; round++)
	{
		if (run_round(round))
			npassed++;
		else
			nfailed++;
	}
	if (check_big_endian_loads())
		npassed++;
	else
		nfailed++;
	/* every width must have occurred */
	for (int w = 0; w <= 8; w++)
		if (width_seen[0][w] == 0)
		{
			printf("FAIL coverage: no integer column of width %d\n", w);
			nfailed++;
		}
	for (int w = 0; w <= 4; w++)
		if (width_seen[2][w] == 0)
		{
			printf("FAIL coverage: no block width %d\n", w);
			nfailed++;
		}
	if (width_seen[2][6] == 0 || width_seen[2][7] == 0)
	{
		printf("FAIL coverage: offset widths 1 and 2 not both seen\n");
		nfailed++;
	}
	if (width_seen[1][16] == 0 || width_seen[1][17] == 0)
	{
		printf("FAIL coverage: bytes columns with and without a null byte not both seen\n");
		nfailed++;
	}
	if (include_rounds == 0)
	{
		printf("FAIL coverage: no round had INCLUDE columns\n");
		nfailed++;
	}
	if (total_reencodes == 0)
	{
		printf("FAIL coverage: no insert re-encoded a region\n");
		nfailed++;
	}
	if (nulls_first_columns == 0)
	{
		printf("FAIL coverage: no column put its NULLs first\n");
		nfailed++;
	}
	if (single_integer_decodes == 0)
	{
		printf("FAIL coverage: no entry of a single integer column was decoded\n");
		nfailed++;
	}
	printf("bpcodec_test (seed %llu): %d passed, %d failed, %ld re-encodes\n",
		   (unsigned long long) seed, npassed, nfailed, total_reencodes);
	return nfailed == 0 ? 0 : 1;
}
