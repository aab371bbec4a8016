/*
 * jsonb_walk.c — decodes a jsonb value by walking its binary containers directly (no text round
 * trip), driven by the same plan as the JSON text decoder and writing the same value tape, so
 * that results and errors match text input apart from jsonb's own normalisation (DESIGN §3.3:
 * numbers already normalised, members in jsonb's key order, duplicates gone, no byte offsets).
 * Column rules come from the core's sd_convert_*; this file only walks.  A jsonb column whose
 * value is a container is handed over as that container's bytes in the document (sd_val.aux
 * SD_PG_AUX_JSONB), which become the Jsonb as they are.
 */
#include "serde_pg.h"
#include "jsonb_walk.h"
#include "numeric_build.h"
#include "scalar.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "datatype/timestamp.h"

typedef struct JwPath
{
	const char *name;			/* member, or NULL for an index */
	size_t		len;
	uint64		index;
} JwPath;

typedef struct Jw
{
	sd_val	   *tape;
	uint32		tape_len;
	uint32		tape_cap;
	sd_val	   *stack;
	uint32		stack_len;
	uint32		stack_cap;
	sd_arena	arena;
	JwPath	   *path;
	int			depth;
	int			path_cap;
	int			max_depth;
	sd_error   *err;
	/* serde_errors mode: what is found (texts in arena), and the values' marks */
	sd_found   *found;
	uint32		found_cap;
	int			max_errs;
	int			nerrs;
	int			total;
	uint32		values;
	bool		collect;
	StringInfoData pairs;		/* extra: pending "key":value texts, separated by NUL */
} Jw;

typedef struct JwDest
{
	bool		in_stack;
	uint32		idx;
} JwDest;

static inline sd_val *
jw_slot(Jw *w, JwDest d)
{
	return d.in_stack ? &w->stack[d.idx] : &w->tape[d.idx];
}

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

/* ---- errors and paths ---------------------------------------------------------------------- */

static bool
jw_fail(Jw *w, sd_code code, const char *fmt,...) pg_attribute_printf(3, 4);

static bool
jw_fail(Jw *w, sd_code code, const char *fmt,...)
{
	va_list		ap;

	strcpy(w->err->path, "$");
	for (int i = 0; i < w->depth; i++)
	{
		if (w->path[i].name)
			sd_path_member(w->err->path, w->path[i].name, w->path[i].len);
		else
			sd_path_index(w->err->path, w->path[i].index);
	}
	w->err->code = code;
	w->err->offset = -1;
	va_start(ap, fmt);
	vsnprintf(w->err->problem, sizeof(w->err->problem), fmt, ap);
	va_end(ap);
	return false;
}

/* An error from sd_convert_*: add the path. */
static bool
jw_convert_failed(Jw *w)
{
	sd_error	e = *w->err;

	return jw_fail(w, e.code, "%s", e.problem);
}

static void
jw_enter(Jw *w, const char *name, size_t len, uint64 index)
{
	if (w->depth >= w->path_cap)
	{
		w->path_cap = w->path_cap ? w->path_cap * 2 : 32;
		w->path = w->path ? repalloc(w->path, sizeof(JwPath) * w->path_cap)
			: palloc(sizeof(JwPath) * w->path_cap);
	}
	w->path[w->depth].name = name;
	w->path[w->depth].len = len;
	w->path[w->depth].index = index;
	w->depth++;
}

static inline bool
jw_fatal(sd_code c)
{
	return c == SD_E_SYNTAX || c == SD_E_DEPTH || c == SD_E_NOMEM || c == SD_E_CANCELED ||
		c == SD_E_SIZE || c == SD_E_INTERNAL;
}

/* After an error at a value: in serde_errors mode record it and go on. */
static bool
jw_recover(Jw *w, int depth)
{
	w->depth = depth;
	if (!w->collect || jw_fatal(w->err->code))
		return false;
	if (!sd_found_add(&w->arena.hooks, &w->arena, &w->found, &w->found_cap, &w->nerrs,
					  w->max_errs, w->values, w->err))
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory for the errors found")));
	w->total++;
	return true;
}

