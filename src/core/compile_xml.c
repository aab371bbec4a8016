/*
 * compile_xml.c — the compiler's readers of the XML authoring options (docs/reference.md,
 * "XML names"): a shape's `attributes` list (columns read from attributes) and the check that an
 * `xml_choice` names variants of its list's union.  Leaves: they read options and a built node,
 * and never recurse into the compiler.
 */
#include "compile_int.h"
#include "compile_names.h"

#include <stdio.h>
#include <string.h>

bool
sd_cc_attributes(cctx *c, const sd_jnode *opts, const sd_type *t, const sd_strtab *cols,
				 const sd_jnode *fields, const char *extra, sd_strtab *set, const sd_strtab **out)
{
	const sd_jnode *v = sd_jget(opts, "attributes");
	size_t		plen = strlen(c->opath);

	if (!sd_cc_want_kind(c, "attributes", v, SD_J_ARRAY, "an array of column names"))
		return false;
	sd_strtab_init(set, &c->scratch, false);
	sd_path_member(c->opath, "attributes", 10);
	for (int i = 0; i < v->n; i++)
	{
		const sd_jnode *col = v->items[i];
		const sd_jnode *x;
		int			k;

		sd_path_index(c->opath, (uint64_t) i);
		if (col->kind != SD_J_STRING)
			return sd_cc_opt_fail(c, NULL, "must be an array of column names, not %s", sd_jkind_name(col->kind), NULL);
		if (t->kind != SD_K_COMPOSITE || (k = sd_strtab_get(cols, col->str, strlen(col->str))) < 0)
			return sd_cc_opt_fail(c, NULL, "column \"%s\" does not exist in type %s", col->str, t->name);
		if (t->cols[k].type->kind == SD_K_ARRAY || t->cols[k].type->kind == SD_K_COMPOSITE)
			return sd_cc_opt_fail(c, NULL, "an attribute needs a scalar column, not %s (column \"%s\")",
								  t->cols[k].type->name, col->str);
		if (extra && strcmp(extra, col->str) == 0)
			return sd_cc_opt_fail(c, NULL, "column \"%s\" is the \"extra\" column", col->str, NULL);
		if ((x = sd_jget(sd_jget(fields, col->str), "xml")) && x->kind == SD_J_STRING &&
			strcmp(x->str, "attribute") != 0)
			return sd_cc_opt_fail(c, NULL, "column \"%s\" is read as \"xml\": \"%s\" (its field options say so)",
								  col->str, x->str);
		if ((k = sd_strtab_put(set, col->str, strlen(col->str), i)) == -2)
			return sd_cc_oom(c);
		if (k >= 0)
			return sd_cc_opt_fail(c, NULL, "column \"%s\" is listed twice", col->str, NULL);
		c->opath[plen + strlen(".attributes")] = '\0';
	}
	c->opath[plen] = '\0';
	*out = set;
	return true;
}

bool
sd_cc_xml_choice(cctx *c, const sd_field *f, const sd_node *elem)
{
	char		list[256];

	if (!elem || !elem->tag)
		return sd_cc_opt_fail(c, "xml_choice", "\"xml_choice\" needs a list of a composite type with "
							  "\"tag\" and \"variants\": %s has none", elem ? elem->type->name : "?", NULL);
	for (int k = 0; k < f->nxml_choice; k++)
	{
		bool		found = false;

		for (int v = 0; v < elem->nvariants && !found; v++)
			found = strcmp(elem->variants[v].value, f->xml_choice[k].local) == 0;
		if (!found)
		{
			sd_variant_list(elem, list, sizeof(list));
			sd_cc_opt_fail(c, "xml_choice", "\"%s\" is not a variant of the list's union (its tag values: %s)",
						   f->xml_choice[k].local, list);
			sd_path_index(c->err->path, (uint64_t) k);
			return false;
		}
	}
	return true;
}
