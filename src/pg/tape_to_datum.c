/*
 * tape_to_datum.c — turns the core's value tape into PostgreSQL Datums: walks the plan node and the
 * tape together, builds scalars, arrays and composite tuples, applies domain constraints, and
 * hands what it finds wrong to errors.c with the value's path — jsonpath for JSON, XPath for XML
 * (rendered only when an error needs it) — to raise, or for serde_valid / serde_errors to keep
 * softly.  Also converts a plan's `default` values (kept in the plan or converted per use) and
 * runs serde_errors' soft conversion of a checked tape for every input format.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datum.h"
#include "utils/datetime.h"
#include "utils/expandeddatum.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "compose.h"
#include "jsonb_build.h"
#include "numeric_build.h"
#include "serde_pg.h"

/* 2000-01-01 (PostgreSQL's epoch) relative to 1970-01-01 */
#define SD_PG_EPOCH_US	INT64CONST(946684800000000)
#define SD_PG_EPOCH_DAYS 10957

/* One step of the path from the root to the value being converted (lives on the C stack). */
typedef struct ConvFrame
{
	const struct ConvFrame *up;
	const sd_field *field;		/* a member step (all of field->path) ... */
	const sd_val *key;			/* ... or a map entry's member (its key) ... */
	uint32		index;			/* ... or an array index when both are NULL */
	bool		silent;			/* no step: a variant column, a map entry's key/value */
	const sd_val *v;			/* the step's value (XML: names as the document writes them) */
} ConvFrame;

static Datum conv(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f,
				  bool *isnull);
static inline Datum conv_p(SdConvert *cx, const sd_node *node, const sd_val *v,
						   const ConvFrame *f, bool *isnull, uint8 *pend);

/* ---- paths and errors ------------------------------------------------------------------------ */

/* Where the root value sits (serde_decode_each rows): asks the caller once, on first need. */
static void
conv_locate(SdConvert *cx)
{
	if (cx->locate && !cx->located)
	{
		cx->root_path[0] = '\0';
		cx->offset_base = 0;
		cx->locate(cx);
		cx->located = true;
	}
}

static int64
conv_offset(SdConvert *cx, const sd_val *v)
{
	conv_locate(cx);
	return (int64) v->offset + (cx->locate ? cx->offset_base : 0);
}

/*
 * XML: the qualified name (prefix:local) written at byte offset `at` of the document, where an
 * element ('<' first) or an attribute starts; false when none is there, or its local name is not
 * `local` (NULL: any).
 */
static bool
xml_name_at(SdConvert *cx, int64 at, bool element, const char *local, const char **prefix,
			size_t *plen, const char **name, size_t *nlen)
{
	const char *d = cx->doc.text;
	size_t		len = cx->doc.len;
	size_t		i,
				start,
				colon = 0;

	if (d == NULL || at < 0 || (size_t) at >= len)
		return false;
	i = (size_t) at;
	if (element)
	{
		if (d[i] != '<')
			return false;
		i++;
	}
	start = i;
	while (i < len && d[i] != ' ' && d[i] != '\t' && d[i] != '\n' && d[i] != '\r' &&
		   d[i] != '>' && d[i] != '/' && d[i] != '=' && d[i] != '<' && d[i] != '"' &&
		   d[i] != '\'')
	{
		if (d[i] == ':' && colon == 0)
			colon = i;
		i++;
	}
	if (i == start || i - start > 1024)
		return false;
	if (colon)
	{
		*prefix = d + start;
		*plen = colon - start;
		*name = d + colon + 1;
		*nlen = i - colon - 1;
	}
	else
	{
		*prefix = NULL;
		*plen = 0;
		*name = d + start;
		*nlen = i - start;
	}
	return local == NULL || (strlen(local) == *nlen && memcmp(local, *name, *nlen) == 0);
}

/* "[n]" after the last step of an XPath (a flattened list's element) */
static void
xpath_position(char *buf, uint64 position)
{
	size_t		used = strlen(buf);
	char		pos[32];
	int			n = snprintf(pos, sizeof(pos), "[" UINT64_FORMAT "]", position);

	if (used >= 3 && strcmp(buf + used - 3, "...") == 0)
		return;
	if (used + n + 4 <= SD_PATH_MAX)
		memcpy(buf + used, pos, n + 1);
}

/* Element index of list arr (an xml_choice list): its 1-based position among the list's elements
 * of the same name (as the document writes them). */
static uint64
choice_position(SdConvert *cx, const sd_val *arr, uint32 index)
{
	const char *p,
			   *nm,
			   *p2,
			   *nm2;
	size_t		pl,
				nl,
				pl2,
				nl2;
	uint64		pos = 1;

	if (arr == NULL || arr->tag != SD_V_ARRAY || index >= arr->len ||
		!xml_name_at(cx, cx->tape[arr->u.first + index].offset, true, NULL, &p, &pl, &nm, &nl))
		return (uint64) index + 1;
	for (uint32 j = 0; j < index; j++)
		if (xml_name_at(cx, cx->tape[arr->u.first + j].offset, true, NULL, &p2, &pl2, &nm2, &nl2) &&
			nl2 == nl && memcmp(nm2, nm, nl) == 0)
			pos++;
	return pos;
}

/*
 * The XPath of a value of an XML document, as the core writes its own (1-based positions on list
 * elements, element names as the document writes them, an element's text at the element): the
 * steps come from the plan, the names' prefixes from the document at the values' offsets (a
 * `path` step without a value of its own takes its field's prefix when in the same namespace).
 */
