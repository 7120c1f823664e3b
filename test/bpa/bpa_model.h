/*-------------------------------------------------------------------------
 *
 * bpa_model.h
 *	  Reference model and randomized operation engine for testing the
 *	  buffered partitioned array (src/bpa.c).
 *
 * Shared by the unit test (bpa_test.c) and the libFuzzer target
 * (bpa_fuzz.c).  A BmEngine owns two BPA regions of the same layout (the
 * one under test and a split target), each paired with a model: a plain
 * sorted array of slots.  Every operation is applied to both and the
 * outcomes are compared; a mismatch is reported by returning false with
 * a description in bm_err.
 *
 * Slots come in two shapes:
 *	 narrow	 8 bytes: int32 key, uint32 tid
 *	 wide	 24 bytes: int64 key, uint32 tid, 12 bytes of padding that the
 *			 comparator ignores (queries carry different padding than the
 *			 stored copies, so the module must compare with the comparator
 *			 and store the bytes it was given)
 * ordered by (key, tid).  Keys come from a small domain so that equal keys
 * with different tids are common.
 *
 * Everything is static inline so that either program may use any subset
 * without unused-function warnings.
 *
 * test/bpa/bpa_model.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPA_MODEL_H
#define BPA_MODEL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/bpa.h"

#define BM_MAX_WIDTH	64
#define BM_MAX_BLOCKS	2048
#define BM_GUARD		32
#define BM_CMP_MAGIC	0x43504d42u
#define BM_RANGE_MAGIC	0x4e524d42u
#define BM_VISIT_MAGIC	0x53564d42u
#define BM_WIDE_KEY_MULT INT64_C(4294967311)

/* Last failure message, and room to prefix it with context. */
static char bm_err[4096];
static char bm_err_save[4096];

/* Callbacks invoked with a wrong argument pointer since the last reset. */
static long bm_arg_errors;

/* Record a failure message in bm_err; always returns false. */
static inline bool bm_fail(const char *fmt,...)
			__attribute__((format(printf, 1, 2)));

/* Record a failure message in bm_err; always returns false. */
static inline bool
bm_fail(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(bm_err, sizeof(bm_err), fmt, ap);
	va_end(ap);
	return false;
}

/* ------------------------------------------------------------------------
 * Deterministic PRNG (xorshift64*)
 * ------------------------------------------------------------------------
 */
typedef struct BmRng
{
	uint64_t	s;
} BmRng;

/* Seed a generator; any seed (including 0) is fine. */
static inline void
bm_rng_seed(BmRng *r, uint64_t seed)
{
	r->s = seed * UINT64_C(0x9E3779B97F4A7C15) + UINT64_C(0x632BE59BD9B4E019);
	if (r->s == 0)
		r->s = 1;
}

/* Next 64 random bits. */
static inline uint64_t
bm_rng_next(BmRng *r)
{
	uint64_t	x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* Uniform-ish integer in [0, n); 0 when n is 0. */
static inline uint32_t
bm_rng_below(BmRng *r, uint32_t n)
{
	if (n == 0)
		return 0;
	return (uint32_t) ((bm_rng_next(r) >> 16) % n);
}

/* ------------------------------------------------------------------------
 * Source of decisions: fuzz input bytes, or the PRNG
 * ------------------------------------------------------------------------
 */
typedef struct BmSource
{
	const uint8_t *data;		/* fuzz input, or NULL to use rng only */
	size_t		len;
	size_t		pos;
	bool		exhausted;		/* data ran out (rng used from then on) */
	BmRng		rng;
} BmSource;

/* A source drawing every decision from a seeded PRNG. */
static inline void
bm_source_rng(BmSource *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	bm_rng_seed(&s->rng, seed);
}

/* A source drawing decisions from fuzz input bytes. */
static inline void
bm_source_data(BmSource *s, const uint8_t *data, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->data = data;
	s->len = len;
	bm_rng_seed(&s->rng, len);
}

/* A value in [0, n), consuming as few input bytes as possible. */
static inline uint32_t
bm_src_below(BmSource *s, uint32_t n)
{
	uint32_t	v = 0;
	int			nbytes;
	int			i;

	if (n <= 1)
		return 0;
	if (s->data == NULL || s->exhausted)
		return bm_rng_below(&s->rng, n);
	nbytes = n <= 256 ? 1 : (n <= 65536 ? 2 : 4);
	for (i = 0; i < nbytes; i++)
	{
		if (s->pos >= s->len)
		{
			s->exhausted = true;
			return bm_rng_below(&s->rng, n);
		}
		v = (v << 8) | s->data[s->pos++];
	}
	return v % n;
}

/* ------------------------------------------------------------------------
 * Slots and callbacks
 * ------------------------------------------------------------------------
 */

/* Comparator argument; the comparator verifies it is passed through. */
typedef struct BmCmpArg
{
	uint32_t	magic;
	uint16_t	width;			/* 8 (narrow) or 24 (wide) */
	uint64_t	ncalls;
} BmCmpArg;

/* Key of a slot. */
static inline int64_t
bm_slot_key(uint16_t width, const void *slot)
{
	if (width == 8)
	{
		int32_t		k;

		memcpy(&k, slot, sizeof(k));
		return k;
	}
	else
	{
		int64_t		k;

		memcpy(&k, slot, sizeof(k));
		return k;
	}
}

/* Tid (tie breaker) of a slot. */
static inline uint32_t
bm_slot_tid(uint16_t width, const void *slot)
{
	uint32_t	t;

	memcpy(&t, (const char *) slot + (width == 8 ? 4 : 8), sizeof(t));
	return t;
}

/* Build a slot; padding bytes (wide slots only) are random. */
static inline void
bm_slot_make(uint16_t width, char *out, int64_t key, uint32_t tid, BmRng *rng)
{
	int			i;

	if (width == 8)
	{
		int32_t		k = (int32_t) key;

		memcpy(out, &k, 4);
		memcpy(out + 4, &tid, 4);
	}
	else
	{
		memcpy(out, &key, 8);
		memcpy(out + 8, &tid, 4);
		for (i = 12; i < width; i++)
			out[i] = (char) bm_rng_next(rng);
	}
}

/* Printable form of a slot (a few rotating static buffers). */
static inline const char *
bm_slot_str(uint16_t width, const void *slot)
{
	static char bufs[8][64];
	static int	next;
	char	   *b = bufs[next++ % 8];
	int64_t		key = bm_slot_key(width, slot);

	if (width != 8)
		key /= BM_WIDE_KEY_MULT;
	snprintf(b, 64, "(%lld,%u)", (long long) key,
			 (unsigned) bm_slot_tid(width, slot));
	return b;
}

/* The comparator handed to the module: (key, tid), padding ignored. */
static inline int
bm_cmp(const void *a, const void *b, void *arg)
{
	BmCmpArg   *ca = (BmCmpArg *) arg;
	int64_t		ka,
				kb;
	uint32_t	ta,
				tb;

	if (ca == NULL || ca->magic != BM_CMP_MAGIC)
	{
		bm_arg_errors++;
		return 0;
	}
	ca->ncalls++;
	ka = bm_slot_key(ca->width, a);
	kb = bm_slot_key(ca->width, b);
	if (ka != kb)
		return ka < kb ? -1 : 1;
	ta = bm_slot_tid(ca->width, a);
	tb = bm_slot_tid(ca->width, b);
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return 0;
}

#define BM_BOUND_NONE	0		/* unbounded */
#define BM_BOUND_SLOT	1		/* bound is a slot, compared with bm_cmp */
#define BM_BOUND_KEY	2		/* bound is a key only */

/* Argument of the range predicates: [lo, hi], either side optional. */
typedef struct BmRange
{
	uint32_t	magic;
	BmCmpArg   *ca;
	int			lo_mode;
	int			hi_mode;
	char		lo[BM_MAX_WIDTH];
	char		hi[BM_MAX_WIDTH];
	int64_t		lo_key;
	int64_t		hi_key;
} BmRange;

/* before_start predicate: true for entries below the range. */
static inline bool
bm_before_start(const void *slot, void *arg)
{
	BmRange    *r = (BmRange *) arg;

	if (r == NULL || r->magic != BM_RANGE_MAGIC)
	{
		bm_arg_errors++;
		return false;
	}
	switch (r->lo_mode)
	{
		case BM_BOUND_SLOT:
			return bm_cmp(slot, r->lo, r->ca) < 0;
		case BM_BOUND_KEY:
			return bm_slot_key(r->ca->width, slot) < r->lo_key;
		default:
			return false;
	}
}

/* after_end predicate: true for entries above the range. */
static inline bool
bm_after_end(const void *slot, void *arg)
{
	BmRange    *r = (BmRange *) arg;

	if (r == NULL || r->magic != BM_RANGE_MAGIC)
	{
		bm_arg_errors++;
		return false;
	}
	switch (r->hi_mode)
	{
		case BM_BOUND_SLOT:
			return bm_cmp(slot, r->hi, r->ca) > 0;
		case BM_BOUND_KEY:
			return bm_slot_key(r->ca->width, slot) > r->hi_key;
		default:
			return false;
	}
}

/* State of a bpa_map() visitor: collects visited slots. */
typedef struct BmVisit
{
	uint32_t	magic;
	uint16_t	width;
	int			n;				/* calls so far */
	int			cap;			/* room in buf, in slots */
	char	   *buf;
} BmVisit;

/* bpa_map() callback: remember the slot. */
static inline void
bm_visit(const void *slot, void *arg)
{
	BmVisit    *v = (BmVisit *) arg;

	if (v == NULL || v->magic != BM_VISIT_MAGIC)
	{
		bm_arg_errors++;
		return;
	}
	if (v->n < v->cap)
		memcpy(v->buf + (size_t) v->n * v->width, slot, v->width);
	v->n++;
}

/* ------------------------------------------------------------------------
 * Guarded allocations: detect writes just outside a buffer even without
 * AddressSanitizer.
 * ------------------------------------------------------------------------
 */

/* Allocate size bytes (filled with fill) between two guard zones. */
static inline char *
bm_galloc(size_t size, int fill)
{
	unsigned char *p = malloc(size + 2 * BM_GUARD);

	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		abort();
	}
	memset(p, 0xA5, BM_GUARD);
	memset(p + BM_GUARD, fill, size);
	memset(p + BM_GUARD + size, 0x5A, BM_GUARD);
	return (char *) p + BM_GUARD;
}

