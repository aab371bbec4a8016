/*
 * defaults.c — a field's `default`, compiled once: the default's JSON (already parsed by jtree.c
 * with the options) is checked against the field's node and turned into core values that the
 * plan owns — one small value tape for all of a plan's defaults, laid out exactly as a walker
 * lays out a document's values (rows, arrays, maps, unions, `extra`, json/jsonb text), with the
 * scalars converted by the shared column rules (convert.c).  A member missing inside a default
 * gets SD_V_DEFAULT of its own default, as in a document.  No decoder runs and no host hook is
 * called but the plan's allocator: the host turns these values into its own (PostgreSQL: under
 * the settings of the statement that uses them).  First-error mode only: a default that does not
 * fit is an error of the shape (compile.c words it).
 */
#include "internal.h"
#include "scalar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dctx
{
	sd_arena   *arena;          /* the plan's: converted bytes, `extra` texts */
	const sd_hooks *hooks;
	sd_val	   *tape;           /* grown through hooks, copied into the arena at the end */
	uint32_t	len;
	uint32_t	cap;
	sd_error   *err;            /* err->path is the path of the value being converted */
} dctx;

typedef struct dpair
{
	const char *key;
	size_t		klen;
	const sd_jnode *value;
} dpair;

static bool value(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot);

static bool
nomem(dctx *c)
{
	return sd_error_set(c->err, SD_E_NOMEM, -1, "out of memory while compiling a default");
}

/* n zeroed slots (SD_V_NULL) at *first */
static bool
reserve(dctx *c, uint32_t n, uint32_t *first)
{
	if (n > UINT32_MAX / 2 - c->len)
		return nomem(c);
	if (c->len + n > c->cap &&
		!sd_grow(c->hooks, (void **) &c->tape, &c->cap, c->len + n, sizeof(sd_val)))
		return nomem(c);
	memset(&c->tape[c->len], 0, sizeof(sd_val) * n);
	*first = c->len;
	c->len += n;
	return true;
}

static void
path_restore(dctx *c, size_t used)
{
	c->err->path[used] = '\0';
}

static bool
kind_error(dctx *c, const sd_node *n, const sd_jnode *v)
{
	char		found[128];

	sd_describe_found(found, sizeof(found), v->text, v->text_len);
	return sd_error_set(c->err, SD_E_KIND, -1, "expected %s, found %s", sd_expected_name(n), found);
}

/* A value kept as jsonb (no shape): jsonb holds no \u0000 and stores numbers as numeric. */
static bool
jsonb_ok(dctx *c, const sd_jnode *v)
{
	size_t		used = strlen(c->err->path);
	char		problem[SD_PROBLEM_MAX];
	sd_code		code;

	switch (v->kind)
	{
		case SD_J_STRING:
			if (memchr(v->str, 0, v->len))
				return sd_error_set(c->err, SD_E_KIND, -1, "\\u0000 cannot be stored in jsonb");
			return true;
		case SD_J_NUMBER:
			code = sd_check_numeric(v->str, v->len, -1, -1, problem);
			if (code != SD_OK)
				return sd_error_set(c->err, code, -1, "%s", problem);
			return true;
		case SD_J_ARRAY:
		case SD_J_OBJECT:
			for (int i = 0; i < v->n; i++)
			{
				if (v->kind == SD_J_OBJECT)
				{
					sd_path_member(c->err->path, v->keys[i], v->key_lens[i]);
					if (memchr(v->keys[i], 0, v->key_lens[i]))
						return sd_error_set(c->err, SD_E_KIND, -1, "\\u0000 cannot be stored in jsonb");
				}
				else
					sd_path_index(c->err->path, (uint64_t) i);
				if (!jsonb_ok(c, v->items[i]))
					return false;
				path_restore(c, used);
			}
			return true;
		default:
			return true;
	}
}