static void
render_xpath(SdConvert *cx, const ConvFrame *const *steps, int n, char *buf)
{
	const char *p,
			   *nm;
	size_t		pl,
				nl;

	buf[0] = '\0';
	conv_locate(cx);
	if (cx->locate && cx->root_path[0])
		strlcpy(buf, cx->root_path, SD_PATH_MAX);	/* an XML batch's item: "/Batch/Item[3]" */
	else if (cx->root && xml_name_at(cx, cx->root->offset, true, NULL, &p, &pl, &nm, &nl))
		sd_xpath_element(buf, p, pl, nm, nl, 0);
	for (int i = 0; i < n; i++)
	{
		const ConvFrame *s = steps[i];
		const sd_field *fld;

		if (s->silent)
			continue;
		if (s->key)
		{
			/* a map entry: the element named by its key */
			if (!xml_name_at(cx, s->v ? s->v->offset : -1, true, NULL, &p, &pl, &nm, &nl))
			{
				p = NULL;
				pl = 0;
				nm = s->key->u.s;
				nl = s->key->len;
			}
			sd_xpath_element(buf, p, pl, nm, nl, 0);
			continue;
		}
		if (s->field == NULL)
		{
			/* a list element: a wrapped list's item element, or the repeated element itself */
			const sd_field *lf = s->up ? s->up->field : NULL;

			if (lf && lf->nxml_choice && s->v && lf->xml_path)
			{
				/* an xml_choice list: the position among the elements of its own name */
				xpath_position(buf, choice_position(cx, s->up->v, s->index));
				continue;
			}
			if (lf && lf->xml_item.local)
			{
				if (!xml_name_at(cx, s->v ? s->v->offset : -1, true, lf->xml_item.local, &p, &pl,
								 &nm, &nl))
				{
					p = NULL;
					pl = 0;
					nm = lf->xml_item.local;
					nl = strlen(nm);
				}
				sd_xpath_element(buf, p, pl, nm, nl, (uint64) s->index + 1);
			}
			else
				xpath_position(buf, (uint64) s->index + 1);
			continue;
		}
		fld = s->field;
		if (fld->is_extra || fld->xml_path == NULL)
			continue;
		/* the field's own name: its prefix as written where its value starts */
		p = NULL;
		pl = 0;
		if (fld->nxml_choice && i + 1 < n && steps[i + 1]->field == NULL &&
			steps[i + 1]->key == NULL && steps[i + 1]->v &&
			xml_name_at(cx, steps[i + 1]->v->offset, true, NULL, &p, &pl, &nm, &nl))
		{
			/* an xml_choice list's element: named as the document names it */
			for (int k = 0; k + 1 < fld->npath; k++)
				if (fld->xml_path[k].local)
					sd_xpath_element(buf, NULL, 0, fld->xml_path[k].local,
									 strlen(fld->xml_path[k].local), 0);
			sd_xpath_element(buf, p, pl, nm, nl, 0);
			continue;
		}
		if (fld->xml_kind != SD_XML_TEXT && fld->xml.local)
		{
			const char *p2,
					   *n2;
			size_t		pl2,
						nl2;
			int64		at = s->v ? s->v->offset : -1;

			/* a flattened list: the name as written at the element the path goes on to */
			if (xml_name_at(cx, at, fld->xml_kind == SD_XML_ELEMENT, fld->xml.local, &p2, &pl2,
							&n2, &nl2) ||
				(i + 1 < n && steps[i + 1]->field == NULL && steps[i + 1]->key == NULL &&
				 steps[i + 1]->v &&
				 xml_name_at(cx, steps[i + 1]->v->offset, true, fld->xml.local, &p2, &pl2, &n2,
							 &nl2)))
			{
				p = p2;
				pl = pl2;
			}
		}
		for (int k = 0; k < fld->npath; k++)
		{
			const sd_xml_name *x = &fld->xml_path[k];
			bool		last = k == fld->npath - 1;
			const char *sp = NULL;
			size_t		spl = 0;

			if (x->local == NULL)
				continue;
			if (p && (last || (x->ns && fld->xml.ns && strcmp(x->ns, fld->xml.ns) == 0)))
			{
				sp = p;
				spl = pl;
			}
			if (last && fld->xml_kind == SD_XML_TEXT)
				break;			/* the element's text: at the element */
			if (last && fld->xml_kind == SD_XML_ATTRIBUTE)
				sd_xpath_attribute(buf, sp, spl, x->local, strlen(x->local));
			else
				sd_xpath_element(buf, sp, spl, x->local, strlen(x->local), 0);
		}
	}
	if (buf[0] == '\0')
		strcpy(buf, "/");
}

static void
render_path(SdConvert *cx, const ConvFrame *f, char *buf)
{
	int			n = 0;
	int			i;
	const ConvFrame **steps;

	for (const ConvFrame *x = f; x; x = x->up)
		n++;
	steps = palloc(sizeof(ConvFrame *) * Max(n, 1));
	i = n;
	for (const ConvFrame *x = f; x; x = x->up)
		steps[--i] = x;
	if (cx->doc.kind == SD_PG_DOC_XML)
	{
		render_xpath(cx, steps, n, buf);
		pfree(steps);
		return;
	}
	conv_locate(cx);
	strlcpy(buf, (cx->locate && cx->root_path[0]) ? cx->root_path : "$", SD_PATH_MAX);
	for (i = 0; i < n; i++)
	{
		const ConvFrame *s = steps[i];

		if (s->silent)
			continue;
		if (s->key)
			sd_path_member(buf, s->key->u.s, s->key->len);
		else if (s->field == NULL)
			sd_path_index(buf, s->index);
		else if (!s->field->is_extra)
		{
			for (int k = 0; k < s->field->npath; k++)
				sd_path_member(buf, s->field->path[k], strlen(s->field->path[k]));
		}
	}
	pfree(steps);
}

/* "<shape>: <path>: " (or "<shape>: <option path>: [<path>: ]" while converting a default). */
static char *
conv_prefix(SdConvert *cx, const ConvFrame *f)
{
	char		path[SD_PATH_MAX];

	const char *shape = cx->plan->display;
	size_t		size;
	char	   *out;

	render_path(cx, f, path);
	if (cx->option_path)
	{
		shape = psprintf("%s: %s", cx->plan->display, cx->option_path);
		if (strcmp(path, "$") == 0)
			path[0] = '\0';
	}
	/* the core's formatter with an empty problem: "<shape>: <path>: " */
	size = strlen(shape) + SD_PATH_MAX + 8;
	out = palloc(size);
	sd_message(out, size, shape, path, "");
	return out;
}

