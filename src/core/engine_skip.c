/*
 * engine_skip.c — the rule engine's validating skip of a value the shape does not decode (an
 * unknown member, a json/jsonb column's value, a value after an error in serde_errors' mode):
 * every byte checked through the walker, depth limited, and for a jsonb column its events
 * (sd_jev) and jsonb's checks (scalar.h).  skip_fast / skip_events let a walker do the same walk
 * on its own (walker.h).  Called by engine.c; calls engine_err.c only.
 */
#include <string.h>

#include "internal.h"
#include "scalar.h"
#include "walker.h"
#include "engine_int.h"

/* One event of the jsonb value being skipped (when e->ev); past SD_JEV_MAX events the value
 * gets none: writing stops, the caller sees e->ev cleared. */
static inline bool
event(Eng *e, uint32_t kind, const char *s, size_t len, int64_t off)
{
	sd_decoder *d = e->d;

	if (!e->ev)
		return true;
	if (d->jev_len - e->ev_start >= SD_JEV_MAX)
	{
		e->ev = false;
		return true;
	}
	if (d->jev_len == d->jev_cap &&
		!sd_grow(e->hooks, (void **) &d->jev, &d->jev_cap, d->jev_len + 1, sizeof(sd_jev)))
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
	sd_jev	   *x = &d->jev[d->jev_len++];

	x->kind = kind;
	x->len = (uint32_t) len;
	x->s = s;
	return true;
}

/*
 * A value error found while skipping (inside a jsonb value: \u0000, numeric's limits): in
 * serde_errors' mode it is recorded and the skip goes on, so that the rest of the value is
 * still walked; else the walk stops.
 */
static inline bool
skip_value_error(Eng *e)
{
	return recover(e, e->depth);
}

/* A string inside a jsonb value: jsonb cannot hold \u0000. */
static inline bool
jsonb_string_ok(Eng *e, const char *s, size_t len, int64_t off)
{
	if (e->in_jsonb && !(e->flags & SD_WF_JSONB_INPUT) && !sd_jsonb_string_ok(s, len))
	{
		sd_eng_fail(e, SD_E_KIND, off, SD_JSONB_NUL_PROBLEM);
		return skip_value_error(e);
	}
	return true;
}

