/*-------------------------------------------------------------------------
 *
 * bpa.h
 *	  Buffered partitioned array (BPA): the leaf data structure of bpindex.
 *
 * A BPA lives in one contiguous byte region (in the server, the content
 * area of a leaf page).  It stores fixed-width slots, ordered by a
 * caller-supplied comparator, in three sections:
 *
 *	 log	 log_size slots, unsorted, new entries are appended here;
 *	 header	 num_blocks slots, sorted: the lower bound of each block;
 *	 blocks	 num_blocks blocks of block_size slots each, unsorted inside a
 *			 block, block i holding entries in [header[i], header[i + 1]).
 *
 * The module is pure: it never allocates memory, takes a lock or writes
 * WAL.  Every function that needs temporary space takes a scratch buffer
 * of at least bpa_scratch_size() bytes, aligned to 2 bytes (palloc'd
 * memory always is): it holds 16-bit counters, and copies of slots that
 * keep a 2-byte alignment when slots have an even width (slots of odd
 * width must be read bytewise by their comparator).  Regions hold at most 65535
 * entries, so they are at most tens of kilobytes (bpa_layout_fit refuses
 * larger ones).  All entries are distinct under
 * the comparator (in bpindex the heap TID is the last sort column), so a
 * slot equal to a stored one is a duplicate.
 *
 * Invariants after every operation (checked by bpa_check):
 *	 - the log has at least one free slot;
 *	 - every block has at least one free slot;
 *	 - header[0 .. used_blocks) is strictly increasing, blocks at or past
 *	   used_blocks are empty, and block i holds only entries e with
 *	   header[i] <= e (i > 0) and e < header[i + 1] (i + 1 < used_blocks);
 *	 - a block whose sorted bit is set is in ascending order;
 *	 - no entry is stored twice.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPA_H
#define BPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpasort.h"

/* Callback for bpa_map(). */
typedef void (*BpaVisitFn) (const void *slot, void *arg);

/* The shape of a BPA, fixed when the region is initialized. */
typedef struct BpaLayout
{
	uint16_t	slot_width;		/* bytes per slot, >= 2 */
	uint16_t	log_size;		/* slots in the log, >= 2 */
	uint16_t	num_blocks;		/* blocks (and header slots), >= 1 */
	uint16_t	block_size;		/* slots per block, >= 2 */
} BpaLayout;

/* The fixed part at the start of every region. */
typedef struct BpaHeader
{
	BpaLayout	layout;
	uint16_t	log_count;		/* entries in the log */
	uint16_t	used_blocks;	/* header slots in use */
	uint16_t	nentries;		/* entries in log and blocks */
	uint16_t	reserved;
	/* uint16_t block_count[num_blocks] follows, then the sorted bits */
} BpaHeader;

/* Byte ranges of a region that an operation changed, for WAL logging. */
#define BPA_MAX_TOUCHED 5
typedef struct BpaTouched
{
	int			n;
	size_t		offset[BPA_MAX_TOUCHED];
	size_t		length[BPA_MAX_TOUCHED];
} BpaTouched;

typedef enum BpaInsertResult
{
	BPA_INSERTED,				/* the entry is stored */
	BPA_DUPLICATE,				/* an equal entry was already stored */
	BPA_FULL,					/* no room: the caller must split */
	BPA_CROWDED					/* bpa_try_insert: only a redistribution
								 * makes room */
} BpaInsertResult;

/* Layout and sizing */
extern size_t bpa_region_size(const BpaLayout *layout);
extern bool bpa_layout_fit(BpaLayout *layout, size_t region_size,
						   uint16_t slot_width, uint16_t log_size,
						   uint16_t num_blocks);
extern bool bpa_layout_fit_blocks(BpaLayout *layout, size_t region_size,
								  uint16_t slot_width, uint16_t log_size,
								  uint16_t block_size);
extern bool bpa_layout_valid(const BpaLayout *layout);
extern size_t bpa_scratch_size(const BpaLayout *layout);
extern int	bpa_block_capacity(const BpaLayout *layout);
extern int	bpa_fill_target(const BpaLayout *layout, int fillfactor);

