/*-------------------------------------------------------------------------
 *
 * bpa_fuzz.c
 *	  libFuzzer target for the buffered partitioned array (src/bpa.c).
 *
 * The input's first two bytes pick the slot shape and a small layout (log
 * 2-5 slots, 1-5 blocks of 2-6 slots); the remaining bytes drive random
 * operations (bm_step in bpa_model.h) against the reference model.  Any
 * mismatch or bpa_check() failure prints a description and abort()s.
 *
 * Built with -DBPA_FUZZ_STANDALONE, main() feeds the target pseudo-random
 * inputs instead: bpa_fuzz_standalone [count [seed]] (count defaults to
 * 2000), so that it runs as an ordinary test.
 *
 * test/bpa/bpa_fuzz.c
 *
 *-------------------------------------------------------------------------
 */
#include "bpa_model.h"

#define FUZZ_MAX_STEPS	4000

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run the operations encoded in one input; abort() on any mismatch. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BmEngine	e;
	BmSource	s;
	BpaLayout	layout;
	uint8_t		b0,
				b1;
	int			steps = 0;

	if (size < 2)
		return 0;
	b0 = data[0];
	b1 = data[1];
	layout.slot_width = (b0 & 1) ? 24 : 8;
	layout.log_size = (uint16_t) (2 + ((b0 >> 1) & 3));
	layout.num_blocks = (uint16_t) (1 + ((b0 >> 3) % 5));
	layout.block_size = (uint16_t) (2 + (b1 % 5));
	bm_source_data(&s, data + 2, size - 2);

	if (!bm_engine_init(&e, &layout, 0, 16, 8, (uint64_t) size * 31 + b0))
	{
		fprintf(stderr, "bpa_fuzz: engine init failed: %s\n", bm_err);
		abort();
	}
	if (!bm_verify(&e, bm_main(&e)))
	{
		fprintf(stderr, "bpa_fuzz: empty BPA: %s\n", bm_err);
		abort();
	}
	while (!s.exhausted && steps++ < FUZZ_MAX_STEPS)
	{
		if (!bm_step(&e, &s))
		{
			fprintf(stderr,
					"bpa_fuzz: layout w%u log%u nb%u bs%u, op %ld (%s): %s\n",
					layout.slot_width, layout.log_size, layout.num_blocks,
					layout.block_size, e.opno, e.opname ? e.opname : "-",
					bm_err);
			abort();
		}
	}
	if (!bm_verify(&e, bm_main(&e)) || !bm_verify(&e, bm_spare(&e)))
	{
		fprintf(stderr, "bpa_fuzz: final verification: %s\n", bm_err);
		abort();
	}
	bm_engine_free(&e);
	return 0;
}

#ifdef BPA_FUZZ_STANDALONE

/* Feed the target pseudo-random inputs of varying length. */
int
main(int argc, char **argv)
{
	long		count = 2000;
	uint64_t	seed = 1;
	long		i;
	BmRng		rng;
	uint8_t    *buf;
	size_t		maxlen = 1024;

	if (argc > 1)
		count = strtol(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	buf = malloc(maxlen);
	if (buf == NULL)
		return 1;
	for (i = 0; i < count; i++)
	{
		size_t		len,
					j;

		bm_rng_seed(&rng, seed * UINT64_C(1000003) + (uint64_t) i);
		len = 2 + bm_rng_below(&rng, (uint32_t) (maxlen - 1));
		for (j = 0; j < len; j++)
			buf[j] = (uint8_t) bm_rng_next(&rng);
		/* report the input before running it, in case it crashes */
		if (getenv("BPA_FUZZ_VERBOSE"))
			fprintf(stderr, "input %ld (seed %llu, %zu bytes)\n",
					i, (unsigned long long) seed, len);
		LLVMFuzzerTestOneInput(buf, len);
	}
	free(buf);
	printf("bpa_fuzz: %ld inputs (seed %llu) passed\n", count,
		   (unsigned long long) seed);
	return 0;
}

#endif							/* BPA_FUZZ_STANDALONE */