/* True if both guard zones of a bm_galloc() buffer are intact. */
static inline bool
bm_gcheck(const char *p, size_t size)
{
	const unsigned char *u = (const unsigned char *) p;
	int			i;

	for (i = 0; i < BM_GUARD; i++)
	{
		if (u[-1 - i] != 0xA5 || u[size + i] != 0x5A)
			return false;
	}
	return true;
}

/* Free a bm_galloc() buffer. */
static inline void
bm_gfree(char *p)
{
	if (p != NULL)
		free(p - BM_GUARD);
}

/* ------------------------------------------------------------------------
 * The model: a sorted array of distinct slots
 * ------------------------------------------------------------------------
 */
typedef struct BmModel
{
	uint16_t	width;
	int			n;
	int			cap;
	char	   *slots;
} BmModel;

/* Address of model entry i. */
static inline char *
bm_model_at(const BmModel *m, int i)
{
	return m->slots + (size_t) i * m->width;
}

/* Index of the first entry >= slot; *found tells whether it is equal. */
static inline int
bm_model_lower(const BmModel *m, const void *slot, BmCmpArg *ca, bool *found)
{
	int			lo = 0,
				hi = m->n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (bm_cmp(bm_model_at(m, mid), slot, ca) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < m->n && bm_cmp(bm_model_at(m, lo), slot, ca) == 0;
	return lo;
}

/* Insert slot at position pos (room must exist). */
static inline void
bm_model_insert_at(BmModel *m, int pos, const void *slot)
{
	if (m->n >= m->cap)
	{
		fprintf(stderr, "model overflow\n");
		abort();
	}
	memmove(bm_model_at(m, pos + 1), bm_model_at(m, pos),
			(size_t) (m->n - pos) * m->width);
	memcpy(bm_model_at(m, pos), slot, m->width);
	m->n++;
}

/* Delete the entry at position pos. */
static inline void
bm_model_delete_at(BmModel *m, int pos)
{
	memmove(bm_model_at(m, pos), bm_model_at(m, pos + 1),
			(size_t) (m->n - pos - 1) * m->width);
	m->n--;
}

/* Insert slot unless an equal one is present; true if inserted. */
static inline bool
bm_model_add(BmModel *m, const void *slot, BmCmpArg *ca)
{
	bool		found;
	int			pos = bm_model_lower(m, slot, ca, &found);

	if (found)
		return false;
	bm_model_insert_at(m, pos, slot);
	return true;
}

/* ------------------------------------------------------------------------
 * The engine
 * ------------------------------------------------------------------------
 */

/* One BPA region and its model. */
typedef struct BmInst
{
	char	   *region;
	BmModel		model;
} BmInst;

/* Counters, for reporting what a run exercised. */
typedef struct BmStats
{
	long		inserted;
	long		duplicate;
	long		full;
	long		full_wrote_free_log;	/* BPA_FULL that wrote a free log slot */
	long		flushes;
	long		ascending;		/* bpa_store_ascending calls */
	long		log_appends;	/* bpa_append_to_log calls that appended */
	long		crowded;		/* bpa_try_insert returning BPA_CROWDED */
	long		streams;		/* bpa_stream_rank finding a stream */
	long		no_streams;		/* bpa_stream_rank finding none */
	long		removed;
	long		remove_missing;
	long		found;
	long		not_found;
	long		sorted;
	long		sorted_parts;	/* bpa_sorted_part calls that cut */
	long		maps;
	long		splits;
	long		builds;
	long		sort_slots;
} BmStats;

/* Decoded fixed header plus block_count[] of a region. */
typedef struct BmHdr
{
	BpaHeader	h;
	uint16_t	bc[BM_MAX_BLOCKS];
} BmHdr;

typedef struct BmEngine
{
	BpaLayout	layout;
	size_t		region_size;	/* bytes in each region (>= needed) */
	uint16_t	width;
	int			capacity;		/* bpa_block_capacity() */
	int			max_entries;	/* capacity + log_size - 1 */
	int			key_domain;		/* keys in [-key_domain/2, key_domain/2) */
	uint32_t	tid_domain;		/* tids in [0, tid_domain) */
	int			verify_every;	/* full verification interval in bulk ops */
	BmCmpArg	cmparg;
	BmRng		rng;			/* padding bytes and scratch garbage */
	BmInst		inst[2];		/* inst[cur]: under test; other: split target */
	int			cur;
	char	   *scratch;
	size_t		scratch_size;
	char	   *snapshot;		/* copy of a region before an operation */
	char	   *query;			/* exact-size buffer for argument slots */
	long		opno;
	const char *opname;
	bool		try_first;		/* insert by bpa_try_insert + bpa_redistribute */
	BmStats		stats;
} BmEngine;

/* The instance currently under test. */
static inline BmInst *
bm_main(BmEngine *e)
{
	return &e->inst[e->cur];
}

/* The split target. */
static inline BmInst *
bm_spare(BmEngine *e)
{
	return &e->inst[1 - e->cur];
}

/* Release everything the engine allocated. */
static inline void
bm_engine_free(BmEngine *e)
{
	int			i;

	for (i = 0; i < 2; i++)
	{
		bm_gfree(e->inst[i].region);
		free(e->inst[i].model.slots);
		e->inst[i].region = NULL;
		e->inst[i].model.slots = NULL;
	}
	bm_gfree(e->scratch);
	free(e->snapshot);
	free(e->query);
	e->scratch = NULL;
	e->snapshot = NULL;
	e->query = NULL;
}

/*
 * Set up an engine for a layout; region_size is the number of bytes each
 * region gets (0: exactly bpa_region_size()).  Both regions are
 * initialized with bpa_init().
 */
static inline bool
bm_engine_init(BmEngine *e, const BpaLayout *layout, size_t region_size,
			   int key_domain, uint32_t tid_domain, uint64_t seed)
{
	int			i;
	size_t		need;

	memset(e, 0, sizeof(*e));
	e->layout = *layout;
	e->width = layout->slot_width;
	if (!bpa_layout_valid(layout))
		return bm_fail("layout %u/%u/%u/%u not valid",
					   layout->slot_width, layout->log_size,
					   layout->num_blocks, layout->block_size);
	if (layout->slot_width > BM_MAX_WIDTH || layout->num_blocks > BM_MAX_BLOCKS)
		return bm_fail("layout too large for the test harness");
	need = bpa_region_size(layout);
	e->region_size = region_size ? region_size : need;
	if (need > e->region_size)
		return bm_fail("bpa_region_size %zu > region %zu", need, e->region_size);
	e->capacity = bpa_block_capacity(layout);
	e->max_entries = e->capacity + layout->log_size - 1;
	e->key_domain = key_domain;
	e->tid_domain = tid_domain;
	e->verify_every = 1;
	e->cmparg.magic = BM_CMP_MAGIC;
	e->cmparg.width = layout->slot_width;
	bm_rng_seed(&e->rng, seed ^ UINT64_C(0x5bd1e995));
	e->scratch_size = bpa_scratch_size(layout);
	e->scratch = bm_galloc(e->scratch_size, 0xEE);
	e->snapshot = malloc(e->region_size);
	e->query = malloc(e->width);
	if (e->snapshot == NULL || e->query == NULL)
		abort();
	for (i = 0; i < 2; i++)
	{
		BmInst	   *in = &e->inst[i];

		in->region = bm_galloc(e->region_size, 0xCC);
		in->model.width = e->width;
		in->model.n = 0;
		in->model.cap = e->max_entries + 2;
		in->model.slots = malloc((size_t) in->model.cap * e->width);
		if (in->model.slots == NULL)
			abort();
		bpa_init(in->region, layout);
	}
	bm_arg_errors = 0;
	return true;
}

/* Fill the scratch buffer with garbage so stale contents can't help. */
static inline void
bm_scribble(BmEngine *e)
{
	memset(e->scratch, (int) (bm_rng_next(&e->rng) & 0xFF), e->scratch_size);
}

/* Decode the fixed header and block counts of a region. */
static inline void
bm_read_hdr(const BmEngine *e, const char *region, BmHdr *hdr)
{
	int			i;

	memcpy(&hdr->h, region, sizeof(BpaHeader));
	for (i = 0; i < e->layout.num_blocks; i++)
		memcpy(&hdr->bc[i], region + sizeof(BpaHeader) + 2 * (size_t) i, 2);
}

/* Check the header fields of a region against the layout and the model. */
static inline bool
bm_check_hdr(BmEngine *e, BmInst *in)
{
	BmHdr		hdr;
	int			i;
	long		sum = 0;
	const BpaLayout *l = &e->layout;

	bm_read_hdr(e, in->region, &hdr);
	if (memcmp(&hdr.h.layout, l, sizeof(BpaLayout)) != 0)
		return bm_fail("layout in region changed to %u/%u/%u/%u",
					   hdr.h.layout.slot_width, hdr.h.layout.log_size,
					   hdr.h.layout.num_blocks, hdr.h.layout.block_size);
	if (hdr.h.nentries != in->model.n)
		return bm_fail("header nentries %u, model has %d",
					   hdr.h.nentries, in->model.n);
	if (hdr.h.log_count >= l->log_size)
		return bm_fail("log_count %u >= log_size %u",
					   hdr.h.log_count, l->log_size);
	if (hdr.h.used_blocks > l->num_blocks)
		return bm_fail("used_blocks %u > num_blocks %u",
					   hdr.h.used_blocks, l->num_blocks);
	for (i = 0; i < l->num_blocks; i++)
	{
		if (hdr.bc[i] >= l->block_size)
			return bm_fail("block %d holds %u >= block_size %u",
						   i, hdr.bc[i], l->block_size);
		if (i >= hdr.h.used_blocks && hdr.bc[i] != 0)
			return bm_fail("block %d past used_blocks %u holds %u",
						   i, hdr.h.used_blocks, hdr.bc[i]);
		sum += hdr.bc[i];
	}
	if (sum + hdr.h.log_count != in->model.n)
		return bm_fail("log_count %u + block counts %ld != %d entries",
					   hdr.h.log_count, sum, in->model.n);
	return true;
}

/*
 * bpa_count_marked over a pseudo-random bitmap of the region's positions:
 * the set bits at positions that hold entries, counted one by one.
 */
static inline bool
bm_check_count_marked(BmEngine *e, BmInst *in, size_t nslots)
{
	uint8_t    *marks = calloc(nslots / 8 + 1, 1);
	uint32_t	seed = (uint32_t) in->model.n * 2654435761u + 12345u;
	int			expected = 0;
	int			got;

	(void) e;
	if (marks == NULL)
		abort();
	for (size_t pos = 0; pos < nslots; pos++)
	{
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) % 3 == 0)
			continue;
		marks[pos / 8] |= (uint8_t) (1 << (pos % 8));
		if (bpa_position_holds_entry(in->region, pos))
			expected++;
	}
	got = bpa_count_marked(in->region, marks);
	free(marks);
	if (got != expected)
		return bm_fail("bpa_count_marked counted %d marked entries, expected %d",
					   got, expected);
	return true;
}

