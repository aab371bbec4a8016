/*
 * scalar_time.h — timestamp patterns (format {"pattern": ..., "zone": ...}): compiled once into
 * the plan's arena at register time, read by sd_parse_pattern for every value.  ISO 8601 and
 * MIME base64 (also in scalar_time.c) are declared in scalar.h beside the other formats.
 */
#ifndef SERDE_SCALAR_TIME_H
#define SERDE_SCALAR_TIME_H

#include "scalar.h"

/* Compiles a CLDR-style pattern: the letters yyyy, M, MM, MMM (Jan), MMMM (January), d, dd,
 * EEE (Mon), EEEE (Monday), H, HH (0-23), h, hh (1-12, with a), m, mm, s, ss, S..S (exactly
 * that many fraction digits, at most 9), a (AM/PM), X (Z, +-hh or +-hhmm), XX (Z or +-hhmm),
 * XXX (Z or +-hh:mm), Z / ZZ / ZZZ (+-hhmm); any other character, and 'quoted' text ('' is an
 * apostrophe), is literal text matched as is; one-letter numeric fields read one or two digits,
 * two-letter ones exactly two; names in any case.  A year, a month and a day are required;
 * h needs a and a needs h; no field twice; at most SD_PATTERN_MAX bytes.  NULL with problem (the option error's text), or
 * with *oom on an allocation failure. */
#define SD_PATTERN_MAX 256		/* bytes of a pattern */
sd_tspattern *sd_tspattern_compile(sd_arena *a, const char *text, size_t len, char *problem,
								   bool *oom);
/* Sets the zone of a pattern: "UTC" (or "Z") or a fixed offset "+hh:mm" / "-hh:mm" up to
 * +-15:59.  SD_E_OPTIONS with problem, SD_E_NOMEM. */
sd_code		sd_tspattern_set_zone(sd_arena *a, sd_tspattern *p, const char *zone, char *problem);
bool		sd_tspattern_reads_offset(const sd_tspattern *p);	/* X or Z in it */
const char *sd_tspattern_text(const sd_tspattern *p);
const char *sd_tspattern_zone(const sd_tspattern *p);	/* as written, or NULL */
const char *sd_tspattern_expected(const sd_tspattern *p);	/* string (timestamp as "...") */

/* Reads s[0..len) by the pattern -> microseconds since 1970-01-01 (UTC after the text's
 * offset or the pattern's zone; without either, the wall time as is).  Text that does not
 * match: SD_E_KIND "invalid timestamp \"...\": expected \"<pattern>\""; hour 0 or 13+ with
 * AM/PM: SD_E_DATETIME "...: hour out of range (1-12 with AM/PM)"; a weekday that is not the
 * date's: SD_E_DATETIME "...: day of the week does not match the date"; the rest (no offset
 * when require_offset, impossible dates, ranges) as sd_ts_finish. */
sd_code		sd_parse_pattern(const sd_tspattern *p, const char *s, size_t len, bool require_offset,
							 int64_t *us, char *problem);

#endif							/* SERDE_SCALAR_TIME_H */
