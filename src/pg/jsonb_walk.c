/*
 * jsonb_walk.c — the jsonb walker: reads a jsonb value's binary containers directly (no text
 * round trip) and hands the core's rule engine (src/core/engine.c) one token at a time through
 * walker.h's ops, so that results and errors match text input apart from jsonb's own
 * normalisation (docs/reference.md: numbers already normalised, members in jsonb's key order,
 * duplicates gone, no byte offsets).  Every rule of the plan is the engine's; this file only
 * reads JEntries, and offers what jsonb does faster: members come sorted (the engine merges
 * them with the plan's by_length order), numbers go straight into integer and numeric columns
 * (jw_number_direct), a value nested within the limit is skipped by reading its JEntries only,
 * and a jsonb column whose value is a container is handed over as that container's bytes in
 * the document (sd_val.aux SD_PG_AUX_JSONB), which become the Jsonb as they are.
 */
#include "serde_pg.h"
#include "jsonb_walk.h"
#include "numeric_build.h"
#include "scalar.h"
#include "walker.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "datatype/timestamp.h"

#define JW_INLINE_FRAMES 12

/* One container being read. */
typedef struct JwFrame
{
	const JEntry *ch;
	const char *base;
	uint32		count;
	uint32		i;
	uint32		koff;			/* object: the next key's start; array: the next element's */
	uint32		voff;			/* object: the next value's start */
	bool		obj;
	JsonbContainer *jc;
} JwFrame;

typedef struct Jc
{
	sd_wcursor	head;			/* first: the engine's view */
	JsonbValue	cur;			/* the root value (peek before the first member or element) */
	/* the value at the cursor after object_next / array_next (peek rebuilds its token):
	 * cur_je NULL = the root, else its JEntry, container data and offsets */
	const JEntry *cur_je;
	const char *cur_base;
	uint32		cur_start;
	uint32		cur_end;
	JwFrame    *frames;
	JwFrame    *top;			/* the innermost frame (frames[nframes - 1]), NULL when none */
	int			nframes;
	int			cap;
	JwFrame		inline_frames[JW_INLINE_FRAMES];	/* the first levels: no palloc */
} Jc;

static void *
jw_alloc(void *ud, size_t size)
{
	return MemoryContextAllocExtended(CurrentMemoryContext, size, MCXT_ALLOC_NO_OOM);
}

/* PostgreSQL 15 has no repalloc that returns NULL: this one raises (a C frame calls it) */
static void *
jw_realloc(void *ud, void *p, size_t size)
{
	if (p == NULL)
		return MemoryContextAllocExtended(CurrentMemoryContext, size,
										  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	return repalloc_huge(p, size);
}

static void
jw_free(void *ud, void *p)
{
	pfree(p);
}

/* ---- values as text ------------------------------------------------------------------------- */

static char *
jw_numeric_text(Numeric num)
{
	return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
}

/* The JSON text of a value (json columns, extra members). */
static void
jw_value_text(StringInfo out, JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoString(out, "null");
			break;
		case jbvBool:
			appendStringInfoString(out, v->val.boolean ? "true" : "false");
			break;
		case jbvNumeric:
			appendStringInfoString(out, jw_numeric_text(v->val.numeric));
			break;
		case jbvString:
			{
				char	   *s = pnstrdup(v->val.string.val, v->val.string.len);

				escape_json(out, s);
				pfree(s);
				break;
			}
		case jbvBinary:
			(void) JsonbToCString(out, v->val.binary.data, v->val.binary.len);
			break;
		default:
			appendStringInfoString(out, "null");
	}
}

/*
 * A jsonb number straight into an integer, numeric or unix-time timestamp column, without
 * numeric_out and a second parse: only when the result is certainly the text path's (numeric_build.h); everything else
 * (fractions into integers, values out of range or beyond the typmod, floats, epochs, coerced
 * text) returns false and takes the text path, with its errors.  In serde_errors mode aux holds
 * the value's marks, so numerics keep the text path there.
 */
