/*
 * jtree_walk.c — the walker over a parsed JSON tree (jtree.c's sd_jnode), driven by the rule
 * engine (engine.c) through walker.h's ops: a field's `default`, parsed with the shape options,
 * is decoded by the same rules as a document (defaults.c runs it).  The tree is valid and
 * unescaped already, so this file only hands the engine one node at a time: scalars as tokens
 * (strings unescaped, numbers as their literal, raw = the value's text for descriptions),
 * members in the order written (keys with their lengths: a key may hold \u0000), a value's
 * JSON text as it is written in the options for json/jsonb columns and `extra`.  The tree has
 * no offsets in a document: every offset is -1.  No rule lives here.
 */
#include "internal.h"
#include "jtree_walk.h"

#include <string.h>

static void
tok_of(const sd_jnode *v, sd_wtok *t)
{
	t->kind = v->kind;
	t->flags = 0;
	t->offset = -1;
	t->raw = v->text;
	t->raw_len = v->text_len;
	t->s = NULL;
	t->len = 0;
	if (v->kind == SD_J_STRING || v->kind == SD_J_NUMBER)
	{
		t->s = v->str ? v->str : "";
		t->len = v->len;
	}
	t->w[0] = (uintptr_t) v;
	t->w[1] = 0;
}

static int
jt_peek(sd_wcursor *cur, sd_wtok *t)
{
	tok_of(((sd_jtree_cursor *) cur)->at, t);
	return 1;
}

/* begins the container of token t */
static int
jt_begin(sd_wcursor *cur, const sd_wtok *t)
{
	sd_jtree_cursor *c = (sd_jtree_cursor *) cur;

	if (c->nframes == c->cap &&
		!sd_grow(c->hooks, (void **) &c->frames, &c->cap, c->nframes + 1, sizeof(sd_jtree_frame)))
	{
		cur->fail.code = SD_E_NOMEM;
		cur->fail.problem = "out of memory";
		cur->fail.offset = -1;
		return -1;
	}
	c->frames[c->nframes].node = (const sd_jnode *) t->w[0];
	c->frames[c->nframes].i = 0;
	c->nframes++;
	return 1;
}

static int
jt_object_next(sd_wcursor *cur, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want)
{
	sd_jtree_cursor *c = (sd_jtree_cursor *) cur;
	sd_jtree_frame *f = &c->frames[c->nframes - 1];
	int			i = f->i;

	(void) expect;
	(void) want;
	if (i == f->node->n)
	{
		c->nframes--;
		return 0;
	}
	f->i++;
	memset(k, 0, sizeof(*k));
	k->s = f->node->keys[i];
	k->len = f->node->key_lens[i];
	k->offset = -1;
	c->at = f->node->items[i];
	tok_of(c->at, t);
	return 1;
}

static int
jt_array_next(sd_wcursor *cur, sd_wtok *t)
{
	sd_jtree_cursor *c = (sd_jtree_cursor *) cur;
	sd_jtree_frame *f = &c->frames[c->nframes - 1];

	if (f->i == f->node->n)
	{
		c->nframes--;
		return 0;
	}
	c->at = f->node->items[f->i++];
	tok_of(c->at, t);
	return 1;
}

/* the first member of that name in the object begun; the iteration stays where it is */
static int
jt_object_find(sd_wcursor *cur, const char *name, size_t len, unsigned kinds, sd_wtok *t)
{
	sd_jtree_cursor *c = (sd_jtree_cursor *) cur;
	const sd_jnode *obj = c->frames[c->nframes - 1].node;

	for (int i = 0; i < obj->n; i++)
		if (obj->key_lens[i] == len && memcmp(obj->keys[i], name, len) == 0)
		{
			tok_of(obj->items[i], t);
			return 1;
		}
	return 0;
}

/* the value's JSON text as written in the options (also for a jsonb column: no container) */
static int
jt_capture(sd_wcursor *cur, const sd_wtok *t, unsigned how, sd_val *out)
{
	const sd_jnode *v = (const sd_jnode *) t->w[0];

	(void) cur;
	(void) how;
	out->u.s = v->text;
	out->len = (uint32_t) v->text_len;
	return 1;
}

/* numbers are held as their literal: nothing to do */
static int
jt_number_text(sd_wcursor *cur, sd_wtok *t)
{
	(void) cur;
	(void) t;
	return 1;
}

static const sd_walker_ops jtree_ops = {
	.flags = 0,
	.peek = jt_peek,
	.object_begin = jt_begin,
	.object_next = jt_object_next,
	.object_find = jt_object_find,
	.array_begin = jt_begin,
	.array_next = jt_array_next,
	.skip_fast = NULL,			/* the engine walks */
	.capture = jt_capture,
	.number_direct = NULL,
	.number_text = jt_number_text,
	.finish = NULL,				/* a tree is whole */
};

void
sd_jtree_walk_open(sd_jtree_cursor *c, const sd_jnode *root, const sd_hooks *hooks)
{
	memset(c, 0, sizeof(*c));
	c->head.ops = &jtree_ops;
	c->head.fail.offset = -1;
	c->at = root;
	c->hooks = hooks;
}

void
sd_jtree_walk_close(sd_jtree_cursor *c)
{
	sd_hook_free(c->hooks, c->frames);
	c->frames = NULL;
	c->nframes = c->cap = 0;
}