/*
 * bpa_position_holds_entry: true at exactly the model's entries, each
 * position holding the entry bpa_find finds there, false past the blocks.
 */
static inline bool
bm_check_positions(BmEngine *e, BmInst *in)
{
	const BpaLayout *l = &e->layout;
	size_t		nslots = (size_t) l->log_size +
		(size_t) l->num_blocks * (1 + l->block_size);
	const char *first = bpa_log_entry(in->region, 0);
	int			held = 0;

	for (size_t pos = 0; pos < nslots + l->block_size; pos++)
	{
		const char *slot = first + pos * e->width;

		if (!bpa_position_holds_entry(in->region, pos))
			continue;
		if (pos >= nslots)
			return bm_fail("bpa_position_holds_entry true at %zu, past the %zu slots",
						   pos, nslots);
		if (bpa_find(in->region, slot, bm_cmp, &e->cmparg) != slot)
			return bm_fail("bpa_position_holds_entry true at %zu, but bpa_find finds that entry elsewhere",
						   pos);
		held++;
	}
	if (held != in->model.n)
		return bm_fail("bpa_position_holds_entry true at %d positions, model has %d entries",
					   held, in->model.n);
	return bm_check_count_marked(e, in, nslots);
}

/*
 * Full verification of one instance: guards, bpa_check, bpa_count,
 * bpa_layout, header fields and the complete content via bpa_sorted().
 */
static inline bool
bm_verify(BmEngine *e, BmInst *in)
{
	const char *msg;
	const BpaLayout *lp;
	char	   *out;
	int			n = in->model.n;
	int			cnt;
	int			i;

	if (bm_arg_errors != 0)
		return bm_fail("a callback got a wrong argument pointer (%ld times)",
					   bm_arg_errors);
	if (!bm_gcheck(in->region, e->region_size))
		return bm_fail("write outside the region detected (guard bytes changed)");
	if (!bm_gcheck(e->scratch, e->scratch_size))
		return bm_fail("write outside the scratch buffer (%zu bytes) detected",
					   e->scratch_size);
	msg = bpa_check_shape(in->region, e->region_size);
	if (msg != NULL)
		return bm_fail("bpa_check_shape: %s", msg);
	msg = bpa_check(in->region, e->region_size, bm_cmp, &e->cmparg);
	if (msg != NULL)
		return bm_fail("bpa_check: %s", msg);
	if (bpa_count(in->region) != n)
		return bm_fail("bpa_count %d, model has %d", bpa_count(in->region), n);
	lp = bpa_layout(in->region);
	if ((uintptr_t) lp < (uintptr_t) in->region ||
		(uintptr_t) lp + sizeof(BpaLayout) > (uintptr_t) in->region + e->region_size)
		return bm_fail("bpa_layout returned a pointer outside the region");
	if (memcmp(lp, &e->layout, sizeof(BpaLayout)) != 0)
		return bm_fail("bpa_layout differs from the layout given to bpa_init");
	if (!bm_check_hdr(e, in))
		return false;
	if (!bm_check_positions(e, in))
		return false;

	out = bm_galloc((size_t) n * e->width, 0xDD);
	memcpy(e->snapshot, in->region, e->region_size);
	bm_scribble(e);
	cnt = bpa_sorted(in->region, bm_cmp, &e->cmparg, NULL, NULL, NULL, out, e->scratch);
	if (!bm_gcheck(out, (size_t) n * e->width))
	{
		bm_gfree(out);
		return bm_fail("bpa_sorted wrote outside out (room for %d slots)", n);
	}
	if (memcmp(e->snapshot, in->region, e->region_size) != 0)
	{
		bm_gfree(out);
		return bm_fail("bpa_sorted modified the region");
	}
	if (cnt != n)
	{
		bm_gfree(out);
		return bm_fail("bpa_sorted(NULL) returned %d, model has %d", cnt, n);
	}
	for (i = 0; i < n; i++)
	{
		if (memcmp(out + (size_t) i * e->width, bm_model_at(&in->model, i),
				   e->width) != 0)
		{
			const char *got = bm_slot_str(e->width, out + (size_t) i * e->width);
			const char *want = bm_slot_str(e->width, bm_model_at(&in->model, i));
			bool		same = bm_cmp(out + (size_t) i * e->width,
									  bm_model_at(&in->model, i), &e->cmparg) == 0;

			bm_gfree(out);
			return bm_fail("content differs at position %d of %d: got %s%s, expected %s",
						   i, n, got, same ? " (padding bytes differ)" : "", want);
		}
	}
	bm_gfree(out);
	if (!bm_gcheck(e->scratch, e->scratch_size))
		return bm_fail("bpa_sorted wrote outside the scratch buffer");
	return true;
}

/* A value in [0, n) from s, or from the engine's PRNG if s is NULL. */
static inline uint32_t
bm_pick(BmEngine *e, BmSource *s, uint32_t n)
{
	return s != NULL ? bm_src_below(s, n) : bm_rng_below(&e->rng, n);
}

/* A random slot from the key/tid domains (may or may not be stored). */
static inline void
bm_gen_slot(BmEngine *e, BmSource *s, char *out)
{
	int64_t		key = (int64_t) bm_pick(e, s, (uint32_t) e->key_domain) -
		e->key_domain / 2;
	uint32_t	tid = bm_pick(e, s, e->tid_domain);

	if (e->width != 8)
		key *= BM_WIDE_KEY_MULT;
	bm_slot_make(e->width, out, key, tid, &e->rng);
}

/*
 * A copy of a random stored entry with fresh padding; false if the model
 * is empty.
 */
static inline bool
bm_gen_existing(BmEngine *e, BmInst *in, BmSource *s, char *out)
{
	const char *src;

	if (in->model.n == 0)
		return false;
	src = bm_model_at(&in->model, (int) bm_pick(e, s, (uint32_t) in->model.n));
	bm_slot_make(e->width, out, bm_slot_key(e->width, src),
				 bm_slot_tid(e->width, src), &e->rng);
	return true;
}

/* A random slot that is not stored (the domain must not be exhausted). */
static inline void
bm_gen_new(BmEngine *e, BmInst *in, BmSource *s, char *out)
{
	bool		found;
	int			tries = 0;

	do
	{
		bm_gen_slot(e, tries < 64 ? s : NULL, out);
		bm_model_lower(&in->model, out, &e->cmparg, &found);
		tries++;
	} while (found && tries < 100000);
}

/* Is slot stored (by the model)? */
static inline bool
bm_model_contains(BmEngine *e, BmInst *in, const char *slot)
{
	bool		found;

	bm_model_lower(&in->model, slot, &e->cmparg, &found);
	return found;
}

/*
 * Byte offset of the log: after BpaHeader, block_count[num_blocks] and the
 * sorted bits, padded to 8 bytes (the region layout described in bpa.h
 * and bpa.c).
 */
