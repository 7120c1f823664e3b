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
void
bpa_sort_slots(char *slots, int n, uint16_t width, BpaCompareFn compare, void *arg)
{
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
