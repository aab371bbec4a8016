/*
 * engine_xmlnames.c — leaves of the rule engine for the XML authoring options (docs/reference.md,
 * "XML names"): a presence boolean (`xml: "presence"`), the XPath position of an element of an
 * `xml_choice` list among those of its name, and the tag column of a union decoded from an
 * `xml_choice` element (its value is the element's name).  Called by engine.c only; calls
 * only the engine's leaves below it.
 */
#include "engine_int.h"

bool
sd_eng_presence(Eng *e, const sd_wtok *t, Dest dst)
{
	if (!sd_eng_skip_value(e, t))
		return false;
	e->consumed = true;
	sd_val	   *out = slot(e, dst);

	out->tag = SD_V_BOOL;
	out->u.b = true;
	out->len = 0;
	out->offset = tape_off(t->offset);
	return true;
}

uint64_t
sd_eng_choice_pos(Eng *e, Acc *a, int v, int nvariants, int64_t off)
{
	if (v < 0 || nvariants <= 0)
		return a->n + 1;
	if (!a->per_variant)
	{
		size_t		size = sizeof(uint32_t) * (size_t) nvariants;

		if (!(a->per_variant = sd_arena_alloc(&e->d->arena, size)))
			return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory"), 0;
		memset(a->per_variant, 0, size);
	}
	return ++a->per_variant[v];
}

bool
sd_eng_choice_tag(Eng *e, const sd_node *n, const sd_variant *v, uint32_t row, int64_t off)
{
	if (v->tag_col < 0)
		return true;
	return sd_eng_text_value(e, n->fields[v->tag_col].node, v->value, strlen(v->value),
							 (Dest) {false, row + (uint32_t) v->tag_col}, off);
}

void
sd_eng_member_prefix(Eng *e, const sd_node *n, const sd_member *m, const char **p, size_t *pl)
{
	*p = NULL;
	*pl = 0;
	if (!m->ns || !e->ops->ns_prefix || e->ops->ns_prefix(e->cur, m->ns, m->ns_len, p, pl) > 0)
		return;
	if (m->xml_kind != SD_XML_ELEMENT || !n->xml_ns || strcmp(m->ns, n->xml_ns) != 0)
		return;
	for (int i = 0; i < n->nxml_alt; i++)
		if (n->xml_alt[i] &&
			e->ops->ns_prefix(e->cur, n->xml_alt[i], strlen(n->xml_alt[i]), p, pl) > 0)
			return;
	*p = NULL;
	*pl = 0;
}