/* A scalar through the column rules shared with the walkers. */
static bool
scalar(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot)
{
	sd_val		out;
	bool		ok;

	memset(&out, 0, sizeof(out));
	c->err->offset = -1;
	switch (v->kind)
	{
		case SD_J_STRING:
			ok = sd_convert_string(c->arena, n, v->str, v->len, &out, c->err);
			break;
		case SD_J_NUMBER:
			ok = sd_convert_number(n, v->str, v->len, &out, c->err);
			break;
		case SD_J_TRUE:
		case SD_J_FALSE:
			ok = sd_convert_bool(n, v->kind == SD_J_TRUE, &out, c->err);
			break;
		default:
			return kind_error(c, n, v);
	}
	if (!ok)
		return false;
	out.offset = 0;
	out.aux = 0;
	c->tape[slot] = out;
	return true;
}

/* tape[slot] becomes the array of the n slots from first */
static bool
set_array(dctx *c, uint32_t slot, uint32_t first, uint32_t n)
{
	c->tape[slot].tag = SD_V_ARRAY;
	c->tape[slot].u.first = first;
	c->tape[slot].len = n;
	return true;
}

static bool
array(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot)
{
	uint32_t	first = 0;
	size_t		used = strlen(c->err->path);

	if (v->n && !reserve(c, (uint32_t) v->n, &first))
		return false;
	for (int i = 0; i < v->n; i++)
	{
		sd_path_index(c->err->path, (uint64_t) i);
		if (!value(c, v->items[i], n->elem, first + (uint32_t) i))
			return false;
		path_restore(c, used);
	}
	return set_array(c, slot, first, (uint32_t) v->n);
}

typedef struct dkey
{
	const char *key;
	size_t		len;
	int			at;             /* its place in the object */
} dkey;

static int
key_cmp(const void *a, const void *b)
{
	const dkey *x = a,
			   *y = b;
	int			r = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);

	if (r)
		return r;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static bool
same_key(const dkey *x, const dkey *y)
{
	return x->len == y->len && memcmp(x->key, y->key, x->len) == 0;
}

/* map: true — (key, value) rows in document order; a repeated key is 22030 at its second use. */
static bool
map(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot)
{
	const sd_node *pair = n->elem;
	uint32_t	first = 0;
	size_t		used = strlen(c->err->path);
	int			repeat = v->n;	/* the first entry whose key an earlier one had */

	if (v->n > 1)
	{
		dkey	   *sorted = sd_hook_alloc(c->hooks, sizeof(dkey) * (size_t) v->n);

		if (!sorted)
			return nomem(c);
		for (int i = 0; i < v->n; i++)
			sorted[i] = (dkey) {v->keys[i], v->key_lens[i], i};
		qsort(sorted, (size_t) v->n, sizeof(dkey), key_cmp);
		for (int i = 1; i < v->n; i++)
			if (same_key(&sorted[i], &sorted[i - 1]) && sorted[i].at < repeat)
				repeat = sorted[i].at;
		sd_hook_free(c->hooks, sorted);
	}
	if (v->n && !reserve(c, (uint32_t) v->n, &first))
		return false;
	for (int i = 0; i < v->n; i++)
	{
		uint32_t	row = 0;
		size_t		klen = v->key_lens[i];

		if (!reserve(c, 2, &row))
			return false;
		c->tape[first + (uint32_t) i].tag = SD_V_ROW;
		c->tape[first + (uint32_t) i].u.first = row;
		c->tape[first + (uint32_t) i].len = 2;
		sd_path_member(c->err->path, v->keys[i], klen);
		if (i == repeat)
			return sd_error_set(c->err, SD_E_DUPLICATE, -1, "duplicate member");
		{
			sd_val		k;

			memset(&k, 0, sizeof(k));
			c->err->offset = -1;
			if (!sd_convert_string(c->arena, pair->fields[0].node, v->keys[i], klen, &k, c->err))
				return false;
			c->tape[row] = k;
		}
		if (!value(c, v->items[i], pair->fields[1].node, row + 1))
			return false;
		path_restore(c, used);
	}
	return set_array(c, slot, first, (uint32_t) v->n);
}

