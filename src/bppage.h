/*-------------------------------------------------------------------------
 *
 * bppage.h
 *	  Pages: initialization, the key area, fences, deleted pages and the
 *	  corrupted-page error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPPAGE_H
#define BPPAGE_H

#include "storage/bufmgr.h"
#include "utils/relcache.h"

#include "bpformat.h"
#include "bpslot.h"

extern Size bp_page_store_key(const BpSlotDesc *desc, int att, Page page,
							  Size floor, const char *key,
							  const char *same_field);
extern void bp_page_start_keys(Page page);
extern Size bp_page_key_room(Page page, Size floor);
extern Size bp_page_add_key(const BpSlotDesc *desc, int att, Page page,
							Size floor, const char *key);
extern void bp_slot_from_page(const BpSlotDesc *desc, const char *page,
							  const char *keys, const char *stored, char *out);
extern bool bp_slot_to_page(const BpSlotDesc *desc, Page page, Size floor,
							const char *slot, const char *same, char *dst);
extern Size bp_page_content_size(void);
extern Size bp_fences_size(uint16 width);
extern void bp_init_page(Page page, uint16 flags, uint16 level);
extern Buffer bp_new_buffer(Relation index, uint16 width,
							FullTransactionId *deleted_at);
extern bool bp_page_deleted(Page page);
extern BpDeletedData *bp_page_deleted_data(Page page, uint16 width);
extern void bp_init_deleted_page(Page page, const BpSlotDesc *desc,
								 const char *lowkey,
								 FullTransactionId safexid);
extern bool bp_page_recyclable(Page page, uint16 width);
extern bool bp_page_stores_low(const char *page);
extern char *bp_page_lowkey(Page page);
extern char *bp_page_highkey(Page page, uint16 width);
extern const char *bp_page_slot(const BpSlotDesc *desc, const char *page,
								const char *stored, char *buf);
extern const char *bp_page_fence(const BpSlotDesc *desc, const char *page,
								 bool high, char *buf);
extern char *bp_copy_page_fence(const BpSlotDesc *desc, const char *page,
								bool high);
extern void bp_page_fence_into(const BpSlotDesc *desc, const char *page,
							   const char *keys, bool high, char *out);
extern bool bp_slot_within_fences(Page page, const BpSlotDesc *desc,
								  const char *slot);
extern bool bp_store_page_slot(const BpSlotDesc *desc, Page page, Size floor,
							   const char *slot, const char *same, char *dst);
extern const char *bp_page_key_area_problem(const BpSlotDesc *desc, Page page);
extern void bp_report_corrupted(Relation index, BlockNumber blkno,
								const char *detail);

#endif							/* BPPAGE_H */