/* serde_errors: a fatal error (a limit) as the only entry */
static bool
jw_recover_fatal(Jw *w, const sd_error *err)
{
	if (!sd_found_add(&w->arena.hooks, &w->arena, &w->found, &w->found_cap, &w->nerrs, 1, 0, err))
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory for the errors found")));
	return true;
}

/* ---- tape ---------------------------------------------------------------------------------- */

static uint32
jw_reserve(Jw *w, uint32 n)
{
	uint32		first = w->tape_len;

	if (w->tape_len + n > w->tape_cap)
	{
		while (w->tape_len + n > w->tape_cap)
			w->tape_cap = w->tape_cap ? w->tape_cap * 2 : 64;
		w->tape = w->tape ? repalloc_huge(w->tape, sizeof(sd_val) * (Size) w->tape_cap)
			: palloc_extended(sizeof(sd_val) * (Size) w->tape_cap, MCXT_ALLOC_HUGE);
	}
	memset(&w->tape[first], 0, sizeof(sd_val) * n);
	w->tape_len += n;
	return first;
}

static JwDest
jw_push(Jw *w)
{
	JwDest		d = {true, w->stack_len};

	if (w->stack_len + 1 > w->stack_cap)
	{
		w->stack_cap = w->stack_cap ? w->stack_cap * 2 : 64;
		w->stack = w->stack ? repalloc_huge(w->stack, sizeof(sd_val) * (Size) w->stack_cap)
			: palloc_extended(sizeof(sd_val) * (Size) w->stack_cap, MCXT_ALLOC_HUGE);
	}
	memset(&w->stack[w->stack_len++], 0, sizeof(sd_val));
	return d;
}

static void
jw_finish_elements(Jw *w, uint32 start, JwDest dst)
{
	uint32		count = w->stack_len - start;
	uint32		first = count ? jw_reserve(w, count) : 0;
	sd_val	   *out;

	if (count)
		memcpy(&w->tape[first], &w->stack[start], sizeof(sd_val) * count);
	w->stack_len = start;
	out = jw_slot(w, dst);
	out->tag = SD_V_ARRAY;
	out->u.first = first;
	out->len = count;
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

static sd_jkind
jw_kind(JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			return SD_J_NULL;
		case jbvBool:
			return v->val.boolean ? SD_J_TRUE : SD_J_FALSE;
		case jbvNumeric:
			return SD_J_NUMBER;
		case jbvString:
			return SD_J_STRING;
		case jbvBinary:
			return JsonContainerIsObject(v->val.binary.data) ? SD_J_OBJECT : SD_J_ARRAY;
		default:
			return SD_J_NULL;
	}
}

/* "string \"x\"", "number 1.5", "object", ... as the text decoder describes a value. */
static void
jw_describe(JsonbValue *v, char *found, size_t size)
{
	sd_jkind	k = jw_kind(v);

	if (k == SD_J_STRING)
		sd_describe_scalar(found, size, k, v->val.string.val, v->val.string.len);
	else if (k == SD_J_NUMBER)
	{
		char	   *lit = jw_numeric_text(v->val.numeric);

		sd_describe_scalar(found, size, k, lit, strlen(lit));
	}
	else
		sd_describe_scalar(found, size, k, "", 0);
}

static bool
jw_kind_error(Jw *w, const sd_node *n, JsonbValue *v)
{
	char		found[256];

	jw_describe(v, found, sizeof(found));
	return jw_fail(w, SD_E_KIND, "expected %s, found %s", sd_expected_name(n), found);
}

/*
 * A jsonb number straight into an integer, numeric or unix-time timestamp column, without
 * numeric_out and a second parse: only when the result is certainly the text path's (numeric_build.h); everything else
 * (fractions into integers, values out of range or beyond the typmod, floats, epochs, coerced
 * text) returns false and takes the text path, with its errors.  In serde_errors mode aux holds
 * the value's marks, so numerics keep the text path there.
 */
