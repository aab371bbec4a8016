/*
 * scalar_time.c — the formats real APIs send, beside scalar.c's: ISO 8601 timestamps (date or
 * date-time, offsets Z / +-hh / +-hhmm / +-hh:mm), CLDR-style timestamp patterns compiled once
 * ("MMM d, yyyy h:mm:ss a") and read here, and line-wrapped (MIME) base64.  Every timestamp ends
 * in scalar.c's sd_ts_finish, so ranges and messages are those of RFC 3339.  Contracts are in
 * scalar.h (ISO 8601, MIME base64) and scalar_time.h (patterns).
 */
#include "scalar_time.h"

#include <stdio.h>
#include <string.h>

static inline bool
digit(char c)
{
	return (unsigned) (c - '0') < 10;
}

/* Exactly n digits at s[pos..len) into *v; false if not there. */
static bool
digits_n(const char *s, size_t len, size_t *pos, int n, int *v)
{
	int			x = 0;

	if (len - *pos < (size_t) n)
		return false;
	for (int i = 0; i < n; i++)
	{
		if (!digit(s[*pos + i]))
			return false;
		x = x * 10 + (s[*pos + i] - '0');
	}
	*pos += (size_t) n;
	*v = x;
	return true;
}

/* 1 to max digits at s[pos..len) (as many as there are, up to max). */
static bool
digits_upto(const char *s, size_t len, size_t *pos, int max, int *v)
{
	int			x = 0,
				n = 0;

	while (*pos < len && n < max && digit(s[*pos]))
		x = x * 10 + (s[(*pos)++] - '0'), n++;
	*v = x;
	return n > 0;
}

/* A fraction's digits at s[pos..len) (at least one; at most max, 0: any number) in µs. */
static bool
fraction(const char *s, size_t len, size_t *pos, size_t max, int64_t *us)
{
	size_t		f0 = *pos;

	while (*pos < len && digit(s[*pos]) && (max == 0 || *pos - f0 < max))
		(*pos)++;
	if (*pos == f0)
		return false;
	*us = sd_frac_digits_us(s + f0, *pos - f0);
	return true;
}

/* An offset at s[pos..len): Z/z (when z_ok), +-hh (when short_ok), +-hhmm (when compact_ok),
 * +-hh:mm (when colon_ok). */
static bool
offset(const char *s, size_t len, size_t *pos, bool z_ok, bool short_ok, bool compact_ok,
	   bool colon_ok, sd_ts_fields *F)
{
	size_t		p = *pos;

	if (p < len && z_ok && (s[p] == 'Z' || s[p] == 'z'))
	{
		F->has_off = true;
		F->off_sign = 0;
		F->off_h = F->off_m = 0;
		*pos = p + 1;
		return true;
	}
	if (p >= len || (s[p] != '+' && s[p] != '-'))
		return false;
	F->off_sign = s[p] == '-' ? -1 : 1;
	p++;
	if (!digits_n(s, len, &p, 2, &F->off_h))
		return false;
	F->off_m = 0;
	if (colon_ok && p < len && s[p] == ':')
	{
		p++;
		if (!digits_n(s, len, &p, 2, &F->off_m))
			return false;
	}
	else if (compact_ok && p < len && digit(s[p]))
	{
		if (!digits_n(s, len, &p, 2, &F->off_m))
			return false;
	}
	else if (!short_ok)
		return false;
	F->has_off = true;
	*pos = p;
	return true;
}

/* ------------------------------------------------------------------------------------------ */
/* ISO 8601                                                                                   */
/* ------------------------------------------------------------------------------------------ */

