/*
 * engine_int.h — the rule engine's state and the few rules it shares with its XML branch
 * (engine.c ↔ engine_xml.c).  Core-internal; nothing else includes it.
 *
 * engine.c owns every rule (missing / default / optional, NOT NULL, unknown, duplicates, unions,
 * error collection and recovery, limits, paths); engine_xml.c is the branch decode_object takes,
 * once per object, for walkers with SD_WF_XML: it matches an element's members against the
 * plan's XML facts and calls back into these functions for the rules.
 */
#ifndef SERDE_ENGINE_INT_H
#define SERDE_ENGINE_INT_H

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

/* ---- engine.c, for engine_xml.c ------------------------------------------------------------ */
void		sd_eng_init(Eng *e, sd_decoder *d, sd_wcursor *cur, const sd_limits *limits,
						sd_collect *collect, sd_error *err, const char *stack_start);
bool		sd_eng_fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));
/* a path segment of an XML member (key NULL: text), position 1-based or 0 */
bool		sd_eng_enter_xml(Eng *e, uint8_t seg, const sd_wkey *k, uint64_t pos, int64_t off);
bool		sd_eng_enter_xml_name(Eng *e, uint8_t seg, const char *prefix, size_t plen,
								  const char *local, size_t llen, int64_t off);
bool		sd_eng_walker_failed(Eng *e);
bool		sd_eng_poll(Eng *e, int64_t off);
bool		sd_eng_container_guard(Eng *e, int64_t off);
bool		sd_eng_reserve_tape(Eng *e, uint32_t n, uint32_t *first, int64_t off);
bool		sd_eng_recover(Eng *e, uint32_t depth);
bool		sd_eng_recover_value(Eng *e, const sd_wtok *t, uint32_t depth, uint32_t value_depth);
bool		sd_eng_skip_value(Eng *e, const sd_wtok *t);
bool		sd_eng_value(Eng *e, sd_wtok *t, const sd_node *n, Dest dst);
/* collect mode: the slot's mark after a value decoded by engine_xml.c (as value() sets it) */
void		sd_eng_mark(Eng *e, Dest dst, bool ok, int errors_before);
/* the rules, shared by JSON and XML members (the path entry of the member already entered) */
bool		sd_eng_unknown(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth);
bool		sd_eng_duplicate(Eng *e, const sd_wtok *t, int64_t off, uint32_t depth);
bool		sd_eng_not_null(Eng *e, const sd_field *fd, uint32_t idx, int64_t off, uint32_t depth);
/* a field that did not appear: true when its default or NULL (optional) filled the slot */
bool		sd_eng_absent_filled(Eng *e, const sd_field *f, uint32_t row, int64_t obj_off);
bool		sd_eng_missing(Eng *e, int64_t obj_off, uint32_t depth);

/* ---- engine_xml.c, for engine.c ------------------------------------------------------------ */
/* err->path as XPath from the path stack (walker.h (c)) */
void		sd_eng_xpath(Eng *e);
/* The members of element (begun) of node n (members_of: n, or a union's variant merged) into
 * the row at `row` (slot dst); false only on a fatal error (others are recorded). */
bool		sd_eng_xml_members(Eng *e, const sd_node *n, const sd_node *members_of, Dest dst,
							   uint32_t row, int64_t off);

#endif							/* SERDE_ENGINE_INT_H */
