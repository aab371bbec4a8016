/*
 * engine_err.c — the rule engine's errors: the path of the value where an error is (jsonpath
 * for JSON, XPath for XML, from the engine's path stack), its SQLSTATE by input format, the
 * offset (XML: line and column), and the errors of malformed input and limits.  Called by
 * engine.c and engine_skip.c; calls nothing of theirs.  Also serde_errors' reordering of an
 * object's missing-member errors (sd_eng_hoist_found).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "scalar.h"
#include "walker.h"
#include "engine_int.h"

/* XPath from the same stack (walker.h (c)): elements with their prefix and 1-based position,
 * attributes, text; "/" alone for the document */
static void
build_xpath(Eng *e)
{
	const sd_pathent *pe = (const sd_pathent *) e->d->path;

	e->err->path[0] = '\0';
	for (uint32_t i = 0; i < e->depth && i < e->d->path_cap; i++)
	{
		if (pe[i].seg == SD_SEG_ATTRIBUTE)
			sd_xpath_attribute(e->err->path, pe[i].prefix, pe[i].prefix_len, pe[i].name, pe[i].len);
		else if (pe[i].seg == SD_SEG_TEXT)
			sd_xpath_text(e->err->path);
		else
			sd_xpath_element(e->err->path, pe[i].prefix, pe[i].prefix_len, pe[i].name, pe[i].len,
							 pe[i].index);
	}
	if (!e->err->path[0])
		strcpy(e->err->path, "/");
}

static void
build_path(Eng *e)
{
	sd_pathent *pe = (sd_pathent *) e->d->path;

	if (e->flags & SD_WF_XML)
	{
		build_xpath(e);
		return;
	}
	strcpy(e->err->path, "$");
	for (uint32_t i = 0; i < e->depth && i < e->d->path_cap; i++)
	{
		if (pe[i].name)
			sd_path_member(e->err->path, pe[i].name, pe[i].len);
		else
			sd_path_index(e->err->path, pe[i].index);
	}
}

static bool vfail(Eng *e, sd_code code, int64_t off, const char *fmt, va_list ap)
			__attribute__((format(printf, 4, 0)));

static bool
vfail(Eng *e, sd_code code, int64_t off, const char *fmt, va_list ap)
{
	build_path(e);
	e->err->code = code;
	e->err->offset = off;
	if (e->flags & SD_WF_XML)
	{
		/* XML: its SQLSTATEs, and the line/column of the offset (first-error mode only: the
		 * errors collected keep byte offsets, and locating each would rescan the document) */
		e->err->code = sd_code_for_doc(code, SD_DOC_XML);
		e->err->doc = SD_DOC_XML;
		e->err->line = e->err->column = 0;
		if (off >= 0 && !e->collect && e->ops->locate)
			e->ops->locate(e->cur, off, &e->err->line, &e->err->column);
	}
	vsnprintf(e->err->problem, sizeof(e->err->problem), fmt, ap);
	return false;
}

bool
sd_eng_fail(Eng *e, sd_code code, int64_t off, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfail(e, code, off, fmt, ap);
	va_end(ap);
	return false;
}

bool
sd_eng_grow_path(Eng *e, int64_t off)
{
	if (!sd_grow(e->hooks, &e->d->path, &e->d->path_cap, e->depth + 2, sizeof(sd_pathent)))
		return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
	return true;
}

/* Malformed input (reported at the root).  JSON text is re-validated by jvalid.c, which finds
 * the exact offset of the first bad byte (simdjson's errors carry no position). */
bool
sd_eng_syntax(Eng *e, const char *problem, int64_t off)
{
	uint32_t	saved = e->depth;

	e->depth = 0;
	if (e->flags & SD_WF_TEXT)
	{
		sd_error	exact;
		bool		valid = sd_json_validate(e->hooks, e->cur->text, e->cur->text_len, &exact);
		if (!valid && exact.code == SD_E_SYNTAX)
			sd_eng_fail(e, SD_E_SYNTAX, exact.offset + (int64_t) e->d->offset_bias, "malformed JSON: %s",
				 exact.problem);
		else if (!valid && exact.code == SD_E_NOMEM)
			sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
		else
			sd_eng_fail(e, SD_E_SYNTAX, off, "malformed JSON: %s", problem);
	}
	else
		sd_eng_fail(e, SD_E_SYNTAX, off, "malformed JSON: %s", problem);
	e->depth = saved;
	return false;
}

