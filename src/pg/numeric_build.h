/*
 * numeric_build.h — reading and re-encoding PostgreSQL numerics without a text round trip
 * (numeric_build.c): the jsonb walker converts a stored jsonb number straight into an integer or
 * numeric column.  Results are identical to numeric_out followed by the text path (serde's own
 * parsers, then numeric_in with the column's typmod), or the functions decline (return false)
 * and the caller takes that text path, which then reports the error it always reported.
 */
#ifndef SERDE_NUMERIC_BUILD_H
#define SERDE_NUMERIC_BUILD_H

#include "postgres.h"

#include "utils/numeric.h"

/* sd_val.aux of an SD_V_NUMERIC that the jsonb walker made: u.s/len are a Numeric inside the
 * document (which outlives the conversion), already checked against the column's typmod with
 * sd_numeric_fits; tape_to_datum.c builds the value with sd_numeric_with_typmod (serde_pg.h's
 * SD_PG_AUX_JSONB is UINT32_MAX) */
#define SD_PG_AUX_NUMERIC (UINT32_MAX - 1)

/* The integer value of num when it is written without a fraction (display scale 0, as
 * numeric_out would print it: "100", never "1.0") and fits int64; false for anything else
 * (NaN, infinities, a fraction, a display scale, beyond int64). */
extern bool sd_numeric_int64(Numeric num, int64 *out);

/* True when num (finite) fits numeric(precision, scale) exactly as the core's sd_check_numeric
 * decides it for num's text: at most scale significant fraction digits and at most
 * precision - scale significant integer digits.  precision < 0 (unconstrained) is always true
 * (a stored numeric is within numeric's own limits).  False for NaN/infinities, and for a
 * typmod the fast path does not handle (scale < 0 or scale > precision): the caller then
 * takes the text path. */
extern bool sd_numeric_fits(Numeric num, int precision, int scale);

/* The numeric that numeric_in(numeric_out(num), typmod) gives, for a num that passed
 * sd_numeric_fits with the typmod's precision and scale: a copy (typmod < VARHDRSZ), or the same
 * digits with the typmod's scale as display scale. Palloc'd in CurrentMemoryContext. */
extern Numeric sd_numeric_with_typmod(Numeric num, int32 typmod);

#endif							/* SERDE_NUMERIC_BUILD_H */
