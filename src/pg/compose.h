/*
 * compose.h — composites and arrays formed once (compose.c): the conversion (tape_to_datum.c)
 * hands over a row's or an array's converted values instead of forming it, nested rows and
 * arrays stay pending inside their parent, and the whole value is written in one allocation —
 * byte for byte what heap_form_tuple / construct_md_array would have made, level by level.
 */
#ifndef SERDE_COMPOSE_H
#define SERDE_COMPOSE_H

#include "postgres.h"
#include "access/tupdesc.h"

#include "compat.h"

/* A row or array whose bytes are not written yet (palloc'd in the conversion's memory). */
typedef struct SdPend SdPend;

/* What a pending value's Datum holds (the pend[] arrays below) */
#define SD_PEND_NONE	0		/* a Datum */
#define SD_PEND_VALUE	1		/* an SdPend * */
#define SD_PEND_BYTES	2		/* an sd_val * (serde_core.h): a varlena of the bytes u.s[0..len)
								 * (text, json, bytea, a jsonb container), written where it goes */

/*
 * A pending row of descriptor td (natts values; pend[i]: what vals[i] is, SD_PEND_*),
 * or NULL when it must be formed the usual way (a value compose.c does not write itself: an
 * external or expanded varlena, a cstring, a size past the allocation limit), pending values
 * untouched.  The arrays are copied; td must outlive the SdPend.
 */
extern SdPend *sd_pend_row(TupleDesc td, const Datum *vals, const bool *nulls, const uint8 *pend);

/* A pending one-dimensional array of n > 0 elements (lower bound 1), or NULL as above. */
extern SdPend *sd_pend_array(int n, const Datum *vals, const bool *nulls, const uint8 *pend,
							 Oid elemtype, int16 elmlen, bool elmbyval, char elmalign);

/* The Datum of a pending value, formed in CurrentMemoryContext. */
extern Datum sd_pend_form(SdPend *p);

/* The Datum of a value of kind `kind` (SD_PEND_*), formed in CurrentMemoryContext. */
extern Datum sd_pend_datum(uint8 kind, Datum d);

/* Pending values among vals[0..n) formed in place (pend[i] cleared): before a usual forming. */
extern void sd_pend_form_all(int n, Datum *vals, const bool *nulls, uint8 *pend);

#endif							/* SERDE_COMPOSE_H */
