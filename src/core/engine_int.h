/*
 * engine_int.h — the rule engine's state and its small shared steps, for the engine's files:
 * engine.c (the rules: values, objects and their members, lists, maps, unions, extra),
 * engine_skip.c (the validating skip and serde_errors' recovery), engine_text.c (XML scalars from
 * text, accumulated lists), engine_oneof.c (`one_of`: the column a value's kind selects),
 * engine_xmlnames.c (the XML authoring options' leaves), engine_md.c (multi-dimensional
 * arrays) and engine_err.c (errors and their paths).  The calls go one way: engine.c →
 * engine_xmlnames.c → engine_skip.c / engine_text.c / engine_oneof.c / engine_md.c →
 * engine_err.c.  Core-internal; nothing else includes it.
 */
#ifndef SERDE_ENGINE_INT_H
#define SERDE_ENGINE_INT_H

#include <string.h>

#include "internal.h"
#include "walker.h"

typedef struct Eng
{
	sd_decoder *d;
	sd_wcursor *cur;
	const sd_walker_ops *ops;
	/* the hot ops, copied out of the table (one load a call instead of two) */
	int			(*object_next) (sd_wcursor *cur, sd_wkey *key, sd_wtok *tok,
								const sd_member *expect, unsigned want);
	int			(*array_next) (sd_wcursor *cur, sd_wtok *tok);
	int			(*skip_fast) (sd_wcursor *cur, const sd_wtok *tok, uint32_t room);
	sd_error   *err;
	const sd_hooks *hooks;
	sd_collect *collect;        /* serde_errors mode, else NULL */
	uint32_t	max_depth;
	uint32_t	depth;
	uint32_t	poll;
	unsigned	flags;          /* the walker's SD_WF_* */
	const char *stack_start;
	size_t		stack_budget;
	bool		consumed;       /* the value being decoded has been read (no skip needed) */
	bool		in_jsonb;       /* walking a value kept as jsonb: \u0000 and numeric limits */
	bool		ev;             /* the skip writes events (a jsonb value, within SD_JEV_MAX) */
	uint32_t	ev_start;       /* the first event of the value being written */
	/* the object being decoded (SD_WF_REPEATED walkers): its lists of repeated members, per
	 * field, while they accumulate (NULL: none) */
	struct sd_acc *acc;
	/* ... and its `extra` of an XML element (xml_json.c), NULL when it has none */
	struct sd_xjson *xj;
	/* an `xml_choice` element about to be decoded: the variant its name selects (decode_object
	 * takes it, so no element below sees it) */
	const struct sd_variant *choice;
	/* XML: members already resolved, by the walker's interned name pointers (sd_wkey.interned;
	 * engine.c xml_member), allocated on first use; NULL until then */
	struct sd_xmcache *xmc;
} Eng;

/* A destination slot: in the tape or in the element stack (both may move when they grow). */
typedef struct Dest
{
	bool		in_stack;
	uint32_t	idx;
} Dest;

static inline sd_val *
slot(Eng *e, Dest dst)
{
	return dst.in_stack ? &e->d->stack[dst.idx] : &e->d->tape[dst.idx];
}

/* a tape offset: the input's, or 0 when it has none */
static inline uint32_t
tape_off(int64_t off)
{
	return off < 0 ? 0 : (uint32_t) off;
}

/* ---- engine_err.c: errors and their paths ----------------------------------------------- */
bool		sd_eng_fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));
bool		sd_eng_grow_path(Eng *e, int64_t off);
/* malformed input (reported at the root); the walker's failure (an op returned -1) */
bool		sd_eng_syntax(Eng *e, const char *problem, int64_t off);
bool		sd_eng_walker_failed(Eng *e);
/* serde_errors: an object's missing-member errors moved to where its errors begin */
void		sd_eng_hoist_found(sd_collect *c, int at, int from, uint32_t seq, int max);
/* a limit reached on entering a container: depth, or the stack budget */
bool		sd_eng_guard_failed(Eng *e, int64_t off);
/* a value error of scalar_to_tape.c (e->err): add path and offset */
bool		sd_eng_convert_failed(Eng *e, int64_t off);
/* "string \"x\"", "number 1.5", "object", "text \"x\"" ... */
void		sd_eng_describe(Eng *e, sd_wtok *t, char *buf, size_t size);
bool		sd_eng_kind_error(Eng *e, const sd_node *n, sd_wtok *t);

/* ---- engine_skip.c: the validating skip ------------------------------------------------- */
/* Walks the value of token t (peeked, at the cursor): every byte checked, depth limited. */
bool		sd_eng_skip_value(Eng *e, const sd_wtok *t);
/* decode_members' room for members the walker passes over (walker.h SD_KEY_SKIP_BEFORE) */
uint32_t	sd_eng_skip_before_room(Eng *e);
/* The members of an object already begun, walked. */
bool		sd_eng_skip_members(Eng *e, int64_t off);

/* ---- steps shared by the three files ----------------------------------------------------- */

/* Enters a member / an element: depth + 1 and its path segment (JSON: name or index; the XML
 * fields of the segment are written by enter_xml, and read only for XML). */
static inline bool
enter(Eng *e, const char *name, size_t len, uint64_t index, int64_t off)
{
	if (__builtin_expect(e->depth + 1 >= e->d->path_cap, 0) && !sd_eng_grow_path(e, off))
		return false;
	sd_pathent *pe = (sd_pathent *) e->d->path + e->depth;

	pe->name = name;
	pe->len = len;
	pe->index = index;
	e->depth++;
	return true;
}

