/*
 * engine.c — the one rule engine: every rule of the plan, applied to the tokens a walker hands
 * in (walker.h), written into the value tape, for every input format (JSON text, stored jsonb,
 * XML) and every host.  One member loop (decode_members): a key is resolved to a member of the
 * plan's table (JSON: member-order prediction, a hash, or a merge for walkers that present keys
 * in jsonb's order; XML: the (kind, namespace, local name) table the compiler built), then
 * missing / optional / default, NOT NULL, unknown members and `extra`, duplicates, unions by
 * tag, maps, `path` prefixes and their null parents, serde_errors' collection and recovery are
 * applied once.  The one XML-only step of the loop: a list of repeated elements accumulates its
 * occurrences.  Values: json/jsonb columns kept whole or validated against a shape, lists,
 * composites; XML scalars from text (trimmed for non-text kinds), wrapped lists, `xml` columns.
 * Scalars are converted by scalar_to_tape.c / scalar.c; errors and paths are engine_err.c's;
 * the validating skip is engine_skip.c's; an XML `extra` is rendered by xml_json.c.
 *
 * The walker is pulled: each op returns here, so host hooks run only in these C frames.  The
 * engine never opens or casts a concrete walker: what it needs of one is in its ops.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "scalar.h"
#include "walker.h"
#include "engine_int.h"
#include "xml_json.h"
#include "xmlnames.h"

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"
#define XMLNS_XML "http://www.w3.org/XML/1998/namespace"

/* ---- the element stack ----------------------------------------------------------------- */