/* The slots of a member that did not appear: its default, NULL, or a missing error. */
static bool
missing(dctx *c, const sd_node *n, const sd_member *m, uint32_t row)
{
	if (m->field == SD_MEMBER_TAG)
		return true;
	if (m->field >= 0)
	{
		const sd_field *f = &n->fields[m->field];

		if (f->has_default)
		{
			c->tape[row + (uint32_t) f->col].tag = SD_V_DEFAULT;
			c->tape[row + (uint32_t) f->col].len = (uint32_t) f->default_index;
			return true;
		}
		if (f->optional)
			return true;
	}
	else if (!m->group_required)
	{
		for (int i = 0; i < m->group->n; i++)
			if (!missing(c, n, &m->group->m[i], row))
				return false;
		return true;
	}
	sd_path_member(c->err->path, m->name, m->len);
	return sd_error_set(c->err, SD_E_MISSING, -1, "missing required member");
}

static bool
report_stop(void *ctx)
{
	(void) ctx;
	return false;
}

static bool
members(dctx *c, const sd_jnode *obj, const sd_node *n, const sd_members *ms, uint32_t row,
		bool top, dpair **pairs, uint32_t *npairs, uint32_t *pairs_cap)
{
	size_t		used = strlen(c->err->path);
	uint8_t		seen_small[256];
	uint8_t    *seen = seen_small;
	bool		ok = false;

	if (ms->n > (int) sizeof(seen_small) && !(seen = sd_hook_alloc(c->hooks, (size_t) ms->n)))
		return nomem(c);
	memset(seen, 0, seen == seen_small ? sizeof(seen_small) : (size_t) ms->n);
	for (int i = 0; i < obj->n; i++)
	{
		const char *key = obj->keys[i];
		size_t		klen = obj->key_lens[i];
		const sd_jnode *v = obj->items[i];
		int			mi = ms->n ? sd_members_find(ms, key, klen, sd_hash_name(key, klen)) : -1;

		if (mi < 0)
		{
			if (n->reject_unknown)
			{
				sd_path_member(c->err->path, key, klen);
				sd_error_set(c->err, SD_E_UNKNOWN, -1, "unknown member");
				goto out;
			}
			if (top && n->extra_col >= 0)
			{
				if (n->fields[n->extra_col].node->kind == SD_K_JSONB)
				{
					sd_path_member(c->err->path, key, klen);
					if (!jsonb_ok(c, v))
						goto out;
					path_restore(c, used);
				}
				if (*npairs + 1 > *pairs_cap &&
					!sd_grow(c->hooks, (void **) pairs, pairs_cap, *npairs + 1, sizeof(dpair)))
				{
					nomem(c);
					goto out;
				}
				(*pairs)[(*npairs)++] = (dpair) {key, klen, v};
			}
			continue;
		}
		const sd_member *m = &ms->m[mi];

		sd_path_member(c->err->path, m->name, m->len);
		if (seen[mi])
		{
			sd_error_set(c->err, SD_E_DUPLICATE, -1, "duplicate member");
			goto out;
		}
		seen[mi] = 1;
		if (m->field >= 0)
		{
			const sd_field *fd = &n->fields[m->field];
			uint32_t	slot = row + (uint32_t) fd->col;

			if (!value(c, v, fd->node, slot))
				goto out;
			if (!fd->nullable && c->tape[slot].tag == SD_V_NULL)
			{
				sd_error_set(c->err, SD_E_NOTNULL, -1, "null is not allowed for column \"%s\"",
							 fd->column);
				goto out;
			}
		}
		else if (m->field == SD_MEMBER_GROUP)
		{
			if (v->kind == SD_J_OBJECT)
			{
				if (!members(c, v, n, m->group, row, false, pairs, npairs, pairs_cap))
					goto out;
			}
			else if (v->kind == SD_J_NULL)
			{
				/* a null parent makes the values below it null: 23502 for the non-nullable */
				path_restore(c, used);
				if (!sd_null_prefix(n, m, c->err, report_stop, NULL))
					goto out;
			}
			else
			{
				char		found[128];

				sd_describe_found(found, sizeof(found), v->text, v->text_len);
				sd_error_set(c->err, SD_E_KIND, -1,
							 "expected object (on the path of column \"%s\"), found %s",
							 m->group_column, found);
				goto out;
			}
		}
		/* SD_MEMBER_TAG: the union's tag, already read */
		path_restore(c, used);
	}
	for (int i = 0; i < ms->n; i++)
		if (!seen[i] && !missing(c, n, &ms->m[i], row))
			goto out;
	ok = true;
out:
	if (seen != seen_small)
		sd_hook_free(c->hooks, seen);
	return ok;
}

