/*
 * infer_json.c — one JSON sample into serde_infer's model: parsed by the core's strict JSON
 * parser (jtree.c) into the inference's scratch arena, then walked once, value by value.
 */
#include "infer_int.h"

#include <string.h>

static bool add_value(sd_infer *inf, inf_node *n, const sd_jnode *v, int *dval);

static bool
add_object(sd_infer *inf, inf_node *n, const sd_jnode *v)
{
	int			small_m[32], small_d[32];
	int		   *ms = small_m, *ds = small_d;
	bool		ok = true;

	if (v->n > 32)
	{
		ms = sd_arena_alloc(&inf->scratch, (size_t) v->n * sizeof(int));
		ds = sd_arena_alloc(&inf->scratch, (size_t) v->n * sizeof(int));
		if (!ms || !ds)
			return inf_oom(inf);
	}
	for (int i = 0; i < v->n && ok; i++)
	{
		int			m = inf_member_get(inf, n, v->keys[i], v->key_lens[i], INF_K_ELEMENT, NULL);

		if (m < 0)
			return false;
		ms[i] = m;
		ok = add_value(inf, n->mem[m].val, v->items[i], &ds[i]);
	}
	return ok && inf_object_done(inf, n, ms, ds, v->n);
}

static bool
add_value(sd_infer *inf, inf_node *n, const sd_jnode *v, int *dval)
{
	*dval = -1;
	switch (v->kind)
	{
		case SD_J_NULL:
			return inf_add_null(inf, n);
		case SD_J_TRUE:
		case SD_J_FALSE:
			return inf_add_bool(inf, n);
		case SD_J_NUMBER:
			return inf_add_number(inf, n, v->str, v->len);
		case SD_J_STRING:
			return inf_add_string(inf, n, v->str, v->len, false, dval);
		case SD_J_ARRAY:
			n->n_arr++;
			if (!n->elem && !(n->elem = inf_node_new(inf)))
				return false;
			for (int i = 0; i < v->n; i++)
			{
				int			d;

				if (!add_value(inf, n->elem, v->items[i], &d))
					return false;
			}
			return inf_stop(inf);
		case SD_J_OBJECT:
			return add_object(inf, n, v);
	}
	return true;
}

bool
inf_add_json(sd_infer *inf, const char *doc, size_t len)
{
	const sd_jnode *t = sd_jparse(&inf->scratch, doc, len, inf->limits.max_depth, inf->err);
	int			d;

	if (!t)
	{
		inf->err->doc = SD_DOC_JSON;
		if (inf->err->code == SD_E_SYNTAX)
		{
			sd_error	exact;

			/* the decoder's words and offset for malformed JSON (jvalid.c) */
			if (!sd_json_validate(&inf->hooks, doc, len, &exact) && exact.code == SD_E_SYNTAX)
				sd_error_set(inf->err, SD_E_SYNTAX, exact.offset, "malformed JSON: %s", exact.problem);
			else if (exact.code == SD_E_NOMEM)
				return inf_oom(inf);
		}
		if (inf->err->code == SD_E_DEPTH)
			sd_error_set(inf->err, SD_E_DEPTH, inf->err->offset,
						 "nesting deeper than serde.max_depth (%u)", inf->limits.max_depth);
		return false;
	}
	return add_value(inf, inf->root, t, &d);
}