static bool
jw_number_direct(bool collect, const sd_node *n, Numeric num, sd_val *out)
{
	static const int64 mins[] = {PG_INT16_MIN, PG_INT32_MIN, PG_INT64_MIN};
	static const int64 maxs[] = {PG_INT16_MAX, PG_INT32_MAX, PG_INT64_MAX};
	int64		i;

	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
			if (!sd_numeric_int64(num, &i) || i < mins[n->kind - SD_K_INT2] ||
				i > maxs[n->kind - SD_K_INT2])
				return false;
			out->tag = SD_V_INT;
			out->u.i = i;
			return true;
		case SD_K_TIMESTAMPTZ:
		case SD_K_TIMESTAMP:
			{
				/*
				 * format unix / unix_ms: an integral number of seconds or milliseconds is
				 * converted by the core's own rule (sd_convert_number: the range 0001..9999 is
				 * its check, not repeated here); what it refuses takes the text path, which
				 * reports the core's error.
				 */
				char		lit[32];
				sd_error	err;

				if ((n->format != SD_FMT_UNIX && n->format != SD_FMT_UNIX_MS) ||
					!sd_numeric_int64(num, &i))
					return false;
				sd_error_clear(&err);
				return sd_convert_number(n, lit, (size_t) pg_lltoa(i, lit), out, &err);
			}
		case SD_K_NUMERIC:
			if (collect || !sd_numeric_fits(num, n->type->precision, n->type->scale))
				return false;
			out->tag = SD_V_NUMERIC;
			out->aux = SD_PG_AUX_NUMERIC;
			out->u.s = (const char *) num;
			out->len = VARSIZE(num);
			return true;
		default:
			return false;
	}
}

/* A token's fields other than its kind and w[], as every jsonb token has them (no offsets) */
static inline __attribute__((always_inline)) void
jw_tok_clear(sd_wtok *t)
{
	t->offset = -1;
	t->raw = NULL;
	t->raw_len = 0;
	t->flags = 0;
	t->s = NULL;
	t->len = 0;
}

/*
 * A container's children read straight from their JEntries, as jsonb_util.c's fillJsonbValue
 * reads them (JsonbIterator costs a palloc per container and a state machine per value): entry
 * i ends at its offset field (JENTRY_HAS_OFF) or at its start plus its length field, numerics
 * and containers start INTALIGNed.  An object's keys are entries 0..n-1, its values n..2n-1.
 * Here a child goes straight into a token (no JsonbValue between them): the member and element
 * loop's per-value work.  je is the child's JEntry, its data base + [start, end).
 */
static inline __attribute__((always_inline)) void
jw_entry_tok(JEntry je, const char *base, uint32 start, uint32 end, sd_wtok *t)
{
	jw_tok_clear(t);
	switch (je & JENTRY_TYPEMASK)
	{
		case JENTRY_ISSTRING:
			t->kind = SD_J_STRING;
			t->s = base + start;
			t->len = (size_t) (end - start);
			break;
		case JENTRY_ISNUMERIC:
			t->kind = SD_J_NUMBER;
			t->flags = SD_TOK_NATIVE;
			t->w[0] = (uintptr_t) (base + INTALIGN(start));
			break;
		case JENTRY_ISBOOL_TRUE:
			t->kind = SD_J_TRUE;
			break;
		case JENTRY_ISBOOL_FALSE:
			t->kind = SD_J_FALSE;
			break;
		case JENTRY_ISNULL:
			t->kind = SD_J_NULL;
			break;
		default:
			{
				const JsonbContainer *jc = (const JsonbContainer *) (base + INTALIGN(start));

				t->kind = JsonContainerIsObject(jc) ? SD_J_OBJECT : SD_J_ARRAY;
				t->w[0] = (uintptr_t) jc;
				t->w[1] = (uintptr_t) (int) (end - INTALIGN(start));
				break;
			}
	}
}

/* Where entry `index` of ch starts: jsonb_util.c's getJsonbOffset, inlined (the sum of the
 * lengths back to the last entry that stores its end offset). */
static inline uint32
jw_offset(const JEntry *ch, uint32 index)
{
	uint32		off = 0;

	while (index-- > 0)
	{
		off += JBE_OFFLENFLD(ch[index]);
		if (JBE_HAS_OFF(ch[index]))
			break;
	}
	return off;
}

/*
 * A container of len bytes nests at most len / 8 + 1 levels (itself counting 1): an empty one is
 * its 4-byte header, and every level around a child adds at least its own header and the child's
 * JEntry (4 + 4 bytes); objects add their keys on top.  len is end - INTALIGN(start), so padding
 * before a child only makes the bound looser.
 */
static inline bool
jw_len_fits(uint32 len, int room)
{
	return (int64) len / 8 + 1 <= (int64) room;
}

/*
 * The nesting below container jc is at most `room` levels (jc itself counting 1): read from the
 * JEntries (containers only are entered, and only those whose size does not already prove
 * they fit; no JsonbIterator, no path).  An object's keys are strings: its values are read from
 * the first value's offset on.  False when deeper, when the C stack runs short or on a
 * container of unknown size: the caller then walks with paths.
 */
