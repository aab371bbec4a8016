/*
 * jsonb_build.c — builds jsonb and numeric values without going through jsonb_in/numeric_in.
 *
 * sd_jsonb_from_text() turns the text of an already validated JSON value into the Jsonb that
 * jsonb_in would give: one iterative pass (an explicit stack of open containers, so the nesting
 * depth costs no C stack) builds a JsonbValue tree — strings point into the text or, when they
 * hold escapes, into one buffer of unescaped bytes; numbers become Numerics (sd_numeric_fast,
 * else numeric_in as jsonb_in calls it); objects are sorted and de-duplicated exactly as
 * jsonb_util.c's uniqueifyJsonbObject does (by key length, then bytes; the last duplicate wins)
 * — and hands it to JsonbValueToJsonb().  What jsonb_in would reject or treat specially (\u0000,
 * lone surrogates, a non-UTF-8 server encoding, strings and containers over jsonb's limits) is
 * declined: the caller then calls jsonb_in, which raises the error it always raised.
 *
 * sd_numeric_fast() builds the numeric of a plain decimal literal with int64_to_numeric /
 * int64_div_fast_to_numeric, applying a numeric(p,s) typmod the way numeric_in does (scale
 * filled up or trailing zeros dropped; what needs rounding or overflows goes to numeric_in).
 *
 * The tree lives in a scratch memory context of its own, reset on every call (the result is
 * allocated in the caller's context).
 */
#include "postgres.h"

#include "common/int.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"

#include "jsonb_build.h"

/* jsonb_util.c's limits on the members of one container (not exported) */
#define SD_JSONB_MAX_ELEMS	(Min(MaxAllocSize / sizeof(JsonbValue), JB_CMASK))
#define SD_JSONB_MAX_PAIRS	(Min(MaxAllocSize / sizeof(JsonbPair), JB_CMASK))

/* fast numerics: literals with at most this many fraction digits */
#define SD_FAST_MAX_SCALE	1000

static const int64 sd_pow10[19] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000), INT64CONST(10000),
	INT64CONST(100000), INT64CONST(1000000), INT64CONST(10000000), INT64CONST(100000000),
	INT64CONST(1000000000), INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000), INT64CONST(100000000000000),
	INT64CONST(1000000000000000), INT64CONST(10000000000000000),
	INT64CONST(100000000000000000), INT64CONST(1000000000000000000)
};

/* ---- numeric ------------------------------------------------------------------------------- */

bool
sd_numeric_fast(const char *s, size_t len, int32 typmod, Numeric *out)
{
	const char *p = s;
	const char *end = s + len;
	bool		neg = false;
	uint64		mag = 0;
	int			ndigits = 0;	/* significant digits in mag */
	int			scale = 0;
	int64		val;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
	{
		if (mag != 0 || *p != '0')
		{
			if (++ndigits > 19)
				return false;
			mag = mag * 10 + (uint64) (*p - '0');
		}
		p++;
	}
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
		{
			if (++scale > SD_FAST_MAX_SCALE)
				return false;
			if (mag != 0 || *p != '0')
			{
				if (++ndigits > 19)
					return false;
				mag = mag * 10 + (uint64) (*p - '0');
			}
			p++;
		}
	}
	if (p != end)
		return false;			/* an exponent, a sign, blanks, ...: numeric_in decides */
	if (neg)
	{
		if (mag > (uint64) PG_INT64_MAX + 1)
			return false;
		val = mag == (uint64) PG_INT64_MAX + 1 ? PG_INT64_MIN : -(int64) mag;
	}
	else
	{
		if (mag > (uint64) PG_INT64_MAX)
			return false;
		val = (int64) mag;
	}

	if (typmod >= (int32) VARHDRSZ)
	{
		/* numeric(precision, tscale), as numeric.c encodes it */
		int			precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
		int			tscale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
		uint64		absval;

		if (tscale < 0 || tscale > precision)
			return false;
		if (scale < tscale)
		{
			if (tscale - scale > 18 ||
				pg_mul_s64_overflow(val, sd_pow10[tscale - scale], &val))
				return false;
		}
		else if (scale > tscale)
		{
			/* only trailing zeros go; anything to round is left to numeric_in */
			if (scale - tscale > 18 || val % sd_pow10[scale - tscale] != 0)
				return false;
			val /= sd_pow10[scale - tscale];
		}
		scale = tscale;
		/* numeric_in raises "numeric field overflow" beyond precision - scale integer digits */
		absval = val < 0 ? (uint64) 0 - (uint64) val : (uint64) val;
		if (precision < 19 && absval >= (uint64) sd_pow10[precision])
			return false;
	}
	*out = scale == 0 ? int64_to_numeric(val) : int64_div_fast_to_numeric(val, scale);
	return true;
}

