/*
 * engine.c — the one rule engine: every rule of the plan, applied to the tokens a walker hands
 * in (walker.h), written into the value tape.  Members by name (with the decoder's member-order
 * prediction, or a merge for walkers that present keys in jsonb's order), missing / optional /
 * default, NOT NULL, unknown members and `extra`, duplicates, unions by tag, maps, path
 * prefixes and their null parents, json/jsonb columns kept whole or validated against a shape,
 * serde_errors' collection and recovery, depth and stack limits, should_stop polling, and the
 * paths and offsets of errors.  Scalars are converted by scalar_to_tape.c / scalar.c.
 *
 * The walker is pulled: each op returns here, so host hooks run only in these C frames.  The
 * validating skip of values the shape ignores (engine_skip.h, part of this file) is the engine's
 * too: it walks through the same ops, writes jsonb events and checks jsonb's limits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "scalar.h"
#include "walker.h"
#include "engine_int.h"

/* ---- paths and errors ------------------------------------------------------------------- */

static void
build_path(Eng *e)
{
	sd_pathent *pe = (sd_pathent *) e->d->path;

	if (e->flags & SD_WF_XML)
	{
		sd_eng_xpath(e);
		return;
	}
	strcpy(e->err->path, "$");
	for (uint32_t i = 0; i < e->depth && i < e->d->path_cap; i++)
	{
		if (pe[i].name)
			sd_path_member(e->err->path, pe[i].name, pe[i].len);
		else
			sd_path_index(e->err->path, pe[i].index);
	}
}

static bool vfail(Eng *e, sd_code code, int64_t off, const char *fmt, va_list ap)
			__attribute__((format(printf, 4, 0)));

static bool
vfail(Eng *e, sd_code code, int64_t off, const char *fmt, va_list ap)
{
	build_path(e);
	e->err->code = code;
	e->err->offset = off;
	if (e->flags & SD_WF_XML)
	{
		/* XML: its SQLSTATEs, and the line/column of the offset (first-error mode only: the
		 * errors collected keep byte offsets, and locating each would rescan the document) */
		e->err->code = sd_code_for_doc(code, SD_DOC_XML);
		e->err->doc = SD_DOC_XML;
		e->err->line = e->err->column = 0;
		if (off >= 0 && !e->collect && e->ops->locate)
			e->ops->locate(e->cur, off, &e->err->line, &e->err->column);
	}
	vsnprintf(e->err->problem, sizeof(e->err->problem), fmt, ap);
	return false;
}

static bool fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

static bool
fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfail(e, code, off, fmt, ap);
	va_end(ap);
	return false;
}

bool
sd_eng_fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfail(e, code, off, fmt, ap);
	va_end(ap);
	return false;
}

static __attribute__((noinline)) bool
grow_path(Eng *e, int64_t off)
{
	if (!sd_grow(e->hooks, &e->d->path, &e->d->path_cap, e->depth + 2, sizeof(sd_pathent)))
		return fail(e, SD_E_NOMEM, off, "out of memory");
	return true;
}

/* Enters a member / an element: depth + 1 and its path segment. */
static inline bool
enter(Eng *e, const char *name, size_t len, uint64_t index, int64_t off)
{
	if (__builtin_expect(e->depth + 1 >= e->d->path_cap, 0) && !grow_path(e, off))
		return false;
	sd_pathent *pe = (sd_pathent *) e->d->path + e->depth;

	pe->name = name;
	pe->len = len;
	pe->index = index;
	e->depth++;
	return true;
}

static inline bool
is_fatal(sd_code c)
{
	return c == SD_E_SYNTAX || c == SD_E_DEPTH || c == SD_E_NOMEM || c == SD_E_CANCELED ||
		c == SD_E_SIZE || c == SD_E_INTERNAL || c == SD_E_XML_SYNTAX;
}

/* Malformed input (reported at the root).  JSON text is re-validated by jvalid.c, which finds
 * the exact offset of the first bad byte (simdjson's errors carry no position). */
static __attribute__((noinline)) bool
syntax(Eng *e, const char *problem, int64_t off)
{
	uint32_t	saved = e->depth;

	e->depth = 0;
	if (e->flags & SD_WF_TEXT)
	{
		sd_error	exact;
		bool		valid = sd_json_validate(e->hooks, e->cur->text, e->cur->text_len, &exact);
		if (!valid && exact.code == SD_E_SYNTAX)
			fail(e, SD_E_SYNTAX, exact.offset + (int64_t) e->d->offset_bias, "malformed JSON: %s",
				 exact.problem);
		else if (!valid && exact.code == SD_E_NOMEM)
			fail(e, SD_E_NOMEM, off, "out of memory");
		else
			fail(e, SD_E_SYNTAX, off, "malformed JSON: %s", problem);
	}
	else
		fail(e, SD_E_SYNTAX, off, "malformed JSON: %s", problem);
	e->depth = saved;
	return false;
}

/* A walker op returned -1: what it reported. */
static __attribute__((noinline)) bool
walker_failed(Eng *e)
{
	const sd_wfail *f = &e->cur->fail;

	if ((e->flags & SD_WF_XML) && f->err)
	{
		/* the walker's own complete error (the XML reader's: path, line and column) */
		*e->err = *f->err;
		return false;
	}
	if (f->code == SD_E_NOMEM)
		return fail(e, SD_E_NOMEM, f->offset, "out of memory");
	if (f->code == SD_E_INTERNAL)
		return fail(e, SD_E_INTERNAL, f->offset, "%s", f->problem ? f->problem : "walker error");
	return syntax(e, f->problem ? f->problem : "unexpected character or structure", f->offset);
}

