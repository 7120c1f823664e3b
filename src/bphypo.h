/*-------------------------------------------------------------------------
 *
 * bphypo.h
 *	  Hypothetical bpindex indexes, beside HypoPG.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPHYPO_H
#define BPHYPO_H

extern void bp_hypo_init(void);

#endif							/* BPHYPO_H */
