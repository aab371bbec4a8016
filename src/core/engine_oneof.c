/*
 * engine_oneof.c — `one_of` in the rule engine (docs/reference.md, "Untagged unions (one_of)"):
 * the kind of the carrying field's value selects the field (column) that takes it — JSON text
 * and jsonb by the token's kind; XML by the element's content (child elements: object, else
 * array; text only or empty: string, else number, else boolean, else object, else array),
 * attributes and text as text.  A leaf of engine.c: it calls walker ops and engine_err.c only.
 */
#include <stdio.h>

#include "engine_int.h"

/* The first kind of `order` (n of them) that g lists, or -1. */
static int
first_listed(const sd_one_of *g, const int *order, int n)
{
	for (int i = 0; i < n; i++)
		if (g->kinds & (1u << order[i]))
			return order[i];
	return -1;
}

/* The field of fd's group (fd carries it) that takes the value t (peeked, not consumed): null
 * goes to fd itself (every other listed column is NULL).  NULL with the error set (22032 at the
 * member's path, or a walker failure), the value not consumed. */
const sd_field *
sd_eng_one_of(Eng *e, const sd_field *fd, sd_wtok *t)
{
	static const int scalars[] = {SD_ONE_STRING, SD_ONE_NUMBER, SD_ONE_BOOLEAN, SD_ONE_OBJECT,
	SD_ONE_ARRAY};
	const sd_one_of *g = fd->one_of;
	char		kinds[64];
	char		found[256];
	int			k;

	e->consumed = false;
	if (t->kind == SD_J_NULL || (t->flags & (SD_TOK_XML_NIL | SD_TOK_XML_BADNIL)))
		return fd;
	if (!(e->flags & SD_WF_XML))
		k = sd_one_kind_of(t->kind);
	else if (t->kind != SD_J_OBJECT)
		k = first_listed(g, scalars, 3);	/* an attribute, the text */
	else
	{
		int			r = e->ops->has_children ? e->ops->has_children(e->cur, t) : 1;

		if (r < 0 && e->cur->fail.code == SD_E_UNSUPPORTED)
			return sd_eng_fail(e, SD_E_UNSUPPORTED, t->offset, "%s", e->cur->fail.problem), NULL;
		if (r < 0)
			return sd_eng_walker_failed(e), NULL;
		k = r ? first_listed(g, scalars + 3, 2) : first_listed(g, scalars, 5);
		if (k < 0)
			snprintf(found, sizeof(found), "%s", r ? "an element with child elements" :
					 "an element without child elements");
	}
	if (k >= 0 && (g->kinds & (1u << k)))
		return fd + g->off[k];
	sd_one_kinds_list(g, kinds, sizeof(kinds));
	if (!(e->flags & SD_WF_XML) || t->kind != SD_J_OBJECT)
		sd_eng_describe(e, t, found, sizeof(found));
	sd_eng_fail(e, SD_E_KIND, t->offset, "expected one of %s, found %s", kinds, found);
	return NULL;
}