/* ---- jsonb --------------------------------------------------------------------------------- */

/* An open container: its value goes to vs[slot], its members are vs[start..nvs). */
typedef struct JbFrame
{
	int			slot;
	int			start;
	bool		object;
	Size		base;			/* b->total when it was opened */
} JbFrame;

typedef struct JbBuild
{
	const char *p;
	const char *end;
	JsonbPair  *vs;				/* members of the open containers (arrays use .value) */
	int			nvs;
	int			vcap;
	JbFrame    *fs;
	int			nfs;
	int			fcap;
	char	   *ubuf;			/* unescaped strings, allocated at the first escape */
	size_t		ulen;
	uint32		count;			/* values so far (interrupt checks) */
	Size		total;			/* lower bound of the binary size so far (jb_grow) */
} JbBuild;

static MemoryContext jb_scratch = NULL;

static inline void
jb_skip_ws(JbBuild *b)
{
	while (b->p < b->end && (*b->p == ' ' || *b->p == '\n' || *b->p == '\r' || *b->p == '\t'))
		b->p++;
}

/*
 * Adds n bytes to the lower bound of the value's binary size: a JEntry (4 bytes) per array
 * element, object key and object value, the bytes of every string and key, the size of every
 * numeric, a 4-byte header per container — all of which jsonb stores, without alignment padding.
 * One container's data is limited to JENTRY_OFFLENMASK bytes (jsonb_util.c's
 * convertJsonbArray/Object raise then), and the root contains everything: once the bound passes
 * that, the value cannot be stored.  Raise jsonb's own error at once rather than first building
 * a tree of tens of bytes per value (a near-1 GB document would need tens of GB), naming the
 * innermost open container that is over the limit, the one jsonb would fail on first.
 */
static inline void
jb_grow(JbBuild *b, Size n)
{
	b->total += n;
	if (unlikely(b->total > JENTRY_OFFLENMASK))
	{
		bool		object = false;

		for (int i = b->nfs - 1; i >= 0; i--)
			if (b->total - b->fs[i].base > JENTRY_OFFLENMASK)
			{
				object = b->fs[i].object;
				break;
			}
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("total size of jsonb %s elements exceeds the maximum of %d bytes",
						object ? "object" : "array", JENTRY_OFFLENMASK)));
	}
}

/* Reserves the next member slot; returns its index, or -1 (too many: leave it to jsonb_in). */
static int
jb_push(JbBuild *b)
{
	if (b->nvs == b->vcap)
	{
		if ((Size) b->vcap * 2 * sizeof(JsonbPair) > MaxAllocHugeSize)
			return -1;
		b->vcap *= 2;
		b->vs = repalloc_huge(b->vs, sizeof(JsonbPair) * (Size) b->vcap);
	}
	if ((++b->count & 0xffff) == 0)
		CHECK_FOR_INTERRUPTS();
	return b->nvs++;
}

static inline int
jb_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The four hex digits at p (p + 4 <= end), or -1. */
static inline int
jb_hex4(const char *p)
{
	int			a = jb_hex(p[0]),
				b = jb_hex(p[1]),
				c = jb_hex(p[2]),
				d = jb_hex(p[3]);

	if ((a | b | c | d) < 0)
		return -1;
	return (a << 12) | (b << 8) | (c << 4) | d;
}

/*
 * The string starting at b->p (its opening quote) into *out: a pointer into the text when it
 * holds no escape, else into b->ubuf.  False: leave it to jsonb_in.
 */