/*
 * A violation of one of serde's own checks: soft (sets cx->failed) under serde_valid, else an
 * error with the value's path and, for JSON text, its byte offset.
 */
static void
conv_fail(SdConvert *cx, const ConvFrame *f, const sd_val *v, int sqlstate, const char *fmt,...)
pg_attribute_printf(5, 6);

static void
conv_fail(SdConvert *cx, const ConvFrame *f, const sd_val *v, int sqlstate, const char *fmt,...)
{
	char		problem[SD_PROBLEM_MAX];
	va_list		ap;

	/* serde_valid: only the verdict */
	if (cx->soft && !cx->option_path && (!cx->collect || cx->failed))
	{
		cx->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (cx->soft && !cx->option_path)
	{
		/* serde_errors: every adapter-side violation becomes a row */
		char		path[SD_PATH_MAX];

		render_path(cx, f, path);
		pgs_found_add(cx, path, v ? conv_offset(cx, v) : -1, sqlstate, problem);
		cx->failed = true;
		return;
	}
	pgs_raise_value(conv_prefix(cx, f), sqlstate, problem, &cx->doc,
					v ? conv_offset(cx, v) : -1, cx->option_path != NULL);
}

static void
conv_internal(SdConvert *cx, const sd_node *node, const sd_val *v)
{
	pgs_plan_names(cx->plan);
	elog(ERROR, "serde: %s: unexpected tape value %d for type %s",
		 cx->plan->display, (int) v->tag, node->type->name);
}

static int
path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static bool
core_path_is(SdConvert *cx, const char *path)
{
	return bsearch(&path, cx->core_paths, cx->ncore_paths, sizeof(char *), path_cmp) != NULL;
}

/*
 * serde_errors: did the core report an error at this value's path or above it (a missing
 * member, or a missing `path` parent)?  Then its unmarked NULL slot is no value.
 */
static bool
core_error_at(SdConvert *cx, const ConvFrame *f)
{
	char		path[SD_PATH_MAX];
	bool		quoted = false;
	bool		xml = cx->doc.kind == SD_PG_DOC_XML;

	if (cx->ncore_paths == 0)
		return false;
	render_path(cx, f, path);
	for (int i = 1; path[i]; i++)
	{
		if (quoted)
		{
			if (path[i] == '\\' && path[i + 1])
				i++;
			else if (path[i] == '"')
				quoted = false;
			continue;
		}
		if (path[i] == '"' && !xml)
			quoted = true;
		else if (path[i] == (xml ? '/' : '.') || path[i] == '[')
		{
			char		c = path[i];
			bool		hit;

			path[i] = '\0';
			hit = core_path_is(cx, path);
			path[i] = c;
			if (hit)
				return true;
		}
	}
	return core_path_is(cx, path);
}

/* Calls an input-like function; its errors propagate with the value's path prefixed. */
/* In a PG_CATCH: re-raises the error with the value's path (and shape) prefixed. */
static pg_attribute_noreturn() void
rethrow_with_path(SdConvert *cx, const ConvFrame *f, MemoryContext oldcxt)
{
	char	   *prefix;

	MemoryContextSwitchTo(oldcxt);
	prefix = conv_prefix(cx, f);
	pgs_rethrow_prefixed(oldcxt, prefix, cx->option_path ? ERRCODE_INVALID_PARAMETER_VALUE : 0);
}

static Datum
call_prefixed(SdConvert *cx, const ConvFrame *f, FmgrInfo *flinfo, PGFunction fn,
			  char *str, Oid ioparam, int32 typmod)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile Datum d = (Datum) 0;

	PG_TRY();
	{
		if (flinfo)
			d = InputFunctionCall(flinfo, str, ioparam, typmod);
		else
			d = DirectFunctionCall3(fn, CStringGetDatum(str), ObjectIdGetDatum(ioparam),
									Int32GetDatum(typmod));
	}
	PG_CATCH();
	{
		rethrow_with_path(cx, f, oldcxt);
	}
	PG_END_TRY();
	return d;
}

/* ---- domains ----------------------------------------------------------------------------------- */

static bool
eval_check(SdConvert *cx, SdPgType *h, DomainConstraintState *con, Datum d, bool isnull,
		   const ConvFrame *f)
{
	SdPgPlan   *p = cx->plan;
	ExprContext *volatile econtext;
	volatile bool own = false;
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile bool ok = true;

	if (!p->econtext_busy)
	{
		if (p->econtext == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(p->cxt);

			p->econtext = CreateStandaloneExprContext();
			MemoryContextSwitchTo(old);
		}
		econtext = p->econtext;
		p->econtext_busy = true;
	}
	else
	{
		/* a CHECK expression decoding with the same plan: use a context of our own */
		econtext = CreateStandaloneExprContext();
		own = true;
	}
	/* whatever an earlier CHECK left behind goes now at the latest (see the PG_CATCH) */
	ResetExprContext(econtext);
	econtext->domainValue_datum = MakeExpandedObjectReadOnly(d, isnull, h->typlen);
	econtext->domainValue_isNull = isnull;
	PG_TRY();
	{
		ok = ExecCheck(con->check_exprstate, econtext);
	}
	PG_CATCH();
	{
		char	   *prefix;

		/*
		 * A raising CHECK: its per-row memory goes with it.  The plan's econtext lives in the
		 * plan's context, so memory left there would stay for the plan's lifetime.
		 */
		MemoryContextSwitchTo(oldcxt);
		if (own)
			FreeExprContext(econtext, false);
		else
		{
			ResetExprContext(econtext);
			p->econtext_busy = false;
		}
		prefix = conv_prefix(cx, f);
		pgs_rethrow_prefixed(oldcxt, prefix,
							   cx->option_path ? ERRCODE_INVALID_PARAMETER_VALUE : 0);
	}
	PG_END_TRY();
	if (own)
		FreeExprContext(econtext, true);
	else
	{
		ReScanExprContext(econtext);
		p->econtext_busy = false;
	}
	return ok;
}