/* A limit reached on entering a container (kept out of line: its locals would weigh on
 * every level of the recursion). */
static __attribute__((noinline)) bool
guard_failed(Eng *e, int64_t off)
{
	if (e->flags & SD_WF_TEXT)
	{
		sd_error	exact;

		/* a malformed document is a syntax error, however deep */
		if (!sd_json_validate(e->hooks, e->cur->text, e->cur->text_len, &exact))
		{
			if (exact.code == SD_E_NOMEM)
				return fail(e, SD_E_NOMEM, off, "out of memory");
			return syntax(e, exact.problem, exact.offset + (int64_t) e->d->offset_bias);
		}
	}
	if (e->depth + 1 > e->max_depth)
		return fail(e, SD_E_DEPTH, off, "nesting deeper than serde.max_depth (%u)", e->max_depth);
	return fail(e, SD_E_DEPTH, off, "document nested too deeply for the stack");
}

/* Checked on entering every container: nesting limit, stack budget. */
static inline bool
container_guard(Eng *e, int64_t off)
{
	char		here;

	if (__builtin_expect(e->depth + 1 > e->max_depth ||
						 (size_t) (e->stack_start - &here) > e->stack_budget, 0))
		return guard_failed(e, off);
	return true;
}

static inline bool
poll_stop(Eng *e, int64_t off)
{
	if (__builtin_expect(++e->poll >= 4096, 0))
	{
		e->poll = 0;
		if (e->hooks->should_stop && e->hooks->should_stop(e->hooks->ud))
			return fail(e, SD_E_CANCELED, off, "canceled");
	}
	return true;
}

/* After an error at a value: in collect mode (serde_errors) record it and go on; else stop. */
static inline bool
recover(Eng *e, uint32_t depth)
{
	e->depth = depth;
	if (!e->collect || is_fatal(e->err->code))
		return false;
	sd_collect_add(e->collect, e->err);
	return true;
}

static bool skip_value(Eng *e, const sd_wtok *t);

/* The same, for an error at value t that may not have been read yet: it is then walked, so
 * that malformed input inside it is still found. */
static inline bool
recover_value(Eng *e, const sd_wtok *t, uint32_t depth, uint32_t value_depth)
{
	bool		consumed = e->consumed;

	if (!recover(e, depth))
		return false;
	if (!consumed)
	{
		/* walk it where it is (its path entry is still in place) */
		e->depth = value_depth;
		if (!skip_value(e, t))
			return false;
		e->depth = depth;
	}
	return true;
}

/* A value error from scalar_to_tape.c: add path and offset. */
static __attribute__((noinline)) bool
convert_failed(Eng *e, int64_t off)
{
	sd_error	x = *e->err;

	return fail(e, x.code, off, "%s", x.problem);
}

/* "string \"x\"", "number 1.5", "object", ... */
static __attribute__((noinline)) void
describe(Eng *e, sd_wtok *t, char *buf, size_t size)
{
	if (t->raw)
		sd_describe_found(buf, size < 128 ? size : 128, t->raw, t->raw_len);
	else if (t->flags & SD_TOK_XML_TEXT)
		sd_describe_text(buf, size, t->s, t->len);
	else
	{
		if (t->kind == SD_J_NUMBER && !t->s && e->ops->number_text)
			(void) e->ops->number_text(e->cur, t);
		if (t->kind == SD_J_STRING || t->kind == SD_J_NUMBER)
			sd_describe_scalar(buf, size, t->kind, t->s ? t->s : "", t->s ? t->len : 0);
		else
			sd_describe_scalar(buf, size, t->kind, "", 0);
	}
}

static __attribute__((noinline)) bool
kind_error(Eng *e, const sd_node *n, sd_wtok *t)
{
	char		found[256];

	describe(e, t, found, sizeof(found));
	return fail(e, SD_E_KIND, t->offset, "expected %s, found %s", sd_expected_name(n), found);
}

/* ---- the tape ---------------------------------------------------------------------------- */

static inline bool
reserve_tape(Eng *e, uint32_t n, uint32_t *first, int64_t off)
{
	sd_decoder *d = e->d;
	uint32_t	need = d->tape_len + n;

	if (need < d->tape_len ||
		(need > d->tape_cap && !sd_grow(e->hooks, (void **) &d->tape, &d->tape_cap, need, sizeof(sd_val))))
		return fail(e, SD_E_NOMEM, off, "out of memory");
	*first = d->tape_len;
	memset(&d->tape[*first], 0, sizeof(sd_val) * n);
	d->tape_len = need;
	return true;
}

/* Starts an element slot on the element stack. */
static inline bool
push_element(Eng *e, Dest *ed, int64_t off)
{
	sd_decoder *d = e->d;

	if (d->stack_len + 1 > d->stack_cap &&
		!sd_grow(e->hooks, (void **) &d->stack, &d->stack_cap, d->stack_len + 1, sizeof(sd_val)))
		return fail(e, SD_E_NOMEM, off, "out of memory");
	ed->in_stack = true;
	ed->idx = d->stack_len++;
	memset(&d->stack[ed->idx], 0, sizeof(sd_val));
	return true;
}

