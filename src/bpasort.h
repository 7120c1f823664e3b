/*-------------------------------------------------------------------------
 *
 * bpasort.h
 *	  Sorting and searching arrays of fixed-width slots by a comparison
 *	  function: what the BPA sorts its blocks with, and what scans sort
 *	  their copies of a leaf with.
 *
 * This file depends on the C standard library only.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPASORT_H
#define BPASORT_H

#include <stdbool.h>
#include <stdint.h>

/* Three-way comparison of two slots. */
typedef int (*BpaCompareFn) (const void *a, const void *b, void *arg);

/*
 * A monotone predicate over slots: false for a (possibly empty) prefix of
 * the sorted order and true for the rest, or the reverse for "before"
 * predicates, see bpa_sorted() and bpa_map().
 */
typedef bool (*BpaPredicateFn) (const void *slot, void *arg);

extern int	bpa_search_sorted(const char *slots, int n, uint16_t width,
							  const void *slot, BpaCompareFn compare,
							  void *arg);
extern int	bpa_first_true(const char *slots, int n, uint16_t width,
						   BpaPredicateFn pred, void *arg, bool negate);
extern void bpa_sort_slots(char *slots, int n, uint16_t width,
						   BpaCompareFn compare, void *arg);
extern int	bpa_compare_bytes(const void *a, const void *b, void *arg);

#endif							/* BPASORT_H */