static bool
jw_depth_fits(const JsonbContainer *jc, int room)
{
	uint32		count = JsonContainerSize(jc);
	bool		obj = JsonContainerIsObject(jc);
	uint32		nent = obj ? 2 * count : count;
	const JEntry *ch = jc->children;
	const char *base = (const char *) (ch + nent);
	uint32		i = obj ? count : 0;
	uint32		off = obj && count ? getJsonbOffset(jc, count) : 0;

	if (room < 1 || stack_is_too_deep())
		return false;
	if (room == 1)
	{
		/* no room for a child container */
		for (; i < nent; i++)
			if (JBE_ISCONTAINER(ch[i]))
				return false;
		return true;
	}
	for (; i < nent; i++)
	{
		JEntry		je = ch[i];
		uint32		start = off;

		off = JBE_HAS_OFF(je) ? JBE_OFFLENFLD(je) : start + JBE_OFFLENFLD(je);
		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
		if (JBE_ISCONTAINER(je) && !jw_len_fits(off - INTALIGN(start), room - 1) &&
			!jw_depth_fits((const JsonbContainer *) (base + INTALIGN(start)), room - 1))
			return false;
	}
	return true;
}


/* ---- tokens ------------------------------------------------------------------------------ */

/* A jsonb value as a token: w[0] the container or numeric, w[1] the container's length. */
static inline void
jw_tok(const JsonbValue *v, sd_wtok *t)
{
	jw_tok_clear(t);
	switch (v->type)
	{
		case jbvNull:
			t->kind = SD_J_NULL;
			break;
		case jbvBool:
			t->kind = v->val.boolean ? SD_J_TRUE : SD_J_FALSE;
			break;
		case jbvNumeric:
			t->kind = SD_J_NUMBER;
			t->flags = SD_TOK_NATIVE;
			t->w[0] = (uintptr_t) v->val.numeric;
			break;
		case jbvString:
			t->kind = SD_J_STRING;
			t->s = v->val.string.val;
			t->len = (size_t) v->val.string.len;
			break;
		case jbvBinary:
			t->kind = JsonContainerIsObject(v->val.binary.data) ? SD_J_OBJECT : SD_J_ARRAY;
			t->w[0] = (uintptr_t) v->val.binary.data;
			t->w[1] = (uintptr_t) v->val.binary.len;
			break;
		default:
			t->kind = SD_J_NULL;
	}
}

/* The token back as a jsonb value. */
static void
jw_untok(const sd_wtok *t, JsonbValue *v)
{
	switch (t->kind)
	{
		case SD_J_NULL:
			v->type = jbvNull;
			break;
		case SD_J_TRUE:
		case SD_J_FALSE:
			v->type = jbvBool;
			v->val.boolean = t->kind == SD_J_TRUE;
			break;
		case SD_J_NUMBER:
			v->type = jbvNumeric;
			v->val.numeric = (Numeric) t->w[0];
			break;
		case SD_J_STRING:
			v->type = jbvString;
			v->val.string.val = unconstify(char *, t->s);
			v->val.string.len = (int) t->len;
			break;
		default:
			v->type = jbvBinary;
			v->val.binary.data = (JsonbContainer *) t->w[0];
			v->val.binary.len = (int) t->w[1];
	}
}

static int
jw_peek(sd_wcursor *c, sd_wtok *t)
{
	Jc		   *jc = (Jc *) c;

	if (jc->cur_je)
		jw_entry_tok(*jc->cur_je, jc->cur_base, jc->cur_start, jc->cur_end, t);
	else
		jw_tok(&jc->cur, t);
	return 1;
}

static JwFrame *
jw_push(Jc *c, const sd_wtok *t, bool obj)
{
	JsonbContainer *jc = (JsonbContainer *) t->w[0];
	JwFrame    *f;
	uint32		count = JsonContainerSize(jc);

	if (c->nframes == c->cap)
	{
		JwFrame    *more = palloc(sizeof(JwFrame) * c->cap * 2);

		memcpy(more, c->frames, sizeof(JwFrame) * c->cap);
		if (c->frames != c->inline_frames)
			pfree(c->frames);
		c->frames = more;
		c->cap *= 2;
	}
	f = c->top = &c->frames[c->nframes++];
	f->jc = jc;
	f->obj = obj;
	f->count = count;
	f->ch = jc->children;
	f->base = (const char *) (f->ch + (obj ? 2 * count : count));
	f->i = 0;
	f->koff = 0;
	f->voff = obj && count ? jw_offset(f->ch, count) : 0;
	return f;
}