static void
check_domain(SdConvert *cx, SdPgType *h, Datum d, bool isnull, const ConvFrame *f,
			 const sd_val *v)
{
	ListCell   *lc;

	pgs_domain_ref_update(cx->plan->cxt, h);	/* this role's CHECK states */
	foreach(lc, h->domref->constraints)
	{
		DomainConstraintState *con = (DomainConstraintState *) lfirst(lc);

		switch (con->constrainttype)
		{
			case DOM_CONSTRAINT_NOTNULL:
				if (isnull)
					conv_fail(cx, f, v, ERRCODE_NOT_NULL_VIOLATION,
							  "domain %s does not allow null values", h->name);
				break;
			case DOM_CONSTRAINT_CHECK:
				if (!eval_check(cx, h, con, d, isnull, f))
					conv_fail(cx, f, v, ERRCODE_CHECK_VIOLATION,
							  "value violates check constraint \"%s\" of domain %s",
							  con->name, h->name);
				break;
		}
		if (cx->failed)
			return;
	}
}

/* ---- scalars -------------------------------------------------------------------------------- */

static Datum
conv_string(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v,
			const ConvFrame *f)
{
	switch (node->type->kind)
	{
		case SD_K_TEXT:
			if (h->bpchar)
			{
				int			chars = pg_mbstrlen_with_len(v->u.s, (int) v->len);
				int			pad = h->max_chars > chars ? h->max_chars - chars : 0;
				text	   *t = palloc(VARHDRSZ + v->len + pad);

				SET_VARSIZE(t, VARHDRSZ + v->len + pad);
				memcpy(VARDATA(t), v->u.s, v->len);
				memset(VARDATA(t) + v->len, ' ', pad);
				return PointerGetDatum(t);
			}
			/* written by the row or array it goes into (compose.c), else made by sd_pend_datum */
			cx->pend_out = SD_PEND_BYTES;
			return PointerGetDatum(v);
		case SD_K_OTHER:
			return call_prefixed(cx, f, &h->infunc, NULL, pnstrdup(v->u.s, v->len),
								 h->typioparam, h->basetypmod);
		default:
			conv_internal(cx, node, v);
	}
	return (Datum) 0;
}

static Datum
conv_numeric(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v,
			 const ConvFrame *f)
{
	char		buf[64];
	char	   *str;
	Numeric		num;

	/* a number of a jsonb document, already checked against the typmod (jsonb_walk.c) */
	if (v->aux == SD_PG_AUX_NUMERIC && !cx->collect)
		return NumericGetDatum(sd_numeric_with_typmod((Numeric) v->u.s, h->basetypmod));
	/* plain decimals that fit int64: built directly, exactly as numeric_in would */
	if (sd_numeric_fast(v->u.s, v->len, h->basetypmod, &num))
		return NumericGetDatum(num);
	/*
	 * numeric's storage limits (131072 integer digits, display scale 16383, the exponents) are
	 * the core's check (sd_check_numeric, 22003 "value ... overflows numeric format"): every
	 * SD_V_NUMERIC passed it, a default when the plan was compiled, so numeric_in below cannot
	 * raise for them (sql/numeric_limits.sql shows it for JSON text, jsonb and XML).
	 */
	if (v->len < sizeof(buf))
	{
		memcpy(buf, v->u.s, v->len);
		buf[v->len] = '\0';
		str = buf;
	}
	else
		str = pnstrdup(v->u.s, v->len);
	return call_prefixed(cx, f, NULL, numeric_in, str, InvalidOid, h->basetypmod);
}

/* An exact numeric the core parsed (SD_V_DECIMAL): built from its digits, no text parsed. */
static Datum
conv_decimal(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v,
			 const ConvFrame *f)
{
	int64		digits = v->u.i;
	uint64		mag = digits < 0 ? (uint64) 0 - (uint64) digits : (uint64) digits;
	char		buf[SD_FMT_TIMESTAMP_MAX];
	Numeric		num;

	if (node->type->kind != SD_K_NUMERIC)
		conv_internal(cx, node, v);
	if (sd_numeric_from_decimal(digits < 0, mag, (int) (v->len & SD_DECIMAL_SCALE),
								h->basetypmod, &num))
		return NumericGetDatum(num);
	/* a typmod the builder leaves to numeric_in (negative scale, scale above precision) */
	sd_format_decimal(buf, digits, v->len);
	return call_prefixed(cx, f, NULL, numeric_in, buf, InvalidOid, h->basetypmod);
}

/*
 * sd_jsonb_from_events / sd_jsonb_from_text over the value; what they raise (numeric_in's
 * errors, jsonb's size limits) gets the value's path prefixed, as call_prefixed does for jsonb_in.
 * NULL: use jsonb_in.
 */
static Jsonb *
build_jsonb_prefixed(SdConvert *cx, const ConvFrame *f, const sd_val *v)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	Jsonb	   *volatile jb = NULL;

	PG_TRY();
	{
		/* from the walker's events when it left some, else from the text */
		if (v->aux != 0 && cx->events != NULL)
			jb = sd_jsonb_from_events(cx->events + (v->aux - 1));
		if (jb == NULL)
			jb = sd_jsonb_from_text(v->u.s, v->len);
	}
	PG_CATCH();
	{
		rethrow_with_path(cx, f, oldcxt);
	}
	PG_END_TRY();
	return jb;
}

