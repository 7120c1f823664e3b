/*-------------------------------------------------------------------------
 *
 * bpasort.c
 *	  Sorting and searching arrays of fixed-width slots (bpasort.h).
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#include "bpasort.h"

#include <stddef.h>
#include <string.h>

/* Swap two slots of the given width. */
static void
swap_slots(char *a, char *b, uint16_t width)
{
	char		tmp[64];

	while (width > 0)
	{
		uint16_t	chunk = width < sizeof(tmp) ? width : sizeof(tmp);

		memcpy(tmp, a, chunk);
		memcpy(a, b, chunk);
		memcpy(b, tmp, chunk);
		a += chunk;
		b += chunk;
		width -= chunk;
	}
}

/* Insertion sort for short runs. */
static void
insertion_sort(char *slots, int n, uint16_t width, BpaCompareFn compare, void *arg)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--)
		{
			char	   *cur = slots + (size_t) j * width;

			if (compare(cur - width, cur, arg) <= 0)
				break;
			swap_slots(cur - width, cur, width);
		}
}

/* Are the n slots in order already? */
static bool
slots_sorted(const char *slots, int n, uint16_t width, BpaCompareFn compare,
			 void *arg)
{
	for (int i = 1; i < n; i++)
		if (compare(slots + (size_t) (i - 1) * width,
					slots + (size_t) i * width, arg) > 0)
			return false;
	return true;
}

/*
 * Sort n slots in place (quicksort, median of three, insertion sort tail);
 * slots in order already (the runs of sorted blocks, in block order) cost
 * one pass.
 */
/*
 * Comparison of slots that order as their bytes, arg pointing to their
 * width (a uint16_t): bpa_sort_slots sorts such slots of up to 16 bytes as
 * integers.
 */
int
bpa_compare_bytes(const void *a, const void *b, void *arg)
{
	int			c = memcmp(a, b, *(const uint16_t *) arg);

	return (c > 0) - (c < 0);
}

/* A slot of up to 16 bytes as two big-endian integers, zero-padded. */
typedef struct SlotBytes
{
	uint64_t	high;
	uint64_t	low;
} SlotBytes;

/* A big-endian 64-bit number's value, from its bytes as loaded. */
static inline uint64_t
from_big_endian(uint64_t loaded)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap64(loaded);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return loaded;
#else
	const unsigned char *b = (const unsigned char *) &loaded;
	uint64_t	v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
#endif
}

/* The bytes of a big-endian 64-bit number, to store (its own inverse). */
static inline uint64_t
to_big_endian(uint64_t value)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return value;
#else
	return from_big_endian(value);
#endif
}

/* Read the width bytes at p (width <= 16) as a SlotBytes. */
static inline SlotBytes
slot_bytes(const unsigned char *p, uint16_t width)
{
	unsigned char padded[16] = {0};
	uint64_t	high;
	uint64_t	low;
	SlotBytes	v;

	memcpy(padded, p, width);
	memcpy(&high, padded, 8);
	memcpy(&low, padded + 8, 8);
	v.high = from_big_endian(high);
	v.low = from_big_endian(low);
	return v;
}

/* Write the width bytes of a SlotBytes back to p. */
static inline void
store_slot_bytes(unsigned char *p, SlotBytes v, uint16_t width)
{
	unsigned char padded[16];
	uint64_t	high = to_big_endian(v.high);
	uint64_t	low = to_big_endian(v.low);

	memcpy(padded, &high, 8);
	memcpy(padded + 8, &low, 8);
	memcpy(p, padded, width);
}

/* Does a sort before b? */
static inline bool
bytes_before(SlotBytes a, SlotBytes b)
{
	return a.high < b.high || (a.high == b.high && a.low < b.low);
}