static bool
jw_number_direct(Jw *w, const sd_node *n, Numeric num, sd_val *out)
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
				/* format unix / unix_ms: integral seconds or milliseconds in 0001..9999 */
				int64		unit = n->format == SD_FMT_UNIX ? INT64CONST(1000000) :
					n->format == SD_FMT_UNIX_MS ? INT64CONST(1000) : 0;
				int64		lo = sd_days_from_civil(1, 1, 1) * USECS_PER_DAY;
				int64		end = sd_days_from_civil(10000, 1, 1) * USECS_PER_DAY;

				if (unit == 0 || !sd_numeric_int64(num, &i) || i < lo / unit - 1 || i > end / unit + 1)
					return false;
				i *= unit;
				if (i < lo || i >= end)
					return false;
				out->tag = SD_V_TIMESTAMP;
				out->u.i = i;
				return true;
			}
		case SD_K_NUMERIC:
			if (w->collect || !sd_numeric_fits(num, n->type->precision, n->type->scale))
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

/*
 * ---- members in jsonb order -------------------------------------------------------------------
 *
 * A jsonb object's keys are stored sorted (shorter first, then bytewise: jsonb_util.c's
 * lengthCompareJsonbString), and the plan keeps every composite's members in that order too
 * (sd_members.by_length), so one merge of the two lists finds every member without hashing a key
 * (most keys cost one length comparison).
 */
static inline int
jw_keycmp(const char *a, uint32 alen, const char *b, uint32 blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

/*
 * A container's children read straight from their JEntries, as jsonb_util.c's fillJsonbValue
 * reads them (JsonbIterator costs a palloc per container and a state machine per value): entry
 * i ends at its offset field (JENTRY_HAS_OFF) or at its start plus its length field, numerics
 * and containers start INTALIGNed.  An object's keys are entries 0..n-1, its values n..2n-1.
 */
static inline void
jw_child(const JEntry *ch, const char *base, uint32 i, uint32 *off, JsonbValue *v)
{
	JEntry		je = ch[i];
	uint32		start = *off;
	uint32		end = JBE_HAS_OFF(je) ? JBE_OFFLENFLD(je) : start + JBE_OFFLENFLD(je);

	*off = end;
	switch (je & JENTRY_TYPEMASK)
	{
		case JENTRY_ISSTRING:
			v->type = jbvString;
			v->val.string.val = unconstify(char *, base + start);
			v->val.string.len = (int) (end - start);
			break;
		case JENTRY_ISNUMERIC:
			v->type = jbvNumeric;
			v->val.numeric = (Numeric) unconstify(char *, base + INTALIGN(start));
			break;
		case JENTRY_ISBOOL_TRUE:
			v->type = jbvBool;
			v->val.boolean = true;
			break;
		case JENTRY_ISBOOL_FALSE:
			v->type = jbvBool;
			v->val.boolean = false;
			break;
		case JENTRY_ISNULL:
			v->type = jbvNull;
			break;
		default:
			v->type = jbvBinary;
			v->val.binary.data = (JsonbContainer *) unconstify(char *, base + INTALIGN(start));
			v->val.binary.len = (int) (end - INTALIGN(start));
			break;
	}
}

/* ---- decoding ------------------------------------------------------------------------------ */

static bool jw_value(Jw *w, JsonbValue *v, const sd_node *n, JwDest dst);
static bool jw_members(Jw *w, JsonbContainer *jc, const sd_node *n, const sd_members *ms,
					   uint32 row, bool top);

static bool
jw_guard(Jw *w)
{
	if (w->depth + 1 > w->max_depth)
		return jw_fail(w, SD_E_DEPTH, "nesting deeper than serde.max_depth (%d)", w->max_depth);
	/* the stack behind a high serde.max_depth: a document error too, as from text input */
	if (stack_is_too_deep())
		return jw_fail(w, SD_E_DEPTH, "document nested too deeply for the stack");
	CHECK_FOR_INTERRUPTS();
	return true;
}

/*
 * serde.max_depth over a value the walk does not decode: kept as json/jsonb, an ignored or
 * unknown member, a value in error (serde_errors mode).  The JSON text decoder walks those too,
 * so jsonb input must not accept what text input rejects.  The caller has entered the value's
 * path.  A container of len bytes nests at most len/4 + 1 levels (every level costs a header and
 * a JEntry): values that cannot reach the limit are not walked.
 */
/*
 * The nesting below container jc is at most `room` levels (jc itself counting 1): read from the
 * JEntries (containers only are entered; no JsonbIterator, no path).  False when deeper, when the
 * C stack runs short or on a container of unknown size: the caller then walks with paths.
 */
static bool
jw_depth_fits(const JsonbContainer *jc, int room)
{
	uint32		count = JsonContainerSize(jc);
	bool		obj = JsonContainerIsObject(jc);
	uint32		nent = obj ? 2 * count : count;
	const JEntry *ch = jc->children;
	const char *base = (const char *) (ch + nent);
	uint32		off = 0;

	if (room < 1 || stack_is_too_deep())
		return false;
	for (uint32 i = 0; i < nent; i++)
	{
		JEntry		je = ch[i];
		uint32		start = off;

		off = JBE_HAS_OFF(je) ? JBE_OFFLENFLD(je) : start + JBE_OFFLENFLD(je);
		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
		if (JBE_ISCONTAINER(je) && (!obj || i >= count) &&
			!jw_depth_fits((const JsonbContainer *) (base + INTALIGN(start)), room - 1))
			return false;
	}
	return true;
}

static bool
jw_check_depth(Jw *w, JsonbValue *v)
{
	JsonbIterator *it;
	JsonbValue	k,
				ev;
	JsonbIteratorToken tok;
	uint64		i = 0;
	int			depth = w->depth;

	if (v->type != jbvBinary)
		return true;
	if (v->val.binary.len > 0 && (int64) w->depth + v->val.binary.len / 4 + 1 <= w->max_depth)
		return true;
	/* the common case, a value within the limit, without paths; the walk below finds where not */
	if (jw_depth_fits(v->val.binary.data, w->max_depth - w->depth))
		return true;
	if (!jw_guard(w))
		return false;
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();	/* every value: a flat container may hold millions */
		if (tok == WJB_KEY)
		{
			(void) JsonbIteratorNext(&it, &ev, true);
			jw_enter(w, k.val.string.val, k.val.string.len, 0);
		}
		else if (tok == WJB_ELEM)
		{
			ev = k;
			jw_enter(w, NULL, 0, i++);
		}
		else
			continue;
		if (!jw_check_depth(w, &ev))
			return false;
		w->depth = depth;
	}
	return true;
}