sd_code
sd_parse_iso8601(const char *s, size_t len, bool require_offset, int64_t *us, bool *had_offset,
				 char *problem)
{
	sd_ts_fields F = {0};
	size_t		pos = 0;

	if (!digits_n(s, len, &pos, 4, &F.y) || pos >= len || s[pos++] != '-' ||
		!digits_n(s, len, &pos, 2, &F.m) || pos >= len || s[pos++] != '-' ||
		!digits_n(s, len, &pos, 2, &F.d))
		goto syntax;
	if (pos == len)
	{
		/* a date alone: midnight UTC (W3C Datetime, sitemap lastmod) */
		F.has_off = true;
		*had_offset = true;
		return sd_ts_finish(s, len, &F, require_offset, us, problem);
	}
	if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ')
		goto syntax;
	pos++;
	if (!digits_n(s, len, &pos, 2, &F.h) || pos >= len || s[pos++] != ':' ||
		!digits_n(s, len, &pos, 2, &F.mi))
		goto syntax;
	if (pos < len && s[pos] == ':')
	{
		pos++;
		if (!digits_n(s, len, &pos, 2, &F.sec))
			goto syntax;
		if (pos < len && (s[pos] == '.' || s[pos] == ','))
		{
			pos++;
			if (!fraction(s, len, &pos, 0, &F.frac_us))
				goto syntax;
		}
	}
	if (pos < len && !offset(s, len, &pos, true, true, true, true, &F))
		goto syntax;
	if (pos != len)
		goto syntax;
	F.end_of_day = true;
	*had_offset = F.has_off;
	return sd_ts_finish(s, len, &F, require_offset, us, problem);

syntax:
	return sd_bad_timestamp(SD_E_KIND, s, len, "expected ISO 8601 date or date-time", problem);
}

/* ------------------------------------------------------------------------------------------ */
/* MIME base64                                                                                */
/* ------------------------------------------------------------------------------------------ */

static int
b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static sd_code
bad_mime(size_t at, char *problem)
{
	snprintf(problem, SD_PROBLEM_MAX, "invalid base64 at byte %zu", at);
	return SD_E_KIND;
}

