/*
 * numeric_build.h — reading and writing PostgreSQL numerics without a text round trip
 * (numeric_build.c, the one place that knows numeric's on-disk layout): the jsonb walker
 * converts a stored jsonb number straight into an integer or numeric column, the jsonb builder
 * and the tape converter write numerics of plain literals without numeric_in.  Results are
 * identical to the text path (numeric_out, serde's own parsers, numeric_in with the column's
 * typmod), or the functions decline (return false) and the caller takes that text path, which
 * then reports the error it always reported.
 */
#ifndef SERDE_NUMERIC_BUILD_H
#define SERDE_NUMERIC_BUILD_H

#include "postgres.h"

#include "compat.h"

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

/* fast numerics: literals with at most this many fraction digits (and exponents this big) */
#define SD_FAST_MAX_SCALE	1000
/* the largest numeric sd_numeric_encode writes: varlena + long header + 6 base-10000 digits */
#define SD_NUMERIC_MAX_FAST		(VARHDRSZ + 4 + 6 * 2)

/* The numeric of ±mag, 1 <= mag <= 9999 (display scale 0), into out: varlena header, short
 * numeric header, one base-10000 digit of weight 0 — VARHDRSZ + 4 bytes. */
extern void sd_numeric_small_int(char *out, bool neg, uint16 mag);

/* Writes to out the numeric that numeric_in gives for the value mag * 10^e with display scale
 * dscale (make_result's canonical form).  mag < 10^19; -2 * SD_FAST_MAX_SCALE <= e <=
 * SD_FAST_MAX_SCALE; 0 <= dscale <= 2 * SD_FAST_MAX_SCALE.  Returns the size written (at most
 * SD_NUMERIC_MAX_FAST). */
extern int	sd_numeric_encode(bool neg, uint64 mag, int e, int dscale, char *out);

/*
 * The numeric that numeric_in(s, typmod) gives for a literal of the form -?[0-9]+(\.[0-9]+)?
 * with at most 19 significant digits that fits int64 (and, with a typmod numeric(p,s),
 * 0 <= s <= p, when it needs no rounding and fits).  Returns false (nothing raised) for
 * anything else: the caller falls back to numeric_in.
 */
extern bool sd_numeric_fast(const char *s, size_t len, int32 typmod, Numeric *out);

/*
 * The numeric that numeric_in gives, with typmod, for the literal of a core SD_V_DECIMAL (value
 * ±mag * 10^-scale, mag < 10^18, scale <= 18, already checked against the typmod by the core,
 * so nothing is rounded): built from the digits, no text.  False for a typmod this does not
 * handle (scale < 0 or scale > precision): the caller falls back to numeric_in.
 */
extern bool sd_numeric_from_decimal(bool neg, uint64 mag, int scale, int32 typmod, Numeric *out);

#endif							/* SERDE_NUMERIC_BUILD_H */