/* The members of an object already begun (object_begin), walked. */
bool
sd_eng_skip_members(Eng *e, int64_t off)
{
	uint32_t	depth = e->depth;
	sd_wkey		k;
	sd_wtok		t;
	int			r;

	if (!container_guard(e, off) || !event(e, SD_JEV_OBJECT, NULL, 0, off))
		return false;
	while ((r = e->object_next(e->cur, &k, &t, NULL, 0)) > 0)
	{
		if (!enter_key(e, &k, 0, k.offset) || !jsonb_string_ok(e, k.s, k.len, k.offset) ||
			!event(e, SD_JEV_KEY, k.s, k.len, k.offset) || !sd_eng_skip_value(e, &t))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	return event(e, SD_JEV_END, NULL, 0, off);
}

static bool
skip_elements(Eng *e, int64_t off)
{
	uint32_t	depth = e->depth;
	uint64_t	i = 0;
	sd_wtok		t;
	int			r;

	if (!container_guard(e, off) || !event(e, SD_JEV_ARRAY, NULL, 0, off))
		return false;
	while ((r = e->array_next(e->cur, &t)) > 0)
	{
		if (!enter(e, NULL, 0, i++, off) || !sd_eng_skip_value(e, &t))
			return false;
		e->depth = depth;
	}
	if (r < 0)
		return sd_eng_walker_failed(e);
	return event(e, SD_JEV_END, NULL, 0, off);
}

static __attribute__((noinline)) bool
skip_number(Eng *e, const sd_wtok *t)
{
	sd_wtok		n = *t;

	bool		check = e->in_jsonb && !(e->flags & SD_WF_JSONB_INPUT);

	/* a native number's text only for an event or jsonb's check (nothing else reads it) */
	if ((n.flags & SD_TOK_NATIVE) && !n.s && (e->ev || check) &&
		e->ops->number_text(e->cur, &n) < 0)
		return sd_eng_walker_failed(e);
	if (check && !sd_plain_int(n.s, n.len))
	{
		/* jsonb stores numbers as numeric: its limits apply */
		char		problem[SD_PROBLEM_MAX];
		sd_code		c = sd_jsonb_number_check(n.s, n.len, problem);

		if (c != SD_OK)
		{
			sd_eng_fail(e, c, n.offset, "%s", problem);
			return skip_value_error(e);
		}
	}
	return event(e, SD_JEV_NUMBER, n.s, n.len, n.offset);
}

/* The levels skip_fast may nest: the depth limit's, and the stack budget's at
 * SD_SKIP_FAST_STACK bytes a level. */
static inline uint32_t
skip_room(Eng *e)
{
	char		here;
	size_t		used = (size_t) (e->stack_start - &here);
	size_t		left = used < e->stack_budget ? e->stack_budget - used : 0;
	uint32_t	room = e->max_depth - e->depth;

	if (left / SD_SKIP_FAST_STACK < room)
		room = (uint32_t) (left / SD_SKIP_FAST_STACK);
	return room;
}

/* The room an ignored member's value has below its key (decode_members, before enter_key), as
 * sd_eng_skip_value's skip_fast would get it (skip_room) with two skip frames' worth of stack
 * less: a smaller room only returns more members to the engine's rules. */
uint32_t
sd_eng_skip_before_room(Eng *e)
{
	char		here;
	size_t		used = (size_t) (e->stack_start - &here);
	size_t		left = used < e->stack_budget ? e->stack_budget - used : 0;
	uint32_t	room = e->max_depth > e->depth + 1 ? e->max_depth - e->depth - 1 : 0;
	size_t		by_stack = left / SD_SKIP_FAST_STACK;

	by_stack = by_stack > 2 ? by_stack - 2 : 0;
	return by_stack < room ? (uint32_t) by_stack : room;
}

/* skip_fast returned -1: malformed input, or a container nesting deeper than its room (at the
 * path the walker reports, below the value): the limit's error, as container_guard gives it. */
static __attribute__((noinline)) bool
skip_fast_failed(Eng *e)
{
	const sd_wfail *f = &e->cur->fail;

	/* skip_events' value errors are SD_E_KIND (\u0000) and SD_E_RANGE (numeric's limits) */
	if (f->code != SD_E_DEPTH && f->code != SD_E_KIND && f->code != SD_E_RANGE)
		return sd_eng_walker_failed(e);
	for (uint32_t i = 0; i < f->npath; i++)
		if (!enter(e, f->path[i].name, f->path[i].len, f->path[i].index, f->offset))
			return false;
	if (f->code == SD_E_DEPTH)
		return sd_eng_guard_failed(e, f->offset);	/* serde.max_depth's error, or the stack's */
	/* skip_events: a jsonb value's check (sd_jsonb_string_ok, sd_jsonb_number_check) */
	sd_eng_fail(e, f->code, f->offset, "%s", f->problem);
	return skip_value_error(e);
}

/* A jsonb value's container skipped by the walker with its events (skip_events, r > 0): they
 * join the decoder's events; more than SD_JEV_MAX and the value gets none. */
static __attribute__((noinline)) bool
append_events(Eng *e, const sd_jev *ev, uint32_t nev, int64_t off)
{
	sd_decoder *d = e->d;

	if (!ev || d->jev_len - e->ev_start + (uint64_t) nev > SD_JEV_MAX)
	{
		e->ev = false;
		return true;
	}
	if (d->jev_len + nev > d->jev_cap &&
		!sd_grow(e->hooks, (void **) &d->jev, &d->jev_cap, d->jev_len + nev, sizeof(sd_jev)))
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
	memcpy(&d->jev[d->jev_len], ev, sizeof(sd_jev) * nev);
	d->jev_len += nev;
	return true;
}

/* Walks the value of token t (peeked, at the cursor): every byte checked, depth limited. */
bool
sd_eng_skip_value(Eng *e, const sd_wtok *t)
{
	if (!poll_stop(e, t->offset))
		return false;
	if ((t->kind == SD_J_OBJECT || t->kind == SD_J_ARRAY) && e->skip_fast && !e->ev &&
		(!e->in_jsonb || (e->flags & SD_WF_JSONB_INPUT)))
	{
		int			r = e->skip_fast(e->cur, t, skip_room(e));

		if (r > 0)
		{
			/* r values walked: they count for should_stop's polling */
			e->poll += (uint32_t) r;
			return poll_stop(e, t->offset);
		}
		if (r < 0)
			return skip_fast_failed(e);
	}
	else if ((t->kind == SD_J_OBJECT || t->kind == SD_J_ARRAY) && e->ev && e->ops->skip_events)
	{
		const sd_jev *ev;
		uint32_t	nev;
		int			r = e->ops->skip_events(e->cur, t, skip_room(e), &ev, &nev);

		if (r > 0)
		{
			e->poll += (uint32_t) r;
			return append_events(e, ev, nev, t->offset) && poll_stop(e, t->offset);
		}
		if (r < 0)
			return skip_fast_failed(e);
	}
	switch (t->kind)
	{
		case SD_J_OBJECT:
			if (e->ops->object_begin(e->cur, t) < 0)
				return sd_eng_walker_failed(e);
			return sd_eng_skip_members(e, t->offset);
		case SD_J_ARRAY:
			if (e->ops->array_begin(e->cur, t) < 0)
				return sd_eng_walker_failed(e);
			return skip_elements(e, t->offset);
		case SD_J_STRING:
			return jsonb_string_ok(e, t->s, t->len, t->offset) &&
				event(e, SD_JEV_STRING, t->s, t->len, t->offset);
		case SD_J_NUMBER:
			/* inside a jsonb value, only a literal with an exponent or a very long one needs
			 * numeric's check (skip_number) */
			if (__builtin_expect((t->flags & SD_TOK_NATIVE) || (e->in_jsonb && !sd_plain_int(t->s, t->len)), 0))
				return skip_number(e, t);
			return event(e, SD_JEV_NUMBER, t->s, t->len, t->offset);
		case SD_J_TRUE:
			return event(e, SD_JEV_TRUE, NULL, 0, t->offset);
		case SD_J_FALSE:
			return event(e, SD_JEV_FALSE, NULL, 0, t->offset);
		case SD_J_NULL:
			return event(e, SD_JEV_NULL, NULL, 0, t->offset);
	}
	return sd_eng_syntax(e, "unexpected character or structure", t->offset);
}
