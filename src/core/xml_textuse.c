/*
 * xml_textuse.c — one fact of a compiled plan for the XML reader: whether a decode can ever
 * see the character data of an element that has child elements.  The engine reads an
 * element's own text in three places only: a member mapping it (`xml: "text"`, the member
 * tables' xml_text, path groups included), an element decoded as a scalar (element_scalar —
 * and there a child element is an error whatever the text), and the unmapped elements an
 * `extra` column renders as JSON (xml_json.c: `#text` of mixed content); an `xml` column keeps
 * its element verbatim.  With none of these anywhere in the plan, text that follows an end tag
 * (between child elements, after the last one: the text of an element with children) is never
 * looked at, so the reader may leave it out (xml_read.h, sd_xr_options.drop_text_after_end).
 * Decided once per plan, at compile (sd_plan.xml_leaf_text_only).
 */
#include <string.h>

#include "internal.h"

typedef struct tu_walk
{
	uint32_t	visits;         /* a bound on the walk (shared nodes are walked again) */
} tu_walk;

#define TU_MAX_DEPTH 64
#define TU_MAX_VISITS 20000

static bool tu_node(tu_walk *w, const sd_node *n, int depth);

/* A member table maps no text, nor does any path group below it. */
static bool
tu_members(tu_walk *w, const sd_members *ms, int depth)
{
	if (!ms)
		return true;
	if (ms->xml_text || depth > TU_MAX_DEPTH || ++w->visits > TU_MAX_VISITS)
		return false;
	for (int i = 0; i < ms->n; i++)
		if (ms->m[i].group && !tu_members(w, ms->m[i].group, depth + 1))
			return false;
	return true;
}

static bool
tu_node(tu_walk *w, const sd_node *n, int depth)
{
	if (!n)
		return true;
	if (depth > TU_MAX_DEPTH || ++w->visits > TU_MAX_VISITS)
		return false;			/* not decided: keep every text */
	switch (n->kind)
	{
		case SD_K_JSON:
		case SD_K_JSONB:
			return false;		/* (an error for XML; kept out of the question) */
		case SD_K_OTHER:
			return !(n->type && n->type->name && strcmp(n->type->name, "xml") == 0);
		case SD_K_ARRAY:
			return tu_node(w, n->elem, depth + 1);
		case SD_K_COMPOSITE:
			break;
		default:
			return true;		/* a scalar: a leaf's text, or an error at a child element */
	}
	if (n->extra_col >= 0 || !tu_members(w, n->xml_members, depth + 1))
		return false;
	for (int i = 0; i < n->nfields; i++)
		if (!tu_node(w, n->fields[i].node, depth + 1))
			return false;
	for (int i = 0; i < n->nvariants; i++)
	{
		const sd_variant *v = &n->variants[i];

		if (!tu_members(w, v->xml_choice_members, depth + 1) ||
			(v->merged && v->merged != n && !tu_node(w, v->merged, depth + 1)))
			return false;
	}
	return true;
}

bool
sd_xml_leaf_text_only(const sd_node *root)
{
	tu_walk		w = {0};

	return tu_node(&w, root, 0);
}