static int
jw_object_begin(sd_wcursor *c, const sd_wtok *t)
{
	jw_push((Jc *) c, t, true);
	return 1;
}

static int
jw_array_begin(sd_wcursor *c, const sd_wtok *t)
{
	jw_push((Jc *) c, t, false);
	return 1;
}

/*
 * walker.h SD_KEY_SKIP_BEFORE: whether the engine would ignore the member whose key is
 * base[kstart, kend) — its key sorts before expect's name in jsonb's order (shorter first, then
 * bytewise: jsonb_util.c lengthCompareJsonbString), or no member of the plan is left — and its
 * value (JEntry ve, base[vstart, vend)) is a scalar (jsonb's are valid) or a container whose
 * size proves it nests within `room` levels (jw_len_fits, jw_skip_fast's first test): 1 pass
 * over it; 0 return it, *matched when the key is expect's name.
 */
static inline int
jw_ignored(const char *key, uint32 klen, JEntry ve, uint32 vstart, uint32 vend,
		   const sd_member *expect, uint32 room, bool *matched)
{
	if (expect)
	{
		int			cmp;

		if (klen > expect->len)
			return 0;
		if (klen == expect->len)
		{
			cmp = memcmp(key, expect->name, klen);
			if (cmp >= 0)
			{
				*matched = cmp == 0;
				return 0;
			}
		}
	}
	if (JBE_ISCONTAINER(ve) &&
		!(vend > INTALIGN(vstart) && jw_len_fits(vend - INTALIGN(vstart), (int) Min(room, INT_MAX))))
		return 0;
	return 1;
}

/* The member at f->i (one left) into k and t. */
static inline __attribute__((always_inline)) int
jw_member(Jc *c, JwFrame *f, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want,
		  bool skipping)
{
	for (;;)
	{
		uint32		i = f->i;
		const JEntry *ke,
				   *ve;
		uint32		kstart,
					kend,
					vstart,
					vend;
		bool		matched = false;

		if (i == f->count)
		{
			c->nframes--;
			c->top = c->nframes ? f - 1 : NULL;
			return 0;
		}
		/* the key (always a string) and the value: each ends at its offset field or its start
		 * plus its length field */
		ke = &f->ch[i];
		ve = &f->ch[f->count + i];
		kstart = f->koff;
		kend = JBE_HAS_OFF(*ke) ? JBE_OFFLENFLD(*ke) : kstart + JBE_OFFLENFLD(*ke);
		vstart = f->voff;
		vend = JBE_HAS_OFF(*ve) ? JBE_OFFLENFLD(*ve) : vstart + JBE_OFFLENFLD(*ve);
		f->koff = kend;
		f->voff = vend;
		f->i = i + 1;
		if ((want & SD_KEY_SKIP_BEFORE) &&
			jw_ignored(f->base + kstart, kend - kstart, *ve, vstart, vend, expect,
					   c->head.skip_room, &matched))
		{
			if (!skipping)
				return -2;		/* the caller goes on out of line */
			if ((i & 4095) == 4095)
				CHECK_FOR_INTERRUPTS();
			continue;
		}
		k->s = f->base + kstart;
		k->len = (size_t) (kend - kstart);
		k->offset = -1;
		k->matched = matched;	/* SD_KEY_SKIP_BEFORE: the key is expect's name */
		k->in_doc = false;
		k->has_hash = false;
		k->xml_kind = 0;
		c->cur_je = ve;
		c->cur_base = f->base;
		c->cur_start = vstart;
		c->cur_end = vend;
		jw_entry_tok(*ve, f->base, vstart, vend, t);
		return 1;
	}
}

/* object_next after a member it passed over: the rest of the run, out of line */
static pg_noinline int
jw_object_next_skipping(Jc *c, JwFrame *f, sd_wkey *k, sd_wtok *t, const sd_member *expect,
						unsigned want)
{
	return jw_member(c, f, k, t, expect, want, true);
}

static int
jw_object_next(sd_wcursor *cur, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want)
{
	Jc		   *c = (Jc *) cur;
	int			r = jw_member(c, c->top, k, t, expect, want, false);

	if (__builtin_expect(r == -2, 0))
		return jw_object_next_skipping(c, c->top, k, t, expect, want);
	return r;
}

