/*
 * jsonb_build.c — builds jsonb values without going through jsonb_in (their numbers written by
 * numeric_build.c without numeric_in).
 *
 * sd_jsonb_from_text() turns the text of an already validated JSON value into the Jsonb that
 * jsonb_in would give, byte for byte, writing jsonb's binary format itself (no JsonbValue tree,
 * no JsonbValueToJsonb).  Two passes, both iterative (explicit stacks: the nesting depth costs
 * no C stack):
 *
 *   1. parse: a flat tape of tokens, one per value (JbTok: kind, length or member count, a
 *      pointer to the string — into the text or, when it holds escapes, into one buffer of
 *      unescaped bytes — or the offset of its numeric's bytes in a numeric buffer).  Numbers
 *      become numerics as numeric_in makes them: plain literals of up to 19 significant digits
 *      are encoded directly (sd_numeric_encode), others go through numeric_in as jsonb_in calls
 *      it.  When a container closes, its exact binary size is computed (jsonb_util.c's
 *      convertJsonbArray/Object: header, JEntries, data with numerics and nested containers
 *      INTALIGNed, the padding counted in the entry's length); an object's members are first
 *      sorted and de-duplicated exactly as uniqueifyJsonbObject does (key length, then bytes;
 *      the last duplicate wins) into a member list (JbMemb: key, value's token).
 *   2. emit: one buffer of the exact size, written front to back: per container the header
 *      (count | JB_FARRAY/JB_FOBJECT), the JEntry array (every JB_OFFSET_STRIDE'th entry an
 *      end offset with JENTRY_HAS_OFF, the others lengths), then the data — an object's keys
 *      first, then its values in key order; a raw scalar root is a one-element array with
 *      JB_FSCALAR, as pushJsonbValue makes it.
 *
 * What jsonb_in would reject or treat specially (\u0000, lone surrogates, a non-UTF-8 server
 * encoding, strings and member counts over jsonb's limits, anything malformed) is declined:
 * the caller then calls jsonb_in, which raises the error it always raised.  A running lower
 * bound of the binary size (jb_grow) raises jsonb's 54000 as soon as the value cannot fit.
 *
 * sd_jsonb_from_events() does the same from the events the text walker wrote for the value
 * (serde_core.h, sd_jev): pass 1 reads the events instead of the text — no whitespace, quotes or
 * escapes to scan, keys and strings already unescaped — and 1..9999 become JT_INT tokens whose
 * numeric is written at emit; pass 2 is shared.
 *
 * The work arrays live in a memory context of their own and are kept between calls (freed
 * when a value made them big); the result is allocated in the caller's context.
 */
#include "postgres.h"

#include "common/int.h"
#include "mb/pg_wchar.h"
#include "port/pg_bitutils.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"

#include "jsonb_build.h"
#include "numeric_build.h"

/* jsonb_util.c's limits on the members of one container (not exported) */
#define SD_JSONB_MAX_ELEMS	(Min(MaxAllocSize / sizeof(JsonbValue), JB_CMASK))
#define SD_JSONB_MAX_PAIRS	(Min(MaxAllocSize / sizeof(JsonbPair), JB_CMASK))


/* ---- jsonb: pass 1, the tape ---------------------------------------------------------------- */

/* token kinds (JbTok.head >> 28) */
#define JT_NULL		0
#define JT_FALSE	1
#define JT_TRUE		2
#define JT_STR		3
#define JT_NUM		4
#define JT_INT		5			/* 1..9999: its numeric written straight from u.off */
#define JT_ARR		6			/* containers last: JT_KIND(t) >= JT_ARR */
#define JT_OBJ		7

#define JT_HEAD(kind, n)	(((uint32) (kind) << 28) | (uint32) (n))
#define JT_KIND(t)			((t)->head >> 28)
#define JT_N(t)				((t)->head & 0x0FFFFFFF)

/* One value: a scalar, or a container (its members follow it on the tape, up to c.end). */
typedef struct JbTok
{
	uint32		head;			/* kind << 28 | string/numeric length, or (unique) members */
	uint32		size;			/* containers: binary size, without any leading padding */
	union
	{
		const char *s;			/* JT_STR: the bytes */
		Size		off;		/* JT_NUM: offset of the numeric's bytes in nbuf; JT_INT: the
								 * value */
		struct
		{
			uint32		end;	/* the token after the container's last member's subtree */
			uint32		mem;	/* JT_OBJ: its first member in mems (sorted, unique) */
		}			c;
	}			u;
} JbTok;

/* An object's member: its key and the token of its value. */
typedef struct JbMemb
{
	const char *key;
	uint32		klen;
	uint32		vidx;			/* increases with the position in the text */
} JbMemb;

/* An open container while parsing. */
typedef struct JbFrame
{
	uint32		tok;
	uint32		mstart;			/* objects: its first pending member */
	uint32		count;			/* members so far (duplicates included) */
	bool		object;
	Size		off;			/* arrays: the size of its data so far */
	Size		base;			/* b->total when it was opened */
} JbFrame;

