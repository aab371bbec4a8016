/*
 * compile_format.c — the field option `format`: a format's name (compile_names.c
 * sd_format_ok), or for timestamps an object {"pattern": ..., "zone": ...} whose pattern is
 * compiled here, once, into the plan (scalar_time.c reads values by it).  Errors are 22023 at
 * the option's path ($.fields.<column>.format.pattern).
 */
#include "compile_int.h"
#include "compile_names.h"
#include "scalar_time.h"

#include <stdio.h>
#include <string.h>

/* Fails with SD_E_OPTIONS at <opath>.format[.<member>]. */
static bool
format_fail(cctx *c, const char *member, const char *problem)
{
	strcpy(c->err->path, c->opath);
	sd_path_member(c->err->path, "format", 6);
	if (member)
		sd_path_member(c->err->path, member, strlen(member));
	return sd_error_set(c->err, SD_E_OPTIONS, -1, "%s", problem);
}

bool
sd_cc_format(cctx *c, const sd_column *col, const sd_jnode *v, fopts *o)
{
	static const char *const keys[] = {"pattern", "zone", NULL};
	char		problem[SD_PROBLEM_MAX];
	const sd_type *b = col->type;
	const sd_jnode *pv,
			   *zv;
	bool		oom;
	sd_tspattern *p;
	sd_code		code;

	if (v->kind == SD_J_STRING)
	{
		if (!sd_format_ok(col->type, v->str, &o->fmt))
			return sd_cc_opt_fail(c, "format", "format \"%s\" does not apply to type %s", v->str,
								  col->type->name);
		return true;
	}
	if (v->kind != SD_J_OBJECT)
		return sd_cc_opt_fail(c, "format", "must be a string or an object {\"pattern\": ..., \"zone\": ...}, not %s",
							  sd_jkind_name(v->kind), NULL);
	while (b->kind == SD_K_ARRAY)
		b = b->elem;
	if (b->kind != SD_K_TIMESTAMP && b->kind != SD_K_TIMESTAMPTZ)
		return sd_cc_opt_fail(c, "format", "a pattern format applies to timestamps, not to type %s",
							  col->type->name, NULL);
	for (int i = 0; i < v->n; i++)
		if (!sd_cc_in_list(v->keys[i], keys))
		{
			snprintf(problem, sizeof(problem), "unknown option \"%s\" (expected \"pattern\", \"zone\")",
					 v->keys[i]);
			return format_fail(c, v->keys[i], problem);
		}
	if (!(pv = sd_jget(v, "pattern")))
		return format_fail(c, NULL, "a format object needs \"pattern\"");
	if (pv->kind != SD_J_STRING)
	{
		snprintf(problem, sizeof(problem), "must be a string, not %s", sd_jkind_name(pv->kind));
		return format_fail(c, "pattern", problem);
	}
	if (!(p = sd_tspattern_compile(c->a, pv->str, pv->len, problem, &oom)))
		return oom ? sd_cc_oom(c) : format_fail(c, "pattern", problem);
	if ((zv = sd_jget(v, "zone")))
	{
		if (zv->kind != SD_J_STRING)
		{
			snprintf(problem, sizeof(problem), "must be a string, not %s", sd_jkind_name(zv->kind));
			return format_fail(c, "zone", problem);
		}
		if (sd_tspattern_reads_offset(p))
			return format_fail(c, "zone", "the pattern reads the offset from the text (X or Z): no \"zone\"");
		if ((code = sd_tspattern_set_zone(c->a, p, zv->str, problem)) == SD_E_NOMEM)
			return sd_cc_oom(c);
		if (code != SD_OK)
			return format_fail(c, "zone", problem);
	}
	else if (!sd_tspattern_reads_offset(p) && b->kind == SD_K_TIMESTAMPTZ)
	{
		snprintf(problem, sizeof(problem), "the pattern has no offset (X, XX, XXX or Z): type %s needs \"zone\" (\"UTC\" or an offset such as \"+02:00\")",
				 b->name);
		return format_fail(c, NULL, problem);
	}
	o->fmt = SD_FMT_PATTERN;
	o->pattern = p;
	return true;
}

void
sd_cc_set_pattern(const sd_node *node, const sd_tspattern *p)
{
	/* the field's own nodes (built fresh for a pattern): the array levels and the element */
	for (sd_node *n = (sd_node *) node; n; n = n->kind == SD_K_ARRAY ? (sd_node *) n->elem : NULL)
		n->pattern = p;
}