/* In serde_errors mode, a value in error is still checked for depth (as text input walks it). */
static inline bool
jw_error_depth(Jw *w, JsonbValue *v)
{
	return !w->collect || jw_check_depth(w, v);
}

static bool
jw_array(Jw *w, JsonbContainer *jc, const sd_node *n, JwDest dst)
{
	JsonbValue	v;
	uint32		start = w->stack_len;
	uint32		count = JsonContainerSize(jc);
	const JEntry *ch = jc->children;
	const char *base = (const char *) (ch + count);
	uint32		off = 0;

	if (!jw_guard(w))
		return false;
	for (uint32 i = 0; i < count; i++)
	{
		int			depth = w->depth;
		JwDest		ed;

		jw_child(ch, base, i, &off, &v);
		CHECK_FOR_INTERRUPTS();	/* every element (jw_guard polls once per container) */
		ed = jw_push(w);
		jw_enter(w, NULL, 0, i);
		if (!jw_value(w, &v, n->elem, ed) && !jw_recover(w, depth))
			return false;
		w->depth = depth;
	}
	jw_finish_elements(w, start, dst);
	return true;
}

static bool
jw_map(Jw *w, JsonbContainer *jc, const sd_node *n, JwDest dst)
{
	JsonbIterator *it = JsonbIteratorInit(jc);
	JsonbValue	k,
				v;
	JsonbIteratorToken tok;
	uint32		start = w->stack_len;
	const sd_node *pair = n->elem;

	if (!jw_guard(w))
		return false;
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		int			depth = w->depth;
		JwDest		ed;
		uint32		row;
		sd_val	   *el;

		if (tok != WJB_KEY)
			continue;
		CHECK_FOR_INTERRUPTS();
		tok = JsonbIteratorNext(&it, &v, true);
		ed = jw_push(w);
		row = jw_reserve(w, 2);
		el = jw_slot(w, ed);
		el->tag = SD_V_ROW;
		el->u.first = row;
		el->len = 2;
		jw_enter(w, k.val.string.val, k.val.string.len, 0);
		w->err->offset = -1;
		if (!sd_convert_string(&w->arena, pair->fields[0].node, k.val.string.val,
							   k.val.string.len, &w->tape[row], w->err))
		{
			jw_convert_failed(w);
			if (w->collect)
			{
				sd_error	keyerr = *w->err;

				if (!jw_check_depth(w, &v))
					return false;
				*w->err = keyerr;
			}
			if (!jw_recover(w, depth))
				return false;
			continue;
		}
		if (!jw_value(w, &v, pair->fields[1].node, (JwDest) {false, row + 1}) &&
			!jw_recover(w, depth))
			return false;
		w->depth = depth;
	}
	jw_finish_elements(w, start, dst);
	return true;
}

