/*
 * compile_inherit.c — the origins of inherited policies for the plan compiler (docs/reference.md,
 * "Nested composites and inheritance"): where `rename`, `unknown`, `coerce`, `optional` were set,
 * interned so that a shared node's key compares them as pointers, shown by serde_describe.
 * Nothing here calls back into compile.c.
 */
#include "compile_int.h"

#include <stdio.h>
#include <string.h>

/* p's list of n pointers grown to hold one more (in the scratch arena). */
static bool
grow_list(cctx *c, void ***list, int n, int *cap)
{
	if (n < *cap)
		return true;
	int			ncap = *cap ? *cap * 2 : 16;
	void	  **l = sd_arena_alloc(&c->scratch, sizeof(void *) * (size_t) ncap);

	if (!l)
		return false;
	if (n)
		memcpy(l, *list, sizeof(void *) * (size_t) n);
	*list = l;
	*cap = ncap;
	return true;
}

/* The origin of an option read at the current option path: "Shape" at the shape's root,
 * "Shape at $.fields.detail" below it (inline or field options); interned, NULL on OOM. */
const char *
sd_cc_origin_here(cctx *c)
{
	char		buf[SD_PATH_MAX + 160];
	const char *shape = c->cur_shape ? c->cur_shape : "";
	origins    *o = &c->orig;

	if (strcmp(c->opath, "$") == 0)
		snprintf(buf, sizeof(buf), "%s", shape);
	else
		snprintf(buf, sizeof(buf), "%s at %s", shape, c->opath);
	for (int i = 0; i < o->nnames; i++)
		if (strcmp(o->names[i], buf) == 0)
			return o->names[i];
	const char *s = sd_arena_strndup(c->a, buf, strlen(buf));

	if (!s || !grow_list(c, (void ***) &o->names, o->nnames, &o->cap_names))
		return NULL;
	o->names[o->nnames++] = s;
	return s;
}

/* pol->from with policy `which` (FROM_*) set at origin (interned). */
bool
sd_cc_set_from(cctx *c, policy *pol, int which, const char *origin)
{
	sd_policy_from f = pol->from ? *pol->from : (sd_policy_from) {0};
	origins    *o = &c->orig;

	if (!origin)
		return sd_cc_oom(c);
	switch (which)
	{
		case FROM_RENAME:
			f.rename = origin;
			break;
		case FROM_UNKNOWN:
			f.unknown = origin;
			break;
		case FROM_COERCE:
			f.coerce = origin;
			break;
		default:
			f.optional = origin;
			break;
	}
	for (int i = 0; i < o->nfroms; i++)
		if (memcmp(o->froms[i], &f, sizeof(f)) == 0)
		{
			pol->from = o->froms[i];
			return true;
		}
	sd_policy_from *n = sd_arena_alloc(c->a, sizeof(sd_policy_from));

	if (!n || !grow_list(c, (void ***) &o->froms, o->nfroms, &o->cap_froms))
		return sd_cc_oom(c);
	*n = f;
	o->froms[o->nfroms++] = n;
	pol->from = n;
	return true;
}

/* After a shape's (or inline) options set pol: the policies they name come from here. */
bool
sd_cc_policy_origins(cctx *c, const sd_jnode *opts, policy *pol)
{
	static const char *const keys[] = {"rename", "unknown", "coerce", "optional"};
	const char *here = NULL;

	for (int k = 0; k < 4; k++)
		if (sd_jget(opts, keys[k]))
		{
			if (!here && !(here = sd_cc_origin_here(c)))
				return sd_cc_oom(c);
			if (!sd_cc_set_from(c, pol, k, here))
				return false;
		}
	return true;
}