static Datum
conv_json(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v, const ConvFrame *f)
{
	Jsonb	   *jb;

	if (v->aux == SD_PG_AUX_JSONB && !cx->collect)
	{
		/* a container of a jsonb document: its bytes are the Jsonb's (copied into the result's
		 * memory: the document's goes away after the call) */
		if (node->type->kind != SD_K_JSONB)
			conv_internal(cx, node, v);
		cx->pend_out = SD_PEND_BYTES;	/* copied by compose.c */
		return PointerGetDatum(v);
	}
	if (node->type->kind == SD_K_JSON)
	{
		cx->pend_out = SD_PEND_BYTES;
		return PointerGetDatum(v);
	}
	if (node->type->kind != SD_K_JSONB)
		conv_internal(cx, node, v);
	jb = build_jsonb_prefixed(cx, f, v);
	if (jb)
		return PointerGetDatum(jb);
	/*
	 * What the builder leaves to jsonb_in (which raises the right error).  \u0000 never gets
	 * here from a document: the core refuses it in every value kept as jsonb (22032 "\u0000
	 * cannot be stored in jsonb", engine_skip.c), jsonb input cannot hold it and XML refuses
	 * jsonb columns (0A000); a `default` cannot hold it (options are jsonb, whose input
	 * refuses it before serde sees them).
	 * sql/numeric_limits.sql shows all three.
	 */
	return call_prefixed(cx, f, NULL, jsonb_in, pnstrdup(v->u.s, v->len), InvalidOid, -1);
}

static Datum
conv_enum(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v, const ConvFrame *f)
{
	int64		i = v->u.i;

	if (i < 0 || i >= h->nlabels)
		conv_internal(cx, node, v);
	if (h->label_safe[i])
		return ObjectIdGetDatum(h->label_oids[i]);
	/* a label added by a transaction still in progress: enum_in decides (and raises) */
	return call_prefixed(cx, f, &h->infunc, NULL, pstrdup(h->labels[i]), h->typioparam, -1);
}

/* ---- containers ------------------------------------------------------------------------------- */

/* a row's or an array's values and nulls on the stack up to this many (else palloc'd) */
#define SD_ROW_STACK_COLS 16

/* The elements of a multi-dimensional array level (v, rectangular as the engine checked it:
 * the shape is checked again, for serde_errors' tapes) into vals / nulls in row-major order. */
static bool
conv_md_level(SdConvert *cx, const sd_node *en, const sd_val *v, int level, int nd,
			  const int *dims, const ConvFrame *up, Datum *vals, bool *nulls, Size *k, bool *bad)
{
	ConvFrame	fr = {.up = up};

	if (v->tag != SD_V_ARRAY || (int) v->len != dims[level])
		return false;
	for (uint32 i = 0; i < v->len; i++)
	{
		const sd_val *ev = &cx->tape[v->u.first + i];

		fr.index = i;
		fr.v = ev;
		if (level + 1 < nd)
		{
			if (!conv_md_level(cx, en, ev, level + 1, nd, dims, &fr, vals, nulls, k, bad))
				return false;
			continue;
		}
		if ((*k & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
		vals[*k] = conv(cx, en, ev, &fr, &nulls[*k]);
		(*k)++;
		if (cx->failed)
		{
			if (!cx->collect)
				return false;
			cx->failed = false; /* serde_errors: the other elements are still checked */
			*bad = true;
		}
	}
	return true;
}

/* A multi-dimensional array (nested arrays into a scalar array type): its dimensions are the
 * lengths down the first elements; an empty level ([[]], [[], []]) is the empty array. */
static Datum
conv_md_array(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f)
{
	const sd_node *en = node->elem;
	SdPgType   *eh = pgs_host(en->type);
	int			dims[MAXDIM],
				lbs[MAXDIM],
				nd = 0;
	const sd_val *x = v;
	Size		total,
				k = 0;
	Datum	   *vals;
	bool	   *nulls;
	bool		bad = false;
	ArrayType  *a;

	while (x->tag == SD_V_ARRAY)
	{
		if (nd == MAXDIM)
			conv_internal(cx, node, v);
		dims[nd] = (int) x->len;
		lbs[nd++] = 1;
		if (x->len == 0)
			return PointerGetDatum(construct_empty_array(eh->typid));
		x = &cx->tape[x->u.first];
	}
	check_stack_depth();
	total = (Size) ArrayGetNItems(nd, dims);
	vals = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(Datum) * total);
	nulls = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(bool) * total);
	if (!conv_md_level(cx, en, v, 0, nd, dims, f, vals, nulls, &k, &bad) || k != total)
	{
		if (!cx->collect)
			conv_internal(cx, node, v);
		cx->failed = true;		/* serde_errors: the core reported the shape */
		return (Datum) 0;
	}
	if (bad)
	{
		cx->failed = true;
		return (Datum) 0;
	}
	a = construct_md_array(vals, nulls, nd, dims, lbs, eh->typid, eh->typlen, eh->typbyval,
						   eh->typalign);
	pfree(vals);
	pfree(nulls);
	return PointerGetDatum(a);
}