/* Whole-region operations */
extern void bpa_init(char *region, const BpaLayout *layout);
extern void bpa_build(char *region, const char *sorted, int n);
extern void bpa_build_packed(char *region, const char *sorted, int n);
extern int	bpa_count(const char *region);
extern int	bpa_log_count(const char *region);
extern const BpaLayout *bpa_layout(const char *region);

/* Point operations */
extern BpaInsertResult bpa_insert(char *region, const void *slot,
								  BpaCompareFn compare, void *arg,
								  char *scratch);
extern BpaInsertResult bpa_try_insert(char *region, const void *slot,
									  BpaCompareFn compare, void *arg,
									  char *scratch);
extern void bpa_redistribute(char *region, const void *extra,
							 BpaCompareFn compare, void *arg, char *scratch);
extern int	bpa_stream_rank(const char *region, const void *slot,
							BpaCompareFn compare, void *arg);
extern bool bpa_append_to_log(char *region, const void *slot,
							  BpaTouched *touched);
extern int	bpa_ascending_block(const char *region, const void *slot,
								BpaCompareFn compare, void *arg);
extern void bpa_store_ascending(char *region, int b, const void *slot,
								BpaTouched *touched);
extern const void *bpa_find(const char *region, const void *slot,
							BpaCompareFn compare, void *arg);
extern bool bpa_blocks_hold(const char *region, const void *slot,
							BpaCompareFn compare, void *arg);
extern bool bpa_remove(char *region, const void *slot, BpaCompareFn compare,
					   void *arg);

/* The part of a range bpa_sorted_part copies, and where it was cut. */
typedef struct BpaPart
{
	int			max_blocks;		/* blocks of the range to copy at most */
	bool		forward;		/* from the range's start, else its end */
	const void *cut;			/* set: the header slot bounding the copy,
								 * NULL if the whole range was copied */
} BpaPart;

/* Range operations (read only) */
extern int	bpa_sorted(const char *region, BpaCompareFn compare, void *arg,
					   BpaPredicateFn before_start, BpaPredicateFn after_end,
					   void *pred_arg, char *out, char *scratch);
extern int	bpa_sorted_part(const char *region, BpaCompareFn compare, void *arg,
							BpaPredicateFn before_start, BpaPredicateFn after_end,
							void *pred_arg, BpaPart *part, char *out,
							char *scratch);
extern void bpa_candidate_blocks(const char *region,
								 BpaPredicateFn before_start,
								 BpaPredicateFn after_end, void *pred_arg,
								 int *first, int *end);
extern int	bpa_map(const char *region, BpaPredicateFn before_start,
					BpaPredicateFn after_end, void *pred_arg, BpaVisitFn visit,
					void *visit_arg);
extern const void *bpa_nearest(const char *region, BpaCompareFn compare,
							  void *arg, BpaPredicateFn excluded,
							  void *pred_arg, bool forward);

/* Restructuring */
extern int	bpa_split(char *left, char *right, int nleft, BpaCompareFn compare,
					  void *arg, char *scratch);

/* Read access to the parts, for inspection */
extern int	bpa_used_blocks(const char *region);
extern int	bpa_block_count(const char *region, int b);
extern int	bpa_blocks_total(const char *region);
extern bool bpa_block_sorted(const char *region, int b);
extern const char *bpa_log_entry(const char *region, int i);
extern const char *bpa_header_entry(const char *region, int b);
extern const char *bpa_block_entry(const char *region, int b, int j);
extern bool bpa_position_holds_entry(const char *region, size_t pos);
extern int	bpa_count_marked(const char *region, const uint8_t *marks);

/* Verification (bpacheck.c) */
extern const char *bpa_check(const char *region, size_t region_size,
							 BpaCompareFn compare, void *arg);
extern const char *bpa_check_shape(const char *region, size_t region_size);

#endif							/* BPA_H */