/* An open container while emitting. */
typedef struct JbEmit
{
	Size		start;			/* where it begins in the output, its leading padding included */
	Size		jpos;			/* its JEntry array */
	Size		dstart;			/* its data */
	uint32		i;				/* next member */
	uint32		n;
	bool		object;
	uint32		next;			/* arrays: the token of member i; objects: its first JbMemb */
} JbEmit;

/* the work arrays, kept between calls */
typedef struct JbBufs
{
	JbTok	   *tape;
	uint32		tcap;
	JbMemb	   *pend;			/* members of the open objects */
	uint32		pcap;
	JbMemb	   *mems;			/* members of the closed objects */
	uint32		mcap;
	JbFrame    *fs;
	uint32		fcap;
	JbEmit	   *es;
	uint32		ecap;
	char	   *nbuf;			/* numerics */
	Size		ncap;
	char	   *ubuf;			/* unescaped strings */
	Size		ucap;
} JbBufs;

typedef struct JbBuild
{
	const char *p;
	const char *end;
	JbBufs	   *w;
	uint32		ntok;
	uint32		npend;
	uint32		nmems;
	uint32		nfs;
	Size		nlen;
	Size		ulen;
	bool		uready;			/* ubuf holds room for the rest of the text */
	Size		total;			/* lower bound of the binary size so far (jb_grow) */
} JbBuild;

static MemoryContext jb_cxt = NULL;
static JbBufs jb_bufs;

/* the capacities a call starts with, and above which the arrays are freed after a call */
#define JB_TAPE_INIT	256
#define JB_KEEP_BYTES	(1024 * 1024)

static void
jb_bufs_init(void)
{
	JbBufs	   *w = &jb_bufs;

	if (jb_cxt == NULL)
		jb_cxt = AllocSetContextCreate(TopMemoryContext, "serde jsonb build",
									   ALLOCSET_DEFAULT_SIZES);
	else
		MemoryContextReset(jb_cxt);
	memset(w, 0, sizeof(*w));
	w->tcap = JB_TAPE_INIT;
	w->tape = MemoryContextAlloc(jb_cxt, sizeof(JbTok) * w->tcap);
	w->pcap = 64;
	w->pend = MemoryContextAlloc(jb_cxt, sizeof(JbMemb) * w->pcap);
	w->mcap = 64;
	w->mems = MemoryContextAlloc(jb_cxt, sizeof(JbMemb) * w->mcap);
	w->fcap = 16;
	w->fs = MemoryContextAlloc(jb_cxt, sizeof(JbFrame) * w->fcap);
	w->ecap = 16;
	w->es = MemoryContextAlloc(jb_cxt, sizeof(JbEmit) * w->ecap);
	w->ncap = 1024;
	w->nbuf = MemoryContextAlloc(jb_cxt, w->ncap);
}

/* Keeps memory proportional to the current value: frees what a big one left. */
static void
jb_bufs_trim(void)
{
	JbBufs	   *w = &jb_bufs;

	if (jb_cxt == NULL ||
		sizeof(JbTok) * (Size) w->tcap > JB_KEEP_BYTES ||
		sizeof(JbMemb) * (Size) w->pcap > JB_KEEP_BYTES ||
		sizeof(JbMemb) * (Size) w->mcap > JB_KEEP_BYTES ||
		sizeof(JbFrame) * (Size) w->fcap > JB_KEEP_BYTES ||
		sizeof(JbEmit) * (Size) w->ecap > JB_KEEP_BYTES ||
		w->ncap > JB_KEEP_BYTES || w->ucap > JB_KEEP_BYTES)
		jb_bufs_init();
}

/* doubles an array of elements of size esz holding *cap of them */
static void *
jb_enlarge(void *arr, uint32 *cap, Size esz)
{
	Size		ncap = (Size) *cap * 2;

	if (ncap > PG_UINT32_MAX / 2 || ncap * esz > MaxAllocHugeSize)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("The JSON value is too large to build as jsonb.")));
	arr = repalloc_huge(arr, ncap * esz);
	*cap = (uint32) ncap;		/* only once it is so (an error leaves the old one) */
	return arr;
}

/* JSON's blanks; pretty-printed text has long runs of spaces: 8 bytes at a time */
static inline void
jb_skip_ws(JbBuild *b)
{
	const char *p = b->p;
	const char *end = b->end;

	if (likely(p < end && (unsigned char) *p > ' '))
		return;
#ifndef WORDS_BIGENDIAN
	while (end - p >= 8)
	{
		uint64		x;

		memcpy(&x, p, 8);
		x ^= UINT64CONST(0x2020202020202020);
		if (x == 0)
		{
			p += 8;
			continue;
		}
		p += pg_rightmost_one_pos64(x) >> 3;	/* the first byte that is not a space */
		if (*p == '\n' || *p == '\r' || *p == '\t')
			p++;
		else
		{
			b->p = p;
			return;
		}
	}
#endif
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	b->p = p;
}

static void
jb_too_big(bool object)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("total size of jsonb %s elements exceeds the maximum of %d bytes",
					object ? "object" : "array", JENTRY_OFFLENMASK)));
}