static bool
jb_string(JbBuild *b, JsonbValue *out)
{
	const char *p = b->p + 1;
	const char *end = b->end;
	const char *q = memchr(p, '"', end - p);
	const char *bs;
	char	   *o;
	char	   *ostart;

	if (q == NULL)
		return false;
	bs = memchr(p, '\\', q - p);
	if (bs == NULL)
	{
		if (q - p > JENTRY_OFFLENMASK)
			return false;
		out->type = jbvString;
		out->val.string.val = (char *) p;
		out->val.string.len = (int) (q - p);
		b->p = q + 1;
		return true;
	}
	if (b->ubuf == NULL)
		b->ubuf = palloc_extended(end - p, MCXT_ALLOC_HUGE);	/* unescaped <= escaped */
	o = ostart = b->ubuf + b->ulen;
	for (;;)
	{
		/* p: start of a run; bs: its first backslash (or NULL: the run ends the string) */
		const char *stop = bs ? bs : q;

		memcpy(o, p, stop - p);
		o += stop - p;
		if (bs == NULL)
		{
			p = q + 1;
			break;
		}
		p = bs + 1;
		if (p >= end)
			return false;
		switch (*p)
		{
			case '"':
			case '\\':
			case '/':
				*o++ = *p++;
				break;
			case 'b':
				*o++ = '\b';
				p++;
				break;
			case 'f':
				*o++ = '\f';
				p++;
				break;
			case 'n':
				*o++ = '\n';
				p++;
				break;
			case 'r':
				*o++ = '\r';
				p++;
				break;
			case 't':
				*o++ = '\t';
				p++;
				break;
			case 'u':
				{
					int			cp;

					if (end - p < 5 || (cp = jb_hex4(p + 1)) <= 0)
						return false;	/* \u0000: jsonb_in raises */
					p += 5;
					if (cp >= 0xD800 && cp <= 0xDBFF)
					{
						int			lo;

						if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
							(lo = jb_hex4(p + 2)) < 0xDC00 || lo > 0xDFFF)
							return false;	/* a lone high surrogate */
						p += 6;
						cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					}
					else if (cp >= 0xDC00 && cp <= 0xDFFF)
						return false;	/* a lone low surrogate */
					unicode_to_utf8((pg_wchar) cp, (unsigned char *) o);
					o += pg_utf_mblen((unsigned char *) o);
					break;
				}
			default:
				return false;
		}
		/* the closing quote found first may have been an escaped one */
		if (q < p)
		{
			q = memchr(p, '"', end - p);
			if (q == NULL)
				return false;
		}
		bs = memchr(p, '\\', q - p);
	}
	if (o - ostart > JENTRY_OFFLENMASK)
		return false;
	out->type = jbvString;
	out->val.string.val = ostart;
	out->val.string.len = (int) (o - ostart);
	b->ulen += o - ostart;
	b->p = p;
	return true;
}

/* True if s[0..len) is a JSON number. */
static bool
jb_is_json_number(const char *s, size_t len)
{
	const char *p = s;
	const char *end = s + len;

	if (p < end && *p == '-')
		p++;
	if (p == end || *p < '0' || *p > '9')
		return false;
	if (*p == '0')
		p++;
	else
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	return p == end;
}

static bool
jb_number(JbBuild *b, JsonbValue *out)
{
	const char *s = b->p;
	const char *p = s;
	Numeric		num;

	while (p < b->end && ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.' ||
						  *p == 'e' || *p == 'E'))
		p++;
	if (!sd_numeric_fast(s, p - s, -1, &num))
	{
		char		buf[64];
		char	   *str;

		if (!jb_is_json_number(s, p - s))
			return false;
		if (p - s < (ptrdiff_t) sizeof(buf))
		{
			memcpy(buf, s, p - s);
			buf[p - s] = '\0';
			str = buf;
		}
		else
			str = pnstrdup(s, p - s);
		/* exactly as jsonb_in (jsonb_in_scalar) converts a number; its errors are jsonb_in's */
		num = DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(str),
												  ObjectIdGetDatum(InvalidOid),
												  Int32GetDatum(-1)));
	}
	out->type = jbvNumeric;
	out->val.numeric = num;
	b->p = p;
	return true;
}