static inline size_t
bm_log_offset(const BpaLayout *l)
{
	size_t		off = sizeof(BpaHeader) + 2 * (size_t) l->num_blocks +
		((size_t) l->num_blocks + 7) / 8;

	return (off + 7) & ~(size_t) 7;
}

/*
 * True if regions a and b are byte-identical except for the free log
 * slots [log_count, log_size), whose bytes are not part of the content.
 */
static inline bool
bm_same_but_free_log(const BmEngine *e, const char *a, const char *b,
					 int log_count)
{
	size_t		from = bm_log_offset(&e->layout) + (size_t) log_count * e->width;
	size_t		to = bm_log_offset(&e->layout) + (size_t) e->layout.log_size * e->width;

	if (to > e->region_size || from > to)
		return memcmp(a, b, e->region_size) == 0;
	return memcmp(a, b, from) == 0 &&
		memcmp(a + to, b + to, e->region_size - to) == 0;
}

/*
 * bpa_stream_rank() of slot, which is not stored, against the model: the
 * log's entries and slot form a stream when slot is the highest of them
 * and every stored entry strictly between their lowest and slot is one of
 * them, and the rank is then the number of stored entries below slot,
 * plus slot.
 */
static bool
bm_check_stream_rank(BmEngine *e, BmInst *in, const char *slot)
{
	const char *lo = slot;
	const char *hi = slot;
	int			nlog = bpa_log_count(in->region);
	int			want = 1;
	int			got;

	memcpy(e->snapshot, in->region, e->region_size);
	for (int i = 0; i < nlog; i++)
	{
		const char *entry = bpa_log_entry(in->region, i);

		if (bm_cmp(entry, lo, &e->cmparg) < 0)
			lo = entry;
		if (bm_cmp(entry, hi, &e->cmparg) > 0)
			hi = entry;
	}
	if (hi != slot)
		want = -1;
	for (int k = 0; k < in->model.n && want > 0; k++)
	{
		const char *m = bm_model_at(&in->model, k);
		bool		in_log = false;

		if (bm_cmp(m, hi, &e->cmparg) > 0)
			break;
		want++;
		for (int i = 0; i < nlog && !in_log; i++)
			in_log = bm_cmp(m, bpa_log_entry(in->region, i), &e->cmparg) == 0;
		if (!in_log && bm_cmp(m, lo, &e->cmparg) > 0 && bm_cmp(m, hi, &e->cmparg) < 0)
			want = -1;
	}
	memcpy(e->query, slot, e->width);
	got = bpa_stream_rank(in->region, e->query, bm_cmp, &e->cmparg);
	if (memcmp(e->snapshot, in->region, e->region_size) != 0)
		return bm_fail("bpa_stream_rank changed the region");
	if (got != want)
		return bm_fail("bpa_stream_rank of %s with %d logged gave %d, expected %d",
					   bm_slot_str(e->width, slot), nlog, got, want);
	if (got < 0)
		e->stats.no_streams++;
	else
		e->stats.streams++;
	return true;
}

/*
 * bpa_try_insert returned BPA_CROWDED: allowed only for a new slot that
 * fills the log, when the entries would fit the blocks, and it must not
 * have changed the region outside the free log slots.
 */
static bool
bm_crowded_ok(BmEngine *e, BmInst *in, const BmHdr *before, int n0, bool found)
{
	if (found)
		return bm_fail("bpa_try_insert of a stored slot returned BPA_CROWDED");
	if (before->h.log_count != e->layout.log_size - 1 || n0 + 1 > e->capacity)
		return bm_fail("BPA_CROWDED with log %u of %u and %d entries (block capacity %d)",
					   before->h.log_count, e->layout.log_size, n0, e->capacity);
	if (!bm_same_but_free_log(e, e->snapshot, in->region, before->h.log_count))
		return bm_fail("bpa_try_insert returning BPA_CROWDED changed the region");
	e->stats.crowded++;
	return true;
}

/*
 * Insert slot and compare the outcome with the model.  With full, verify
 * everything afterwards; otherwise only the cheap header checks.
 */
static inline bool
bm_do_insert(BmEngine *e, BmInst *in, const char *slot, bool full,
			 BpaInsertResult *result)
{
	bool		found;
	int			pos = bm_model_lower(&in->model, slot, &e->cmparg, &found);
	int			n0 = in->model.n;
	BmHdr		before,
				after;
	BpaInsertResult r;
	int			i;

	memcpy(e->snapshot, in->region, e->region_size);
	bm_read_hdr(e, in->region, &before);
	memcpy(e->query, slot, e->width);
	bm_scribble(e);
	if (e->try_first)
	{
		r = bpa_try_insert(in->region, e->query, bm_cmp, &e->cmparg, e->scratch);
		if (r == BPA_CROWDED &&
			!bm_crowded_ok(e, in, &before, n0, found))
			return false;
		if (r == BPA_CROWDED)
		{
			bm_scribble(e);
			bpa_redistribute(in->region, e->query, bm_cmp, &e->cmparg, e->scratch);
			r = BPA_INSERTED;
		}
	}
	else
		r = bpa_insert(in->region, e->query, bm_cmp, &e->cmparg, e->scratch);
	if (result != NULL)
		*result = r;
	if (memcmp(e->query, slot, e->width) != 0)
		return bm_fail("bpa_insert modified the slot it was given");
	if (found)
	{
		if (r != BPA_DUPLICATE)
			return bm_fail("insert of stored %s returned %d, expected BPA_DUPLICATE",
						   bm_slot_str(e->width, slot), (int) r);
		if (memcmp(e->snapshot, in->region, e->region_size) != 0)
			return bm_fail("insert returning BPA_DUPLICATE changed the region");
		e->stats.duplicate++;
	}
	else if (r != BPA_INSERTED && r != BPA_FULL)
	{
		if (r == BPA_DUPLICATE)
			return bm_fail("BPA_DUPLICATE for %s, which is not stored",
						   bm_slot_str(e->width, slot));
		return bm_fail("bpa_insert returned invalid value %d", (int) r);
	}
	else
	{
		/*
		 * The outcome is determined: the entry goes to the log; only when
		 * that fills the log must everything fit in the blocks, which
		 * hold at most block capacity entries.
		 */
		bool		log_fills = before.h.log_count == e->layout.log_size - 1;
		BpaInsertResult want = (log_fills && n0 + 1 > e->capacity) ?
		BPA_FULL : BPA_INSERTED;

		if (r != want)
			return bm_fail("insert of new %s with %d entries (block capacity %d, log %u of %u) returned %s, expected %s",
						   bm_slot_str(e->width, slot), n0, e->capacity,
						   before.h.log_count, e->layout.log_size,
						   r == BPA_FULL ? "BPA_FULL" : "BPA_INSERTED",
						   want == BPA_FULL ? "BPA_FULL" : "BPA_INSERTED");
		if (r == BPA_FULL)
		{
			if (!bm_same_but_free_log(e, e->snapshot, in->region,
									  before.h.log_count))
				return bm_fail("insert returning BPA_FULL changed the region (outside the free log slots)");
			if (memcmp(e->snapshot, in->region, e->region_size) != 0)
				e->stats.full_wrote_free_log++;
			e->stats.full++;
		}
		else
		{
			bm_model_insert_at(&in->model, pos, slot);
			bm_read_hdr(e, in->region, &after);
			if (log_fills)
			{
				if (after.h.log_count != 0)
					return bm_fail("log became full (log_size %u) but log_count is %u after the insert",
								   e->layout.log_size, after.h.log_count);
				e->stats.flushes++;
			}
			else
			{
				if (after.h.log_count != before.h.log_count + 1)
					return bm_fail("insert into a non-full log: log_count %u -> %u",
								   before.h.log_count, after.h.log_count);
				if (after.h.used_blocks != before.h.used_blocks)
					return bm_fail("insert without flush changed used_blocks %u -> %u",
								   before.h.used_blocks, after.h.used_blocks);
				for (i = 0; i < e->layout.num_blocks; i++)
				{
					if (after.bc[i] != before.bc[i])
						return bm_fail("insert without flush changed block %d count %u -> %u",
									   i, before.bc[i], after.bc[i]);
				}
			}
			e->stats.inserted++;
		}
	}

	if (bpa_count(in->region) != in->model.n)
		return bm_fail("bpa_count %d after insert, model has %d",
					   bpa_count(in->region), in->model.n);
	if (!bm_gcheck(e->scratch, e->scratch_size))
		return bm_fail("bpa_insert wrote outside the scratch buffer");
	if (!bm_gcheck(in->region, e->region_size))
		return bm_fail("bpa_insert wrote outside the region");
	if (full)
		return bm_verify(e, in);
	return bm_check_hdr(e, in);
}

/*
 * The byte ranges an operation reported as changed (at least min_n, in
 * ascending order, inside the region) must cover every byte in which the
 * region differs from e->snapshot.
 */