/* Starts an element slot on the element stack. */
static inline bool
push_element(Eng *e, Dest *ed, int64_t off)
{
	sd_decoder *d = e->d;

	if (d->stack_len + 1 > d->stack_cap &&
		!sd_grow(e->hooks, (void **) &d->stack, &d->stack_cap, d->stack_len + 1, sizeof(sd_val)))
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
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

/* ---- typed decoding ----------------------------------------------------------------------- */

static bool value_in(Eng *e, sd_wtok *t, const sd_node *n, Dest dst);
static bool decode_object(Eng *e, const sd_node *n, Dest dst, int64_t off);

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

static bool decode_array(Eng *e, const sd_node *n, Dest dst, int64_t off);

/* An element of a multi-dimensional array (n->type->max_dims > 1): a nested array decoded by
 * the same node, of the first element's shape (engine_md.c checks it). */
static bool
md_value(Eng *e, sd_wtok *t, const sd_node *n, Dest ed, uint32_t first)
{
	int			before = e->collect ? e->collect->total : 0;
	bool		ok;

	e->consumed = false;
	if (t->kind != SD_J_ARRAY)
		ok = sd_eng_md_not_array(e, n, first, t);
	else if (e->ops->array_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	else
	{
		ok = decode_array(e, n, ed, t->offset);
		e->consumed = true;
		ok = ok && sd_eng_md_check(e, n, first, ed.idx);
	}
	if (e->collect)
		slot(e, ed)->aux = sd_mark_value(ok, before, e->collect->total, &e->collect->values);
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
		bool		md = n->type->max_dims > 1 &&
			(i ? e->d->stack[start].tag == SD_V_ARRAY : t.kind == SD_J_ARRAY);

		if (!(md ? md_value(e, &t, n, ed, start) : value(e, &t, n->elem, ed)) &&
			!recover_value(e, &t, depth, depth + 1))
			return false;
		e->depth = depth;
		i++;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
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

		if ((e->flags & SD_WF_XML) && k.xml_kind != SD_XML_ELEMENT)
			continue;			/* XML: a map's entries are the child elements */
		if ((e->flags & SD_WF_XML) && !(k.s = sd_arena_strndup(&e->d->arena, k.s, k.len)))
			return sd_eng_fail(e, SD_E_NOMEM, k.offset, "out of memory");	/* (names die with the reader) */
		if (!push_element(e, &ed, off) || !reserve_tape(e, 2, &row, off) ||
			!enter_key(e, &k, 0, k.offset))
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
			sd_eng_convert_failed(e, k.offset);
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
		return sd_eng_walker_failed(e);
	return finish_elements(e, start, dst, off);
}


/* ---- XML values: scalars from text, wrapped lists, `xml` columns ------------------------ */

/* An element (not begun) as a scalar: its text; a child element is an error. */
static bool
element_scalar(Eng *e, const sd_node *n, Dest dst, sd_wtok *t)
{
	const char *text = "";
	size_t		tlen = 0;
	bool		bad = false;
	uint32_t	depth = e->depth;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		if (k.xml_kind == SD_XML_ATTRIBUTE)
			continue;
		if (k.xml_kind == SD_XML_TEXT)
		{
			text = c.s;
			tlen = c.len;
			continue;
		}
		if (!bad)
		{
			/* at the element itself, as JSON reports an object where a scalar belongs */
			sd_eng_fail(e, SD_E_KIND, t->offset, "expected %s, found an element with child elements",
						sd_expected_name(n));
			e->depth = depth;
			bad = true;
			if (!e->collect)
				return false;
		}
		/* serde_errors: the rest of the element is still walked */
		if (!sd_eng_skip_value(e, &c))
			return false;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	e->consumed = true;
	if (bad)
		return false;
	return sd_eng_text_value(e, n, text, tlen, dst, t->offset);
}

/* An `xml` column: the element verbatim, from its '<' to the end of its end tag. */
static bool
element_verbatim(Eng *e, Dest dst, sd_wtok *t)
{
	sd_val		span;

	if (!sd_eng_skip_value(e, t))
		return false;
	e->consumed = true;
	memset(&span, 0, sizeof(span));
	if (e->ops->capture(e->cur, t, SD_CAP_JSON, &span) < 0)
		return sd_eng_walker_failed(e);
	span.tag = SD_V_STR;
	span.offset = tape_off(t->offset);
	*slot(e, dst) = span;
	return true;
}

/* The items of a list element (not begun) into dst: its child elements named item (a wrapped
 * list, xml_item), or with item NULL every child element (a list directly inside a list). */
static bool
element_items(Eng *e, const sd_node *elem, const sd_xml_name *item, Dest dst, sd_wtok *t)
{
	Acc			a = {0};
	uint32_t	depth = e->depth;
	sd_wkey		k;
	sd_wtok		c;
	int			r;

	if (!container_guard(e, t->offset))
		return false;
	if (e->ops->object_begin(e->cur, t) < 0)
		return sd_eng_walker_failed(e);
	while ((r = e->object_next(e->cur, &k, &c, NULL, 0)) > 0)
	{
		uint32_t	ei = 0;

		if (k.xml_kind != SD_XML_ELEMENT)
			continue;
		if (elem->nxml_alt)
			sd_xml_ns_canon(elem, k.xml_kind, &k.ns, &k.ns_len);
		if (item && !sd_xml_name_is(item, k.s, k.len, k.ns, k.ns_len))
		{
			/* not an item: unknown under reject, else skipped */
			if (elem->kind == SD_K_COMPOSITE && elem->reject_unknown)
			{
				if (!enter_key(e, &k, 0, c.offset))
					return false;
				sd_eng_fail(e, SD_E_UNKNOWN, c.offset, "unknown member");
				e->consumed = false;
				if (!recover_value(e, &c, depth, depth + 1))
					return false;
			}
			else if (!sd_eng_skip_value(e, &c))
				return false;
			e->depth = depth;
			continue;
		}
		if (!reserve_tape(e, 1, &ei, c.offset) || !enter_key(e, &k, a.n + 1, c.offset) ||
			!sd_eng_acc_add(e, &a, ei, c.offset))
			return false;
		if (!value(e, &c, elem, (Dest) {false, ei}) && !recover_value(e, &c, depth, depth + 1))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	e->consumed = true;
	return sd_eng_acc_finish(e, &a, dst, t->offset);
}

/* An XML value: an attribute's or the text's string, or an element (not begun). */
static __attribute__((noinline)) bool
xml_value(Eng *e, sd_wtok *t, const sd_node *n, Dest dst)
{
	if (t->kind == SD_J_STRING)
	{
		e->consumed = true;
		return sd_eng_text_value(e, n, t->s, t->len, dst, t->offset);
	}
	switch (n->kind)
	{
		case SD_K_COMPOSITE:
			{
				bool		ok;

				if (e->ops->object_begin(e->cur, t) < 0)
					return sd_eng_walker_failed(e);
				ok = decode_object(e, n, dst, t->offset);
				e->consumed = true;
				return ok;
			}
		case SD_K_JSON:
		case SD_K_JSONB:
			return sd_eng_fail(e, SD_E_UNSUPPORTED, t->offset, "decoding XML: a json/jsonb column is "
							   "not supported (an xml column keeps the element verbatim)");
		case SD_K_ARRAY:
			if (n->is_map)
			{
				bool		ok;

				if (e->ops->object_begin(e->cur, t) < 0)
					return sd_eng_walker_failed(e);
				ok = decode_map(e, n, dst, t->offset);
				e->consumed = true;
				return ok;
			}
			return element_items(e, n->elem, NULL, dst, t);
		case SD_K_OTHER:
			if (n->type && n->type->name && strcmp(n->type->name, "xml") == 0)
				return element_verbatim(e, dst, t);
			break;
		default:
			break;
	}
	return element_scalar(e, n, dst, t);
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
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
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
	bool		xml = (e->flags & SD_WF_XML) != 0;
	const char *tag = xml ? n->tag_xml : n->tag_name;	/* as the document names it */
	size_t		taglen = strlen(tag);
	char		list[256];
	char		desc[256];
	int			r = e->ops->object_find(e->cur, tag, taglen, n->tag_find, &tv);

	*found_error = false;
	if (r < 0)
		return sd_eng_walker_failed(e);
	*found_error = true;
	if (!enter(e, tag, taglen, 0, r ? tv.offset : off))
		return false;
	if (xml)
	{
		/* XML: an attribute of the element (without a namespace) or a child element, where
		 * the column receiving the tag says (either when no column does) */
		sd_pathent *pe = (sd_pathent *) e->d->path + e->depth - 1;

		pe->seg = r > 0 ? ((tv.flags & SD_TOK_XML_ELEMENT) ? SD_SEG_ELEMENT : SD_SEG_ATTRIBUTE) :
			(n->tag_find & SD_TAG_ATTRIBUTE) ? SD_SEG_ATTRIBUTE : SD_SEG_ELEMENT;
		pe->prefix = NULL;
		pe->prefix_len = 0;
	}
	if (r == 0)
	{
		sd_variant_list(n, list, sizeof(list));
		return sd_eng_fail(e, SD_E_MISSING, off, "missing required member (the union's tag, one of: %s)", list);
	}
	if (tv.kind != SD_J_STRING)
	{
		sd_variant_list(n, list, sizeof(list));
		sd_eng_describe(e, &tv, desc, sizeof(desc));
		return sd_eng_fail(e, SD_E_KIND, tv.offset, "expected string (the union's tag, one of: %s), found %s",
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
	return sd_eng_fail(e, SD_E_KIND, tv.offset, "unknown tag value %s, expected one of: %s", desc + 7, list);
}

static bool decode_members(Eng *e, const sd_node *n, const sd_members *ms, uint32_t row,
						   int64_t obj_off, bool top);

/* The lists of repeated elements of table ms (groups included), once the object ended: their
 * accumulated occurrences, [] for none (NULL below a null `path` parent). */
static bool
finish_flat(Eng *e, const sd_node *n, const sd_members *ms, uint32_t row, int64_t off)
{
	for (int i = 0; i < ms->n; i++)
	{
		const sd_member *m = &ms->m[i];

		if (m->group && !finish_flat(e, n, m->group, row, off))
			return false;
		if (!m->flat || m->choice_more)
			continue;
		Acc		   *a = &e->acc[m->field];

		if (a->nulled && a->n == 0)
			continue;
		if (!sd_eng_acc_finish(e, a, (Dest) {false, row + (uint32_t) n->fields[m->field].col}, off))
			return false;
	}
	return true;
}

/* decode_object's members for an XML element: its lists of repeated elements accumulate, and
 * its `extra` (if any) collects the unmapped elements and attributes (xml_json.c). */
static __attribute__((noinline)) bool
xml_object(Eng *e, const sd_node *n, const sd_node *members_of, const sd_members *ms,
		   uint32_t row, int64_t off)
{
	Acc		   *saved_acc = e->acc;
	sd_xjson   *saved_xj = e->xj;
	sd_xjson	xj;
	bool		ok;

	e->acc = NULL;
	e->xj = NULL;
	if (ms->any_flat)
	{
		size_t		size = sizeof(Acc) * (size_t) members_of->nfields;

		if (!(e->acc = sd_arena_alloc(&e->d->arena, size)))
			return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
		memset(e->acc, 0, size);
	}
	if (n->extra_col >= 0)
	{
		sd_xjson_init(&xj, e->hooks, &e->d->arena, e->stack_start, e->stack_budget);
		e->xj = &xj;
	}
	ok = decode_members(e, members_of, ms, row, off, true) &&
		(!e->acc || finish_flat(e, members_of, ms, row, off));
	if (ok && n->extra_col >= 0)
	{
		char	   *text = NULL;
		size_t		len = 0;

		if (sd_xjson_finish(&xj, &text, &len) != SD_XJ_OK)
			ok = sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
		else
		{
			sd_val	   *x = &e->d->tape[row + (uint32_t) n->extra_col];

			x->tag = SD_V_JSON;
			x->u.s = text;
			x->len = (uint32_t) len;
			x->aux = 0;
			x->offset = tape_off(off);
		}
	}
	if (e->xj)
		sd_xjson_free(&xj);
	e->acc = saved_acc;
	e->xj = saved_xj;
	return ok;
}

/* An object begun (object_begin) into a row. */
static bool
decode_object(Eng *e, const sd_node *n, Dest dst, int64_t off)
{
	uint32_t	row = 0;
	const sd_node *members_of = n;
	const sd_variant *variant = NULL;
	bool		xml = (e->flags & SD_WF_XML) != 0;

	if (!container_guard(e, off))
		return false;
	const sd_variant *choice = NULL;

	if (__builtin_expect(xml, 0))
	{
		choice = e->choice;
		e->choice = NULL;
	}
	if (n->tag && choice)
		members_of = (variant = choice)->merged;	/* an xml_choice element: its name is the tag */
	else if (n->tag)
	{
		bool		tag_error;
		uint32_t	depth = e->depth;

		if (!select_variant(e, n, &variant, off, &tag_error))
		{
			if (!tag_error || !recover(e, depth))
				return false;
			/* collect mode: the object is still walked */
			slot(e, dst)->tag = SD_V_NULL;
			return sd_eng_skip_members(e, off);
		}
		members_of = variant->merged;
	}
	const sd_members *ms = !xml ? members_of->members :
		choice && variant ? variant->xml_choice_members : members_of->xml_members;

	if (!ms)
		return sd_eng_fail(e, SD_E_INTERNAL, off, "a composite without a member table");
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
		if (choice && !sd_eng_choice_tag(e, n, variant, row, off))
			return false;
	}
	if (__builtin_expect(xml, 0))
		return xml_object(e, n, members_of, ms, row, off);
	uint32_t	pairs_start = e->d->pairs_len;

	if (!decode_members(e, members_of, ms, row, off, true))
		return false;
	return n->extra_col < 0 || finish_extra(e, pairs_start, row, n->extra_col, off);
}

/* ---- the member rules: the member's path entry is in place ------------------------------- */

/* unknown: under `unknown: reject` (the value walked, serde_errors goes on) */
static __attribute__((noinline)) bool
unknown_member(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	sd_eng_fail(e, SD_E_UNKNOWN, off, "unknown member");
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* a mapped member that came again (not a list of an XML walker's repeated members) */
static __attribute__((noinline)) bool
duplicate_member(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth)
{
	sd_eng_fail(e, SD_E_DUPLICATE, off, "duplicate member");
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* null in a column that is not nullable */
static __attribute__((noinline)) bool
not_null_failed(Eng *e, const sd_field *fd, uint32_t idx, int64_t off, uint32_t depth)
{
	e->d->tape[idx].aux = SD_MARK_FAILED;
	sd_eng_fail(e, SD_E_NOTNULL, off, "null is not allowed for column \"%s\"", fd->column);
	return recover(e, depth);
}

/* a field whose member did not appear: its default, or NULL when optional (true: filled) */
static inline bool
absent_filled(Eng *e, const sd_field *f, uint32_t row, int64_t obj_off)
{
	sd_val	   *s = &e->d->tape[row + (uint32_t) f->col];

	if (__builtin_expect(f->xml_presence, 0))
	{
		/* `xml: "presence"`: absent is false (JSON too) */
		s->tag = SD_V_BOOL;
		s->u.b = false;
		s->offset = tape_off(obj_off);
		return true;
	}
	if (f->has_default)
	{
		if (f->one_of)			/* to the column the default's kind selects */
			s += f->one_of->default_off;
		s->tag = SD_V_DEFAULT;
		s->len = (uint32_t) f->default_index;
		s->offset = tape_off(obj_off);
		return true;
	}
	return f->optional;
}

/* Enters member m of the plan's table, as the document would name it (a missing member, a
 * value below a null parent): XML with the prefix the document binds to its namespace where
 * the walk is (none: no prefix). */
static bool
enter_member(Eng *e, const sd_node *n, const sd_member *m, int64_t off)
{
	const char *p = NULL;
	size_t		pl = 0;

	if (!(e->flags & SD_WF_XML))
		return enter(e, m->name, m->len, 0, off);
	sd_eng_member_prefix(e, n, m, &p, &pl);
	return enter_xml(e, xml_seg(m->xml_kind), p, p ? pl : 0, m->name, m->len, 0, off);
}

/* Fills the slots of a member that did not appear: default, NULL, or a missing error, reported
 * at its own path (a `path` prefix: at its own name when a field below it is required),
 * located at the enclosing object. */
static bool
missing_member(Eng *e, const sd_node *n, const sd_member *m, uint32_t row, int64_t obj_off)
{
	uint32_t	depth = e->depth;

	if (m->field == SD_MEMBER_TAG || m->flat)
		return true;			/* (a list of repeated elements: [] when none came) */
	if (m->field >= 0)
	{
		const sd_field *f = &n->fields[m->field];

		/* XML: the element is here, with no character data: its text is '' for a text column
		 * (absent is only an absent element); other kinds: missing, as an empty attribute */
		if ((e->flags & SD_WF_XML) && f->xml_kind == SD_XML_TEXT && f->node->kind == SD_K_TEXT)
			return sd_eng_text_value(e, f->node, "", 0, (Dest) {false, row + (uint32_t) f->col}, obj_off);
		if (absent_filled(e, f, row, obj_off))
			return true;
	}
	else if (!m->group_required)
	{
		for (int i = 0; i < m->group->n; i++)
			if (!missing_member(e, n, &m->group->m[i], row, obj_off))
				return false;
		return true;
	}
	if (!enter_member(e, n, m, obj_off))
		return false;
	sd_eng_fail(e, SD_E_MISSING, obj_off, "missing required member");
	return recover(e, depth);
}

/* A path prefix m whose value is null: every value below it is null, not its default (a
 * default is for a missing member); 23502 at each field below that is not nullable. */
static bool
null_prefix(Eng *e, const sd_node *n, const sd_member *m, int64_t off)
{
	uint32_t	depth = e->depth;

	if (m->field == SD_MEMBER_TAG)
		return true;
	if (!enter_member(e, n, m, off))
		return false;
	if (m->field >= 0)
	{
		const sd_field *f = &n->fields[m->field];

		if (m->flat && e->acc)
			e->acc[m->field].nulled = true;
		if (!f->nullable)
		{
			sd_eng_fail(e, SD_E_NOTNULL, off, "null is not allowed for column \"%s\"", f->column);
			if (!recover(e, depth))
				return false;
		}
	}
	else
		for (int i = 0; i < m->group->n; i++)
			if (!null_prefix(e, n, &m->group->m[i], off))
				return false;
	e->depth = depth;
	return true;
}

/* jsonb's key order: shorter first, then bytewise (jsonb_util.c's lengthCompareJsonbString) */
static inline int
keycmp(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

static bool
ns_is(const char *want, size_t wlen, const sd_wkey *k)
{
	return k->ns_len == wlen && memcmp(k->ns, want, wlen) == 0;
}

/* An unmapped member (the cursor at its value t): unknown, kept for `extra`, or skipped.  XML:
 * the text is never unknown (mixed content), nor attributes of the xml: and XSI namespaces. */
static bool
unmapped_member(Eng *e, const sd_node *n, const sd_wkey *k, sd_wtok *t, uint32_t depth, bool top)
{
	bool		extra = top && n->extra_col >= 0;

	if (e->flags & SD_WF_XML)
	{
		int			rc = SD_XJ_OK;

		if (k->xml_kind == SD_XML_TEXT ||
			(k->xml_kind == SD_XML_ATTRIBUTE && k->ns_len &&
			 (ns_is(XSI_NS, sizeof(XSI_NS) - 1, k) || ns_is(XMLNS_XML, sizeof(XMLNS_XML) - 1, k))))
			return k->xml_kind == SD_XML_TEXT || sd_eng_skip_value(e, t);
		if (extra && e->xj)
		{
			rc = k->xml_kind == SD_XML_ATTRIBUTE ? sd_xjson_attribute(e->xj, k, t->s, t->len) :
				sd_xjson_element(e->xj, e->cur, k, t);
			if (rc == SD_XJ_WALKER)
				return sd_eng_walker_failed(e);
			if (rc == SD_XJ_DEEP)
				return sd_eng_guard_failed(e, t->offset);
			if (rc != SD_XJ_OK)
				return sd_eng_fail(e, SD_E_NOMEM, t->offset, "out of memory");
			return true;
		}
	}
	if (!enter_key(e, k, 0, k->offset))
		return false;
	if (n->reject_unknown)
		return unknown_member(e, t, k->offset, depth);
	bool		saved = e->in_jsonb;
	bool		ok;

	if (extra)
		e->in_jsonb = n->fields[n->extra_col].node->kind == SD_K_JSONB;
	ok = sd_eng_skip_value(e, t);
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
			return sd_eng_fail(e, SD_E_NOMEM, k->offset, "out of memory");
		memset(&span, 0, sizeof(span));
		if (e->ops->capture(e->cur, t, SD_CAP_JSON, &span) < 0)
			return sd_eng_walker_failed(e);
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

	sd_eng_describe(e, t, found, sizeof(found));
	return sd_eng_fail(e, SD_E_KIND, t->offset, "expected object (on the path of column \"%s\"), found %s",
					   m->group_column, found);
}

/* A path prefix member m (the cursor at its value t): an object of members below it, or null
 * (JSON null, an XML element with xsi:nil). */
static bool
prefix_member(Eng *e, const sd_node *n, const sd_member *m, sd_wtok *t, uint32_t row,
			  uint32_t depth)
{
	if (t->kind == SD_J_NULL || (t->flags & SD_TOK_XML_NIL))
	{
		/* a null parent makes the values below it null: 23502 for the non-nullable */
		if (t->kind != SD_J_NULL && !sd_eng_skip_value(e, t))
			return false;
		for (int i = 0; i < m->group->n; i++)
			if (!null_prefix(e, n, &m->group->m[i], t->offset))
				return false;
		return true;
	}
	if (t->kind == SD_J_OBJECT && !(t->flags & SD_TOK_XML_BADNIL))
	{
		if (e->ops->object_begin(e->cur, t) < 0)
			return sd_eng_walker_failed(e);
		if (!container_guard(e, t->offset))
			return false;
		return decode_members(e, n, m->group, row, t->offset, false);
	}
	/* a path through a scalar or an array */
	if (t->flags & SD_TOK_XML_BADNIL)
		sd_eng_fail(e, SD_E_KIND, t->offset, "xsi:nil must be true, false, 1 or 0");
	else
		prefix_kind_error(e, m, t);
	e->consumed = false;
	return recover_value(e, t, depth, depth + 1);
}

/* One occurrence of a list of repeated elements (XML): one more element of the list. */
static bool
flat_member(Eng *e, const sd_node *n, const sd_member *m, const sd_wkey *k, sd_wtok *t,
			uint32_t depth)
{
	const sd_field *f = &n->fields[m->field];
	Acc		   *a = &e->acc[m->field];
	uint32_t	ei = 0;
	uint64_t	pos = m->choice < 0 ? a->n + 1 :
		sd_eng_choice_pos(e, a, m->choice, f->node->elem->nvariants, t->offset);
	bool		ok;

	if (!pos || !reserve_tape(e, 1, &ei, t->offset) || !enter_key(e, k, pos, t->offset) ||
		!sd_eng_acc_add(e, a, ei, t->offset))
		return false;
	/* an xml_choice element: the variant of its name (decode_object takes it) */
	e->choice = m->choice < 0 ? NULL : &f->node->elem->variants[m->choice];
	ok = value(e, t, f->node->elem, (Dest) {false, ei});
	e->choice = NULL;
	if (!ok && !recover_value(e, t, depth, depth + 1))
		return false;
	e->depth = depth;
	return true;
}

/* XML members resolved by the walker's interned name pointers (sd_wkey.interned): a
 * direct-mapped cache of (table, kind, local name pointer, URI pointer) -> member index or -1,
 * per engine call (the walker's names live as long as its cursor). */
#define XMC_BITS 7
#define XMC_SLOTS (1 << XMC_BITS)
typedef struct sd_xmcache
{
	struct
	{
		const sd_members *ms;
		const char *s;
		const char *ns;
		int32_t		kind;
		int32_t		mi;
	}			slot[XMC_SLOTS];
} sd_xmcache;

static int
xml_member(Eng *e, const sd_members *ms, const sd_wkey *k)
{
	if (__builtin_expect(k->interned, 1))
	{
		if (!e->xmc && (e->xmc = sd_arena_alloc(&e->d->arena, sizeof(sd_xmcache))) != NULL)
			memset(e->xmc, 0, sizeof(sd_xmcache));
		if (e->xmc)
		{
			/* every bit of the pointers counts: libxml2 packs short names a few bytes apart;
			 * each pointer multiplied on its own (XORed first, nearby pointers cancelled out
			 * and names collided) */
			uint64_t	h = (uint64_t) (uintptr_t) k->s * 0x9E3779B97F4A7C15ull ^
				(uint64_t) (uintptr_t) k->ns * 0xC2B2AE3D27D4EB4Full ^
				((uint64_t) (uintptr_t) ms + k->xml_kind) * 0x165667B19E3779F9ull;

			h >>= 64 - XMC_BITS;
			__typeof__(e->xmc->slot[0]) *c = &e->xmc->slot[h];

			if (c->s == k->s && c->ns == k->ns && c->ms == ms && c->kind == k->xml_kind)
				return c->mi;
			c->ms = ms;
			c->s = k->s;
			c->ns = k->ns;
			c->kind = k->xml_kind;
			c->mi = sd_members_find_xml(ms, k->xml_kind, k->ns, k->ns_len, k->s, k->len,
										sd_hash_name(k->s, k->len));
			return c->mi;
		}
	}
	return sd_members_find_xml(ms, k->xml_kind, k->ns, k->ns_len, k->s, k->len,
							   sd_hash_name(k->s, k->len));
}

/* object_next's want bits are distinct (a walker ignores those it does not know) */
_Static_assert((SD_KEY_HASH ^ SD_KEY_NO_TEXT ^ SD_KEY_FILTER ^ SD_KEY_SKIP ^ SD_KEY_SKIP_BEFORE) ==
			   (SD_KEY_HASH | SD_KEY_NO_TEXT | SD_KEY_FILTER | SD_KEY_SKIP | SD_KEY_SKIP_BEFORE),
			   "walker.h: two want bits share a value");

/* The members of an object begun, against table ms (of node n), into the row: the one member
 * loop of every input format. */
static bool
decode_members(Eng *e, const sd_node *n, const sd_members *ms, uint32_t row, int64_t obj_off,
			   bool top)
{
	uint64_t	seen_small[4] = {0, 0, 0, 0};
	uint64_t   *seen = seen_small;
	int			prev = 0;		/* follow[] slot of the last mapped member: 0 = none yet */
	bool		xml = (e->flags & SD_WF_XML) != 0;
	bool		sorted = (e->flags & SD_WF_SORTED_KEYS) != 0;
	const int16_t *order = sorted ? ms->by_length : NULL;
	int			pos = 0;		/* sorted: the next member of `order` */
	int16_t    *follow = NULL;
	/* XML: an element's unmapped text is ignored (unmapped_member), so the walker need not
	 * gather it: the rule stays here, the walker only leaves the text out */
	unsigned	want = xml ? (!ms->xml_text ? SD_KEY_NO_TEXT : 0) :
		!ms->n ? 0 : sorted ? SD_KEY_HASH : SD_KEY_HASH | SD_KEY_FILTER;
	sd_wkey		k;
	sd_wtok		t;
	int			r;
	/* serde_errors: where this object's errors begin (its missing members go there) */
	int			at = e->collect ? e->collect->n : 0;
	uint32_t	at_seq = e->collect ? e->collect->values : 0;
	int			from = 0,
				max = 0;

	if (!sorted && !xml)
	{
		if (ms->follow_at + (uint32_t) ms->n >= e->d->nfollow)	/* a node of another plan */
			return sd_eng_fail(e, SD_E_INTERNAL, obj_off, "member table of another plan");
		follow = e->d->follow + ms->follow_at;	/* the decoder's prediction (sd_follow) */
	}
	/* an ignored unmapped member whose value is a scalar: unmapped_member would only enter
	 * its key and skip_value it (nothing to check, nothing kept), so the walker may pass it */
	if (!xml && !sorted && ms->n && !n->reject_unknown && !(top && n->extra_col >= 0) && !e->in_jsonb && !e->ev)
		want |= SD_KEY_SKIP;
	k.absent = false;			/* set only by a walker that filters (SD_KEY_FILTER) */
	k.filter = ms->key_filter;
	/* jsonb: members this loop would only skip (unknown, ignored) may be passed over by the
	 * walker (walker.h SD_KEY_SKIP_BEFORE) */
	bool		skip_before = order && !n->reject_unknown && !(top && n->extra_col >= 0) &&
		!e->collect && !e->ev && !e->in_jsonb;

	if (skip_before)
	{
		e->cur->skip_room = sd_eng_skip_before_room(e);
		want |= SD_KEY_SKIP_BEFORE;
	}
	if (ms->n > 256)
	{
		seen = (uint64_t *) sd_arena_alloc(&e->d->arena, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
		if (!seen)
			return sd_eng_fail(e, SD_E_NOMEM, obj_off, "out of memory");
		memset(seen, 0, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
	}
	for (;;)
	{
		uint32_t	depth = e->depth;
		int			mi = follow ? follow[prev] : -1;

		r = e->object_next(e->cur, &k, &t, skip_before ? (pos < ms->n ? &ms->m[order[pos]] : NULL) :
						   mi >= 0 ? &ms->m[mi] : NULL, want);
		if (r <= 0)
			break;
		if (__builtin_expect(xml, 0))
		{
			/* XML: by (kind, namespace, local name); the text is located at its element */
			if (n->nxml_alt)
				sd_xml_ns_canon(n, k.xml_kind, &k.ns, &k.ns_len);
			mi = ms->n ? xml_member(e, ms, &k) : -1;
			if (k.xml_kind == SD_XML_TEXT)
				t.offset = obj_off;
		}
		else if (k.matched && skip_before)
			mi = order[pos++];	/* the walker compared the key with expect, order[pos] */
		else if (!k.matched)
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
			else if (ms->n && !k.absent)
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
			e->depth = depth;
			continue;
		}
		const sd_member *m = &ms->m[mi];

		if (__builtin_expect(m->flat, 0) && e->acc)
		{
			seen[mi >> 6] |= (uint64_t) 1 << (mi & 63);
			if (!flat_member(e, n, m, &k, &t, depth))
				return false;
			continue;
		}
		bool		text = xml && k.xml_kind == SD_XML_TEXT;

		if (!text && !enter_key(e, &k, 0, k.offset))
			return false;
		if (seen[mi >> 6] & ((uint64_t) 1 << (mi & 63)))
		{
			if (!duplicate_member(e, &t, text ? obj_off : k.offset, depth))
				return false;
			continue;
		}
		seen[mi >> 6] |= (uint64_t) 1 << (mi & 63);
		prev = mi + 1;
		if (m->field == SD_MEMBER_TAG)
		{
			/* the union's tag, already read by select_variant: validate only */
			if (!sd_eng_skip_value(e, &t))
				return false;
		}
		else if (m->field >= 0)
		{
			const sd_field *fd = &n->fields[m->field];
			const sd_field *vf = fd;	/* the field taking the value (one_of: by its kind) */
			bool		ok;

			if (__builtin_expect(fd->one_of != NULL, 0) && !(vf = sd_eng_one_of(e, fd, &t)))
			{
				if (!recover_value(e, &t, depth, depth + 1))
					return false;
				continue;
			}
			Dest		dst = {false, row + (uint32_t) vf->col};

			if (xml && vf->xml_presence)
			{
				int			before = e->collect ? e->collect->total : 0;

				ok = sd_eng_presence(e, &t, dst);
				if (e->collect)
					slot(e, dst)->aux = sd_mark_value(ok, before, e->collect->total, &e->collect->values);
			}
			else if (xml && vf->xml_item.local && t.kind == SD_J_OBJECT &&
				!(t.flags & (SD_TOK_XML_NIL | SD_TOK_XML_BADNIL)))
			{
				/* a wrapped list: its items (errors inside are recorded there) */
				int			before = e->collect ? e->collect->total : 0;

				ok = element_items(e, vf->node->elem, &vf->xml_item, dst, &t);
				if (e->collect)
					slot(e, dst)->aux = sd_mark_value(ok, before, e->collect->total, &e->collect->values);
			}
			else
				ok = value(e, &t, vf->node, dst);
			if (!ok)
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
		return sd_eng_walker_failed(e);
	if (e->collect && at < e->collect->max)
	{
		from = e->collect->n;   /* missing members are kept past the cap, then hoisted */
		max = e->collect->max;
		e->collect->max = INT32_MAX;
	}
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
			{
				if (max)
					e->collect->max = max;
				return false;
			}
		}
	}
	if (max)
		sd_eng_hoist_found(e->collect, at, from, at_seq, max);
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
			return sd_eng_walker_failed(e);
		e->consumed = true;
		each.kind = SD_K_ARRAY;
		return decode_array(e, &each, (Dest) {false, scratch}, t->offset);
	}
	return value(e, t, n->elem, (Dest) {false, scratch});
}

/* A json/jsonb column: the value walked (validated, events for jsonb), then captured whole. */
static __attribute__((noinline)) bool
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
		ok = sd_eng_skip_value(e, t);
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
		return sd_eng_walker_failed(e);
	if (aux)
		out->aux = aux;
	return true;
}

/* One value (called once per value: keep_json and xml_value stay out of line, so that this
 * frame needs no stack protector and few saved registers) */
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
	if (__builtin_expect(e->flags & SD_WF_XML, 0))
	{
		if (t->flags & (SD_TOK_XML_NIL | SD_TOK_XML_BADNIL))
		{
			/* an element with xsi:nil: null (walked: nothing inside it is read) */
			bool		nil = (t->flags & SD_TOK_XML_NIL) != 0;

			if (!nil)
				return sd_eng_fail(e, SD_E_KIND, t->offset, "xsi:nil must be true, false, 1 or 0");
			if (!sd_eng_skip_value(e, t))
				return false;
			e->consumed = true;
			slot(e, dst)->tag = SD_V_NULL;
			return true;
		}
		return xml_value(e, t, n, dst);
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
					return sd_eng_kind_error(e, n, t);
				if (e->ops->object_begin(e->cur, t) < 0)
					return sd_eng_walker_failed(e);
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
						return sd_eng_kind_error(e, n, t);
					if (e->ops->object_begin(e->cur, t) < 0)
						return sd_eng_walker_failed(e);
					ok = decode_map(e, n, dst, t->offset);
				}
				else
				{
					if (t->kind != SD_J_ARRAY)
						return sd_eng_kind_error(e, n, t);
					if (e->ops->array_begin(e->cur, t) < 0)
						return sd_eng_walker_failed(e);
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
					return sd_eng_walker_failed(e);
			}
			if (t->flags & SD_TOK_NOT_JSON)
				return sd_eng_kind_error(e, n, t);
			if (!sd_convert_number(n, t->s, t->len, out, e->err))
				break;
			return true;
		case SD_J_TRUE:
		case SD_J_FALSE:
			if (!sd_convert_bool(n, t->kind == SD_J_TRUE, out, e->err))
				break;
			return true;
		default:
			return sd_eng_kind_error(e, n, t);
	}
	/* a scalar conversion failed: the slot is left as it was before (offset only) */
	out->tag = 0;
	out->len = 0;
	out->u.i = 0;
	return sd_eng_convert_failed(e, t->offset);
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
	e->acc = NULL;
	e->xj = NULL;
	e->choice = NULL;
	e->xmc = NULL;
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
		return sd_eng_fail(&e, SD_E_INTERNAL, -1, "walker with repeated members outside XML");
	if (!reserve_tape(&e, 1, &first, -1))
		return false;
	if (first_index >= 0 && !cur->ops->batch_key)
	{
		if (!enter(&e, NULL, 0, (uint64_t) first_index, -1))
			return false;
	}
	if (cur->ops->peek(cur, &t) < 0)
		return sd_eng_walker_failed(&e);
	if (cur->ops->root_key)
	{
		/* XML: the root element is the first step of every path (a batch item: the batch's
		 * root, then the item at its position) */
		sd_wkey		rk;

		if (first_index >= 0 && cur->ops->batch_key)
		{
			cur->ops->batch_key(cur, &rk);
			if (!enter_key(&e, &rk, 0, rk.offset))
				return false;
		}
		cur->ops->root_key(cur, &rk);
		if (!enter_key(&e, &rk, first_index >= 0 ? (uint64_t) first_index + 1 : 0, t.offset))
			return false;
	}
	if (!value(&e, &t, node, (Dest) {false, first}) &&
		(first_index >= 0 || !recover_value(&e, &t, e.depth, e.depth)))
	{
		/* a malformed document is rejected as such, even when a value error came first */
		sd_error	exact;

		if ((e.flags & SD_WF_TEXT) && !is_fatal(err->code) &&
			!sd_json_validate(e.hooks, cur->text, cur->text_len, &exact))
		{
			e.depth = 0;
			if (exact.code == SD_E_NOMEM)
				return sd_eng_fail(&e, SD_E_NOMEM, -1, "out of memory");
			return sd_eng_syntax(&e, exact.problem, exact.offset + (int64_t) d->offset_bias);
		}
		return false;
	}
	/* nothing may follow the root value */
	if (first_index < 0 && cur->ops->finish && cur->ops->finish(cur) < 0)
		return sd_eng_walker_failed(&e);
	/* serde_errors: after value errors (whose values may have been skipped without a full
	 * check), a malformed document is still that one error, as in first-error mode */
	if (collect && collect->total && (e.flags & SD_WF_TEXT))
	{
		sd_error	exact;

		if (!sd_json_validate(e.hooks, cur->text, cur->text_len, &exact))
		{
			e.depth = 0;
			if (exact.code == SD_E_NOMEM)
				return sd_eng_fail(&e, SD_E_NOMEM, -1, "out of memory");
			return sd_eng_syntax(&e, exact.problem, exact.offset + (int64_t) d->offset_bias);
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
	return sd_eng_walker_failed(&e);
}