sd_code
sd_decode_base64_mime(const char *s, size_t len, uint8_t *out, size_t *outlen, char *problem)
{
	const unsigned char *u = (const unsigned char *) s;
	unsigned	q[4];
	size_t		first_at = 0,	/* where the group being read began */
				pad_at = 0,
				o = 0;
	int			k = 0,
				pad = 0;

	for (size_t i = 0; i < len; i++)
	{
		int			v;

		if (u[i] == '\r' || u[i] == '\n' || u[i] == ' ' || u[i] == '\t')
			continue;
		if (u[i] == '=')
		{
			if (pad++ == 0)
				pad_at = i;
			continue;
		}
		/* data after the padding, or a character outside the alphabet */
		if (pad)
			return bad_mime(pad_at, problem);
		if ((v = b64_value(u[i])) < 0)
			return bad_mime(i, problem);
		if (k == 0)
			first_at = i;
		q[k++] = (unsigned) v;
		if (k == 4)
		{
			out[o++] = (uint8_t) ((q[0] << 2) | (q[1] >> 4));
			out[o++] = (uint8_t) ((q[1] << 4) | (q[2] >> 2));
			out[o++] = (uint8_t) ((q[2] << 6) | q[3]);
			k = 0;
		}
	}
	/* padding completes the final group ("QQ==", "QUI="), or there is none ("QQ", "QUI") */
	if (pad && (k < 2 || k + pad != 4))
		return bad_mime(pad_at, problem);
	if (k == 1)
		return bad_mime(first_at, problem);   /* one character cannot encode a byte */
	if (k >= 2)
		out[o++] = (uint8_t) ((q[0] << 2) | (q[1] >> 4));
	if (k == 3)
		out[o++] = (uint8_t) ((q[1] << 4) | (q[2] >> 2));
	*outlen = o;
	return SD_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Patterns                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef enum pitem_kind
{
	PI_LIT,						/* text matched as is */
	PI_YEAR,					/* yyyy: 4 digits */
	PI_MONTH,					/* M: 1-2 digits, MM: 2 */
	PI_MONTH_NAME,				/* MMM: Jan, MMMM: January (English, any case) */
	PI_DAY,						/* d: 1-2, dd: 2 */
	PI_WEEKDAY,					/* EEE: Mon, EEEE: Monday (checked against the date) */
	PI_HOUR24,					/* H: 1-2, HH: 2 (0-23) */
	PI_HOUR12,					/* h: 1-2, hh: 2 (1-12) */
	PI_MINUTE,					/* m: 1-2, mm: 2 */
	PI_SECOND,					/* s: 1-2, ss: 2 */
	PI_FRACTION,				/* S..S: exactly that many digits */
	PI_AMPM,					/* a: AM / PM (any case) */
	PI_OFFSET_X,				/* X: Z or +-hh[mm], XX: Z or +-hhmm, XXX: Z or +-hh:mm */
	PI_OFFSET_Z					/* Z, ZZ, ZZZ: +-hhmm */
} pitem_kind;

typedef struct pitem
{
	uint8_t		kind;
	uint8_t		n;				/* letters in the field */
	uint16_t	litlen;
	const char *lit;
} pitem;

struct sd_tspattern
{
	const char *text;			/* the pattern as written */
	const char *zone;			/* "zone" as written, or NULL */
	const char *expected;		/* "string (timestamp as \"<pattern>\")" */
	int			nitems;
	pitem	   *items;
	bool		reads_offset;	/* X or Z in the pattern */
	bool		has_zone;
	int			zone_sign,
				zone_h,
				zone_m;
};

static const char *const month_names[12] = {"january", "february", "march", "april", "may",
	"june", "july", "august", "september", "october", "november", "december"};
static const char *const weekday_names[7] = {"monday", "tuesday", "wednesday", "thursday",
"friday", "saturday", "sunday"};

#define LETTERS "yyyy, M, MM, MMM, MMMM, d, dd, EEE, EEEE, H, HH, h, hh, m, mm, s, ss, S to SSSSSSSSS, a, X, XX, XXX, Z"

sd_tspattern *
sd_tspattern_compile(sd_arena *a, const char *text, size_t len, char *problem, bool *oom)
{
	sd_tspattern *p = sd_arena_alloc(a, sizeof(sd_tspattern));
	pitem	   *items = sd_arena_alloc(a, sizeof(pitem) * (len + 1));
	char	   *lits = sd_arena_alloc(a, len + 1);
	size_t		nl = 0;
	unsigned	seen = 0;
	int			ni = 0;

	*oom = false;
	if (!p || !items || !lits)
		return *oom = true, NULL;
	memset(p, 0, sizeof(*p));
	if (len == 0)
		return snprintf(problem, SD_PROBLEM_MAX, "must not be empty"), NULL;
	if (len > SD_PATTERN_MAX)
		return snprintf(problem, SD_PROBLEM_MAX, "a pattern has at most %d bytes, not %zu",
						SD_PATTERN_MAX, len), NULL;
	for (size_t i = 0; i < len;)
	{
		char		c = text[i];
		size_t		n = 1;
		int			kind = -1;

		if (c == '\'' || !((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
		{
			/* literal text: other characters, or 'quoted' ('' is one apostrophe) */
			if (ni == 0 || items[ni - 1].kind != PI_LIT)
			{
				items[ni].kind = PI_LIT;
				items[ni].lit = lits + nl;
				items[ni].litlen = 0;
				ni++;
			}
			if (c != '\'')
				lits[nl++] = c, i++;
			else if (i + 1 < len && text[i + 1] == '\'')
				lits[nl++] = '\'', i += 2;
			else
			{
				size_t		j = i + 1;

				for (;;)
				{
					if (j >= len)
						return snprintf(problem, SD_PROBLEM_MAX,
										"quoted text that starts at character %zu has no closing quote",
										i + 1), NULL;
					if (text[j] == '\'' && j + 1 < len && text[j + 1] == '\'')
						lits[nl++] = '\'', j += 2;
					else if (text[j] == '\'')
						break;
					else
						lits[nl++] = text[j++];
				}
				i = j + 1;
			}
			items[ni - 1].litlen = (uint16_t) (lits + nl - items[ni - 1].lit);
			continue;
		}
		while (i + n < len && text[i + n] == c)
			n++;
		switch (c)
		{
			case 'y':
				kind = n == 4 ? PI_YEAR : -1;
				break;
			case 'M':
				kind = n <= 2 ? PI_MONTH : n <= 4 ? PI_MONTH_NAME : -1;
				break;
			case 'd':
				kind = n <= 2 ? PI_DAY : -1;
				break;
			case 'E':
				kind = n == 3 || n == 4 ? PI_WEEKDAY : -1;
				break;
			case 'H':
				kind = n <= 2 ? PI_HOUR24 : -1;
				break;
			case 'h':
				kind = n <= 2 ? PI_HOUR12 : -1;
				break;
			case 'm':
				kind = n <= 2 ? PI_MINUTE : -1;
				break;
			case 's':
				kind = n <= 2 ? PI_SECOND : -1;
				break;
			case 'S':
				kind = n <= 9 ? PI_FRACTION : -1;
				break;
			case 'a':
				kind = n == 1 ? PI_AMPM : -1;
				break;
			case 'X':
				kind = n <= 3 ? PI_OFFSET_X : -1;
				break;
			case 'Z':
				kind = n <= 3 ? PI_OFFSET_Z : -1;
				break;
			default:
				return snprintf(problem, SD_PROBLEM_MAX,
								"unknown pattern letter '%c' at character %zu (letters: " LETTERS
								"; quote other text with '...')", c, i + 1), NULL;
		}
		if (kind < 0)
			return snprintf(problem, SD_PROBLEM_MAX,
							"pattern field \"%.*s\" at character %zu is not supported (letters: " LETTERS ")",
							(int) (n > 12 ? 12 : n), text + i, i + 1), NULL;
		/* the offset letters read one thing: at most one of them */
		{
			int			bit = kind == PI_OFFSET_Z ? PI_OFFSET_X : kind;

			if (kind == PI_MONTH_NAME)
				bit = PI_MONTH;
			if (seen & (1u << bit))
				return snprintf(problem, SD_PROBLEM_MAX,
								"pattern field \"%.*s\" at character %zu repeats a field read before",
								(int) n, text + i, i + 1), NULL;
			seen |= 1u << bit;
		}
		items[ni].kind = (uint8_t) kind;
		items[ni].n = (uint8_t) n;
		items[ni].lit = NULL;
		items[ni].litlen = 0;
		ni++;
		i += n;
	}
	if (!(seen & (1u << PI_YEAR)) || !(seen & (1u << PI_MONTH)) || !(seen & (1u << PI_DAY)))
		return snprintf(problem, SD_PROBLEM_MAX,
						"the pattern needs a year (yyyy), a month (M, MM, MMM or MMMM) and a day (d or dd)"), NULL;
	if ((seen & (1u << PI_HOUR12)) && !(seen & (1u << PI_AMPM)))
		return snprintf(problem, SD_PROBLEM_MAX, "h and hh (hours 1-12) need a (AM or PM)"), NULL;
	if ((seen & (1u << PI_AMPM)) && !(seen & (1u << PI_HOUR12)))
		return snprintf(problem, SD_PROBLEM_MAX, "a (AM or PM) needs h or hh (hours 1-12)%s",
						(seen & (1u << PI_HOUR24)) ? ", not H or HH" : ""), NULL;
	if ((seen & (1u << PI_HOUR24)) && (seen & (1u << PI_HOUR12)))
		return snprintf(problem, SD_PROBLEM_MAX, "the pattern reads the hour twice (H and h)"), NULL;
	{
		size_t		elen = len + 32;
		char	   *e = sd_arena_alloc(a, elen);

		if (!e || !(p->text = sd_arena_strndup(a, text, len)))
			return *oom = true, NULL;
		snprintf(e, elen, "string (timestamp as \"%s\")", p->text);
		p->expected = e;
	}
	p->items = items;
	p->nitems = ni;
	p->reads_offset = (seen & (1u << PI_OFFSET_X)) != 0;
	return p;
}

sd_code
sd_tspattern_set_zone(sd_arena *a, sd_tspattern *p, const char *zone, char *problem)
{
	size_t		len = strlen(zone),
				pos = 0;
	sd_ts_fields F = {0};

	if (strcmp(zone, "UTC") == 0 || strcmp(zone, "Z") == 0)
		F.has_off = true;
	else if (!offset(zone, len, &pos, false, false, false, true, &F) || pos != len)
	{
		snprintf(problem, SD_PROBLEM_MAX,
				 "must be \"UTC\" or a fixed offset such as \"+02:00\" or \"-05:30\", not \"%.64s\"", zone);
		return SD_E_OPTIONS;
	}
	if (F.off_h > 15 || F.off_m > 59)
	{
		snprintf(problem, SD_PROBLEM_MAX, "offset \"%s\" out of range (-15:59 .. +15:59)", zone);
		return SD_E_OPTIONS;
	}
	if (!(p->zone = sd_arena_strndup(a, zone, len)))
		return SD_E_NOMEM;
	p->has_zone = true;
	p->zone_sign = F.off_sign;
	p->zone_h = F.off_h;
	p->zone_m = F.off_m;
	return SD_OK;
}

bool
sd_tspattern_reads_offset(const sd_tspattern *p)
{
	return p->reads_offset;
}

const char *
sd_tspattern_text(const sd_tspattern *p)
{
	return p->text;
}

const char *
sd_tspattern_zone(const sd_tspattern *p)
{
	return p->zone;
}

const char *
sd_tspattern_expected(const sd_tspattern *p)
{
	return p->expected;
}

/* An English name of names[0..n) at s[pos..len), any case: full (full) or its first three
 * letters; the index or -1. */
static int
name_at(const char *s, size_t len, size_t *pos, const char *const *names, int n, bool full)
{
	for (int i = 0; i < n; i++)
	{
		size_t		nl = full ? strlen(names[i]) : 3,
					k;

		if (len - *pos < nl)
			continue;
		for (k = 0; k < nl && (s[*pos + k] | 0x20) == names[i][k]; k++)
			;
		if (k == nl)
		{
			*pos += nl;
			return i;
		}
	}
	return -1;
}

sd_code
sd_parse_pattern(const sd_tspattern *p, const char *s, size_t len, bool require_offset,
				 int64_t *us, char *problem)
{
	sd_ts_fields F = {0};
	size_t		pos = 0;
	int			h12 = -1,
				pm = -1,
				wday = -1;

	for (int i = 0; i < p->nitems; i++)
	{
		const pitem *it = &p->items[i];
		bool		ok = true;

		switch ((pitem_kind) it->kind)
		{
			case PI_LIT:
				ok = len - pos >= it->litlen && memcmp(s + pos, it->lit, it->litlen) == 0;
				pos += ok ? it->litlen : 0;
				break;
			case PI_YEAR:
				ok = digits_n(s, len, &pos, 4, &F.y);
				break;
			case PI_MONTH:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &F.m) : digits_upto(s, len, &pos, 2, &F.m);
				break;
			case PI_MONTH_NAME:
				ok = (F.m = name_at(s, len, &pos, month_names, 12, it->n == 4) + 1) > 0;
				break;
			case PI_DAY:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &F.d) : digits_upto(s, len, &pos, 2, &F.d);
				break;
			case PI_WEEKDAY:
				ok = (wday = name_at(s, len, &pos, weekday_names, 7, it->n == 4)) >= 0;
				break;
			case PI_HOUR24:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &F.h) : digits_upto(s, len, &pos, 2, &F.h);
				break;
			case PI_HOUR12:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &h12) : digits_upto(s, len, &pos, 2, &h12);
				break;
			case PI_MINUTE:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &F.mi) : digits_upto(s, len, &pos, 2, &F.mi);
				break;
			case PI_SECOND:
				ok = it->n == 2 ? digits_n(s, len, &pos, 2, &F.sec) : digits_upto(s, len, &pos, 2, &F.sec);
				break;
			case PI_FRACTION:
				{
					size_t		f0 = pos;

					ok = fraction(s, len, &pos, it->n, &F.frac_us) && pos - f0 == it->n;
					break;
				}
			case PI_AMPM:
				if (len - pos >= 2 && (s[pos + 1] | 0x20) == 'm' &&
					((s[pos] | 0x20) == 'a' || (s[pos] | 0x20) == 'p'))
				{
					pm = (s[pos] | 0x20) == 'p';
					pos += 2;
				}
				else
					ok = false;
				break;
			case PI_OFFSET_X:
				ok = offset(s, len, &pos, true, it->n == 1, it->n <= 2, it->n == 3, &F);
				break;
			case PI_OFFSET_Z:
				ok = offset(s, len, &pos, false, false, true, false, &F);
				break;
		}
		if (!ok)
		{
			char		why[SD_PROBLEM_MAX];

			snprintf(why, sizeof(why), "expected \"%.200s\"", p->text);
			return sd_bad_timestamp(SD_E_KIND, s, len, why, problem);
		}
	}
	if (pos != len)
	{
		char		why[SD_PROBLEM_MAX];

		snprintf(why, sizeof(why), "expected \"%.200s\"", p->text);
		return sd_bad_timestamp(SD_E_KIND, s, len, why, problem);
	}
	if (h12 >= 0)
	{
		if (h12 < 1 || h12 > 12)
			return sd_bad_timestamp(SD_E_DATETIME, s, len, "hour out of range (1-12 with AM/PM)",
									problem);
		F.h = h12 % 12 + (pm ? 12 : 0);
	}
	if (!p->reads_offset && p->has_zone)
	{
		F.has_off = true;
		F.off_sign = p->zone_sign;
		F.off_h = p->zone_h;
		F.off_m = p->zone_m;
	}
	{
		sd_code		c = sd_ts_finish(s, len, &F, require_offset, us, problem);

		/* 1970-01-01 was a Thursday (index 3, Monday = 0) */
		if (c == SD_OK && wday >= 0 &&
			(int) (((sd_days_from_civil(F.y, F.m, F.d) % 7) + 7 + 3) % 7) != wday)
			return sd_bad_timestamp(SD_E_DATETIME, s, len, "day of the week does not match the date",
									problem);
		return c;
	}
}