/*
 * Adds n bytes to the lower bound of the value's binary size: a JEntry (4 bytes) per array
 * element, object key and object value, the bytes of every string and key, the size of every
 * numeric, a 4-byte header per container — all of which jsonb stores, without alignment padding
 * (a closed container counts its exact size instead).  One container's data is limited to
 * JENTRY_OFFLENMASK bytes (jsonb_util.c's convertJsonbArray/Object raise then), and the root
 * contains everything: once the bound passes that, the value cannot be stored.  Raise jsonb's
 * own error at once rather than first building a tape for a value jsonb cannot hold, naming the
 * innermost open container that is over the limit, the one jsonb would fail on first.
 */
static inline void
jb_grow(JbBuild *b, Size n)
{
	b->total += n;
	if (unlikely(b->total > JENTRY_OFFLENMASK))
	{
		bool		object = false;

		for (int i = (int) b->nfs - 1; i >= 0; i--)
			if (b->total - b->w->fs[i].base > JENTRY_OFFLENMASK)
			{
				object = b->w->fs[i].object;
				break;
			}
		jb_too_big(object);
	}
}

/* The next token; the caller fills it. */
static inline uint32
jb_tok(JbBuild *b)
{
	if (unlikely(b->ntok == b->w->tcap))
		b->w->tape = jb_enlarge(b->w->tape, &b->w->tcap, sizeof(JbTok));
	if (unlikely((b->ntok & 0xffff) == 0xffff))
		CHECK_FOR_INTERRUPTS();
	return b->ntok++;
}