static bool
jw_missing(Jw *w, const sd_node *n, const sd_member *m, uint32 row)
{
	int			depth = w->depth;

	if (m->field == SD_MEMBER_TAG)
		return true;
	if (m->field >= 0)
	{
		const sd_field *f = &n->fields[m->field];
		sd_val	   *s = &w->tape[row + f->col];

		if (f->has_default)
		{
			s->tag = SD_V_DEFAULT;
			s->len = (uint32) f->default_index;
			return true;
		}
		if (f->optional)
			return true;
		jw_enter(w, m->name, m->len, 0);
		jw_fail(w, SD_E_MISSING, "missing required member");
		return jw_recover(w, depth);
	}
	if (!m->group_required)
	{
		for (int i = 0; i < m->group->n; i++)
			if (!jw_missing(w, n, &m->group->m[i], row))
				return false;
		return true;
	}
	jw_enter(w, m->name, m->len, 0);
	jw_fail(w, SD_E_MISSING, "missing required member");
	return jw_recover(w, depth);
}

/* sd_null_prefix's report: the error it set is recorded (serde_errors) or raised. */
static bool
jw_report_null(void *ctx)
{
	Jw		   *w = ctx;

	return jw_recover(w, w->depth);
}

static bool
jw_members(Jw *w, JsonbContainer *jc, const sd_node *n, const sd_members *ms, uint32 row, bool top)
{
	JsonbValue	k,
				v;
	uint32		count = JsonContainerSize(jc);
	const JEntry *ch = jc->children;
	const char *base = (const char *) (ch + 2 * count);
	uint32		koff = 0;
	uint32		voff = count ? getJsonbOffset(jc, count) : 0;
	bool		seen_buf[64];
	bool	   *seen = ms->n <= lengthof(seen_buf) ? seen_buf : palloc(sizeof(bool) * ms->n);
	const int16 *order = ms->by_length;
	int			pos = 0;

	memset(seen, 0, sizeof(bool) * ms->n);
	memset(&k, 0, sizeof(k));	/* keys are strings */
	for (uint32 i = 0; i < count; i++)
	{
		int			depth = w->depth;
		int			mi = -1;
		const sd_member *m;

		jw_child(ch, base, i, &koff, &k);
		jw_child(ch, base, count + i, &voff, &v);
		CHECK_FOR_INTERRUPTS();
		if (order)
		{
			/* the merge: members sorting before this key are not in the object */
			while (pos < ms->n)
			{
				const sd_member *om = &ms->m[order[pos]];
				int			c = jw_keycmp(k.val.string.val, (uint32) k.val.string.len,
										  om->name, om->len);

				if (c < 0)
					break;		/* an unknown key */
				if (c == 0)
				{
					mi = order[pos++];
					break;
				}
				pos++;
			}
		}
		else if (ms->n)
			mi = sd_members_find(ms, k.val.string.val, k.val.string.len,
								 sd_hash_name(k.val.string.val, k.val.string.len));
		if (mi < 0)
		{
			jw_enter(w, k.val.string.val, k.val.string.len, 0);
			if (n->reject_unknown)
			{
				if (!jw_error_depth(w, &v))
					return false;
				jw_fail(w, SD_E_UNKNOWN, "unknown member");
				if (!jw_recover(w, depth))
					return false;
				continue;
			}
			if (!jw_check_depth(w, &v))
				return false;
			w->depth = depth;
			if (top && n->extra_col >= 0)
			{
				char	   *key = pnstrdup(k.val.string.val, k.val.string.len);

				if (w->pairs.len > 0)
					appendStringInfoChar(&w->pairs, ',');
				escape_json(&w->pairs, key);
				appendStringInfoChar(&w->pairs, ':');
				jw_value_text(&w->pairs, &v);
				pfree(key);
			}
			continue;
		}
		m = &ms->m[mi];
		seen[mi] = true;
		jw_enter(w, m->name, m->len, 0);
		if (m->field == SD_MEMBER_TAG)
		{
			w->depth = depth;
			continue;
		}
		if (m->field >= 0)
		{
			const sd_field *fd = &n->fields[m->field];
			JwDest		dst = {false, row + fd->col};

			if (!jw_value(w, &v, fd->node, dst))
			{
				if (!jw_recover(w, depth))
					return false;
				continue;
			}
			if (!fd->nullable && w->tape[dst.idx].tag == SD_V_NULL)
			{
				w->tape[dst.idx].aux = SD_MARK_FAILED;
				jw_fail(w, SD_E_NOTNULL, "null is not allowed for column \"%s\"", fd->column);
				if (!jw_recover(w, depth))
					return false;
				continue;
			}
		}
		else if (v.type == jbvBinary && JsonContainerIsObject(v.val.binary.data))
		{
			if (!jw_guard(w) || !jw_members(w, v.val.binary.data, n, m->group, row, false))
				return false;
		}
		else if (v.type == jbvNull)
		{
			/* a null parent makes the values below it null: 23502 for the non-nullable */
			w->depth = depth;
			jw_fail(w, SD_E_NOTNULL, "%s", "");	/* the path of the object holding m */
			if (!sd_null_prefix(n, m, w->err, jw_report_null, w))
				return false;
		}
		else
		{
			char		found[256];

			if (!jw_error_depth(w, &v))
				return false;
			jw_describe(&v, found, sizeof(found));
			jw_fail(w, SD_E_KIND, "expected object (on the path of column \"%s\"), found %s",
					m->group_column, found);
			if (!jw_recover(w, depth))
				return false;
			continue;
		}
		w->depth = depth;
	}
	for (int i = 0; i < ms->n; i++)
		if (!seen[i] && !jw_missing(w, n, &ms->m[i], row))
			return false;
	if (seen != seen_buf)
		pfree(seen);
	return true;
}