/* Sort n SlotBytes: quicksort down to insertion sorts of short runs. */
static void
sort_bytes(SlotBytes *v, int n)
{
	while (n > 16)
	{
		SlotBytes	pivot = v[n / 2];
		int			i = 0;
		int			j = n - 1;

		/* Hoare partition around the middle element's value */
		for (;;)
		{
			SlotBytes	tmp;

			while (bytes_before(v[i], pivot))
				i++;
			while (bytes_before(pivot, v[j]))
				j--;
			if (i >= j)
				break;
			tmp = v[i];
			v[i++] = v[j];
			v[j--] = tmp;
		}
		/* [0, j] and [j + 1, n): recurse into the smaller, loop on the other */
		if (j + 1 < n - j - 1)
		{
			sort_bytes(v, j + 1);
			v += j + 1;
			n -= j + 1;
		}
		else
		{
			sort_bytes(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (int i = 1; i < n; i++)
	{
		SlotBytes	cur = v[i];
		int			j = i;

		for (; j > 0 && bytes_before(cur, v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = cur;
	}
}

/*
 * bpa_sort_slots of slots that order as their bytes, sorted as integers:
 * false, leaving them, unless they are at most 16 bytes wide and at most
 * 512 of them.
 */
static bool
sort_slots_as_bytes(char *slots, int n, uint16_t width)
{
	SlotBytes	values[512];

	if (width > 16 || n > (int) (sizeof(values) / sizeof(values[0])))
		return false;
	for (int i = 0; i < n; i++)
		values[i] = slot_bytes((const unsigned char *) slots + (size_t) i * width, width);
	sort_bytes(values, n);
	for (int i = 0; i < n; i++)
		store_slot_bytes((unsigned char *) slots + (size_t) i * width, values[i], width);
	return true;
}

void
bpa_sort_slots(char *slots, int n, uint16_t width, BpaCompareFn compare, void *arg)
{
	if (compare == bpa_compare_bytes && sort_slots_as_bytes(slots, n, width))
		return;
	if (slots_sorted(slots, n, width, compare, arg))
		return;
	while (n > 12)
	{
		char	   *lo = slots;
		char	   *mid = slots + (size_t) (n / 2) * width;
		char	   *hi = slots + (size_t) (n - 1) * width;
		int			i;
		int			store;

		/* median of three into hi, used as the pivot */
		if (compare(mid, lo, arg) < 0)
			swap_slots(mid, lo, width);
		if (compare(hi, lo, arg) < 0)
			swap_slots(hi, lo, width);
		if (compare(mid, hi, arg) < 0)
			swap_slots(mid, hi, width);

		store = 0;
		for (i = 0; i < n - 1; i++)
		{
			char	   *cur = slots + (size_t) i * width;

			if (compare(cur, hi, arg) < 0)
			{
				if (i != store)
					swap_slots(cur, slots + (size_t) store * width, width);
				store++;
			}
		}
		swap_slots(slots + (size_t) store * width, hi, width);

		/* recurse into the smaller side, loop on the larger */
		if (store < n - store - 1)
		{
			bpa_sort_slots(slots, store, width, compare, arg);
			slots += (size_t) (store + 1) * width;
			n -= store + 1;
		}
		else
		{
			bpa_sort_slots(slots + (size_t) (store + 1) * width,
						   n - store - 1, width, compare, arg);
			n = store;
		}
	}
	insertion_sort(slots, n, width, compare, arg);
}

/*
 * Position of slot among n sorted slots of width bytes, by binary search,
 * or -1 if none is equal to it.
 */
int
bpa_search_sorted(const char *slots, int n, uint16_t width, const void *slot,
				  BpaCompareFn compare, void *arg)
{
	int			lo = 0;
	int			hi = n - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = compare(slots + (size_t) mid * width, slot, arg);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * The first of n sorted slots for which the monotone pred (negated with
 * negate) is true, or n: a binary search.
 */
int
bpa_first_true(const char *slots, int n, uint16_t width, BpaPredicateFn pred,
			   void *arg, bool negate)
{
	int			lo = 0;
	int			hi = n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (pred(slots + (size_t) mid * width, arg) != negate)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
