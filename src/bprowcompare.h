/*-------------------------------------------------------------------------
 *
 * bprowcompare.h
 *	  Row comparisons as index conditions of bpindex indexes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPROWCOMPARE_H
#define BPROWCOMPARE_H

extern void bp_rowcompare_init(void);

#endif							/* BPROWCOMPARE_H */