static inline bool
bm_check_touched(BmEngine *e, BmInst *in, const BpaTouched *touched,
				 int min_n, const char *op)
{
	char	   *changed = calloc(e->region_size, 1);
	bool		ok = true;

	if (changed == NULL)
		abort();
	if (touched->n < min_n || touched->n > BPA_MAX_TOUCHED)
		ok = bm_fail("%s reported %d changed ranges", op, touched->n);
	for (int i = 0; ok && i < touched->n; i++)
	{
		if (touched->offset[i] + touched->length[i] > e->region_size ||
			(i > 0 && touched->offset[i] < touched->offset[i - 1] + touched->length[i - 1]))
			ok = bm_fail("%s reported range %d [%zu, +%zu) out of order or outside the region",
						 op, i, touched->offset[i], touched->length[i]);
		else
			memset(changed + touched->offset[i], 1, touched->length[i]);
	}
	for (size_t i = 0; ok && i < e->region_size; i++)
		if (!changed[i] && e->snapshot[i] != in->region[i])
			ok = bm_fail("%s changed byte %zu, outside the ranges it reported", op, i);
	free(changed);
	return ok;
}

/*
 * bpa_ascending_block() and bpa_store_ascending() of slot, which is not
 * stored: a block must be chosen exactly when slot sorts after every entry
 * of the last used block, that block is sorted and not empty, and it or an
 * unused block (with slot above the last header slot) has room; the store
 * may change only the byte ranges it reports.
 */
static inline bool
bm_do_append_ascending(BmEngine *e, BmInst *in, const char *slot)
{
	bool		found;
	int			pos = bm_model_lower(&in->model, slot, &e->cmparg, &found);
	BmHdr		before;
	BpaTouched	touched;
	int			last;
	int			b;
	bool		expect;
	bool		stored;

	if (found)
		return true;			/* the caller guarantees new slots */
	memcpy(e->snapshot, in->region, e->region_size);
	bm_read_hdr(e, in->region, &before);
	last = before.h.used_blocks - 1;
	expect = last >= 0 && before.bc[last] > 0 &&
		bpa_block_sorted(in->region, last) &&
		bm_cmp(slot, bpa_block_entry(in->region, last, before.bc[last] - 1),
			   &e->cmparg) > 0 &&
		(before.bc[last] + 1 < e->layout.block_size ||
		 (before.h.used_blocks < e->layout.num_blocks &&
		  bm_cmp(slot, bpa_header_entry(in->region, last), &e->cmparg) > 0));
	b = bpa_ascending_block(in->region, slot, bm_cmp, &e->cmparg);
	stored = b >= 0;
	if (stored != expect)
		return bm_fail("bpa_ascending_block of %s gave %d, expected %s",
					   bm_slot_str(e->width, slot), b, expect ? "a block" : "-1");
	if (memcmp(e->snapshot, in->region, e->region_size) != 0)
		return bm_fail("bpa_ascending_block changed the region");
	if (!stored)
		return true;
	if (b != (before.bc[last] + 1 < e->layout.block_size ? last : last + 1))
		return bm_fail("bpa_ascending_block gave block %d with %d used, the last holding %u",
					   b, before.h.used_blocks, before.bc[last]);
	bpa_store_ascending(in->region, b, slot, &touched);
	bm_model_insert_at(&in->model, pos, slot);
	if (!bm_check_touched(e, in, &touched, 3, "bpa_store_ascending"))
		return false;
	e->stats.ascending++;
	return bm_verify(e, in);
}

/*
 * bpa_append_to_log() of slot, which is not stored: it must append exactly
 * when the log keeps a free slot afterwards, change nothing otherwise, and
 * change only the byte ranges it reports.  Sets *appended.
 */
static inline bool
bm_do_append_log(BmEngine *e, BmInst *in, const char *slot, bool *appended)
{
	bool		found;
	int			pos = bm_model_lower(&in->model, slot, &e->cmparg, &found);
	bool		expect = bpa_log_count(in->region) + 1 < e->layout.log_size;
	BpaTouched	touched;

	*appended = false;
	if (found)
		return true;			/* the caller guarantees new slots */
	memcpy(e->snapshot, in->region, e->region_size);
	*appended = bpa_append_to_log(in->region, slot, &touched);
	if (*appended != expect)
		return bm_fail("bpa_append_to_log of %s with %d of %u log slots used returned %d",
					   bm_slot_str(e->width, slot), bpa_log_count(e->snapshot),
					   e->layout.log_size, (int) *appended);
	if (!*appended)
	{
		if (memcmp(e->snapshot, in->region, e->region_size) != 0)
			return bm_fail("bpa_append_to_log refusing the slot changed the region");
		return true;
	}
	bm_model_insert_at(&in->model, pos, slot);
	if (!bm_check_touched(e, in, &touched, 2, "bpa_append_to_log"))
		return false;
	e->stats.log_appends++;
	return bm_verify(e, in);
}

/* Remove slot and compare the outcome with the model. */
static inline bool
bm_do_remove(BmEngine *e, BmInst *in, const char *slot, bool full)
{
	bool		found;
	int			pos = bm_model_lower(&in->model, slot, &e->cmparg, &found);
	bool		r;

	memcpy(e->query, slot, e->width);
	r = bpa_remove(in->region, e->query, bm_cmp, &e->cmparg);
	if (memcmp(e->query, slot, e->width) != 0)
		return bm_fail("bpa_remove modified the slot it was given");
	if (r != found)
		return bm_fail("bpa_remove(%s) returned %s, expected %s",
					   bm_slot_str(e->width, slot), r ? "true" : "false",
					   found ? "true" : "false");
	if (found)
	{
		bm_model_delete_at(&in->model, pos);
		e->stats.removed++;
	}
	else
		e->stats.remove_missing++;
	if (bpa_count(in->region) != in->model.n)
		return bm_fail("bpa_count %d after remove, model has %d",
					   bpa_count(in->region), in->model.n);
	if (!bm_gcheck(in->region, e->region_size))
		return bm_fail("bpa_remove wrote outside the region");
	if (full)
		return bm_verify(e, in);
	return bm_check_hdr(e, in);
}

/* Look slot up and compare with the model. */
static inline bool
bm_do_find(BmEngine *e, BmInst *in, const char *slot)
{
	bool		found;
	int			pos = bm_model_lower(&in->model, slot, &e->cmparg, &found);
	const char *p;
	uintptr_t	lo = (uintptr_t) in->region + sizeof(BpaHeader);
	uintptr_t	hi = (uintptr_t) in->region + e->region_size - e->width;

	memcpy(e->snapshot, in->region, e->region_size);
	memcpy(e->query, slot, e->width);
	p = bpa_find(in->region, e->query, bm_cmp, &e->cmparg);
	if (memcmp(e->snapshot, in->region, e->region_size) != 0)
		return bm_fail("bpa_find modified the region");
	if (!found)
	{
		if (p != NULL)
			return bm_fail("bpa_find(%s) returned %s, expected NULL",
						   bm_slot_str(e->width, slot),
						   (uintptr_t) p >= lo && (uintptr_t) p <= hi ?
						   bm_slot_str(e->width, p) : "a pointer outside the region");
		e->stats.not_found++;
		return true;
	}
	if (p == NULL)
		return bm_fail("bpa_find(%s) returned NULL for a stored entry",
					   bm_slot_str(e->width, slot));
	if ((uintptr_t) p < lo || (uintptr_t) p > hi)
		return bm_fail("bpa_find returned a pointer outside the region's slots");
	if (memcmp(p, bm_model_at(&in->model, pos), e->width) != 0)
		return bm_fail("bpa_find(%s) returned %s%s",
					   bm_slot_str(e->width, slot), bm_slot_str(e->width, p),
					   bm_cmp(p, slot, &e->cmparg) == 0 ?
					   " (padding differs from the stored bytes)" : "");
	e->stats.found++;
	return true;
}

/* Position of the first model entry not before the range. */
static inline int
bm_range_start(BmInst *in, BmRange *rg)
{
	int			i = 0;

	while (i < in->model.n && bm_before_start(bm_model_at(&in->model, i), rg))
		i++;
	return i;
}

/* Position just past the last model entry not after the range. */
static inline int
bm_range_end(BmInst *in, BmRange *rg, int start)
{
	int			i = start;

	while (i < in->model.n && !bm_after_end(bm_model_at(&in->model, i), rg))
		i++;
	return i;
}

/*
 * bpa_sorted_part() over rg: cut where the range's candidate blocks
 * outnumber max_blocks, at the header slot of the block max_blocks from
 * its start (forward) or its end, and then exactly the model's entries of
 * the range below the cut (forward) or at or above it, ascending; else
 * all of them.
 */