/* uniqueifyJsonbObject's order: key length, key bytes, then the later member first */
static inline int
jb_pair_cmp(const JsonbPair *a, const JsonbPair *b)
{
	int			la = a->key.val.string.len;
	int			lb = b->key.val.string.len;
	int			r;

	if (la != lb)
		return la > lb ? 1 : -1;
	r = memcmp(a->key.val.string.val, b->key.val.string.val, la);
	if (r != 0)
		return r;
	return a->order > b->order ? -1 : 1;
}

static int
jb_pair_qsort_cmp(const void *a, const void *b)
{
	return jb_pair_cmp((const JsonbPair *) a, (const JsonbPair *) b);
}

static inline bool
jb_same_key(const JsonbPair *a, const JsonbPair *b)
{
	return a->key.val.string.len == b->key.val.string.len &&
		memcmp(a->key.val.string.val, b->key.val.string.val, a->key.val.string.len) == 0;
}

/* Closes the innermost container: its members become its value in its slot. */
static bool
jb_close(JbBuild *b)
{
	JbFrame    *fr = &b->fs[--b->nfs];
	JsonbPair  *m = b->vs + fr->start;
	int			n = b->nvs - fr->start;
	JsonbValue	cont;

	if (fr->object)
	{
		JsonbPair  *pairs;
		int			k;

		if ((Size) n > SD_JSONB_MAX_PAIRS)
			return false;
		if (n <= 12)
		{
			for (int i = 1; i < n; i++)
			{
				JsonbPair	t;
				int			j = i;

				if (jb_pair_cmp(&m[i - 1], &m[i]) < 0)
					continue;
				t = m[i];
				while (j > 0 && jb_pair_cmp(&m[j - 1], &t) > 0)
				{
					m[j] = m[j - 1];
					j--;
				}
				m[j] = t;
			}
		}
		else
			qsort(m, n, sizeof(JsonbPair), jb_pair_qsort_cmp);
		/* keep the first of each run of equal keys: the last one in the text */
		k = 0;
		for (int i = 0; i < n; i++)
			if (k == 0 || !jb_same_key(&m[k - 1], &m[i]))
			{
				if (k != i)
					m[k] = m[i];
				k++;
			}
		pairs = k ? palloc_extended(sizeof(JsonbPair) * (Size) k, MCXT_ALLOC_HUGE) : NULL;
		if (k)
			memcpy(pairs, m, sizeof(JsonbPair) * (Size) k);
		cont.type = jbvObject;
		cont.val.object.nPairs = k;
		cont.val.object.pairs = pairs;
	}
	else
	{
		JsonbValue *elems = NULL;

		if ((Size) n > SD_JSONB_MAX_ELEMS)
			return false;
		if (n)
		{
			elems = palloc_extended(sizeof(JsonbValue) * (Size) n, MCXT_ALLOC_HUGE);
			for (int i = 0; i < n; i++)
				elems[i] = m[i].value;
		}
		cont.type = jbvArray;
		cont.val.array.nElems = n;
		cont.val.array.elems = elems;
		cont.val.array.rawScalar = false;
	}
	b->nvs = fr->start;
	b->vs[fr->slot].value = cont;
	return true;
}

static void
jb_open(JbBuild *b, int slot, bool object)
{
	if (b->nfs == b->fcap)
	{
		b->fcap *= 2;
		b->fs = repalloc_huge(b->fs, sizeof(JbFrame) * (Size) b->fcap);
	}
	b->fs[b->nfs].slot = slot;
	b->fs[b->nfs].start = b->nvs;
	b->fs[b->nfs].object = object;
	b->fs[b->nfs].base = b->total;
	b->nfs++;
	jb_grow(b, b->nfs > 1 ? 8 : 4);	/* its header (and its JEntry in its parent) */
}