/* Moves the elements pushed since `start` into one tape block and points dst at it. */
static bool
finish_elements(Eng *e, uint32_t start, Dest dst, int64_t off)
{
	sd_decoder *d = e->d;
	uint32_t	count = d->stack_len - start;
	uint32_t	first = 0;

	if (count && !reserve_tape(e, count, &first, off))
		return false;
	if (count)
		memcpy(&d->tape[first], &d->stack[start], sizeof(sd_val) * count);
	d->stack_len = start;
	sd_val	   *out = slot(e, dst);

	out->tag = SD_V_ARRAY;
	out->u.first = first;
	out->len = count;
	out->offset = tape_off(off);
	return true;
}

/* ---- the validating skip: values the shape ignores are walked in full ------------------ */

#include "engine_skip.h"

/* ---- typed decoding ----------------------------------------------------------------------- */

static bool value_in(Eng *e, sd_wtok *t, const sd_node *n, Dest dst);

/* One value; in serde_errors' mode its slot gets its mark (SD_MARK_*, serde_core.h). */
static inline bool
value(Eng *e, sd_wtok *t, const sd_node *n, Dest dst)
{
	int			before = e->collect ? e->collect->total : 0;
	bool		ok = value_in(e, t, n, dst);

	if (e->collect)
		slot(e, dst)->aux = sd_mark_value(ok, before, e->collect->total, &e->collect->values);
	return ok;
}

static bool
decode_array(Eng *e, const sd_node *n, Dest dst, int64_t off)
{
	uint32_t	start = e->d->stack_len;
	uint64_t	i = 0;
	sd_wtok		t;
	int			r;

	if (!container_guard(e, off))
		return false;
	while ((r = e->array_next(e->cur, &t)) > 0)
	{
		Dest		ed = {true, 0};
		uint32_t	depth = e->depth;

		if (!push_element(e, &ed, off) || !enter(e, NULL, 0, i, off))
			return false;
		if (!value(e, &t, n->elem, ed) && !recover_value(e, &t, depth, depth + 1))
			return false;
		e->depth = depth;
		i++;
	}
	if (r < 0)
		return walker_failed(e);
	return finish_elements(e, start, dst, off);
}

