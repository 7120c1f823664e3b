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

#include <stdint.h>

/* Three-way comparison of two slots. */
typedef int (*BpaCompareFn) (const void *a, const void *b, void *arg);

extern int	bpa_search_sorted(const char *slots, int n, uint16_t width,
							  const void *slot, BpaCompareFn compare,
							  void *arg);
extern void bpa_sort_slots(char *slots, int n, uint16_t width,
						   BpaCompareFn compare, void *arg);

#endif							/* BPASORT_H */