static int
jw_array_next(sd_wcursor *cur, sd_wtok *t)
{
	Jc		   *c = (Jc *) cur;
	JwFrame    *f = c->top;
	uint32		i = f->i;
	const JEntry *je;
	uint32		start,
				end;

	if (i == f->count)
	{
		c->nframes--;
		c->top = c->nframes ? f - 1 : NULL;
		return 0;
	}
	je = &f->ch[i];
	start = f->koff;
	end = JBE_HAS_OFF(*je) ? JBE_OFFLENFLD(*je) : start + JBE_OFFLENFLD(*je);
	f->koff = end;
	f->i = i + 1;
	c->cur_je = je;
	c->cur_base = f->base;
	c->cur_start = start;
	c->cur_end = end;
	jw_entry_tok(*je, f->base, start, end, t);
	return 1;
}

static int
jw_object_find(sd_wcursor *cur, const char *name, size_t len, unsigned kinds, sd_wtok *t)
{
	Jc		   *c = (Jc *) cur;
	JsonbValue	v;

	if (!getKeyJsonValueFromContainer(c->top->jc, name, (uint32) len, &v))
		return 0;
	jw_tok(&v, t);
	return 1;
}

/* A value within the nesting limit needs no walk: jsonb is valid by construction. */
static int
jw_skip_fast(sd_wcursor *cur, const sd_wtok *t, uint32_t room)
{
	int			len;

	if (t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY)
		return 1;
	len = (int) t->w[1];
	if (len > 0 && jw_len_fits((uint32) len, room > INT_MAX ? INT_MAX : (int) room))
		return 1;
	return jw_depth_fits((const JsonbContainer *) t->w[0], room > INT_MAX ? INT_MAX : (int) room);
}

static int
jw_capture(sd_wcursor *cur, const sd_wtok *t, unsigned how, sd_val *out)
{
	JsonbValue	v;
	StringInfoData text;

	if (how == SD_CAP_JSONB && (t->kind == SD_J_OBJECT || t->kind == SD_J_ARRAY))
	{
		/* jsonb from jsonb: the container itself, in the document (which outlives the
		 * conversion); the converter copies it into the result */
		out->aux = SD_PG_AUX_JSONB;
		out->u.s = (const char *) t->w[0];
		out->len = (uint32) t->w[1];
		return 1;
	}
	jw_untok(t, &v);
	if (how == SD_CAP_JSONB &&
		(v.type != jbvNumeric || !(numeric_is_nan(v.val.numeric) || numeric_is_inf(v.val.numeric))))
	{
		/* a scalar: the raw-scalar jsonb jsonb_in would build from its text, built from the
		 * value itself (a string as stored, a number's numeric as it is); NaN and the
		 * infinities, which no JSON text holds, keep the text path and its error */
		Jsonb	   *jb = JsonbValueToJsonb(&v);

		out->aux = SD_PG_AUX_JSONB;
		out->u.s = (const char *) &jb->root;
		out->len = VARSIZE(jb) - VARHDRSZ;
		return 1;
	}
	initStringInfo(&text);
	jw_value_text(&text, &v);
	out->u.s = text.data;
	out->len = text.len;
	return 1;
}

static int
jw_number_direct_op(sd_wcursor *cur, const sd_node *n, const sd_wtok *t, bool collect,
					sd_val *out)
{
	return jw_number_direct(collect, n, (Numeric) t->w[0], out);
}

static int
jw_number_text(sd_wcursor *cur, sd_wtok *t)
{
	char	   *lit = jw_numeric_text((Numeric) t->w[0]);

	t->s = lit;
	t->len = strlen(lit);
	/* NaN and infinities cannot come from JSON; numeric_out writes them as words */
	if (!sd_is_json_number(lit, t->len))
		t->flags |= SD_TOK_NOT_JSON;
	return 1;
}

static const sd_walker_ops jsonb_ops = {
	.flags = SD_WF_SORTED_KEYS | SD_WF_NO_DUPLICATES | SD_WF_JSONB_INPUT,
	.peek = jw_peek,
	.object_begin = jw_object_begin,
	.object_next = jw_object_next,
	.object_find = jw_object_find,
	.array_begin = jw_array_begin,
	.array_next = jw_array_next,
	.skip_fast = jw_skip_fast,
	.capture = jw_capture,
	.number_direct = jw_number_direct_op,
	.number_text = jw_number_text,
	.finish = NULL,				/* a jsonb is whole */
	.skip_events = NULL,		/* jsonb columns are captured whole */
};

/* ---- entry points ------------------------------------------------------------------------- */