static pg_noinline Datum
conv_array(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f)
{
	const sd_node *en = node->elem;
	SdPgType   *eh;
	uint32		n = v->len;
	Datum		vbuf[SD_ROW_STACK_COLS];
	bool		nbuf[SD_ROW_STACK_COLS];
	uint8		pbuf[SD_ROW_STACK_COLS];
	Datum	   *vals = vbuf;
	bool	   *nulls = nbuf;
	ConvFrame	fr;
	uint8	   *pend = pbuf;
	int			dims[1];
	int			lbs[1];
	SdPend	   *p;
	Datum		d;
	bool		bad = false;

	if (en == NULL)
		conv_internal(cx, node, v);
	eh = pgs_host(en->type);
	if (n == 0)
		return PointerGetDatum(construct_empty_array(eh->typid));
	if (node->type->max_dims > 1 && cx->tape[v->u.first].tag == SD_V_ARRAY)
		return conv_md_array(cx, node, v, f);
	check_stack_depth();
	if (n > SD_ROW_STACK_COLS)
	{
		vals = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(Datum) * (Size) n);
		nulls = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(bool) * (Size) n);
		pend = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint8) * (Size) n);
	}
	fr.up = f;
	fr.field = NULL;
	fr.key = NULL;
	fr.silent = false;
	for (uint32 i = 0; i < n; i++)
	{
		const sd_val *ev = &cx->tape[v->u.first + i];

		fr.index = i;
		fr.v = ev;
		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();	/* big arrays: cancel and statement_timeout act promptly */
		/* a map (an object read into (key, value) rows): the step is the member's key */
		fr.key = NULL;
		if (node->is_map && ev->tag == SD_V_ROW && ev->len >= 1 &&
			cx->tape[ev->u.first].tag == SD_V_STR)
			fr.key = &cx->tape[ev->u.first];
		else if (node->is_map && cx->collect)
		{
			bad = true;			/* serde_errors: an entry whose key failed */
			pend[i] = SD_PEND_NONE;
			continue;
		}
		vals[i] = conv_p(cx, en, ev, &fr, &nulls[i], &pend[i]);
		if (cx->failed)
		{
			if (!cx->collect)
				return (Datum) 0;
			cx->failed = false; /* serde_errors: the other elements are still checked */
			bad = true;
		}
	}
	if (bad)
	{
		cx->failed = true;
		return (Datum) 0;
	}
	/* formed with its parent (compose.c), else as construct_md_array does */
	p = sd_pend_array((int) n, vals, nulls, pend, eh->typid, eh->typlen, eh->typbyval,
					  eh->typalign);
	if (p)
	{
		cx->pend_out = SD_PEND_VALUE;
		d = PointerGetDatum(p);
	}
	else
	{
		sd_pend_form_all((int) n, vals, nulls, pend);
		dims[0] = (int) n;
		lbs[0] = 1;
		d = PointerGetDatum(construct_md_array(vals, nulls, 1, dims, lbs, eh->typid, eh->typlen,
											   eh->typbyval, eh->typalign));
	}
	if (vals != vbuf)
	{
		pfree(vals);
		pfree(nulls);
		pfree(pend);
	}
	return d;
}


static bool
is_variant_column(const sd_node *node, int col)
{
	for (int i = 0; i < node->nvariants; i++)
		if (node->variants[i].col == col)
			return true;
	return false;
}

static pg_noinline Datum
conv_row(SdConvert *cx, const sd_node *node, SdPgType *h, const sd_val *v, const ConvFrame *f)
{
	TupleDesc	td = h->tupdesc;
	Datum		vbuf[SD_ROW_STACK_COLS];
	bool		nbuf[SD_ROW_STACK_COLS];
	uint8		pbuf[SD_ROW_STACK_COLS];
	Datum	   *vals = vbuf;
	bool	   *nulls = nbuf;
	uint8	   *pend = pbuf;
	ConvFrame	fr;
	SdPend	   *p;
	Datum		d;
	bool		bad = false;

	if (td == NULL || v->len != (uint32) node->nfields || node->nfields != h->ncols)
		conv_internal(cx, node, v);
	check_stack_depth();
	if (td->natts > SD_ROW_STACK_COLS)
	{
		vals = palloc(sizeof(Datum) * td->natts);
		nulls = palloc(sizeof(bool) * td->natts);
		pend = palloc(sizeof(uint8) * td->natts);
	}
	memset(nulls, true, sizeof(bool) * Max(td->natts, 1));
	memset(pend, SD_PEND_NONE, sizeof(uint8) * Max(td->natts, 1));
	fr.up = f;
	fr.index = 0;
	fr.key = NULL;
	for (int i = 0; i < node->nfields; i++)
	{
		const sd_field *fld = &node->fields[i];
		int			a = h->attnos[fld->col];
		const sd_val *cv = &cx->tape[v->u.first + fld->col];

		/* a NULL of a type without constraints: what conv_value would leave (nulls[a] is set) */
		if (cv->tag == SD_V_NULL && !cx->collect && !pgs_host(fld->node->type)->is_domain)
			continue;
		fr.field = fld;
		fr.v = cv;
		/* the key and value of a map entry sit at the entry's own member; a union's variant
		 * column decodes the enclosing object itself */
		fr.silent = (f && f->key) || is_variant_column(node, fld->col);
		vals[a] = conv_p(cx, fld->node, cv, &fr, &nulls[a], &pend[a]);
		if (cx->failed)
		{
			if (!cx->collect)
				return (Datum) 0;
			cx->failed = false; /* serde_errors: the other columns are still checked */
			bad = true;
		}
	}
	if (bad)
	{
		cx->failed = true;
		return (Datum) 0;
	}
	/* formed with its parent (compose.c), else by heap_form_tuple */
	p = sd_pend_row(td, vals, nulls, pend);
	if (p)
	{
		cx->pend_out = SD_PEND_VALUE;
		d = PointerGetDatum(p);
	}
	else
	{
		sd_pend_form_all(td->natts, vals, nulls, pend);
		d = HeapTupleGetDatum(heap_form_tuple(td, vals, nulls));
	}
	if (vals != vbuf)
	{
		pfree(vals);
		pfree(nulls);
		pfree(pend);
	}
	return d;
}

/* ---- one value ------------------------------------------------------------------------------- */