/* An XML path segment: an element (1-based position, 0 none), an attribute or the text. */
static inline bool
enter_xml(Eng *e, uint8_t seg, const char *prefix, size_t plen, const char *local, size_t llen,
		  uint64_t pos, int64_t off)
{
	if (!enter(e, local, llen, pos, off))
		return false;
	sd_pathent *pe = (sd_pathent *) e->d->path + e->depth - 1;

	pe->seg = seg;
	pe->prefix = prefix;
	pe->prefix_len = prefix ? plen : 0;
	return true;
}

static inline uint8_t
xml_seg(uint8_t xml_kind)
{
	return xml_kind == SD_XML_ATTRIBUTE ? SD_SEG_ATTRIBUTE :
		xml_kind == SD_XML_TEXT ? SD_SEG_TEXT : SD_SEG_ELEMENT;
}

/* Enters the member of key k as the document names it (XML: its kind, prefix, position pos). */
static inline bool
enter_key(Eng *e, const sd_wkey *k, uint64_t pos, int64_t off)
{
	if (!(e->flags & SD_WF_XML))
		return enter(e, k->s, k->len, 0, off);
	return enter_xml(e, xml_seg(k->xml_kind), k->prefix, k->prefix_len, k->s, k->len, pos, off);
}

static inline bool
is_fatal(sd_code c)
{
	return c == SD_E_SYNTAX || c == SD_E_DEPTH || c == SD_E_NOMEM || c == SD_E_CANCELED ||
		c == SD_E_SIZE || c == SD_E_INTERNAL || c == SD_E_XML_SYNTAX || c == SD_E_UNSUPPORTED;
}

/* Checked on entering every container: nesting limit, stack budget. */
static inline bool
container_guard(Eng *e, int64_t off)
{
	char		here;

	if (__builtin_expect(e->depth + 1 > e->max_depth ||
						 (size_t) (e->stack_start - &here) > e->stack_budget, 0))
		return sd_eng_guard_failed(e, off);
	return true;
}

static inline bool
poll_stop(Eng *e, int64_t off)
{
	if (__builtin_expect(++e->poll >= 4096, 0))
	{
		e->poll = 0;
		if (e->hooks->should_stop && e->hooks->should_stop(e->hooks->ud))
			return sd_eng_fail(e, SD_E_CANCELED, off, "canceled");
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
		if (!sd_eng_skip_value(e, t))
			return false;
		e->depth = depth;
	}
	return true;
}

static inline bool
reserve_tape(Eng *e, uint32_t n, uint32_t *first, int64_t off)
{
	sd_decoder *d = e->d;
	uint32_t	need = d->tape_len + n;

	if (need < d->tape_len ||
		(need > d->tape_cap && !sd_grow(e->hooks, (void **) &d->tape, &d->tape_cap, need, sizeof(sd_val))))
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
	*first = d->tape_len;
	memset(&d->tape[*first], 0, sizeof(sd_val) * n);
	d->tape_len = need;
	return true;
}

/* A list being accumulated: tape indexes of its elements (flattened XML lists, wrapped ones). */
typedef struct sd_acc
{
	uint32_t   *idx;
	uint32_t	n;
	uint32_t	cap;
	bool		nulled;			/* below a null `path` parent: the list is NULL, not [] */
	uint32_t   *per_variant;    /* an `xml_choice` list: elements so far of each name */
} Acc;

/* engine_text.c: XML scalars from text, accumulated lists (leaves of the engine). */
bool		sd_eng_text_kind_error(Eng *e, const sd_node *n, const char *s, size_t len, int64_t at);
bool		sd_eng_text_value(Eng *e, const sd_node *n, const char *s, size_t len, Dest dst, int64_t at);
bool		sd_eng_acc_add(Eng *e, Acc *a, uint32_t idx, int64_t off);
bool		sd_eng_acc_finish(Eng *e, Acc *a, Dest dst, int64_t off);

/* engine_oneof.c: the field of a `one_of` that takes value t (NULL: the error set). */
const sd_field *sd_eng_one_of(Eng *e, const sd_field *fd, sd_wtok *t);
/* engine_xmlnames.c: the XML authoring rules' leaves (docs/reference.md, "XML names"). */
/* `xml: "presence"`: the element (walked, whatever it holds) is true */
bool		sd_eng_presence(Eng *e, const sd_wtok *t, Dest dst);
/* an `xml_choice` element of variant v: its 1-based position among the list's elements of its
 * name (the XPath position); 0 on OOM (error set) */
uint64_t	sd_eng_choice_pos(Eng *e, Acc *a, int v, int nvariants, int64_t off);
/* the column that receives the tag of a union decoded from an `xml_choice` element: its value
 * is the element's name */
/* the prefix the document binds to member m's namespace where the walk is (the path of a
 * missing member), or to one of node n's `xml.namespaces` alternatives; NULL: none */
void		sd_eng_member_prefix(Eng *e, const sd_node *n, const sd_member *m, const char **p,
								 size_t *pl);
bool		sd_eng_choice_tag(Eng *e, const sd_node *n, const struct sd_variant *v, uint32_t row,
							  int64_t off);
/* engine_md.c: multi-dimensional arrays (a leaf of the engine).  first: the element stack
 * index of the array's first element; the element being decoded is entered. */
bool		sd_eng_md_not_array(Eng *e, const sd_node *n, uint32_t first, sd_wtok *t);
bool		sd_eng_md_check(Eng *e, const sd_node *n, uint32_t first, uint32_t idx);

#endif							/* SERDE_ENGINE_INT_H */