/* The data length of a token in its container, and whether it is INTALIGNed. */
static inline Size
jb_datalen(const JbTok *t, bool *align)
{
	switch (JT_KIND(t))
	{
		case JT_STR:
			*align = false;
			return JT_N(t);
		case JT_NUM:
		case JT_INT:
			*align = true;
			return JT_N(t);
		case JT_ARR:
		case JT_OBJ:
			*align = true;
			return t->size;
		default:
			*align = false;
			return 0;
	}
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

/* The first '"' or '\\' in [p, end), or end: 8 bytes at a time (the lowest flagged byte of the
 * classic has-zero-byte test is exact) */
static inline const char *
jb_find_special(const char *p, const char *end)
{
#ifndef WORDS_BIGENDIAN
	while (end - p >= 8)
	{
		uint64		x;
		uint64		a;
		uint64		c;

		memcpy(&x, p, 8);
		a = x ^ UINT64CONST(0x2222222222222222);
		c = x ^ UINT64CONST(0x5c5c5c5c5c5c5c5c);
		a = (a - UINT64CONST(0x0101010101010101)) & ~a & UINT64CONST(0x8080808080808080);
		c = (c - UINT64CONST(0x0101010101010101)) & ~c & UINT64CONST(0x8080808080808080);
		if ((a | c) != 0)
			return p + (pg_rightmost_one_pos64(a | c) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p != '"' && *p != '\\')
		p++;
	return p;
}

/*
 * The string starting at b->p (its opening quote): a pointer into the text when it holds no
 * escape, else into ubuf.  False: leave it to jsonb_in.
 */
static bool
jb_string(JbBuild *b, const char **sp, uint32 *lenp)
{
	const char *p = b->p + 1;
	const char *end = b->end;
	const char *q = jb_find_special(p, end);
	char	   *o;
	char	   *ostart;

	if (q == end)
		return false;
	if (*q == '"')
	{
		if (q - p > JENTRY_OFFLENMASK)
			return false;
		*sp = p;
		*lenp = (uint32) (q - p);
		b->p = q + 1;
		return true;
	}
	if (!b->uready)
	{
		/* unescaped <= escaped: room for the rest of the text, so the pointers stay valid */
		Size		need = end - p;

		if (b->w->ucap < need)
		{
			if (b->w->ubuf)
				pfree(b->w->ubuf);
			b->w->ubuf = NULL;
			b->w->ucap = 0;
			b->w->ubuf = MemoryContextAllocExtended(jb_cxt, need, MCXT_ALLOC_HUGE);
			b->w->ucap = need;
		}
		b->uready = true;
	}
	o = ostart = b->w->ubuf + b->ulen;
	for (;;)
	{
		/* p: start of a run; q: the '"' or '\\' that ends it */
		memcpy(o, p, q - p);
		o += q - p;
		if (*q == '"')
		{
			p = q + 1;
			break;
		}
		p = q + 1;
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
		q = jb_find_special(p, end);
		if (q == end)
			return false;
	}
	if (o - ostart > JENTRY_OFFLENMASK)
		return false;
	*sp = ostart;
	*lenp = (uint32) (o - ostart);
	b->ulen += o - ostart;
	b->p = p;
	return true;
}

/* room for n more bytes in nbuf */
static inline void
jb_nbuf_room(JbBuild *b, Size n)
{
	if (unlikely(b->nlen + n > b->w->ncap))
	{
		Size		ncap = Max(b->w->ncap * 2, b->nlen + n);

		b->w->nbuf = repalloc_huge(b->w->nbuf, ncap);
		b->w->ncap = ncap;
	}
}

/*
 * The JSON number at b->p into token t (a numeric in nbuf, as numeric_in makes it).  False:
 * not a JSON number, leave it to jsonb_in.
 */
static bool
jb_number(JbBuild *b, JbTok *t)
{
	const char *s = b->p;
	const char *p = s;
	const char *end = b->end;
	bool		neg = false;
	bool		fast = true;
	uint64		mag = 0;
	int			ndigits = 0;
	int			scale = 0;
	int			exp = 0;
	int			size;

	if (*p == '-')
	{
		neg = true;
		p++;
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	if (*p == '0')
		p++;
	else
		while (p < end && *p >= '0' && *p <= '9')
		{
			if (ndigits < 19)
				mag = mag * 10 + (uint64) (*p - '0');
			ndigits++;
			p++;
		}
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
		{
			scale++;
			if (mag != 0 || *p != '0')
			{
				if (ndigits < 19)
					mag = mag * 10 + (uint64) (*p - '0');
				ndigits++;
			}
			p++;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || *p < '0' || *p > '9')
			return false;
		while (p < end && *p >= '0' && *p <= '9')
		{
			if (exp <= SD_FAST_MAX_SCALE)
				exp = exp * 10 + (*p - '0');
			p++;
		}
		if (exp > SD_FAST_MAX_SCALE)
			fast = false;
		if (eneg)
			exp = -exp;
	}
	if (ndigits > 19 || scale > SD_FAST_MAX_SCALE)
		fast = false;

	if (fast)
	{
		jb_nbuf_room(b, SD_NUMERIC_MAX_FAST);
		/* numeric_in: the display scale is the fraction digits less the exponent, >= 0 */
		size = sd_numeric_encode(neg, mag, exp - scale, Max(scale - exp, 0),
								 b->w->nbuf + b->nlen);
	}
	else
	{
		char		buf[64];
		char	   *str;
		Numeric		num;

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
		size = VARSIZE_ANY(num);
		jb_nbuf_room(b, size);
		memcpy(b->w->nbuf + b->nlen, num, size);
		pfree(num);
		if (str != buf)
			pfree(str);
	}
	t->head = JT_HEAD(JT_NUM, size);
	t->u.off = b->nlen;
	b->nlen += size;
	b->p = p;
	return true;
}

/* uniqueifyJsonbObject's order: key length, key bytes, then the later member first */
static inline int
jb_memb_cmp(const JbMemb *a, const JbMemb *b)
{
	int			r;

	if (a->klen != b->klen)
		return a->klen > b->klen ? 1 : -1;
	r = memcmp(a->key, b->key, a->klen);
	if (r != 0)
		return r;
	return a->vidx > b->vidx ? -1 : 1;
}

static int
jb_memb_qsort_cmp(const void *a, const void *b)
{
	return jb_memb_cmp((const JbMemb *) a, (const JbMemb *) b);
}

/* A member of an array or object is complete: its token t, the container's frame fr. */
static inline void
jb_array_add(JbFrame *fr, const JbTok *t)
{
	bool		align;
	Size		len = jb_datalen(t, &align);

	if (align)
	{
		Size		pad = INTALIGN(fr->off) - fr->off;

		/* a container's own length check counts its leading padding */
		if (JT_KIND(t) >= JT_ARR && pad + len > JENTRY_OFFLENMASK)
			jb_too_big(JT_KIND(t) == JT_OBJ);
		fr->off += pad;
	}
	fr->off += len;
}

/* Closes the innermost container: sorts an object's members, computes the binary size. */
static void
jb_close(JbBuild *b)
{
	JbBufs	   *w = b->w;
	JbFrame    *fr = &w->fs[--b->nfs];
	JbTok	   *t = &w->tape[fr->tok];
	Size		size;

	if (fr->object)
	{
		JbMemb	   *m = w->pend + fr->mstart;
		uint32		n = b->npend - fr->mstart;
		uint32		k;
		Size		off = 0;
		JbMemb	   *out;

		if (n <= 12)
		{
			for (uint32 i = 1; i < n; i++)
			{
				JbMemb		x;
				uint32		j = i;

				if (jb_memb_cmp(&m[i - 1], &m[i]) < 0)
					continue;
				x = m[i];
				while (j > 0 && jb_memb_cmp(&m[j - 1], &x) > 0)
				{
					m[j] = m[j - 1];
					j--;
				}
				m[j] = x;
			}
		}
		else
			qsort(m, n, sizeof(JbMemb), jb_memb_qsort_cmp);
		while (b->nmems + n > w->mcap)
			w->mems = jb_enlarge(w->mems, &w->mcap, sizeof(JbMemb));
		out = w->mems + b->nmems;
		/* keep the first of each run of equal keys: the last one in the text */
		k = 0;
		for (uint32 i = 0; i < n; i++)
			if (k == 0 || out[k - 1].klen != m[i].klen ||
				memcmp(out[k - 1].key, m[i].key, m[i].klen) != 0)
			{
				out[k++] = m[i];
				off += m[i].klen;
			}
		for (uint32 i = 0; i < k; i++)
		{
			bool		align;
			const JbTok *v = &w->tape[out[i].vidx];
			Size		len = jb_datalen(v, &align);

			if (align)
			{
				Size		pad = INTALIGN(off) - off;

				if (JT_KIND(v) >= JT_ARR && pad + len > JENTRY_OFFLENMASK)
					jb_too_big(JT_KIND(v) == JT_OBJ);
				off += pad;
			}
			off += len;
		}
		size = 4 + 8 * (Size) k + off;
		t->head = JT_HEAD(JT_OBJ, k);
		t->u.c.mem = b->nmems;
		b->nmems += k;
		b->npend = fr->mstart;
	}
	else
	{
		size = 4 + 4 * (Size) fr->count + fr->off;
		t->head = JT_HEAD(JT_ARR, fr->count);
	}
	if (size > JENTRY_OFFLENMASK)
		jb_too_big(fr->object);
	t->size = (uint32) size;
	t->u.c.end = b->ntok;
	/* the bound now counts the exact size (duplicates gone, padding in) */
	b->total = fr->base + size + (b->nfs > 0 ? 4 : 0);
	if (b->nfs > 0 && !w->fs[b->nfs - 1].object)
		jb_array_add(&w->fs[b->nfs - 1], t);
}

/* Opens a container at token tok. */
static void
jb_open(JbBuild *b, uint32 tok, bool object)
{
	JbFrame    *fr;

	if (b->nfs == b->w->fcap)
		b->w->fs = jb_enlarge(b->w->fs, &b->w->fcap, sizeof(JbFrame));
	fr = &b->w->fs[b->nfs++];
	fr->tok = tok;
	fr->mstart = b->npend;
	fr->count = 0;
	fr->object = object;
	fr->off = 0;
	fr->base = b->total;
	jb_grow(b, b->nfs > 1 ? 8 : 4);	/* its header (and its JEntry in its parent) */
}

/* The literal word (true, false, null) at b->p into t; false: leave it to jsonb_in. */
static inline bool
jb_literal(JbBuild *b, JbTok *t, const char *word, uint32 kind)
{
	size_t		n = strlen(word);

	if ((size_t) (b->end - b->p) < n || memcmp(b->p, word, n) != 0)
		return false;
	t->head = JT_HEAD(kind, 0);
	b->p += n;
	jb_grow(b, 4);
	return true;
}

/* Parses the whole text into the tape (the root is token 0); false: leave it to jsonb_in. */
static bool
jb_parse(JbBuild *b)
{
	JbBufs	   *w = b->w;
	uint32		ti;
	JbTok	   *t;
	JbFrame    *fr;

value:
	jb_skip_ws(b);
	if (b->p >= b->end)
		return false;
	ti = jb_tok(b);
	t = &w->tape[ti];
	switch (*b->p)
	{
		case '{':
			b->p++;
			t->head = JT_HEAD(JT_OBJ, 0);
			jb_open(b, ti, true);
			jb_skip_ws(b);
			if (b->p < b->end && *b->p == '}')
			{
				b->p++;
				goto close;
			}
			goto key;
		case '[':
			b->p++;
			t->head = JT_HEAD(JT_ARR, 0);
			jb_open(b, ti, false);
			jb_skip_ws(b);
			if (b->p < b->end && *b->p == ']')
			{
				b->p++;
				goto close;
			}
			goto element;
		case '"':
			{
				uint32		len;

				if (!jb_string(b, &t->u.s, &len))
					return false;
				t->head = JT_HEAD(JT_STR, len);
				jb_grow(b, 4 + (Size) len);
				break;
			}
		case 't':
			if (!jb_literal(b, t, "true", JT_TRUE))
				return false;
			break;
		case 'f':
			if (!jb_literal(b, t, "false", JT_FALSE))
				return false;
			break;
		case 'n':
			if (!jb_literal(b, t, "null", JT_NULL))
				return false;
			break;
		default:
			if (!jb_number(b, t))
				return false;
			jb_grow(b, 4 + (Size) JT_N(t));
			break;
	}
	/* a scalar is complete */
	if (b->nfs > 0 && !w->fs[b->nfs - 1].object)
		jb_array_add(&w->fs[b->nfs - 1], t);

after:
	jb_skip_ws(b);
	if (b->nfs == 0)
		return b->p == b->end;
	if (b->p >= b->end)
		return false;
	fr = &w->fs[b->nfs - 1];
	if (*b->p == ',')
	{
		b->p++;
		if (fr->object)
			goto key;
		goto element;
	}
	if (*b->p == (fr->object ? '}' : ']'))
	{
		b->p++;
		goto close;
	}
	return false;

element:
	fr = &w->fs[b->nfs - 1];
	if (++fr->count > SD_JSONB_MAX_ELEMS)
		return false;			/* jsonb_in raises */
	goto value;

key:
	{
		const char *k;
		uint32		klen;
		JbMemb	   *m;

		jb_skip_ws(b);
		if (b->p >= b->end || *b->p != '"' || !jb_string(b, &k, &klen))
			return false;
		jb_skip_ws(b);
		if (b->p >= b->end || *b->p != ':')
			return false;
		b->p++;
		fr = &w->fs[b->nfs - 1];
		if (++fr->count > SD_JSONB_MAX_PAIRS)
			return false;		/* jsonb_in raises */
		if (b->npend == w->pcap)
			w->pend = jb_enlarge(w->pend, &w->pcap, sizeof(JbMemb));
		m = &w->pend[b->npend++];
		m->key = k;
		m->klen = klen;
		m->vidx = b->ntok;		/* the value's token, next */
		jb_grow(b, 4 + (Size) klen);
		goto value;
	}

close:
	jb_close(b);
	goto after;
}

/* ---- jsonb: pass 2, the binary image ------------------------------------------------------- */

/*
 * Zeroes the 0..3 bytes of alignment padding at p, before an INTALIGNed datum of at least 4
 * bytes (a numeric, a container's header): one 4-byte store the datum then overwrites.
 */
static inline void
jb_zero_pad(char *p)
{
	uint32		zero = 0;

	memcpy(p, &zero, 4);
}

/* Writes scalar t at *wp (padded as jsonb pads it); returns its JEntry (without an offset). */
static inline uint32
jb_put_scalar(const JbBufs *w, const JbTok *t, char *out, Size *wp)
{
	Size		pos = *wp;
	uint32		len = JT_N(t);

	switch (JT_KIND(t))
	{
		case JT_STR:
			memcpy(out + pos, t->u.s, len);
			*wp = pos + len;
			return JENTRY_ISSTRING | len;
		case JT_NUM:
			{
				Size		pad = INTALIGN(pos) - pos;

				jb_zero_pad(out + pos);
				memcpy(out + pos + pad, w->nbuf + t->u.off, len);
				*wp = pos + pad + len;
				return JENTRY_ISNUMERIC | (uint32) (pad + len);
			}
		case JT_INT:
			{
				Size		pad = INTALIGN(pos) - pos;

				jb_zero_pad(out + pos);
				sd_numeric_small_int(out + pos + pad, false, (uint16) t->u.off);
				*wp = pos + pad + len;
				return JENTRY_ISNUMERIC | (uint32) (pad + len);
			}
		case JT_TRUE:
			return JENTRY_ISBOOL_TRUE;
		case JT_FALSE:
			return JENTRY_ISBOOL_FALSE;
		default:
			return JENTRY_ISNULL;
	}
}

/* JEntry e of member idx of a container whose data starts at dstart, ending at end */
static inline void
jb_put_entry(char *out, Size jpos, uint32 idx, uint32 e, Size dstart, Size end)
{
	if (idx % JB_OFFSET_STRIDE == 0)
		e = (e & JENTRY_TYPEMASK) | JENTRY_HAS_OFF | (uint32) (end - dstart);
	memcpy(out + jpos + 4 * (Size) idx, &e, 4);
}

/* Opens container token ti at *wp: header, JEntries (an object's keys too). */
static void
jb_emit_open(JbBuild *b, uint32 ti, char *out, Size *wp, uint32 *nemit)
{
	JbBufs	   *w = b->w;
	const JbTok *t = &w->tape[ti];
	bool		object = JT_KIND(t) == JT_OBJ;
	uint32		n = JT_N(t);
	Size		pos = *wp;
	Size		pad = INTALIGN(pos) - pos;
	uint32		header = n | (object ? JB_FOBJECT : JB_FARRAY);
	JbEmit	   *e;

	if (*nemit == w->ecap)
		w->es = jb_enlarge(w->es, &w->ecap, sizeof(JbEmit));
	e = &w->es[(*nemit)++];
	e->start = pos;
	jb_zero_pad(out + pos);
	pos += pad;
	memcpy(out + pos, &header, 4);
	pos += 4;
	e->jpos = pos;
	pos += 4 * (Size) n * (object ? 2 : 1);
	e->dstart = pos;
	e->i = 0;
	e->n = n;
	e->object = object;
	if (object)
	{
		const JbMemb *m = w->mems + t->u.c.mem;

		e->next = t->u.c.mem;
		for (uint32 i = 0; i < n; i++)
		{
			memcpy(out + pos, m[i].key, m[i].klen);
			pos += m[i].klen;
			jb_put_entry(out, e->jpos, i, JENTRY_ISSTRING | m[i].klen, e->dstart, pos);
		}
	}
	else
		e->next = ti + 1;
	*wp = pos;
}

/* Writes the tape's value into out (size bytes, varlena header included). */
static void
jb_emit(JbBuild *b, char *out, Size size)
{
	JbBufs	   *w = b->w;
	const JbTok *root = &w->tape[0];
	Size		pos = VARHDRSZ;
	uint32		ne = 0;
	uint32		count = 0;

	SET_VARSIZE(out, size);
	if (JT_KIND(root) < JT_ARR)
	{
		/* a raw scalar: a one-element array flagged JB_FSCALAR */
		uint32		header = 1 | JB_FARRAY | JB_FSCALAR;
		uint32		e;

		memcpy(out + pos, &header, 4);
		pos += 8;
		e = jb_put_scalar(w, root, out, &pos);
		jb_put_entry(out, VARHDRSZ + 4, 0, e, VARHDRSZ + 8, pos);
	}
	else
	{
		jb_emit_open(b, 0, out, &pos, &ne);
		while (ne > 0)
		{
			JbEmit	   *fr = &w->es[ne - 1];
			uint32		ci;
			uint32		e;
			const JbTok *t;

			if (fr->i == fr->n)
			{
				Size		len = pos - fr->start;

				if (--ne == 0)
					break;
				fr = &w->es[ne - 1];
				jb_put_entry(out, fr->jpos, fr->object ? fr->i + fr->n : fr->i,
							 JENTRY_ISCONTAINER | (uint32) len, fr->dstart, pos);
				fr->i++;
				continue;
			}
			if (unlikely((++count & 0xffff) == 0))
				CHECK_FOR_INTERRUPTS();
			{
				/*
				 * A run of scalar members, with the frame in locals: stores into out (char)
				 * may alias the frame, so the loop below would reload it after each one.
				 */
				uint32		i = fr->i;
				uint32		n = fr->n;
				uint32		next = fr->next;
				Size		jpos = fr->jpos;
				Size		dstart = fr->dstart;
				bool		object = fr->object;
				uint32		stop = n - i > 0xffff ? i + 0xffff : n;	/* then an interrupt check */

				while (i < stop)
				{
					ci = object ? w->mems[next + i].vidx : next;
					t = &w->tape[ci];
					if (JT_KIND(t) >= JT_ARR)
						break;
					e = jb_put_scalar(w, t, out, &pos);
					jb_put_entry(out, jpos, object ? i + n : i, e, dstart, pos);
					if (!object)
						next = ci + 1;
					i++;
				}
				if (unlikely(i - fr->i >= 0x1000))
					CHECK_FOR_INTERRUPTS();
				fr->i = i;
				fr->next = next;
				if (i == n)
					continue;
			}
			ci = fr->object ? w->mems[fr->next + fr->i].vidx : fr->next;
			t = &w->tape[ci];
			if (JT_KIND(t) >= JT_ARR)
			{
				if (!fr->object)
					fr->next = t->u.c.end;
				jb_emit_open(b, ci, out, &pos, &ne);
				continue;
			}
			e = jb_put_scalar(w, t, out, &pos);
			jb_put_entry(out, fr->jpos, fr->object ? fr->i + fr->n : fr->i, e, fr->dstart, pos);
			if (!fr->object)
				fr->next = ci + 1;
			fr->i++;
		}
	}
	if (pos != size)
		elog(ERROR, "serde: jsonb image size mismatch (%zu, expected %zu)", pos, size);
}

/* The event is a number literal 1..9999 (the walker validated it): *mag its value. */
static inline bool
jb_event_small_int(const sd_jev *ev, uint32 *mag)
{
	const char *s = ev->s;
	uint32		len = ev->len;
	uint32		m;

	if (ev->kind != SD_JEV_NUMBER || len > 4 || len == 0 || (unsigned) (s[0] - '1') > 8)
		return false;
	m = (uint32) (s[0] - '0');
	for (uint32 i = 1; i < len; i++)
	{
		if ((unsigned) (s[i] - '0') > 9)
			return false;
		m = m * 10 + (uint32) (s[i] - '0');
	}
	*mag = m;
	return true;
}

/*
 * A run of array elements that are small integers (byte arrays, id lists, coordinates), from ev
 * on, in the innermost open container, an array: added in one loop with the frame in locals.
 * Returns the first event it did not take (ev itself when that is no small integer; the
 * array's end, or any other value, which the general loop takes).
 */
static const sd_jev *
jb_small_int_run(JbBuild *b, const sd_jev *ev)
{
	JbBufs	   *w = b->w;
	JbFrame    *fr = &w->fs[b->nfs - 1];
	Size		off = fr->off;
	uint32		count = fr->count;
	uint32		ntok = b->ntok;
	uint32		first = ntok;
	uint32		mag;

	while (jb_event_small_int(ev, &mag))
	{
		JbTok	   *t;

		if (unlikely(count >= SD_JSONB_MAX_ELEMS))
			break;				/* the general loop raises */
		if (unlikely(ntok == w->tcap))
			w->tape = jb_enlarge(w->tape, &w->tcap, sizeof(JbTok));
		if (unlikely((ntok & 0xffff) == 0xffff))
			CHECK_FOR_INTERRUPTS();
		t = &w->tape[ntok++];
		t->head = JT_HEAD(JT_INT, VARHDRSZ + 4);
		t->u.off = mag;
		off = INTALIGN(off) + VARHDRSZ + 4;
		count++;
		ev++;
	}
	fr->off = off;
	fr->count = count;
	b->ntok = ntok;
	/* the bound as jb_grow counts it per element: a JEntry and the numeric */
	jb_grow(b, (Size) (ntok - first) * (4 + VARHDRSZ + 4));
	return ev;
}

/*
 * Pass 1 from the core's events instead of the text: the same tape, frames and checks as
 * jb_parse, with the scanning done (the walker read the value through simdjson's structural
 * index, unescaped its strings and isolated its numbers).  Stops after the root's last event.
 */
static bool
jb_parse_events(JbBuild *b, const sd_jev *ev)
{
	JbBufs	   *w = b->w;

	for (;; ev++)
	{
		JbFrame    *fr = b->nfs > 0 ? &w->fs[b->nfs - 1] : NULL;
		uint32		ti;
		JbTok	   *t;
		uint32		mag;

		if (ev->kind == SD_JEV_KEY)
		{
			JbMemb	   *m;

			if (fr == NULL || !fr->object || ev->len > JENTRY_OFFLENMASK ||
				++fr->count > SD_JSONB_MAX_PAIRS)
				return false;	/* jsonb_in raises (or a malformed list: never) */
			if (b->npend == w->pcap)
				w->pend = jb_enlarge(w->pend, &w->pcap, sizeof(JbMemb));
			m = &w->pend[b->npend++];
			m->key = ev->s;
			m->klen = ev->len;
			m->vidx = b->ntok;	/* the value's token, next */
			jb_grow(b, 4 + (Size) ev->len);
			continue;
		}
		if (ev->kind == SD_JEV_END)
		{
			if (fr == NULL)
				return false;
			jb_close(b);
			if (b->nfs == 0)
				return true;
			continue;
		}
		if (fr != NULL && !fr->object && ev->kind == SD_JEV_NUMBER)
		{
			const sd_jev *next = jb_small_int_run(b, ev);

			if (next != ev)
			{
				ev = next - 1;
				continue;
			}
		}
		if (fr != NULL && !fr->object && ++fr->count > SD_JSONB_MAX_ELEMS)
			return false;		/* jsonb_in raises */
		ti = jb_tok(b);
		t = &w->tape[ti];
		switch (ev->kind)
		{
			case SD_JEV_OBJECT:
			case SD_JEV_ARRAY:
				t->head = JT_HEAD(ev->kind == SD_JEV_OBJECT ? JT_OBJ : JT_ARR, 0);
				jb_open(b, ti, ev->kind == SD_JEV_OBJECT);
				continue;
			case SD_JEV_STRING:
				if (ev->len > JENTRY_OFFLENMASK)
					return false;
				t->head = JT_HEAD(JT_STR, ev->len);
				t->u.s = ev->s;
				jb_grow(b, 4 + (Size) ev->len);
				break;
			case SD_JEV_NUMBER:
				if (jb_event_small_int(ev, &mag))
				{
					/* one base-10000 digit: what sd_numeric_small_int writes, varlena, short header,
					 * the digit */
					t->head = JT_HEAD(JT_INT, VARHDRSZ + 4);
					t->u.off = mag;
				}
				else
				{
					b->p = ev->s;
					b->end = ev->s + ev->len;
					if (!jb_number(b, t) || b->p != b->end)
						return false;
				}
				jb_grow(b, 4 + (Size) JT_N(t));
				break;
			case SD_JEV_TRUE:
			case SD_JEV_FALSE:
			case SD_JEV_NULL:
				t->head = JT_HEAD(ev->kind == SD_JEV_TRUE ? JT_TRUE :
								  ev->kind == SD_JEV_FALSE ? JT_FALSE : JT_NULL, 0);
				jb_grow(b, 4);
				break;
			default:
				return false;
		}
		/* a scalar is complete */
		if (fr == NULL)
			return true;
		if (!fr->object)
			jb_array_add(fr, t);
	}
}

/* Pass 2 for a tape that pass 1 filled: the Jsonb, in the caller's memory context. */
static Jsonb *
jb_finish(JbBuild *b)
{
	const JbTok *root = &b->w->tape[0];
	Size		size;
	bool		align;
	char	   *out;

	if (JT_KIND(root) >= JT_ARR)
		size = VARHDRSZ + root->size;
	else
		size = VARHDRSZ + 8 + jb_datalen(root, &align);	/* header, JEntry, data */
	out = palloc(size);
	jb_emit(b, out, size);
	jb_bufs_trim();
	return (Jsonb *) out;
}

Jsonb *
sd_jsonb_from_events(const sd_jev *ev)
{
	JbBuild		b;

	if (GetDatabaseEncoding() != PG_UTF8)
		return NULL;			/* \u escapes convert differently: jsonb_in knows how */
	jb_bufs_trim();				/* also what an error left behind */
	memset(&b, 0, sizeof(b));
	b.w = &jb_bufs;
	if (!jb_parse_events(&b, ev))
	{
		jb_bufs_trim();
		return NULL;
	}
	return jb_finish(&b);
}

Jsonb *
sd_jsonb_from_text(const char *text, size_t len)
{
	JbBuild		b;

	if (GetDatabaseEncoding() != PG_UTF8)
		return NULL;			/* \u escapes convert differently: jsonb_in knows how */
	jb_bufs_trim();				/* also what an error left behind */
	memset(&b, 0, sizeof(b));
	b.p = text;
	b.end = text + len;
	b.w = &jb_bufs;
	if (!jb_parse(&b))
	{
		jb_bufs_trim();
		return NULL;
	}
	return jb_finish(&b);
}
