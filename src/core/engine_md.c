/*
 * engine_md.c — PostgreSQL multi-dimensional arrays (a scalar array type, sd_type.max_dims >
 * 1): the engine decodes a nested JSON array with the same node (engine.c md_value); here, the
 * rule that makes them arrays PostgreSQL can hold: every element of a level has the first
 * element's shape (rectangular; a scalar or null where an array is expected, or the other way
 * round, is 22032 at the first index that differs), and at most max_dims dimensions.  A leaf
 * of the engine: it calls only engine_err.c.
 */
#include <stdio.h>

#include "engine_int.h"

/* The dimensions of the value v (an element, in the stack or the tape): its lengths down the
 * first elements, at most SD_MD_MAX of them; the number of dimensions (0: not an array). */
#define SD_MD_MAX 64

static int
md_dims(Eng *e, const sd_val *v, uint32_t *dims)
{
	int			nd = 0;

	while (v->tag == SD_V_ARRAY && nd < SD_MD_MAX)
	{
		dims[nd++] = v->len;
		if (v->len == 0)
			break;
		v = &e->d->tape[v->u.first];
	}
	return nd;
}

/* What a scalar of the array's element kind is called in "found ..." */
static const char *
scalar_word(const sd_node *n, const sd_val *v)
{
	if (v->tag == SD_V_NULL)
		return "null";
	switch (n->elem->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
			return "number";
		case SD_K_BOOL:
			return "boolean";
		default:
			return "string";
	}
}

bool
sd_eng_md_not_array(Eng *e, const sd_node *n, uint32_t first, sd_wtok *t)
{
	char		desc[256];

	sd_eng_describe(e, t, desc, sizeof(desc));
	return sd_eng_fail(e, SD_E_KIND, t->offset,
					   "expected an array of %u element%s, found %s", (unsigned) e->d->stack[first].len,
					   e->d->stack[first].len == 1 ? "" : "s", desc);
}

bool
sd_eng_md_check(Eng *e, const sd_node *n, uint32_t first, uint32_t idx)
{
	uint32_t	da[SD_MD_MAX],
				db[SD_MD_MAX];
	const sd_val *b = &e->d->stack[idx];
	int64_t		off = b->offset;
	int			na = md_dims(e, &e->d->stack[first], da),
				nb = md_dims(e, b, db),
				k;

	if (idx == first)
	{
		if (na + 1 > n->type->max_dims)
			return sd_eng_fail(e, SD_E_KIND, off,
							   "an array of %d dimensions: PostgreSQL arrays have at most %d", na + 1,
							   (int) n->type->max_dims);
		return true;
	}
	for (k = 0; k < na && k < nb && da[k] == db[k] && da[k] > 0; k++)
		;
	if ((k == na && k == nb) || (k < na && k < nb && da[k] == 0 && db[k] == 0))
		return true;
	/* the first index that differs: the element, then its first elements down to level k */
	for (int j = 0; j < k; j++)
	{
		b = &e->d->tape[b->u.first];
		if (!enter(e, NULL, 0, 0, b->offset))
			return false;
	}
	off = b->offset;
	if (k < na && k < nb)
		return sd_eng_fail(e, SD_E_KIND, off, "expected an array of %u element%s, found %u", da[k],
						   da[k] == 1 ? "" : "s", db[k]);
	if (k < na)
		return sd_eng_fail(e, SD_E_KIND, off, "expected an array of %u element%s, found %s", da[k],
						   da[k] == 1 ? "" : "s", scalar_word(n, b));
	return sd_eng_fail(e, SD_E_KIND, off, "expected %s, found array", sd_expected_name(n->elem));
}