static inline bool
bm_check_sorted_part(BmEngine *e, BmInst *in, BmRange *rg, bool use_null,
					 bool use_end, int max_blocks, bool forward)
{
	BpaPredicateFn before = use_null ? NULL : bm_before_start;
	BpaPredicateFn after = use_end ? bm_after_end : NULL;
	int			n = in->model.n;
	int			start = bm_range_start(in, rg);
	int			end = use_end ? bm_range_end(in, rg, start) : n;
	char	   *out = bm_galloc((size_t) n * e->width, 0xDD);
	BpaPart		part = {max_blocks, forward, NULL};
	int			first;
	int			stop;
	const char *cut_at;
	int			cnt;
	bool		ok = true;

	bpa_candidate_blocks(in->region, before, after, rg, &first, &stop);
	cut_at = stop - first <= max_blocks ? NULL :
		bpa_header_entry(in->region, forward ? first + max_blocks : stop - max_blocks);
	bm_scribble(e);
	cnt = bpa_sorted_part(in->region, bm_cmp, &e->cmparg, before, after, rg,
						  &part, out, e->scratch);
	if (part.cut != cut_at)
		ok = bm_fail("bpa_sorted_part (%d blocks, %s) cut at %s, expected %s",
					 max_blocks, forward ? "forward" : "backward",
					 part.cut ? bm_slot_str(e->width, part.cut) : "none",
					 cut_at ? bm_slot_str(e->width, cut_at) : "none");
	if (ok && cut_at != NULL)
	{
		/* the model's entries of the range on the copy's side of the cut */
		while (forward && end > start &&
			   bm_cmp(bm_model_at(&in->model, end - 1), cut_at, &e->cmparg) >= 0)
			end--;
		while (!forward && start < end &&
			   bm_cmp(bm_model_at(&in->model, start), cut_at, &e->cmparg) < 0)
			start++;
	}
	if (ok && !bm_gcheck(out, (size_t) n * e->width))
		ok = bm_fail("bpa_sorted_part wrote outside out (room for %d slots)", n);
	else if (ok && cnt != end - start)
		ok = bm_fail("bpa_sorted_part (%d blocks, %s) returned %d, expected %d of %d",
					 max_blocks, forward ? "forward" : "backward", cnt,
					 end - start, n);
	else if (ok && cnt > 0 &&
			 memcmp(out, bm_model_at(&in->model, start), (size_t) cnt * e->width) != 0)
		ok = bm_fail("bpa_sorted_part (%d blocks, %s) differs from the model",
					 max_blocks, forward ? "forward" : "backward");
	bm_gfree(out);
	e->stats.sorted_parts += cut_at != NULL;
	return ok;
}

/*
 * bpa_sorted() over rg: from its lower bound, and with use_end up to its
 * upper bound, exactly the model's entries in between, ascending; with
 * use_null the lower predicate is passed as NULL (rg->lo_mode must then
 * be NONE).
 */
static inline bool
bm_do_sorted(BmEngine *e, BmInst *in, BmRange *rg, bool use_null, bool use_end)
{
	int			n = in->model.n;
	int			start = bm_range_start(in, rg);
	int			end = use_end ? bm_range_end(in, rg, start) : n;
	char	   *out = bm_galloc((size_t) n * e->width, 0xDD);
	int			cnt;
	int			prefix;
	bool		ok = true;

	memcpy(e->snapshot, in->region, e->region_size);
	bm_scribble(e);
	cnt = bpa_sorted(in->region, bm_cmp, &e->cmparg,
					 use_null ? NULL : bm_before_start,
					 use_end ? bm_after_end : NULL, rg, out, e->scratch);
	prefix = cnt < end - start ? cnt : end - start;
	if (!bm_gcheck(out, (size_t) n * e->width))
		ok = bm_fail("bpa_sorted wrote outside out (room for %d slots)", n);
	else if (!bm_gcheck(e->scratch, e->scratch_size))
		ok = bm_fail("bpa_sorted wrote outside the scratch buffer");
	else if (memcmp(e->snapshot, in->region, e->region_size) != 0)
		ok = bm_fail("bpa_sorted modified the region");
	else if (cnt != end - start)
		ok = bm_fail("bpa_sorted from %s (mode %d, end %d) returned %d, expected %d of %d",
					 rg->lo_mode == BM_BOUND_SLOT ? bm_slot_str(e->width, rg->lo) : "key",
					 rg->lo_mode, use_end, cnt, end - start, n);
	else if (prefix > 0 &&
			 memcmp(out, bm_model_at(&in->model, start), (size_t) prefix * e->width) != 0)
	{
		int			i;

		for (i = 0; i < prefix; i++)
			if (memcmp(out + (size_t) i * e->width,
					   bm_model_at(&in->model, start + i), e->width) != 0)
				break;
		ok = bm_fail("bpa_sorted from position %d: output %d is %s, expected %s",
					 start, i, bm_slot_str(e->width, out + (size_t) i * e->width),
					 bm_slot_str(e->width, bm_model_at(&in->model, start + i)));
	}
	bm_gfree(out);
	e->stats.sorted++;
	for (int max_blocks = 1; ok && max_blocks <= 2; max_blocks++)
		for (int forward = 0; ok && forward <= 1; forward++)
			ok = bm_check_sorted_part(e, in, rg, use_null, use_end, max_blocks,
									  forward);
	return ok;
}

/*
 * bpa_candidate_blocks() over rg: every block it leaves out holds only
 * entries outside the range.
 */
static inline bool
bm_check_candidate_blocks(BmEngine *e, BmInst *in, BmRange *rg, bool lo_null,
						  bool hi_null)
{
	int			first;
	int			end;

	bpa_candidate_blocks(in->region, lo_null ? NULL : bm_before_start,
						 hi_null ? NULL : bm_after_end, rg, &first, &end);
	if (first < 0 || first > end || end > bpa_used_blocks(in->region))
		return bm_fail("bpa_candidate_blocks gave [%d, %d) of %d blocks",
					   first, end, bpa_used_blocks(in->region));
	for (int b = 0; b < bpa_used_blocks(in->region); b++)
	{
		if (b >= first && b < end)
			continue;
		for (int j = 0; j < bpa_block_count(in->region, b); j++)
		{
			const char *s = bpa_block_entry(in->region, b, j);

			if ((lo_null || !bm_before_start(s, rg)) &&
				(hi_null || !bm_after_end(s, rg)))
				return bm_fail("bpa_candidate_blocks left out block %d of [%d, %d), "
							   "which holds %s in the range",
							   b, first, end, bm_slot_str(e->width, s));
		}
	}
	return true;
}

/*
 * bpa_nearest() forward past the lower bound of rg and backward before
 * its upper bound: the model's first entry not below the range and its
 * last entry not above it.
 */
static inline bool
bm_check_nearest(BmEngine *e, BmInst *in, BmRange *rg)
{
	int			n = in->model.n;
	int			first = bm_range_start(in, rg);
	int			last = bm_range_end(in, rg, 0) - 1;
	const char *forward = bpa_nearest(in->region, bm_cmp, &e->cmparg,
									  bm_before_start, rg, true);
	const char *backward = bpa_nearest(in->region, bm_cmp, &e->cmparg,
									   bm_after_end, rg, false);

	if (first < n ? forward == NULL ||
		memcmp(forward, bm_model_at(&in->model, first), e->width) != 0 :
		forward != NULL)
		return bm_fail("bpa_nearest forward gave %s, expected position %d of %d",
					   forward ? bm_slot_str(e->width, forward) : "none",
					   first, n);
	if (last >= 0 ? backward == NULL ||
		memcmp(backward, bm_model_at(&in->model, last), e->width) != 0 :
		backward != NULL)
		return bm_fail("bpa_nearest backward gave %s, expected position %d of %d",
					   backward ? bm_slot_str(e->width, backward) : "none",
					   last, n);
	return true;
}

/* bpa_map() over rg and compare the visited set with the model. */
static inline bool
bm_do_map(BmEngine *e, BmInst *in, BmRange *rg, bool lo_null, bool hi_null)
{
	int			n = in->model.n;
	int			start = bm_range_start(in, rg);
	int			end = bm_range_end(in, rg, start);
	BmVisit		v;
	char	   *seen;
	int			cnt;
	int			i;
	bool		ok = true;

	v.magic = BM_VISIT_MAGIC;
	v.width = e->width;
	v.n = 0;
	v.cap = n;
	v.buf = malloc((size_t) (n + 1) * e->width);
	seen = calloc((size_t) n + 1, 1);
	if (v.buf == NULL || seen == NULL)
		abort();
	memcpy(e->snapshot, in->region, e->region_size);
	cnt = bpa_map(in->region, lo_null ? NULL : bm_before_start,
				  hi_null ? NULL : bm_after_end, rg, bm_visit, &v);
	if (memcmp(e->snapshot, in->region, e->region_size) != 0)
		ok = bm_fail("bpa_map modified the region");
	else if (cnt != v.n)
		ok = bm_fail("bpa_map returned %d but called visit %d times", cnt, v.n);
	else if (cnt != end - start)
		ok = bm_fail("bpa_map over positions [%d, %d) of %d visited %d entries",
					 start, end, n, cnt);
	for (i = 0; ok && i < v.n; i++)
	{
		const char *s = v.buf + (size_t) i * e->width;
		bool		found;
		int			pos = bm_model_lower(&in->model, s, &e->cmparg, &found);

		if (!found)
			ok = bm_fail("bpa_map visited %s, which is not stored",
						 bm_slot_str(e->width, s));
		else if (pos < start || pos >= end)
			ok = bm_fail("bpa_map visited %s at position %d, outside [%d, %d)",
						 bm_slot_str(e->width, s), pos, start, end);
		else if (seen[pos])
			ok = bm_fail("bpa_map visited %s twice", bm_slot_str(e->width, s));
		else if (memcmp(s, bm_model_at(&in->model, pos), e->width) != 0)
			ok = bm_fail("bpa_map visited %s with padding differing from the stored bytes",
						 bm_slot_str(e->width, s));
		else
			seen[pos] = 1;
	}
	free(v.buf);
	free(seen);
	if (ok)
		ok = bm_check_candidate_blocks(e, in, rg, lo_null, hi_null);
	if (ok)
		ok = bm_check_nearest(e, in, rg);
	e->stats.maps++;
	return ok;
}

/* Smallest and largest nleft that bpa_split() accepts for n entries. */
static inline bool
bm_split_bounds(const BmEngine *e, int n, int *lo, int *hi)
{
	*lo = n - e->capacity;
	if (*lo < 1)
		*lo = 1;
	*hi = n - 1;
	if (*hi > e->capacity)
		*hi = e->capacity;
	return n >= 2 && *lo <= *hi;
}