static bool
jw_object(Jw *w, JsonbContainer *jc, const sd_node *n, JwDest dst)
{
	const sd_node *members_of = n;
	const sd_variant *variant = NULL;
	uint32		row;
	int			pairs_start;
	sd_val	   *out;

	if (!jw_guard(w))
		return false;
	if (n->tag)
	{
		JsonbValue	tv;
		int			depth = w->depth;
		size_t		taglen = strlen(n->tag);

		char		tags[256];

		sd_variant_list(n, tags, sizeof(tags));
		jw_enter(w, n->tag, taglen, 0);
		if (!getKeyJsonValueFromContainer(jc, n->tag, taglen, &tv))
			jw_fail(w, SD_E_MISSING, "missing required member (the union's tag, one of: %s)", tags);
		else if (tv.type != jbvString)
		{
			char		found[256];

			jw_describe(&tv, found, sizeof(found));
			jw_fail(w, SD_E_KIND, "expected string (the union's tag, one of: %s), found %s", tags, found);
		}
		else
		{
			for (int i = 0; i < n->nvariants; i++)
				if (strlen(n->variants[i].value) == (size_t) tv.val.string.len &&
					memcmp(n->variants[i].value, tv.val.string.val, tv.val.string.len) == 0)
					variant = &n->variants[i];
			if (!variant)
			{
				StringInfoData list;
				char		found[256];

				initStringInfo(&list);
				for (int i = 0; i < n->nvariants; i++)
					appendStringInfo(&list, "%s%s", i ? ", " : "", n->variants[i].value);
				sd_describe_scalar(found, sizeof(found), SD_J_STRING, tv.val.string.val,
								   tv.val.string.len);
				jw_fail(w, SD_E_KIND, "unknown tag value %s, expected one of: %s", found + 7, list.data);
			}
		}
		if (!variant)
		{
			JsonbValue	whole;

			if (!jw_recover(w, depth))
				return false;
			/* serde_errors mode: the object is still checked for depth, as text input walks it */
			whole.type = jbvBinary;
			whole.val.binary.data = jc;
			whole.val.binary.len = 0;	/* unknown: always walked */
			w->depth = depth;
			if (!jw_check_depth(w, &whole))
				return false;
			w->depth = depth;
			jw_slot(w, dst)->tag = SD_V_NULL;
			return true;
		}
		w->depth = depth;
		members_of = variant->merged;
	}
	row = jw_reserve(w, members_of->nfields);
	out = jw_slot(w, dst);
	out->tag = SD_V_ROW;
	out->u.first = row;
	out->len = n->nfields;
	if (variant)
	{
		sd_val	   *vs = &w->tape[row + variant->col];

		vs->tag = SD_V_ROW;
		vs->u.first = row + n->nfields;
		vs->len = members_of->nfields - n->nfields;
	}
	pairs_start = w->pairs.len;
	if (!jw_members(w, jc, members_of, members_of->members, row, true))
		return false;
	if (n->extra_col >= 0)
	{
		StringInfoData obj;
		sd_val	   *x = &w->tape[row + n->extra_col];

		initStringInfo(&obj);
		appendStringInfoChar(&obj, '{');
		appendBinaryStringInfo(&obj, w->pairs.data + pairs_start, w->pairs.len - pairs_start);
		appendStringInfoChar(&obj, '}');
		w->pairs.len = pairs_start;
		w->pairs.data[pairs_start] = '\0';
		x->tag = SD_V_JSON;
		x->aux = 0;
		x->u.s = obj.data;
		x->len = obj.len;
	}
	return true;
}