/* A walker op returned -1: what it reported. */
bool
sd_eng_walker_failed(Eng *e)
{
	const sd_wfail *f = &e->cur->fail;

	if ((e->flags & SD_WF_XML) && f->err)
	{
		/* the walker's own complete error (the XML reader's: path, line and column) */
		*e->err = *f->err;
		return false;
	}
	if (f->code == SD_E_NOMEM)
		return sd_eng_fail(e, SD_E_NOMEM, f->offset, "out of memory");
	if (f->code == SD_E_INTERNAL)
		return sd_eng_fail(e, SD_E_INTERNAL, f->offset, "%s", f->problem ? f->problem : "walker error");
	return sd_eng_syntax(e, f->problem ? f->problem : "unexpected character or structure", f->offset);
}

/* A limit reached on entering a container (kept out of line: its locals would weigh on
 * every level of the recursion). */
bool
sd_eng_guard_failed(Eng *e, int64_t off)
{
	if (e->flags & SD_WF_TEXT)
	{
		sd_error	exact;

		/* a malformed document is a syntax error, however deep */
		if (!sd_json_validate(e->hooks, e->cur->text, e->cur->text_len, &exact))
		{
			if (exact.code == SD_E_NOMEM)
				return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
			return sd_eng_syntax(e, exact.problem, exact.offset + (int64_t) e->d->offset_bias);
		}
	}
	if (e->depth + 1 > e->max_depth)
		return sd_eng_fail(e, SD_E_DEPTH, off, "nesting deeper than serde.max_depth (%u)", e->max_depth);
	return sd_eng_fail(e, SD_E_DEPTH, off, "document nested too deeply for the stack");
}

/* A value error from scalar_to_tape.c: add path and offset. */
bool
sd_eng_convert_failed(Eng *e, int64_t off)
{
	sd_error	x = *e->err;

	return sd_eng_fail(e, x.code, off, "%s", x.problem);
}

/* "string \"x\"", "number 1.5", "object", ... */
void
sd_eng_describe(Eng *e, sd_wtok *t, char *buf, size_t size)
{
	if (t->raw)
		sd_describe_found(buf, size < 128 ? size : 128, t->raw, t->raw_len);
	else if (t->flags & SD_TOK_XML_TEXT)
		sd_describe_text(buf, size, t->s, t->len);
	else
	{
		if (t->kind == SD_J_NUMBER && !t->s && e->ops->number_text)
			(void) e->ops->number_text(e->cur, t);
		if (t->kind == SD_J_STRING || t->kind == SD_J_NUMBER)
			sd_describe_scalar(buf, size, t->kind, t->s ? t->s : "", t->s ? t->len : 0);
		else
			sd_describe_scalar(buf, size, t->kind, "", 0);
	}
}

bool
sd_eng_kind_error(Eng *e, const sd_node *n, sd_wtok *t)
{
	char		found[256];

	sd_eng_describe(e, t, found, sizeof(found));
	return sd_eng_fail(e, SD_E_KIND, t->offset, "expected %s, found %s", sd_expected_name(n), found);
}

/* serde_errors: the errors found from `from` on (the object's missing members, located at the
 * object) move to `at`, where the object's errors began, and take the object's seq (its start),
 * so that found stays in document order for every format (jsonb too: no offsets needed); the
 * cap is applied again. */
void
sd_eng_hoist_found(sd_collect *c, int at, int from, uint32_t seq, int max)
{
	sd_found   *f = c->d->found;

	c->max = max;
	for (int k = 0; k < 3 && at < from && from < c->n; k++)
	{                           /* rotate [at, n) left by from - at: three reversals */
		int			lo = k == 1 ? from : at,
					hi = k == 0 ? from - 1 : c->n - 1;

		for (; lo < hi; lo++, hi--)
		{
			sd_found	x = f[lo];

			f[lo] = f[hi];
			f[hi] = x;
		}
	}
	for (int i = at; i < at + c->n - from; i++)
		f[i].seq = seq;
	if (c->n > max)
		c->n = max;
}