/* kept: a decoder the caller keeps across calls (emptied here); NULL: a new one, palloc'd */
static sd_decoder *
jw_init(Jc *c, sd_decoder *kept, sd_limits *lim, sd_error *err)
{
	static const sd_hooks hooks = {jw_alloc, jw_realloc, jw_free, pgs_should_stop, NULL};
	sd_decoder *d = kept;

	if (d)
		sd_decoder_reset(d);
	else if (!(d = sd_decoder_create(&hooks)))
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	c->head.ops = &jsonb_ops;
	c->head.fail.code = SD_OK;
	c->head.fail.problem = NULL;
	c->head.fail.path = NULL;
	c->head.fail.npath = 0;
	c->head.fail.err = NULL;
	c->head.text = NULL;
	c->head.text_len = 0;
	c->frames = c->inline_frames;
	c->cur_je = NULL;
	c->nframes = 0;
	c->top = NULL;
	c->cap = JW_INLINE_FRAMES;
	c->head.fail.offset = -1;
	pgs_limits(lim);
	if (err)
	{
		sd_error_clear(err);
		strcpy(err->path, "$");
	}
	return d;
}

/* The root value of a jsonb (a root scalar is stored as a one-element raw array). */
static void
jw_root(Jsonb *jb, JsonbValue *root)
{
	if (JB_ROOT_IS_SCALAR(jb))
		(void) JsonbExtractScalar(&jb->root, root);
	else
	{
		root->type = jbvBinary;
		root->val.binary.data = &jb->root;
		root->val.binary.len = VARSIZE(jb) - VARHDRSZ;
	}
}

static bool
jw_run(Jc *c, sd_decoder *d, const sd_node *node, const sd_limits *lim, int64 first_index,
	   const sd_val **tape, uint32 *root, sd_error *err)
{
	if (!sd_engine_decode(d, &c->head, node, lim, NULL, first_index, root, err))
	{
		if (err->code == SD_E_CANCELED)
			pgs_raise_stop();
		return false;
	}
	*tape = sd_decoder_tape(d);
	return true;
}

bool
pgs_jsonb_decode(sd_decoder *kept, Jsonb *jb, const sd_node *node, const sd_val **tape,
				 uint32 *root, sd_error *err)
{
	Jc			c;
	sd_limits	lim;
	sd_decoder *d = jw_init(&c, kept, &lim, err);

	jw_root(jb, &c.cur);
	return jw_run(&c, d, node, &lim, -1, tape, root, err);
}

bool
pgs_jsonb_decode_element(JsonbValue *v, uint64 index, const sd_node *node,
						   const sd_val **tape, uint32 *root, sd_error *err)
{
	Jc			c;
	sd_limits	lim;
	sd_decoder *d = jw_init(&c, NULL, &lim, err);

	c.cur = *v;
	return jw_run(&c, d, node, &lim, (int64) index, tape, root, err);
}

int
pgs_jsonb_check(Jsonb *jb, const sd_node *node, int max_errors, const sd_found **found,
				  int *total, const sd_val **tape, uint32 *root)
{
	Jc			c;
	sd_limits	lim;
	sd_decoder *d = jw_init(&c, NULL, &lim, NULL);
	int			n;

	jw_root(jb, &c.cur);
	n = sd_engine_check(d, &c.head, node, &lim, Max(max_errors, 1), found, total, root);
	if (*root == UINT32_MAX)
	{
		/* a limit: that one error alone */
		if (n == 1 && (*found)[0].code == SD_E_CANCELED)
			pgs_raise_stop();
		*tape = NULL;
	}
	else
		*tape = sd_decoder_tape(d);
	return n;
}

/* serde_errors_each over jsonb: pgs_jsonb_check of one element (index i) of a jsonb array. */
int
pgs_jsonb_check_element(JsonbValue *v, uint64 index, const sd_node *node, int max_errors,
						const sd_found **found, int *total, const sd_val **tape, uint32 *root)
{
	Jc			c;
	sd_limits	lim;
	sd_decoder *d = jw_init(&c, NULL, &lim, NULL);
	int			n;

	c.cur = *v;
	n = sd_engine_check_at(d, &c.head, node, &lim, (int64) index, Max(max_errors, 1), found,
						   total, root);
	if (*root == UINT32_MAX)
	{
		if (n == 1 && (*found)[0].code == SD_E_CANCELED)
			pgs_raise_stop();
		*tape = NULL;
	}
	else
		*tape = sd_decoder_tape(d);
	return n;
}