/* Parses the whole text into b->vs[0].value; false: leave it to jsonb_in. */
static bool
jb_parse(JbBuild *b)
{
	int			slot = jb_push(b);	/* the root's */
	JsonbValue *v;

value:
	jb_skip_ws(b);
	if (slot < 0 || b->p >= b->end)
		return false;
	v = &b->vs[slot].value;
	switch (*b->p)
	{
		case '{':
			b->p++;
			jb_open(b, slot, true);
			jb_skip_ws(b);
			if (b->p < b->end && *b->p == '}')
			{
				b->p++;
				goto close;
			}
			goto key;
		case '[':
			b->p++;
			jb_open(b, slot, false);
			jb_skip_ws(b);
			if (b->p < b->end && *b->p == ']')
			{
				b->p++;
				goto close;
			}
			slot = jb_push(b);
			goto value;
		case '"':
			if (!jb_string(b, v))
				return false;
			jb_grow(b, 4 + (Size) v->val.string.len);
			break;
		case 't':
			if (b->end - b->p < 4 || memcmp(b->p, "true", 4) != 0)
				return false;
			v->type = jbvBool;
			v->val.boolean = true;
			b->p += 4;
			jb_grow(b, 4);
			break;
		case 'f':
			if (b->end - b->p < 5 || memcmp(b->p, "false", 5) != 0)
				return false;
			v->type = jbvBool;
			v->val.boolean = false;
			b->p += 5;
			jb_grow(b, 4);
			break;
		case 'n':
			if (b->end - b->p < 4 || memcmp(b->p, "null", 4) != 0)
				return false;
			v->type = jbvNull;
			b->p += 4;
			jb_grow(b, 4);
			break;
		default:
			if (!jb_number(b, v))
				return false;
			jb_grow(b, 4 + VARSIZE_ANY(v->val.numeric));
			break;
	}

after:
	jb_skip_ws(b);
	if (b->nfs == 0)
		return b->p == b->end;
	if (b->p >= b->end)
		return false;
	if (*b->p == ',')
	{
		b->p++;
		if (b->fs[b->nfs - 1].object)
			goto key;
		slot = jb_push(b);
		goto value;
	}
	if (*b->p == (b->fs[b->nfs - 1].object ? '}' : ']'))
	{
		b->p++;
		goto close;
	}
	return false;

key:
	{
		JsonbValue	k;

		jb_skip_ws(b);
		if (b->p >= b->end || *b->p != '"' || !jb_string(b, &k))
			return false;
		jb_skip_ws(b);
		if (b->p >= b->end || *b->p != ':')
			return false;
		b->p++;
		slot = jb_push(b);
		if (slot < 0)
			return false;
		b->vs[slot].key = k;
		jb_grow(b, 4 + (Size) k.val.string.len);
		b->vs[slot].order = (uint32) (slot - b->fs[b->nfs - 1].start);
		goto value;
	}

close:
	if (!jb_close(b))
		return false;
	goto after;
}

Jsonb *
sd_jsonb_from_text(const char *text, size_t len)
{
	MemoryContext caller = CurrentMemoryContext;
	JbBuild		b;
	JsonbValue	root;
	JsonbValue	scalar;
	Jsonb	   *out;

	if (GetDatabaseEncoding() != PG_UTF8)
		return NULL;			/* \u escapes convert differently: jsonb_in knows how */
	if (jb_scratch == NULL)
		jb_scratch = AllocSetContextCreate(TopMemoryContext, "serde jsonb build",
										   ALLOCSET_DEFAULT_SIZES);
	else
		MemoryContextReset(jb_scratch);	/* what an error left behind */
	MemoryContextSwitchTo(jb_scratch);
	memset(&b, 0, sizeof(b));
	b.p = text;
	b.end = text + len;
	b.vcap = 64;
	b.vs = palloc(sizeof(JsonbPair) * b.vcap);
	b.fcap = 16;
	b.fs = palloc(sizeof(JbFrame) * b.fcap);
	if (!jb_parse(&b))
	{
		MemoryContextSwitchTo(caller);
		MemoryContextReset(jb_scratch);
		return NULL;
	}
	MemoryContextSwitchTo(caller);
	root = b.vs[0].value;
	if (root.type != jbvArray && root.type != jbvObject)
	{
		/* a scalar is stored as a one-element raw-scalar array, as pushJsonbValue makes it */
		scalar = root;
		root.type = jbvArray;
		root.val.array.nElems = 1;
		root.val.array.elems = &scalar;
		root.val.array.rawScalar = true;
	}
	out = JsonbValueToJsonb(&root);
	MemoryContextReset(jb_scratch);
	return out;
}
