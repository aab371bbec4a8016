/*
 * jsonb_build.h — fast paths of the PostgreSQL adapter for jsonb and numeric values: a jsonb
 * built straight from valid JSON text (no jsonb_in), and a numeric built from a plain decimal
 * literal (no numeric_in).  Both give results identical to the functions they replace, or
 * decline so that the caller uses those functions (which then raise the right errors).
 */
#ifndef SERDE_JSONB_BUILD_H
#define SERDE_JSONB_BUILD_H

#include "postgres.h"

#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "serde_core.h"

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

/*
 * The jsonb that jsonb_in gives for text[0..len), which must be valid JSON.  Returns NULL,
 * having raised nothing, when the text holds something this builder leaves to jsonb_in (a \u
 * escape for NUL or a lone surrogate, a non-UTF-8 database, a string or container over jsonb's
 * limits, anything malformed).  May raise what jsonb_in raises for the same text (numeric_in's
 * errors for numbers numeric cannot hold, jsonb's size limits, stack depth, interrupts).
 */
extern Jsonb *sd_jsonb_from_text(const char *text, size_t len);

/*
 * The same from the core's events of one value (ev[0] its first; serde_core.h), which the text
 * walker wrote while validating it: no second parse of the text.  NULL when it declines (as
 * above); the caller then tries sd_jsonb_from_text.
 */
extern Jsonb *sd_jsonb_from_events(const sd_jev *ev);

#endif							/* SERDE_JSONB_BUILD_H */