/* The union's variant named by the tag member (the first member of that name). */
static bool
variant_of(dctx *c, const sd_jnode *obj, const sd_node *n, const sd_variant **out)
{
	char		list[256];
	char		desc[256];

	sd_variant_list(n, list, sizeof(list));
	for (int i = 0; i < obj->n; i++)
	{
		const sd_jnode *v = obj->items[i];

		if (obj->key_lens[i] != strlen(n->tag) || memcmp(obj->keys[i], n->tag, obj->key_lens[i]) != 0)
			continue;
		sd_path_member(c->err->path, n->tag, strlen(n->tag));
		if (v->kind != SD_J_STRING)
		{
			sd_describe_found(desc, sizeof(desc), v->text, v->text_len);
			return sd_error_set(c->err, SD_E_KIND, -1,
								"expected string (the union's tag, one of: %s), found %s", list, desc);
		}
		for (int k = 0; k < n->nvariants; k++)
			if (strlen(n->variants[k].value) == v->len &&
				memcmp(n->variants[k].value, v->str, v->len) == 0)
			{
				*out = &n->variants[k];
				return true;
			}
		sd_describe_scalar(desc, sizeof(desc), SD_J_STRING, v->str, v->len);
		return sd_error_set(c->err, SD_E_KIND, -1, "unknown tag value %s, expected one of: %s",
							desc + 7, list);
	}
	sd_path_member(c->err->path, n->tag, strlen(n->tag));
	return sd_error_set(c->err, SD_E_MISSING, -1,
						"missing required member (the union's tag, one of: %s)", list);
}

/* The object of unmapped members, as the walkers write it: {"key":<value as written>,...} */
static bool
extra_text(dctx *c, const dpair *pairs, uint32_t n, sd_val *out)
{
	size_t		size = 2;
	size_t		o = 0;
	char	   *buf;

	for (uint32_t i = 0; i < n; i++)
		size += pairs[i].klen * 6 + 4 + pairs[i].value->text_len;
	if (!(buf = sd_arena_alloc(c->arena, size + 1)))
		return nomem(c);
	buf[o++] = '{';
	for (uint32_t i = 0; i < n; i++)
	{
		size_t		klen = pairs[i].klen;

		if (i)
			buf[o++] = ',';
		buf[o++] = '"';
		o += sd_json_escape(buf + o, klen * 6, pairs[i].key, klen, NULL);
		buf[o++] = '"';
		buf[o++] = ':';
		memcpy(buf + o, pairs[i].value->text, pairs[i].value->text_len);
		o += pairs[i].value->text_len;
	}
	buf[o++] = '}';
	buf[o] = '\0';
	memset(out, 0, sizeof(*out));
	out->tag = SD_V_JSON;
	out->u.s = buf;
	out->len = (uint32_t) o;
	return true;
}

static bool
object(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot)
{
	const sd_node *members_of = n;
	const sd_variant *variant = NULL;
	uint32_t	row = 0;
	size_t		used = strlen(c->err->path);
	dpair	   *pairs = NULL;
	uint32_t	npairs = 0,
				cap = 0;
	bool		ok;