static bool jw_value_in(Jw *w, JsonbValue *v, const sd_node *n, JwDest dst);

/* One value; in serde_errors' mode its slot gets its mark (SD_MARK_*, serde_core.h). */
static bool
jw_value(Jw *w, JsonbValue *v, const sd_node *n, JwDest dst)
{
	int			before = w->total;
	bool		ok = jw_value_in(w, v, n, dst);

	if (w->collect)
		jw_slot(w, dst)->aux = sd_mark_value(ok, before, w->total, &w->values);
	return ok;
}

static bool
jw_value_in(Jw *w, JsonbValue *v, const sd_node *n, JwDest dst)
{
	sd_val		out;

	if (v->type == jbvNull)
	{
		jw_slot(w, dst)->tag = SD_V_NULL;
		return true;
	}
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB)
	{
		StringInfoData text;
		sd_val	   *o;

		if (n->elem)
		{
			/* validated against a shape (each element, for an array) */
			uint32		scratch = jw_reserve(w, 1);
			int			before = w->total;
			bool		ok;

			if (v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data) &&
				n->elem->kind == SD_K_COMPOSITE)
			{
				sd_node		each = *n;

				each.kind = SD_K_ARRAY;
				ok = jw_array(w, v->val.binary.data, &each, (JwDest) {false, scratch});
			}
			else
				ok = jw_value(w, v, n->elem, (JwDest) {false, scratch});
			if (!ok)
				return false;
			if (w->collect && w->total != before)
				return true;
		}
		else if (!jw_check_depth(w, v))
			return false;
		o = jw_slot(w, dst);
		o->tag = SD_V_JSON;
		if (n->kind == SD_K_JSONB && v->type == jbvBinary && !w->collect)
		{
			/* jsonb from jsonb: the container itself, in the document (which outlives the
			 * conversion); the converter copies it into the result */
			o->aux = SD_PG_AUX_JSONB;
			o->u.s = (const char *) v->val.binary.data;
			o->len = v->val.binary.len;
			return true;
		}
		initStringInfo(&text);
		jw_value_text(&text, v);
		o->aux = 0;
		o->u.s = text.data;
		o->len = text.len;
		return true;
	}
	if (v->type == jbvBinary)
	{
		JsonbContainer *jc = v->val.binary.data;

		if (n->kind == SD_K_COMPOSITE && JsonContainerIsObject(jc))
			return jw_object(w, jc, n, dst);
		if (n->kind == SD_K_ARRAY && n->is_map && JsonContainerIsObject(jc))
			return jw_map(w, jc, n, dst);
		if (n->kind == SD_K_ARRAY && !n->is_map && JsonContainerIsArray(jc))
			return jw_array(w, jc, n, dst);
		if (!jw_error_depth(w, v))
			return false;
		return jw_kind_error(w, n, v);
	}
	memset(&out, 0, sizeof(out));
	w->err->offset = -1;
	switch (v->type)
	{
		case jbvString:
			if (!sd_convert_string(&w->arena, n, v->val.string.val, v->val.string.len, &out, w->err))
				return jw_convert_failed(w);
			break;
		case jbvNumeric:
			if (jw_number_direct(w, n, v->val.numeric, &out))
				break;
			{
				char	   *lit = jw_numeric_text(v->val.numeric);

				/* NaN and infinities cannot come from JSON; numeric_out writes them as words */
				if (!sd_is_json_number(lit, strlen(lit)))
					return jw_kind_error(w, n, v);
				if (!sd_convert_number(n, lit, strlen(lit), &out, w->err))
					return jw_convert_failed(w);
				break;
			}
		case jbvBool:
			if (!sd_convert_bool(n, v->val.boolean, &out, w->err))
				return jw_convert_failed(w);
			break;
		default:
			return jw_kind_error(w, n, v);
	}
	out.offset = 0;
	*jw_slot(w, dst) = out;
	return true;
}