/*
 * Split the instance under test at nleft into the spare instance, verify
 * both halves, and continue with the right half if keep_right.
 */
static inline bool
bm_do_split(BmEngine *e, int nleft, bool keep_right)
{
	BmInst	   *l = bm_main(e);
	BmInst	   *r = bm_spare(e);
	int			n = l->model.n;
	int			ret;

	bm_scribble(e);
	ret = bpa_split(l->region, r->region, nleft, bm_cmp, &e->cmparg, e->scratch);
	if (ret != n - nleft)
		return bm_fail("bpa_split of %d entries at %d returned %d, expected %d",
					   n, nleft, ret, n - nleft);
	memcpy(r->model.slots, bm_model_at(&l->model, nleft),
		   (size_t) (n - nleft) * e->width);
	r->model.n = n - nleft;
	l->model.n = nleft;
	e->stats.splits++;
	if (!bm_verify(e, l))
		return bm_fail("left half after split of %d at %d: %.3900s", n, nleft,
					   strcpy(bm_err_save, bm_err));
	if (!bm_verify(e, r))
		return bm_fail("right half after split of %d at %d: %.3900s", n, nleft,
					   strcpy(bm_err_save, bm_err));
	if (keep_right)
		e->cur = 1 - e->cur;
	return true;
}

/*
 * bpa_build() with the n sorted slots in sorted (guarded buffer), then
 * check the model content and the even spread over the blocks.
 */
static inline bool
bm_do_build(BmEngine *e, BmInst *in, const char *sorted, int n)
{
	BmHdr		hdr;
	int			i,
				min = 1 << 30,
				max = -1;

	bpa_build(in->region, sorted, n);
	memcpy(in->model.slots, sorted, (size_t) n * e->width);
	in->model.n = n;
	e->stats.builds++;
	if (!bm_gcheck(in->region, e->region_size))
		return bm_fail("bpa_build wrote outside the region");
	if (!bm_verify(e, in))
		return bm_fail("after bpa_build of %d: %.3900s", n,
					   strcpy(bm_err_save, bm_err));
	bm_read_hdr(e, in->region, &hdr);
	if (hdr.h.log_count != 0)
		return bm_fail("bpa_build of %d left %u entries in the log",
					   n, hdr.h.log_count);
	if (n == 0)
		return true;
	if (hdr.h.used_blocks < 1)
		return bm_fail("bpa_build of %d entries uses no block", n);
	if (n >= e->layout.num_blocks && hdr.h.used_blocks != e->layout.num_blocks)
		return bm_fail("bpa_build of %d entries uses %u of %u blocks",
					   n, hdr.h.used_blocks, e->layout.num_blocks);
	for (i = 0; i < hdr.h.used_blocks; i++)
	{
		if (hdr.bc[i] < min)
			min = hdr.bc[i];
		if (hdr.bc[i] > max)
			max = hdr.bc[i];
	}
	if (max - min > 1)
		return bm_fail("bpa_build of %d entries not spread evenly: blocks hold %d to %d",
					   n, min, max);
	return true;
}

/* n distinct random slots in ascending order, in a guarded buffer. */
static inline char *
bm_gen_sorted_set(BmEngine *e, BmSource *s, int n, const BmModel *pool)
{
	BmModel		m;
	char		slot[BM_MAX_WIDTH];
	char	   *buf;
	long		tries = 0;

	m.width = e->width;
	m.n = 0;
	m.cap = n + 1;
	m.slots = malloc((size_t) (n + 1) * e->width);
	if (m.slots == NULL)
		abort();
	while (m.n < n)
	{
		/* half of the time reuse an entry of pool, with fresh padding */
		if (pool != NULL && pool->n > 0 && bm_rng_below(&e->rng, 2) == 0)
		{
			const char *src = bm_model_at(pool, (int) bm_rng_below(&e->rng, (uint32_t) pool->n));

			bm_slot_make(e->width, slot, bm_slot_key(e->width, src),
						 bm_slot_tid(e->width, src), &e->rng);
		}
		else
			bm_gen_slot(e, tries < 1000 ? s : NULL, slot);
		bm_model_add(&m, slot, &e->cmparg);
		if (++tries > 10000000)
		{
			fprintf(stderr, "key domain too small for %d distinct slots\n", n);
			abort();
		}
	}
	buf = bm_galloc((size_t) n * e->width, 0);
	memcpy(buf, m.slots, (size_t) n * e->width);
	free(m.slots);
	return buf;
}

/* Rebuild the instance under test with n fresh entries. */
static inline bool
bm_rebuild(BmEngine *e, BmSource *s, int n)
{
	BmInst	   *in = bm_main(e);
	char	   *set = bm_gen_sorted_set(e, s, n, &in->model);
	bool		ok = bm_do_build(e, in, set, n);

	if (ok && !bm_gcheck(set, (size_t) n * e->width))
		ok = bm_fail("bpa_build wrote outside its input");
	bm_gfree(set);
	return ok;
}

/* Insert new entries until BPA_FULL, which must come in time. */
static inline bool
bm_fill_until_full(BmEngine *e, BmSource *s)
{
	BmInst	   *in = bm_main(e);
	char		slot[BM_MAX_WIDTH];
	BpaInsertResult r = BPA_INSERTED;
	int			k = 0;

	while (r != BPA_FULL)
	{
		if (in->model.n > e->max_entries)
			return bm_fail("more than %d entries accepted", e->max_entries);
		bm_gen_new(e, in, s, slot);
		if (!bm_do_insert(e, in, slot, (++k % e->verify_every) == 0, &r))
			return false;
	}
	if (in->model.n < e->capacity)
		return bm_fail("BPA_FULL at %d entries, block capacity %d",
					   in->model.n, e->capacity);
	return bm_verify(e, in);
}

/* Check bpa_sort_slots() on n random slots (duplicates under cmp allowed). */
/* A comparator the sort does not know: slots ordered as their bytes. */
static inline int
bm_cmp_bytes_reference(const void *a, const void *b, void *arg)
{
	int			c = memcmp(a, b, *(const uint16_t *) arg);

	return (c > 0) - (c < 0);
}

/*
 * bpa_sort_slots with bpa_compare_bytes (sorted as integers up to 16
 * bytes and 512 slots) on n random slots of every width from 1 to 20,
 * some repeated, some sharing leading bytes: byte for byte the order the
 * generic sort gives with a reference comparator of the same order.
 */
static inline bool
bm_check_sort_bytes(BmEngine *e, int n)
{
	bool		ok = true;

	for (uint16_t width = 1; ok && width <= 20; width++)
	{
		size_t		bytes = (size_t) n * width;
		char	   *fast = malloc(bytes + 1);
		char	   *slow = malloc(bytes + 1);

		if (fast == NULL || slow == NULL)
			abort();
		for (int i = 0; i < n; i++)
		{
			char	   *slot = fast + (size_t) i * width;

			if (i > 0 && bm_rng_below(&e->rng, 5) == 0)
				memcpy(slot, fast + (size_t) bm_rng_below(&e->rng, (uint32_t) i) * width, width);
			else
				for (int b = 0; b < width; b++)
					slot[b] = (char) (b < width / 2 && bm_rng_below(&e->rng, 2) ? 0x7f :
									  bm_rng_below(&e->rng, 256));
		}
		memcpy(slow, fast, bytes);
		bpa_sort_slots(fast, n, width, bpa_compare_bytes, &width);
		bpa_sort_slots(slow, n, width, bm_cmp_bytes_reference, &width);
		if (memcmp(fast, slow, bytes) != 0)
			ok = bm_fail("bpa_sort_slots as bytes: %d slots of %d bytes differ from the generic sort",
						 n, width);
		free(fast);
		free(slow);
	}
	return ok;
}

static inline bool
bm_do_sort_slots(BmEngine *e, BmSource *s, int n)
{
	size_t		bytes = (size_t) n * e->width;
	char	   *in = malloc(bytes + 1);
	char	   *arr = bm_galloc(bytes, 0);
	char	   *used = calloc((size_t) n + 1, 1);
	int			i,
				j;
	bool		ok = true;

	if (in == NULL || used == NULL)
		abort();
	for (i = 0; i < n; i++)
	{
		/* sometimes repeat an earlier key/tid with other padding */
		if (i > 0 && bm_rng_below(&e->rng, 4) == 0)
		{
			const char *src = in + (size_t) bm_rng_below(&e->rng, (uint32_t) i) * e->width;

			bm_slot_make(e->width, in + (size_t) i * e->width,
						 bm_slot_key(e->width, src), bm_slot_tid(e->width, src),
						 &e->rng);
		}
		else
			bm_gen_slot(e, s, in + (size_t) i * e->width);
	}
	memcpy(arr, in, bytes);
	bpa_sort_slots(arr, n, e->width, bm_cmp, &e->cmparg);
	if (!bm_gcheck(arr, bytes))
		ok = bm_fail("bpa_sort_slots(%d) wrote outside the array", n);
	for (i = 1; ok && i < n; i++)
	{
		if (bm_cmp(arr + (size_t) (i - 1) * e->width,
				   arr + (size_t) i * e->width, &e->cmparg) > 0)
			ok = bm_fail("bpa_sort_slots(%d): %s before %s at %d", n,
						 bm_slot_str(e->width, arr + (size_t) (i - 1) * e->width),
						 bm_slot_str(e->width, arr + (size_t) i * e->width), i);
	}
	/* the output must be a permutation of the input, bytes included */
	for (i = 0; ok && i < n; i++)
	{
		for (j = 0; j < n; j++)
		{
			if (!used[j] && memcmp(arr + (size_t) i * e->width,
								   in + (size_t) j * e->width, e->width) == 0)
			{
				used[j] = 1;
				break;
			}
		}
		if (j == n)
			ok = bm_fail("bpa_sort_slots(%d): output %d (%s) is not an input slot",
						 n, i, bm_slot_str(e->width, arr + (size_t) i * e->width));
	}
	/* sorted input stays as it is; with its last two slots swapped, it sorts */
	if (ok && n >= 2)
	{
		memcpy(in, arr, bytes);
		bpa_sort_slots(arr, n, e->width, bm_cmp, &e->cmparg);
		if (memcmp(in, arr, bytes) != 0)
			ok = bm_fail("bpa_sort_slots(%d) changed sorted input", n);
		memcpy(arr + (size_t) (n - 2) * e->width, in + (size_t) (n - 1) * e->width, e->width);
		memcpy(arr + (size_t) (n - 1) * e->width, in + (size_t) (n - 2) * e->width, e->width);
		bpa_sort_slots(arr, n, e->width, bm_cmp, &e->cmparg);
		for (i = 1; ok && i < n; i++)
			if (bm_cmp(arr + (size_t) (i - 1) * e->width, arr + (size_t) i * e->width,
					   &e->cmparg) > 0)
				ok = bm_fail("bpa_sort_slots(%d) did not sort a swapped pair", n);
	}
	free(in);
	bm_gfree(arr);
	free(used);
	e->stats.sort_slots++;
	return ok;
}