static Datum
conv_value(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f, bool *isnull)
{
	SdPgType   *h = pgs_host(node->type);
	Datum		d = (Datum) 0;

	*isnull = false;
	switch ((sd_vtag) v->tag)
	{
		case SD_V_NULL:
			*isnull = true;
			break;
		case SD_V_DEFAULT:
			d = pgs_plan_default(cx->plan, (int) v->len, isnull);
			break;
		case SD_V_BOOL:
			d = BoolGetDatum(v->u.b);
			break;
		case SD_V_INT:
			switch (node->type->kind)
			{
				case SD_K_INT2:
					d = Int16GetDatum((int16) v->u.i);
					break;
				case SD_K_INT4:
					d = Int32GetDatum((int32) v->u.i);
					break;
				case SD_K_INT8:
					d = Int64GetDatum(v->u.i);
					break;
				default:
					conv_internal(cx, node, v);
			}
			break;
		case SD_V_FLOAT:
			if (node->type->kind == SD_K_FLOAT4)
				d = Float4GetDatum((float4) v->u.f);
			else if (node->type->kind == SD_K_FLOAT8)
				d = Float8GetDatum(v->u.f);
			else
				conv_internal(cx, node, v);
			break;
		case SD_V_STR:
			d = conv_string(cx, node, h, v, f);
			break;
		case SD_V_NUMERIC:
			d = conv_numeric(cx, node, h, v, f);
			break;
		case SD_V_DECIMAL:
			d = conv_decimal(cx, node, h, v, f);
			break;
		case SD_V_TIMESTAMP:
			{
				Timestamp	ts = v->u.i - SD_PG_EPOCH_US;

				if (h->basetypmod >= 0)
					pgs_adjust_timestamp(&ts, h->basetypmod);
				if (node->type->kind == SD_K_TIMESTAMPTZ)
					d = TimestampTzGetDatum((TimestampTz) ts);
				else if (node->type->kind == SD_K_TIMESTAMP)
					d = TimestampGetDatum(ts);
				else
					conv_internal(cx, node, v);
				break;
			}
		case SD_V_DATE:
			d = DateADTGetDatum((DateADT) (v->u.i - SD_PG_EPOCH_DAYS));
			break;
		case SD_V_TIME:
			{
				TimeADT		t = (TimeADT) v->u.i;

				if (h->basetypmod >= 0)
					AdjustTimeForTypmod(&t, h->basetypmod);
				d = TimeADTGetDatum(t);
				break;
			}
		case SD_V_UUID:
			{
				pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

				memcpy(u->data, v->u.bytes, UUID_LEN);
				d = UUIDPGetDatum(u);
				break;
			}
		case SD_V_BYTES:
			/* written by the row or array it goes into (compose.c), else by sd_pend_datum */
			cx->pend_out = SD_PEND_BYTES;
			d = PointerGetDatum(v);
			break;
		case SD_V_ENUM:
			d = conv_enum(cx, node, h, v, f);
			break;
		case SD_V_JSON:
			d = conv_json(cx, node, h, v, f);
			break;
		case SD_V_ARRAY:
			d = conv_array(cx, node, v, f);
			break;
		case SD_V_ROW:
			d = conv_row(cx, node, h, v, f);
			break;
		default:
			conv_internal(cx, node, v);
	}
	if (cx->failed)
		return (Datum) 0;
	if (h->is_domain)
	{
		if (cx->pend_out)
		{
			/* a domain's CHECK reads the value: formed now */
			d = sd_pend_datum(cx->pend_out, d);
			cx->pend_out = SD_PEND_NONE;
		}
		check_domain(cx, h, d, *isnull, f, v);
	}
	return d;
}

/* serde_errors: a value of a tape with marks (SdConvert.collect) */
static Datum
conv_marked(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f,
			bool *isnull)
{
	uint32		mark = v->aux;
	uint32		saved = cx->key;
	Datum		d = (Datum) 0;

	*isnull = true;
	if ((mark & SD_MARK_FAILED) ||
		(mark == 0 && v->tag == SD_V_NULL && cx->dirty > 0 && core_error_at(cx, f)))
	{
		cx->failed = true;		/* the core reported it */
		return (Datum) 0;
	}
	/*
	 * Once the core has found violations, a value read through another type's input function
	 * (inet, interval, …) is not converted: its error could not be reported softly and would
	 * raise instead of the rows (PostgreSQL 15 has no soft input errors).  On a document whose
	 * only problems are such values, the input function's error propagates as in serde_decode.
	 */
	if (cx->ncore_paths > 0 && node->kind == SD_K_OTHER && v->tag != SD_V_NULL)
		return (Datum) 0;
	if (mark & SD_MARK_SEQ)
		cx->key = mark & SD_MARK_SEQ;
	if (mark & SD_MARK_DIRTY)
	{
		/* errors inside: not a whole value, but what is whole inside it is still checked */
		if (v->tag == SD_V_ROW || v->tag == SD_V_ARRAY)
		{
			cx->dirty++;
			(void) conv_value(cx, node, v, f, isnull);
			cx->pend_out = SD_PEND_NONE;	/* not a value: nothing to form */
			cx->dirty--;
		}
		*isnull = true;
		cx->failed = true;
	}
	else
		d = conv_value(cx, node, v, f, isnull);
	cx->key = saved;
	return d;
}

/* A value that may be left pending (compose.c: a row, an array or bytes its parent writes): *pend
 * says which (SD_PEND_*). */
static inline Datum
conv_p(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f, bool *isnull,
	   uint8 *pend)
{
	Datum		d;

	cx->pend_out = SD_PEND_NONE;
	d = cx->collect ? conv_marked(cx, node, v, f, isnull) : conv_value(cx, node, v, f, isnull);
	*pend = cx->pend_out;
	cx->pend_out = SD_PEND_NONE;
	return d;
}

/* A value as a Datum. */
static Datum
conv(SdConvert *cx, const sd_node *node, const sd_val *v, const ConvFrame *f, bool *isnull)
{
	uint8		pend;
	Datum		d = conv_p(cx, node, v, f, isnull, &pend);

	return pend ? sd_pend_datum(pend, d) : d;
}

Datum
pgs_convert(SdConvert *cx, const sd_node *node, uint32 root, bool *isnull)
{
	cx->root = &cx->tape[root];
	return conv(cx, node, cx->root, NULL, isnull);
}