/* ---- entry points ------------------------------------------------------------------------- */

static void
jw_init(Jw *w, sd_error *err)
{
	static const sd_hooks hooks = {jw_alloc, jw_realloc, jw_free, NULL, NULL};

	memset(w, 0, sizeof(*w));
	w->err = err;
	w->max_depth = sd_pg_max_depth;
	sd_arena_init(&w->arena, &hooks);
	initStringInfo(&w->pairs);
	sd_error_clear(err);
	strcpy(err->path, "$");
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

bool
sd_pg_jsonb_decode(Jsonb *jb, const sd_node *node, const sd_val **tape, uint32 *root,
				   sd_error *err)
{
	Jw			w;
	JsonbValue	rv;

	jw_init(&w, err);
	jw_root(jb, &rv);
	*root = jw_reserve(&w, 1);
	if (!jw_value(&w, &rv, node, (JwDest) {false, *root}))
		return false;
	*tape = w.tape;
	return true;
}

bool
sd_pg_jsonb_decode_element(JsonbValue *v, uint64 index, const sd_node *node,
						   const sd_val **tape, uint32 *root, sd_error *err)
{
	Jw			w;

	jw_init(&w, err);
	jw_enter(&w, NULL, 0, index);
	*root = jw_reserve(&w, 1);
	if (!jw_value(&w, v, node, (JwDest) {false, *root}))
		return false;
	*tape = w.tape;
	return true;
}

int
sd_pg_jsonb_check(Jsonb *jb, const sd_node *node, int max_errors, const sd_found **found,
				  int *total, const sd_val **tape, uint32 *root)
{
	Jw			w;
	JsonbValue	rv;
	sd_error	err;

	jw_init(&w, &err);
	w.collect = true;
	w.max_errs = Max(max_errors, 1);
	jw_root(jb, &rv);
	*root = jw_reserve(&w, 1);
	if (!jw_value(&w, &rv, node, (JwDest) {false, *root}) && !jw_recover(&w, 0))
	{
		/* a limit: that one error alone */
		w.nerrs = 0;
		(void) jw_recover_fatal(&w, &err);
		*found = w.found;
		*total = 1;
		*tape = NULL;
		*root = UINT32_MAX;
		return 1;
	}
	*found = w.found;
	*total = w.total;
	*tape = w.tape;
	return w.nerrs;
}