	if (n->tag)
	{
		if (!variant_of(c, v, n, &variant))
			return false;
		path_restore(c, used);
		members_of = variant->merged;
	}
	if (!reserve(c, (uint32_t) members_of->nfields, &row))
		return false;
	c->tape[slot].tag = SD_V_ROW;
	c->tape[slot].u.first = row;
	c->tape[slot].len = (uint32_t) n->nfields;
	if (variant)
	{
		sd_val	   *vs = &c->tape[row + (uint32_t) variant->col];

		vs->tag = SD_V_ROW;
		vs->u.first = row + (uint32_t) n->nfields;
		vs->len = (uint32_t) (members_of->nfields - n->nfields);
	}
	ok = members(c, v, members_of, members_of->members, row, true, &pairs, &npairs, &cap);
	if (ok && n->extra_col >= 0)
	{
		sd_val		x;

		ok = extra_text(c, pairs, npairs, &x);
		if (ok)
			c->tape[row + (uint32_t) n->extra_col] = x;
	}
	sd_hook_free(c->hooks, pairs);
	return ok;
}

static bool
value(dctx *c, const sd_jnode *v, const sd_node *n, uint32_t slot)
{
	if (v->kind == SD_J_NULL)
	{
		c->tape[slot].tag = SD_V_NULL;
		return true;
	}
	switch (n->kind)
	{
		case SD_K_JSON:
		case SD_K_JSONB:
			if (n->elem)
			{
				/* validated against its shape (into a slot nobody reads); the text is kept */
				uint32_t	scratch = 0;

				if (!reserve(c, 1, &scratch))
					return false;
				if (v->kind == SD_J_ARRAY && n->elem->kind == SD_K_COMPOSITE)
				{
					sd_node		each = *n;

					each.kind = SD_K_ARRAY;
					if (!array(c, v, &each, scratch))
						return false;
				}
				else if (!value(c, v, n->elem, scratch))
					return false;
			}
			else if (n->kind == SD_K_JSONB && !jsonb_ok(c, v))
				return false;
			memset(&c->tape[slot], 0, sizeof(sd_val));
			c->tape[slot].tag = SD_V_JSON;
			c->tape[slot].u.s = v->text;
			c->tape[slot].len = (uint32_t) v->text_len;
			return true;
		case SD_K_COMPOSITE:
			if (v->kind != SD_J_OBJECT)
				return kind_error(c, n, v);
			return object(c, v, n, slot);
		case SD_K_ARRAY:
			if (n->is_map)
			{
				if (v->kind != SD_J_OBJECT)
					return kind_error(c, n, v);
				return map(c, v, n, slot);
			}
			if (v->kind != SD_J_ARRAY)
				return kind_error(c, n, v);
			return array(c, v, n, slot);
		default:
			return scalar(c, v, n, slot);
	}
}

bool
sd_defaults_compile(sd_plan *plan, sd_arena *arena, const sd_jnode *const *values,
					int *failed, sd_error *err)
{
	dctx		c;
	uint32_t   *roots;
	bool		ok = true;

	*failed = -1;
	if (plan->ndefaults == 0)
		return true;
	memset(&c, 0, sizeof(c));
	c.arena = arena;
	c.hooks = &arena->hooks;
	c.err = err;
	if (!(roots = sd_arena_alloc(arena, sizeof(uint32_t) * (size_t) plan->ndefaults)))
		return nomem(&c);
	for (int i = 0; ok && i < plan->ndefaults; i++)
	{
		sd_error_clear(err);
		strcpy(err->path, "$");
		ok = reserve(&c, 1, &roots[i]) && value(&c, values[i], plan->defaults[i]->node, roots[i]);
		if (!ok && err->code != SD_E_NOMEM)
			*failed = i;
	}
	if (ok)
	{
		sd_val	   *tape = sd_arena_alloc(arena, sizeof(sd_val) * (size_t) (c.len ? c.len : 1));

		if (tape)
		{
			memcpy(tape, c.tape, sizeof(sd_val) * c.len);
			plan->dtape = tape;
			plan->dtape_len = c.len;
			plan->droots = roots;
		}
		else
			ok = nomem(&c);
	}
	sd_hook_free(c.hooks, c.tape);
	if (ok)
		sd_error_clear(err);
	return ok;
}

const sd_val *
sd_plan_default_value(const sd_plan *plan, int index, uint32_t *root)
{
	if (index < 0 || index >= plan->ndefaults || plan->droots == NULL)
		return NULL;
	*root = plan->droots[index];
	return plan->dtape;
}