/* map: true — an object of arbitrary members into (key, value) elements, in document order. */
static bool
decode_map(Eng *e, const sd_node *n, Dest dst, int64_t off)
{
	uint32_t	start = e->d->stack_len;
	const sd_node *pair = n->elem;
	sd_keyset	keys = {0};		/* a repeated key is 22030, as for mapped members */
	sd_wkey		k;
	sd_wtok		t;
	int			r;

	if (!container_guard(e, off))
		return false;
	while ((r = e->object_next(e->cur, &k, &t, NULL, 0)) > 0)
	{
		Dest		ed = {true, 0};
		uint32_t	depth = e->depth;
		uint32_t	row = 0;

		if (!push_element(e, &ed, off) || !reserve_tape(e, 2, &row, off) ||
			!enter(e, k.s, k.len, 0, k.offset))
			return false;
		{
			sd_val	   *el = slot(e, ed);

			el->tag = SD_V_ROW;
			el->u.first = row;
			el->len = 2;
			el->offset = tape_off(k.offset);
		}
		sd_val	   *kv = &e->d->tape[row];

		kv->offset = tape_off(k.offset);
		e->err->offset = k.offset;
		e->consumed = false;
		if ((!(e->flags & SD_WF_NO_DUPLICATES) && !sd_map_key_new(e->d, &keys, k.s, k.len, e->err)) ||
			!sd_convert_string(&e->d->arena, pair->fields[0].node, k.s, k.len, kv, e->err))
		{
			convert_failed(e, k.offset);
			if (!recover_value(e, &t, depth, depth + 1))
				return false;
			continue;
		}
		if (!value(e, &t, pair->fields[1].node, (Dest) {false, row + 1}) &&
			!recover_value(e, &t, depth, depth + 1))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return walker_failed(e);
	return finish_elements(e, start, dst, off);
}

/* ---- objects: members, unions, extra ----------------------------------------------------- */

/* Writes the object of unmapped members (pairs since pairs_start) into the extra column. */
static bool
finish_extra(Eng *e, uint32_t pairs_start, uint32_t row, int col, int64_t off)
{
	sd_decoder *d = e->d;
	sd_pair    *pairs = (sd_pair *) d->pairs;
	size_t		size = 2;
	size_t		o = 0;

	for (uint32_t i = pairs_start; i < d->pairs_len; i++)
		size += pairs[i].key_len * 6 + 4 + pairs[i].value_len;
	char	   *buf = (char *) sd_arena_alloc(&d->arena, size + 1);

	if (!buf)
		return fail(e, SD_E_NOMEM, off, "out of memory");
	buf[o++] = '{';
	for (uint32_t i = pairs_start; i < d->pairs_len; i++)
	{
		if (i > pairs_start)
			buf[o++] = ',';
		buf[o++] = '"';
		o += sd_json_escape(buf + o, pairs[i].key_len * 6, pairs[i].key, pairs[i].key_len, NULL);
		buf[o++] = '"';
		buf[o++] = ':';
		memcpy(buf + o, pairs[i].value, pairs[i].value_len);
		o += pairs[i].value_len;
	}
	buf[o++] = '}';
	buf[o] = '\0';
	d->pairs_len = pairs_start;
	sd_val	   *x = &d->tape[row + (uint32_t) col];

	x->tag = SD_V_JSON;
	x->u.s = buf;
	x->len = (uint32_t) o;
	x->aux = 0;
	x->offset = tape_off(off);
	return true;
}

/* Finds the union's tag member (anywhere in the object, begun) and returns its variant; the
 * walker leaves the object at its start, so that the members are read in one pass. */
static __attribute__((noinline)) bool
select_variant(Eng *e, const sd_node *n, const sd_variant **out, int64_t off, bool *found_error)
{
	sd_wtok		tv;
	size_t		taglen = strlen(n->tag);
	char		list[256];
	char		desc[256];
	int			r = e->ops->object_find(e->cur, n->tag, taglen, &tv);

	*found_error = false;
	if (r < 0)
		return walker_failed(e);
	*found_error = true;
	if (!enter(e, n->tag, taglen, 0, r ? tv.offset : off))
		return false;
	if (e->flags & SD_WF_XML)
	{
		/* XML: the tag is an attribute of the element (without a namespace) or a child element */
		sd_pathent *pe = (sd_pathent *) e->d->path + e->depth - 1;

		pe->seg = r > 0 && (tv.flags & SD_TOK_XML_ELEMENT) ? SD_SEG_ELEMENT : SD_SEG_ATTRIBUTE;
		pe->prefix = NULL;
		pe->prefix_len = 0;
	}
	if (r == 0)
	{
		sd_variant_list(n, list, sizeof(list));
		return fail(e, SD_E_MISSING, off, "missing required member (the union's tag, one of: %s)", list);
	}
	if (tv.kind != SD_J_STRING)
	{
		sd_variant_list(n, list, sizeof(list));
		describe(e, &tv, desc, sizeof(desc));
		return fail(e, SD_E_KIND, tv.offset, "expected string (the union's tag, one of: %s), found %s",
					list, desc);
	}
	for (int i = 0; i < n->nvariants; i++)
		if (strlen(n->variants[i].value) == tv.len &&
			memcmp(n->variants[i].value, tv.s, tv.len) == 0)
		{
			*out = &n->variants[i];
			*found_error = false;
			e->depth--;
			return true;
		}
	sd_variant_list(n, list, sizeof(list));	/* (only for an error: it is not cheap) */
	sd_describe_scalar(desc, sizeof(desc), SD_J_STRING, tv.s, tv.len);
	return fail(e, SD_E_KIND, tv.offset, "unknown tag value %s, expected one of: %s", desc + 7, list);
}

static bool decode_members(Eng *e, const sd_node *n, const sd_members *ms, uint32_t row,
						   int64_t obj_off, bool top);

/* An object begun (object_begin) into a row. */
static bool
decode_object(Eng *e, const sd_node *n, Dest dst, int64_t off)
{
	uint32_t	row = 0;
	const sd_node *members_of = n;
	const sd_variant *variant = NULL;

	if (!container_guard(e, off))
		return false;
	if (n->tag)
	{
		bool		tag_error;
		uint32_t	depth = e->depth;

		if (!select_variant(e, n, &variant, off, &tag_error))
		{
			if (!tag_error || !recover(e, depth))
				return false;
			/* collect mode: the object is still walked */
			slot(e, dst)->tag = SD_V_NULL;
			return skip_members(e, off);
		}
		members_of = variant->merged;
	}
	if (!reserve_tape(e, (uint32_t) members_of->nfields, &row, off))
		return false;
	{
		sd_val	   *out = slot(e, dst);

		out->tag = SD_V_ROW;
		out->u.first = row;
		out->len = (uint32_t) n->nfields;
		out->offset = tape_off(off);
	}
	if (variant)
	{
		sd_val	   *vs = &e->d->tape[row + (uint32_t) variant->col];

		vs->tag = SD_V_ROW;
		vs->u.first = row + (uint32_t) n->nfields;
		vs->len = (uint32_t) (members_of->nfields - n->nfields);
		vs->offset = tape_off(off);
	}
	uint32_t	pairs_start = e->d->pairs_len;

	if (e->flags & SD_WF_XML)	/* an element: its members by the plan's XML facts */
		return sd_eng_xml_members(e, n, members_of, dst, row, off);
	if (!decode_members(e, members_of, members_of->members, row, off, true))
		return false;
	if (n->extra_col >= 0 && !finish_extra(e, pairs_start, row, n->extra_col, off))
		return false;
	return true;
}

/* ---- the member rules shared with XML (engine_xml.c): the member's path entry is in place --- */

/* unknown: under `unknown: reject` (the value walked, serde_errors goes on) */
static __attribute__((noinline)) bool
unknown_member(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	fail(e, SD_E_UNKNOWN, off, "unknown member");
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* a mapped member that came again (not a list of an XML walker's repeated members) */
static __attribute__((noinline)) bool
duplicate_member(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	fail(e, SD_E_DUPLICATE, off, "duplicate member");
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* null in a column that is not nullable */
static __attribute__((noinline)) bool
not_null_failed(Eng *e, const sd_field *fd, uint32_t idx, int64_t off, uint32_t depth)
{
	e->d->tape[idx].aux = SD_MARK_FAILED;
	fail(e, SD_E_NOTNULL, off, "null is not allowed for column \"%s\"", fd->column);
	return recover(e, depth);
}

/* a field whose member did not appear: its default, or NULL when optional (true: filled) */
static inline bool
absent_filled(Eng *e, const sd_field *f, uint32_t row, int64_t obj_off)
{
	sd_val	   *s = &e->d->tape[row + (uint32_t) f->col];

	if (f->has_default)
	{
		s->tag = SD_V_DEFAULT;
		s->len = (uint32_t) f->default_index;
		s->offset = tape_off(obj_off);
		return true;
	}
	return f->optional;
}

/* ... else missing: reported at its own path (entered), located at the enclosing object */
static __attribute__((noinline)) bool
missing_required(Eng *e, int64_t obj_off, uint32_t depth)
{
	fail(e, SD_E_MISSING, obj_off, "missing required member");
	return recover(e, depth);
}

/* Fills the slots of a member that did not appear: default, NULL, or a missing error. */
static bool
missing_member(Eng *e, const sd_node *n, const sd_member *m, uint32_t row, int64_t obj_off)
{
	uint32_t	depth = e->depth;

	if (m->field == SD_MEMBER_TAG)
		return true;
	if (m->field >= 0)
	{
		if (absent_filled(e, &n->fields[m->field], row, obj_off))
			return true;
	}
	else if (!m->group_required)
	{
		/* a path prefix: reported at its own name when any field below it is required */
		for (int i = 0; i < m->group->n; i++)
			if (!missing_member(e, n, &m->group->m[i], row, obj_off))
				return false;
		return true;
	}
	if (!enter(e, m->name, m->len, 0, obj_off))
		return false;
	return missing_required(e, obj_off, depth);
}

/* sd_null_prefix's report: the error it set is recorded (serde_errors) or stops the walk. */
static bool
report_null(void *ctx)
{
	Eng		   *e = (Eng *) ctx;

	return recover(e, e->depth);
}

/* jsonb's key order: shorter first, then bytewise (jsonb_util.c's lengthCompareJsonbString) */
static inline int
keycmp(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

/* An unmapped member (the cursor at its value t): unknown, or kept for `extra`. */
static bool
unmapped_member(Eng *e, const sd_node *n, const sd_wkey *k, sd_wtok *t, uint32_t depth, bool top)
{
	if (!enter(e, k->s, k->len, 0, k->offset))
		return false;
	if (n->reject_unknown)
		return unknown_member(e, t, k->offset, depth);
	bool		extra = top && n->extra_col >= 0;
	bool		saved = e->in_jsonb;
	bool		ok;

	if (extra)
		e->in_jsonb = n->fields[n->extra_col].node->kind == SD_K_JSONB;
	ok = skip_value(e, t);
	e->in_jsonb = saved;
	if (!ok)
		return false;
	e->depth = depth;
	if (extra)
	{
		sd_decoder *d = e->d;
		sd_val		span;

		if (d->pairs_len + 1 > d->pairs_cap &&
			!sd_grow(e->hooks, &d->pairs, &d->pairs_cap, d->pairs_len + 1, sizeof(sd_pair)))
			return fail(e, SD_E_NOMEM, k->offset, "out of memory");
		memset(&span, 0, sizeof(span));
		if (e->ops->capture(e->cur, t, SD_CAP_JSON, &span) < 0)
			return walker_failed(e);
		sd_pair    *p = (sd_pair *) d->pairs + d->pairs_len++;

		p->key = k->s;
		p->key_len = k->len;
		p->value = span.u.s;
		p->value_len = span.len;
	}
	return true;
}

static __attribute__((noinline)) bool
prefix_kind_error(Eng *e, const sd_member *m, sd_wtok *t)
{
	char		found[256];

	describe(e, t, found, sizeof(found));
	return fail(e, SD_E_KIND, t->offset, "expected object (on the path of column \"%s\"), found %s",
				m->group_column, found);
}

/* A path prefix member m (the cursor at its value t): an object of members below it, or null. */
static bool
prefix_member(Eng *e, const sd_node *n, const sd_member *m, sd_wtok *t, uint32_t row,
			  uint32_t depth)
{
	if (t->kind == SD_J_OBJECT)
	{
		if (e->ops->object_begin(e->cur, t) < 0)
			return walker_failed(e);
		if (!container_guard(e, t->offset))
			return false;
		return decode_members(e, n, m->group, row, t->offset, false);
	}
	if (t->kind == SD_J_NULL)
	{
		/* a null parent makes the values below it null: 23502 for the non-nullable */
		e->depth = depth;
		build_path(e);
		e->err->offset = t->offset;
		return sd_null_prefix(n, m, e->err, report_null, e);
	}
	/* a path through a scalar or an array */
	prefix_kind_error(e, m, t);
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* The members of an object begun, against table ms (of node n), into the row. */
static bool
decode_members(Eng *e, const sd_node *n, const sd_members *ms, uint32_t row, int64_t obj_off,
			   bool top)
{
	uint64_t	seen_small[4] = {0, 0, 0, 0};
	uint64_t   *seen = seen_small;
	int			prev = 0;		/* follow[] slot of the last mapped member: 0 = none yet */
	bool		sorted = (e->flags & SD_WF_SORTED_KEYS) != 0;
	const int16_t *order = sorted ? ms->by_length : NULL;
	int			pos = 0;		/* sorted: the next member of `order` */
	int16_t    *follow = NULL;
	unsigned	want = ms->n ? SD_KEY_HASH : 0;
	sd_wkey		k;
	sd_wtok		t;
	int			r;

	if (!sorted)
	{
		if (ms->follow_at + (uint32_t) ms->n >= e->d->nfollow)	/* a node of another plan */
			return fail(e, SD_E_INTERNAL, obj_off, "member table of another plan");
		follow = e->d->follow + ms->follow_at;	/* the decoder's prediction (sd_follow) */
	}
	if (ms->n > 256)
	{
		seen = (uint64_t *) sd_arena_alloc(&e->d->arena, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
		if (!seen)
			return fail(e, SD_E_NOMEM, obj_off, "out of memory");
		memset(seen, 0, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
	}
	for (;;)
	{
		uint32_t	depth = e->depth;
		int			mi = follow ? follow[prev] : -1;

		r = e->object_next(e->cur, &k, &t, mi >= 0 ? &ms->m[mi] : NULL, want);
		if (r <= 0)
			break;
		if (!k.matched)
		{
			mi = -1;
			if (order)
			{
				/* the merge: members sorting before this key are not in the object */
				while (pos < ms->n)
				{
					const sd_member *om = &ms->m[order[pos]];
					int			c = keycmp(k.s, k.len, om->name, om->len);

					if (c < 0)
						break;	/* an unknown key */
					pos++;
					if (c == 0)
					{
						mi = order[pos - 1];
						break;
					}
				}
			}
			else if (ms->n)
			{
				mi = sd_members_find(ms, k.s, k.len, k.has_hash ? k.hash : sd_hash_name(k.s, k.len));
				if (mi >= 0 && follow)
					follow[prev] = (int16_t) mi;
			}
		}
		if (mi < 0)
		{
			if (!unmapped_member(e, n, &k, &t, depth, top))
				return false;
			continue;
		}
		const sd_member *m = &ms->m[mi];

		if (!enter(e, m->name, m->len, 0, k.offset))
			return false;
		if (seen[mi >> 6] & ((uint64_t) 1 << (mi & 63)))
		{
			if (!duplicate_member(e, &t, k.offset, depth))
				return false;
			continue;
		}
		seen[mi >> 6] |= (uint64_t) 1 << (mi & 63);
		prev = mi + 1;
		if (m->field == SD_MEMBER_TAG)
		{
			/* the union's tag, already read by select_variant: validate only */
			if (!skip_value(e, &t))
				return false;
		}
		else if (m->field >= 0)
		{
			const sd_field *fd = &n->fields[m->field];
			Dest		dst = {false, row + (uint32_t) fd->col};

			if (!value(e, &t, fd->node, dst))
			{
				if (!recover_value(e, &t, depth, depth + 1))
					return false;
				continue;
			}
			if (!fd->nullable && e->d->tape[dst.idx].tag == SD_V_NULL)
			{
				if (!not_null_failed(e, fd, dst.idx, t.offset, depth))
					return false;
				continue;
			}
		}
		else if (!prefix_member(e, n, m, &t, row, depth))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return walker_failed(e);
	for (int base = 0; base < ms->n; base += 64)
	{
		uint64_t	missing = ~seen[base >> 6];

		if (ms->n - base < 64)
			missing &= ((uint64_t) 1 << (ms->n - base)) - 1;
		while (missing)
		{
			int			i = base + __builtin_ctzll(missing);

			missing &= missing - 1;
			if (!missing_member(e, n, &ms->m[i], row, obj_off))
				return false;
		}
	}
	return true;
}

/* A json/jsonb column validated against a shape: decoded into scratch slots, text kept. */
static __attribute__((noinline)) bool
validate_json(Eng *e, sd_wtok *t, const sd_node *n)
{
	uint32_t	scratch = 0;

	if (!reserve_tape(e, 1, &scratch, t->offset))
		return false;
	if (t->kind == SD_J_ARRAY && n->elem->kind == SD_K_COMPOSITE)
	{
		/* an array: each element is validated */
		sd_node		each = *n;

		if (e->ops->array_begin(e->cur, t) < 0)
			return walker_failed(e);
		e->consumed = true;
		each.kind = SD_K_ARRAY;
		return decode_array(e, &each, (Dest) {false, scratch}, t->offset);
	}
	return value(e, t, n->elem, (Dest) {false, scratch});
}

/* A json/jsonb column: the value walked (validated, events for jsonb), then captured whole. */
static bool
keep_json(Eng *e, sd_wtok *t, const sd_node *n, Dest dst)
{
	uint32_t	aux = 0;
	bool		jsonb = n->kind == SD_K_JSONB;

	if (n->elem)
	{
		int			before = e->collect ? e->collect->total : 0;

		if (!validate_json(e, t, n))
			return false;
		e->consumed = true;
		if (e->collect && e->collect->total != before)
			return true;		/* errors inside were recorded */
	}
	else
	{
		bool		saved = e->in_jsonb;
		bool		ok;

		e->in_jsonb = jsonb;
		/* a jsonb value also gets its events (not in serde_errors' mode) */
		e->ev = jsonb && !e->collect && (e->flags & SD_WF_EVENTS);
		e->ev_start = e->d->jev_len;
		ok = skip_value(e, t);
		e->in_jsonb = saved;
		if (!ok)
		{
			e->ev = false;
			return false;
		}
		if (e->ev)
			aux = e->ev_start + 1;
		else if (e->flags & SD_WF_EVENTS)
			e->d->jev_len = e->ev_start;	/* too many: the host parses the text */
		e->ev = false;
	}
	e->consumed = true;
	sd_val	   *out = slot(e, dst);

	out->tag = SD_V_JSON;
	out->aux = 0;
	if (e->ops->capture(e->cur, t, jsonb && !e->collect ? SD_CAP_JSONB : SD_CAP_JSON, out) < 0)
		return walker_failed(e);
	if (aux)
		out->aux = aux;
	return true;
}

static bool
value_in(Eng *e, sd_wtok *t, const sd_node *n, Dest dst)
{
	e->consumed = false;
	if (!poll_stop(e, t->offset))
		return false;
	slot(e, dst)->offset = tape_off(t->offset);
	if (t->kind == SD_J_NULL)
	{
		slot(e, dst)->tag = SD_V_NULL;
		return true;
	}
	switch (n->kind)
	{
		case SD_K_JSON:
		case SD_K_JSONB:
			return keep_json(e, t, n, dst);
		case SD_K_COMPOSITE:
			{
				bool		ok;

				if (t->kind != SD_J_OBJECT)
					return kind_error(e, n, t);
				if (e->ops->object_begin(e->cur, t) < 0)
					return walker_failed(e);
				ok = decode_object(e, n, dst, t->offset);
				e->consumed = true;
				return ok;
			}
		case SD_K_ARRAY:
			{
				bool		ok;

				if (n->is_map)
				{
					if (t->kind != SD_J_OBJECT)
						return kind_error(e, n, t);
					if (e->ops->object_begin(e->cur, t) < 0)
						return walker_failed(e);
					ok = decode_map(e, n, dst, t->offset);
				}
				else
				{
					if (t->kind != SD_J_ARRAY)
						return kind_error(e, n, t);
					if (e->ops->array_begin(e->cur, t) < 0)
						return walker_failed(e);
					ok = decode_array(e, n, dst, t->offset);
				}
				e->consumed = true;
				return ok;
			}
		default:
			break;
	}
	/* converted straight into the slot (the tape does not move meanwhile) */
	sd_val	   *out = slot(e, dst);

	out->tag = 0;
	out->len = 0;
	out->u.i = 0;
	e->err->offset = t->offset;
	e->consumed = true;
	switch (t->kind)
	{
		case SD_J_STRING:
			if (!sd_convert_string(&e->d->arena, n, t->s, t->len, out, e->err))
				break;
			return true;
		case SD_J_NUMBER:
			if (t->flags & SD_TOK_NATIVE)
			{
				int			r = e->ops->number_direct ?
					e->ops->number_direct(e->cur, n, t, e->collect != NULL, out) : 0;

				if (r > 0)
					return true;
				if (!t->s && e->ops->number_text(e->cur, t) < 0)
					return walker_failed(e);
			}
			if (t->flags & SD_TOK_NOT_JSON)
				return kind_error(e, n, t);
			if (!sd_convert_number(n, t->s, t->len, out, e->err))
				break;
			return true;
		case SD_J_TRUE:
		case SD_J_FALSE:
			if (!sd_convert_bool(n, t->kind == SD_J_TRUE, out, e->err))
				break;
			return true;
		default:
			return kind_error(e, n, t);
	}
	/* a scalar conversion failed: the slot is left as it was before (offset only) */
	out->tag = 0;
	out->len = 0;
	out->u.i = 0;
	return convert_failed(e, t->offset);
}

/* ---- entry points ------------------------------------------------------------------------- */

static inline void
eng_init(Eng *e, sd_decoder *d, sd_wcursor *cur, const sd_limits *limits, sd_collect *collect,
		 sd_error *err, const char *stack_start)
{
	e->d = d;
	e->cur = cur;
	e->ops = cur->ops;
	e->object_next = cur->ops->object_next;
	e->array_next = cur->ops->array_next;
	e->skip_fast = cur->ops->skip_fast;
	e->err = err;
	e->hooks = &d->hooks;
	e->collect = collect;
	e->max_depth = limits->max_depth;
	e->depth = 0;
	e->poll = 0;
	e->flags = cur->ops->flags;
	e->stack_start = stack_start;
	e->stack_budget = limits->stack_budget;
	e->consumed = false;
	e->in_jsonb = false;
	e->ev = false;
	e->ev_start = 0;
}

bool
sd_engine_decode(sd_decoder *d, sd_wcursor *cur, const sd_node *node, const sd_limits *limits,
				 sd_collect *collect, int64_t first_index, uint32_t *root, sd_error *err)
{
	char		here;
	Eng			e;
	sd_wtok		t;
	uint32_t	first = 0;

	eng_init(&e, d, cur, limits, collect, err, &here);
	if ((e.flags & SD_WF_REPEATED) && !(e.flags & SD_WF_XML))	/* walker.h (b) */
		return fail(&e, SD_E_INTERNAL, -1, "walker with repeated members outside XML");
	if (!reserve_tape(&e, 1, &first, -1))
		return false;
	if (first_index >= 0)
	{
		if (!enter(&e, NULL, 0, (uint64_t) first_index, -1))
			return false;
	}
	if (cur->ops->peek(cur, &t) < 0)
		return walker_failed(&e);
	if (!value(&e, &t, node, (Dest) {false, first}) &&
		(first_index >= 0 || !recover_value(&e, &t, 0, 0)))
	{
		/* a malformed document is rejected as such, even when a value error came first */
		sd_error	exact;

		if ((e.flags & SD_WF_TEXT) && !is_fatal(err->code) &&
			!sd_json_validate(e.hooks, cur->text, cur->text_len, &exact))
		{
			e.depth = 0;
			if (exact.code == SD_E_NOMEM)
				return fail(&e, SD_E_NOMEM, -1, "out of memory");
			return syntax(&e, exact.problem, exact.offset + (int64_t) d->offset_bias);
		}
		return false;
	}
	/* nothing may follow the root value */
	if (first_index < 0 && cur->ops->finish && cur->ops->finish(cur) < 0)
		return walker_failed(&e);
	/* serde_errors: after value errors (whose values may have been skipped without a full
	 * check), a malformed document is still that one error, as in first-error mode */
	if (collect && collect->total && (e.flags & SD_WF_TEXT))
	{
		sd_error	exact;

		if (!sd_json_validate(e.hooks, cur->text, cur->text_len, &exact))
		{
			e.depth = 0;
			if (exact.code == SD_E_NOMEM)
				return fail(&e, SD_E_NOMEM, -1, "out of memory");
			return syntax(&e, exact.problem, exact.offset + (int64_t) d->offset_bias);
		}
	}
	*root = first;
	return true;
}

bool
sd_engine_walker_error(sd_decoder *d, sd_wcursor *cur, sd_error *err)
{
	char		here;
	Eng			e;
	sd_limits	lim = {SD_DEFAULT_MAX_DEPTH, 0, 0};

	eng_init(&e, d, cur, &lim, NULL, err, &here);
	return walker_failed(&e);
}

/* ---- for the XML branch (engine_xml.c, engine_int.h) -------------------------------------- */

void
sd_eng_init(Eng *e, sd_decoder *d, sd_wcursor *cur, const sd_limits *limits, sd_collect *collect,
			sd_error *err, const char *stack_start)
{
	eng_init(e, d, cur, limits, collect, err, stack_start);
}

bool
sd_eng_enter_xml_name(Eng *e, uint8_t seg, const char *prefix, size_t plen, const char *local,
					  size_t llen, int64_t off)
{
	if (!enter(e, local, llen, 0, off))
		return false;
	sd_pathent *pe = (sd_pathent *) e->d->path + e->depth - 1;

	pe->seg = seg;
	pe->prefix = prefix;
	pe->prefix_len = prefix ? plen : 0;
	return true;
}

bool
sd_eng_enter_xml(Eng *e, uint8_t seg, const sd_wkey *k, uint64_t pos, int64_t off)
{
	if (!sd_eng_enter_xml_name(e, seg, k ? k->prefix : NULL, k ? k->prefix_len : 0,
							   k ? k->s : "", k ? k->len : 0, off))
		return false;
	((sd_pathent *) e->d->path)[e->depth - 1].index = pos;
	return true;
}

bool
sd_eng_walker_failed(Eng *e)
{
	return walker_failed(e);
}

bool
sd_eng_poll(Eng *e, int64_t off)
{
	return poll_stop(e, off);
}

bool
sd_eng_container_guard(Eng *e, int64_t off)
{
	return container_guard(e, off);
}

bool
sd_eng_reserve_tape(Eng *e, uint32_t n, uint32_t *first, int64_t off)
{
	return reserve_tape(e, n, first, off);
}

bool
sd_eng_recover(Eng *e, uint32_t depth)
{
	return recover(e, depth);
}

bool
sd_eng_recover_value(Eng *e, const sd_wtok *t, uint32_t depth, uint32_t value_depth)
{
	return recover_value(e, t, depth, value_depth);
}

bool
sd_eng_skip_value(Eng *e, const sd_wtok *t)
{
	return skip_value(e, t);
}

bool
sd_eng_value(Eng *e, sd_wtok *t, const sd_node *n, Dest dst)
{
	return value(e, t, n, dst);
}

void
sd_eng_mark(Eng *e, Dest dst, bool ok, int errors_before)
{
	if (e->collect)
		slot(e, dst)->aux = sd_mark_value(ok, errors_before, e->collect->total, &e->collect->values);
}

bool
sd_eng_unknown(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	return unknown_member(e, t, off, depth);
}

bool
sd_eng_duplicate(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	return duplicate_member(e, t, off, depth);
}

bool
sd_eng_not_null(Eng *e, const sd_field *fd, uint32_t idx, int64_t off, uint32_t depth)
{
	return not_null_failed(e, fd, idx, off, depth);
}

bool
sd_eng_absent_filled(Eng *e, const sd_field *f, uint32_t row, int64_t obj_off)
{
	return absent_filled(e, f, row, obj_off);
}

bool
sd_eng_missing(Eng *e, int64_t obj_off, uint32_t depth)
{
	return missing_required(e, obj_off, depth);
}