void
pgs_convert_init(SdConvert *cx, SdPgPlan *plan, const sd_val *tape, bool soft,
				 const SdPgDoc *doc, const char *option_path)
{
	memset(cx, 0, sizeof(*cx));
	cx->plan = plan;
	cx->tape = tape;
	cx->soft = soft;
	if (doc)
		cx->doc = *doc;
	else
		cx->doc.kind = SD_PG_DOC_JSONB;	/* a default: no document, no locations */
	cx->option_path = option_path;
}

/* ---- defaults ------------------------------------------------------------------------------------ */

/*
 * A default's value compiled with the plan (sd_plan_default_value) as a Datum of its column, in
 * the caller's memory, under the caller's settings and role; what the conversion raises (domain
 * CHECK, input functions) is "<shape>: <option path>: ..." 22023.  No decode runs.  The plan is
 * held by the caller: a decode holds it for the whole conversion, a builder owns it.
 */
static pg_noinline Datum
convert_default(SdPgPlan *plan, const sd_node *node, const sd_val *tape, uint32 root,
				const char *option_path, bool *isnull)
{
	SdConvert	cx;

	pgs_convert_init(&cx, plan, tape, false, NULL, option_path);
	return pgs_convert(&cx, node, root, isnull);
}

Datum
pgs_plan_default(SdPgPlan *p, int idx, bool *isnull)
{
	const sd_field *f;
	char		option_path[SD_PATH_MAX];
	MemoryContext tmp;
	MemoryContext old;
	Datum		d = (Datum) 0;
	SdPgType   *h;
	const sd_val *tape;
	uint32		root;

	if (idx < 0 || idx >= p->ndefaults)
		elog(ERROR, "serde: default %d out of range", idx);
	if (p->default_state[idx] == SD_DEFAULT_READY)
	{
		*isnull = p->default_nulls[idx];
		return p->defaults[idx];
	}
	if (p->default_state[idx] == SD_DEFAULT_CONVERTING)
		elog(ERROR, "serde: default %d of %s refers to itself", idx, p->display);
	f = sd_plan_default(p->plan, idx);
	if (f == NULL || !f->has_default)
		elog(ERROR, "serde: default %d of %s is missing", idx, p->display);

	strcpy(option_path, "$");
	sd_path_member(option_path, "fields", 6);
	sd_path_member(option_path, f->column, strlen(f->column));
	sd_path_member(option_path, "default", 7);

	tape = sd_plan_default_value(p->plan, idx, &root);
	if (tape == NULL)
		elog(ERROR, "serde: default %d of %s was not compiled", idx, p->display);

	if (p->default_state[idx] == SD_DEFAULT_PER_USE)
	{
		/*
		 * Converted for this use, in the caller's memory, like a document value.  (Re-entry —
		 * a CHECK decoding with this plan — is fine: the conversion keeps no state, and a
		 * default cannot contain itself, composite types being acyclic.)
		 */
		return convert_default(p, f->node, tape, root, option_path, isnull);
	}

	p->default_state[idx] = SD_DEFAULT_CONVERTING;
	tmp = AllocSetContextCreate(CurrentMemoryContext, "serde default", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	PG_TRY();
	{
		d = convert_default(p, f->node, tape, root, option_path, isnull);
	}
	PG_CATCH();
	{
		p->default_state[idx] = SD_DEFAULT_NEW;
		MemoryContextSwitchTo(old);
		MemoryContextDelete(tmp);
		PG_RE_THROW();
	}
	PG_END_TRY();
	h = pgs_host(f->node->type);
	MemoryContextSwitchTo(p->cxt);
	p->default_nulls[idx] = *isnull;
	p->defaults[idx] = *isnull ? (Datum) 0 : datumCopy(d, h->typbyval, h->typlen);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	p->default_state[idx] = SD_DEFAULT_READY;
	*isnull = p->default_nulls[idx];
	return p->defaults[idx];
}

/* ---- serde_errors ------------------------------------------------------------------------------- */

/*
 * Every violation of the document, in document order, at most serde.max_errors, for JSON text,
 * jsonb and XML alike: the core's (found[0..n), with the tape it left, marks in sd_val.aux) and,
 * merged among them by errors.c, the adapter's own checks (NOT NULL and CHECK of domains, numeric
 * storage limits ...) run softly over every value the core found whole.  A limit, memory or a
 * cancel (root UINT32_MAX) raises.  Errors raised inside other types' input functions or CHECK
 * expressions propagate (docs/reference.md, soft errors).  Memory: the entries found, never the
 * cap.
 */
void
pgs_errors_report(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node, const sd_val *tape,
				  uint32 root, const sd_found *found, int n, const SdPgDoc *doc)
{
	pgs_errors_report_at(rsinfo, plan, node, tape, root, found, n, doc, NULL, NULL);
}

void
pgs_errors_report_at(ReturnSetInfo *rsinfo, SdPgPlan *plan, const sd_node *node,
					 const sd_val *tape, uint32 root, const sd_found *found, int n,
					 const SdPgDoc *doc, void (*locate) (SdConvert *cx), void *locate_arg)
{
	SdConvert	cx;
	bool		isnull;

	pgs_errors_raise_hard(plan, found, n, doc);
	if (root == UINT32_MAX)
	{
		/* malformed input or a limit: that one error (never converted) */
		pgs_errors_put_merged(rsinfo, plan, found, n, NULL, doc->kind);
		return;
	}
	pgs_convert_init(&cx, plan, tape, true, doc, NULL);
	cx.locate = locate;
	cx.locate_arg = locate_arg;
	cx.collect = true;
	cx.max_found = pgs_max_errors;
	if (n > 0)
	{
		cx.core_paths = palloc(sizeof(char *) * n);
		for (int k = 0; k < n; k++)
			cx.core_paths[k] = found[k].path;
		qsort(cx.core_paths, n, sizeof(char *), path_cmp);
		cx.ncore_paths = n;
	}
	(void) pgs_convert(&cx, node, root, &isnull);
	pgs_found_sort(&cx);
	pgs_errors_put_merged(rsinfo, plan, found, n, &cx, doc->kind);
}
