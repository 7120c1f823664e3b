/*-------------------------------------------------------------------------
 *
 * bpvalidate.h
 *	  amvalidate: checks of bpindex operator classes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPVALIDATE_H
#define BPVALIDATE_H

extern bool bp_validate(Oid opclassoid);

#endif							/* BPVALIDATE_H */