/* Fill one side of a random range: none, a slot or a key. */
static inline void
bm_gen_bound(BmEngine *e, BmInst *in, BmSource *s, int *mode, char *slot,
			 int64_t *key)
{
	*mode = (int) bm_src_below(s, 3);
	if (*mode == BM_BOUND_SLOT)
	{
		if (bm_src_below(s, 2) == 0 || !bm_gen_existing(e, in, s, slot))
			bm_gen_slot(e, s, slot);
	}
	else if (*mode == BM_BOUND_KEY)
	{
		bm_gen_slot(e, s, slot);
		*key = bm_slot_key(e->width, slot);
	}
}

/* Initialize rg and give it random bounds. */
static inline void
bm_gen_range(BmEngine *e, BmInst *in, BmSource *s, BmRange *rg)
{
	memset(rg, 0, sizeof(*rg));
	rg->magic = BM_RANGE_MAGIC;
	rg->ca = &e->cmparg;
	bm_gen_bound(e, in, s, &rg->lo_mode, rg->lo, &rg->lo_key);
	bm_gen_bound(e, in, s, &rg->hi_mode, rg->hi, &rg->hi_key);
}

/*
 * One random operation on the engine, decisions drawn from s.  Returns
 * false on a mismatch (see bm_err); e->opname names the operation.
 */
static inline bool
bm_step(BmEngine *e, BmSource *s)
{
	BmInst	   *in = bm_main(e);
	char		slot[BM_MAX_WIDTH];
	uint32_t	op = bm_src_below(s, 100);
	int			lo,
				hi;

	e->opno++;
	if (op < 6)
	{
		/* mostly slots above every stored one, sometimes any new slot */
		e->opname = "append-ascending";
		if (in->model.n > 0 && bm_src_below(s, 4) != 0)
		{
			const char *max = bm_model_at(&in->model, in->model.n - 1);

			bm_slot_make(e->width, slot,
						 bm_slot_key(e->width, max) + (int64_t) bm_src_below(s, 3),
						 bm_slot_tid(e->width, max) + 1 + bm_src_below(s, 5), &e->rng);
		}
		else
			bm_gen_new(e, in, s, slot);
		return bm_do_append_ascending(e, in, slot);
	}
	if (op < 34)
	{
		bool		ok;
		int			nlog = bpa_log_count(in->region);

		e->opname = "insert";
		e->try_first = bm_src_below(s, 2) == 0;
		if (e->try_first && nlog > 0 && bm_src_below(s, 2) == 0)
		{
			/* continue a stream just above the latest logged entry */
			const char *last = bpa_log_entry(in->region, nlog - 1);

			bm_slot_make(e->width, slot,
						 bm_slot_key(e->width, last) + (int64_t) bm_src_below(s, 2),
						 bm_slot_tid(e->width, last) + 1 + bm_src_below(s, 3), &e->rng);
		}
		else
			bm_gen_slot(e, s, slot);
		ok = true;
		if (e->try_first && !bm_model_contains(e, in, slot))
			ok = bm_check_stream_rank(e, in, slot);
		else if (!bm_model_contains(e, in, slot) && bm_src_below(s, 2) == 0)
		{
			bool		appended;

			/* the log append on its own, as an insert into a leaf makes it */
			ok = bm_do_append_log(e, in, slot, &appended);
			if (!ok || appended)
				return ok;
		}
		ok = ok && bm_do_insert(e, in, slot, true, NULL);
		e->try_first = false;
		return ok;
	}
	if (op < 40)
	{
		e->opname = "insert-duplicate";
		if (!bm_gen_existing(e, in, s, slot))
			bm_gen_slot(e, s, slot);
		return bm_do_insert(e, in, slot, true, NULL);
	}
	if (op < 46)
	{
		e->opname = "find";
		bm_gen_slot(e, s, slot);
		return bm_do_find(e, in, slot);
	}
	if (op < 52)
	{
		e->opname = "find-existing";
		if (!bm_gen_existing(e, in, s, slot))
			bm_gen_slot(e, s, slot);
		return bm_do_find(e, in, slot);
	}
	if (op < 60)
	{
		e->opname = "remove-existing";
		if (!bm_gen_existing(e, in, s, slot))
			bm_gen_slot(e, s, slot);
		return bm_do_remove(e, in, slot, true);
	}
	if (op < 64)
	{
		e->opname = "remove";
		bm_gen_slot(e, s, slot);
		return bm_do_remove(e, in, slot, true);
	}
	if (op < 72)
	{
		BmRange		rg;
		bool		use_null;
		bool		use_end;

		e->opname = "sorted";
		bm_gen_range(e, in, s, &rg);
		use_end = bm_src_below(s, 2) == 0;
		if (!use_end)
			rg.hi_mode = BM_BOUND_NONE;
		use_null = rg.lo_mode == BM_BOUND_NONE && bm_src_below(s, 2) == 0;
		return bm_do_sorted(e, in, &rg, use_null, use_end);
	}
	if (op < 80)
	{
		BmRange		rg;

		e->opname = "map";
		bm_gen_range(e, in, s, &rg);
		return bm_do_map(e, in, &rg,
						 rg.lo_mode == BM_BOUND_NONE && bm_src_below(s, 2) == 0,
						 rg.hi_mode == BM_BOUND_NONE && bm_src_below(s, 2) == 0);
	}
	if (op < 85)
	{
		e->opname = "split";
		if (!bm_split_bounds(e, in->model.n, &lo, &hi))
			return true;
		/* sometimes start from an empty or a freshly built target */
		switch (bm_src_below(s, 4))
		{
			case 0:
				bpa_init(bm_spare(e)->region, &e->layout);
				bm_spare(e)->model.n = 0;
				break;
			case 1:
				{
					int			save = e->cur;
					bool		ok;

					e->cur = 1 - e->cur;
					ok = bm_rebuild(e, s, (int) bm_src_below(s, (uint32_t) e->capacity + 1));
					e->cur = save;
					if (!ok)
						return false;
					break;
				}
			default:
				break;			/* keep the other half of the last split */
		}
		return bm_do_split(e, lo + (int) bm_src_below(s, (uint32_t) (hi - lo + 1)),
						   bm_src_below(s, 2) == 0);
	}
	if (op < 88)
	{
		int			ff = 10 + (int) bm_src_below(s, 91);
		int			n = bpa_fill_target(&e->layout, ff);
		int			want = e->capacity * ff / 100;

		e->opname = "rebuild";
		if (want < 1)
			want = 1;
		if (n != want)
			return bm_fail("bpa_fill_target(%d) = %d, expected %d", ff, n, want);
		if (bm_src_below(s, 4) == 0)
			n = (int) bm_src_below(s, (uint32_t) e->capacity + 1);
		return bm_rebuild(e, s, n);
	}
	if (op < 90)
	{
		e->opname = "fill-until-full";
		return bm_fill_until_full(e, s);
	}
	if (op < 94)
	{
		int			k = (int) bm_src_below(s, (uint32_t) in->model.n + 1);
		int			i;

		e->opname = "remove-many";
		if (bm_src_below(s, 4) == 0)
			k = in->model.n;
		for (i = 0; i < k; i++)
		{
			bm_gen_existing(e, in, s, slot);
			if (!bm_do_remove(e, in, slot, (i + 1) % e->verify_every == 0))
				return false;
		}
		return bm_verify(e, in);
	}
	if (op < 95)
	{
		e->opname = "reinit";
		bpa_init(in->region, &e->layout);
		in->model.n = 0;
		return bm_verify(e, in);
	}
	if (op < 97)
	{
		e->opname = "sort-slots";
		return bm_do_sort_slots(e, s, (int) bm_src_below(s, 40));
	}
	e->opname = "verify";
	return bm_verify(e, in);
}

#endif							/* BPA_MODEL_H */
