/*
 * jsonb_build.h — the PostgreSQL adapter's fast path for jsonb values: a jsonb built straight
 * from valid JSON text or the walker's events (no jsonb_in), identical to what jsonb_in gives,
 * or declined so that the caller uses jsonb_in (which then raises the right error).  Its
 * numbers are written by numeric_build.c.
 */
#ifndef SERDE_JSONB_BUILD_H
#define SERDE_JSONB_BUILD_H

#include "postgres.h"

#include "utils/jsonb.h"

#include "serde_core.h"

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
