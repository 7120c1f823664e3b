/*-------------------------------------------------------------------------
 *
 * bpcollation.h
 *	  Collations whose order is the order of their strings' bytes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BPCOLLATION_H
#define BPCOLLATION_H

extern bool bp_collation_orders_bytes(Oid collation, bool code_point_libc);

#endif							/* BPCOLLATION_H */
