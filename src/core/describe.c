/*
 * describe.c — the JSON description of a compiled plan (serde_describe): every field, its
 * document name, type and options, nested nodes up to a depth and a field budget.
 */
#include "internal.h"
#include "scalar_time.h"

#include <stdio.h>
#include <string.h>

/* ---- describe ----------------------------------------------------------------------------- */

typedef struct sbuf
{
	sd_hooks	hooks;
	char	   *s;
	size_t		len;
	size_t		cap;
	bool		failed;
	long		budget;         /* fields still described in full (a shared node is written
								 * at every place that reaches it) */
} sbuf;

static void
sb_put(sbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap)
	{
		size_t		ncap = b->cap ? b->cap * 2 : 1024;

		while (ncap < b->len + n + 1)
			ncap *= 2;
		char	   *ns = sd_hook_realloc(&b->hooks, b->s, ncap);

		if (!ns)
		{
			b->failed = true;
			return;
		}
		b->s = ns;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_str(sbuf *b, const char *s)
{
	size_t		len = strlen(s),
				used;
	char		esc[256];

	sb_put(b, "\"", 1);
	for (size_t done = 0; done < len; done += used)
		sb_put(b, esc, sd_json_escape(esc, sizeof(esc), s + done, len - done, &used));
	sb_put(b, "\"", 1);
}

static void
sb_key(sbuf *b, const char *k, bool first)
{
	if (!first)
		sb_put(b, ", ", 2);
	sb_str(b, k);
	sb_put(b, ": ", 2);
}

static const char *
format_name(sd_format f)
{
	static const char *const names[] = {NULL, "rfc3339", "unix", "unix_ms", "base64", "base64url", "hex", "rfc2822",
	"iso8601", "base64_mime", NULL};

	return (unsigned) f < sizeof(names) / sizeof(names[0]) ? names[f] : NULL;
}

static void describe_node(sbuf *b, const sd_node *n, int depth);

/* An XML name as a JSON string in Clark notation: "{uri}local", or "local" without a namespace. */
static void
sb_xname(sbuf *b, const char *ns, const char *local)
{
	size_t		n = (ns ? strlen(ns) + 2 : 0) + strlen(local) + 1;
	char	   *s = b->failed ? NULL : sd_hook_alloc(&b->hooks, n);

	if (!s)
	{
		b->failed = true;
		return;
	}
	snprintf(s, n, "%s%s%s%s", ns ? "{" : "", ns ? ns : "", ns ? "}" : "", local);
	sb_str(b, s);
	sd_hook_free(&b->hooks, s);
}

/* "xml": the field's XML kind and names (null: a name that is no XML name) */
static void
describe_xml_field(sbuf *b, const sd_field *f)
{
	static const char *const kinds[] = {"element", "attribute", "text"};

	sb_key(b, "xml", false);
	if (f->xml_kind != SD_XML_TEXT && !f->xml_path)
	{
		sb_put(b, "null", 4);
		return;
	}
	sb_put(b, "{", 1);
	sb_key(b, "kind", true);
	sb_str(b, f->xml_presence ? "presence" : kinds[f->xml_kind]);
	if (f->xml_kind != SD_XML_TEXT)
	{
		sb_key(b, "name", false);
		sb_xname(b, f->xml.ns, f->xml.local);
		if (f->npath > 1)
		{
			sb_key(b, "path", false);
			sb_put(b, "[", 1);
			for (int k = 0; k < f->npath; k++)
			{
				if (k)
					sb_put(b, ", ", 2);
				sb_xname(b, f->xml_path[k].ns, f->xml_path[k].local);
			}
			sb_put(b, "]", 1);
		}
	}
	if (f->xml_item.local)
	{
		sb_key(b, "item", false);
		sb_xname(b, f->xml_item.ns, f->xml_item.local);
	}
	if (f->nxml_choice)
	{
		sb_key(b, "choice", false);
		sb_put(b, "[", 1);
		for (int k = 0; k < f->nxml_choice; k++)
		{
			if (k)
				sb_put(b, ", ", 2);
			sb_xname(b, f->xml_choice[k].ns, f->xml_choice[k].local);
		}
		sb_put(b, "]", 1);
	}
	sb_put(b, "}", 1);
}

/* "one_of": {"string": "author_name", "object": "author"} (kinds in sd_one_kind's order) */
static void
describe_one_of(sbuf *b, const sd_one_of *g)
{
	static const char *const kinds[SD_ONE_KINDS] = {"string", "number", "boolean", "object", "array"};
	bool		first = true;

	sb_key(b, "one_of", false);
	sb_put(b, "{", 1);
	for (int k = 0; k < SD_ONE_KINDS; k++)
		if (g->kinds & (1u << k))
		{
			sb_key(b, kinds[k], first);
			sb_str(b, g->cols[k]);
			first = false;
		}
	sb_put(b, "}", 1);
}

static void
describe_fields(sbuf *b, const sd_node *n, int depth)
{
	sb_put(b, "[", 1);
	for (int i = 0; i < n->nfields; i++)
	{
		const sd_field *f = &n->fields[i];

		if (i)
			sb_put(b, ", ", 2);
		sb_put(b, "{", 1);
		sb_key(b, "column", true);
		sb_str(b, f->column);
		if (f->skip)
		{
			sb_key(b, "skip", false);
			sb_put(b, "true", 4);
		}
		else if (f->is_extra)
		{
			sb_key(b, "extra", false);
			sb_put(b, "true", 4);
		}
		else if (f->one_of && strcmp(f->one_of->carrier, f->column) != 0)
		{
			/* a column of a one_of: no member of its own */
			sb_key(b, "in_one_of", false);
			sb_str(b, f->one_of->carrier);
		}
		else
		{
			sb_key(b, "name", false);
			sb_str(b, f->name);
			if (f->npath > 1)
			{
				sb_key(b, "path", false);
				sb_put(b, "[", 1);
				for (int k = 0; k < f->npath; k++)
				{
					if (k)
						sb_put(b, ", ", 2);
					sb_str(b, f->path[k]);
				}
				sb_put(b, "]", 1);
			}
			describe_xml_field(b, f);
			sb_key(b, "optional", false);
			sb_put(b, f->optional ? "true" : "false", f->optional ? 4 : 5);
			sb_key(b, "nullable", false);
			sb_put(b, f->nullable ? "true" : "false", f->nullable ? 4 : 5);
			sb_key(b, "default", false);
			if (f->has_default)
				sb_put(b, f->default_json, strlen(f->default_json));
			else
				sb_put(b, "null", 4);
			if (f->one_of)
				describe_one_of(b, f->one_of);
		}
		if (f->node->kind != SD_K_COMPOSITE && f->node->kind != SD_K_ARRAY &&
			f->node->coerce != n->coerce)
		{
			/* a field-level coerce on a scalar column */
			sb_key(b, "coerce", false);
			sb_put(b, f->node->coerce ? "true" : "false", f->node->coerce ? 4 : 5);
		}
		sb_put(b, ", ", 2);
		describe_node(b, f->node, depth + 1);
		sb_put(b, "}", 1);
	}
	sb_put(b, "]", 1);
}

/* "from": where each policy in force here was set ("Shape", "Shape at $.fields.x"), only those
 * set somewhere (the others are the defaults); the shape-level "optional" in force, when set
 * somewhere, also as "fields_optional" (its value). */
static void
describe_from(sbuf *b, const sd_node *n)
{
	const sd_policy_from *f = n->from;
	const char *const keys[] = {"rename", "unknown", "coerce", "optional"};
	const char *vals[4];
	bool		first = true;

	if (!f || (!f->rename && !f->unknown && !f->coerce && !f->optional))
		return;
	vals[0] = f->rename;
	vals[1] = f->unknown;
	vals[2] = f->coerce;
	vals[3] = f->optional;
	if (f->optional)
	{
		/* (not "optional": a field's own "optional" shares a nested composite's object) */
		sb_key(b, "fields_optional", false);
		sb_put(b, n->all_optional ? "true" : "false", n->all_optional ? 4 : 5);
	}
	sb_key(b, "from", false);
	sb_put(b, "{", 1);
	for (int k = 0; k < 4; k++)
		if (vals[k])
		{
			const char *at = vals[k][0] == '\001' ? strstr(vals[k], " at ") : NULL;
			char		tmp[SD_PATH_MAX + 32];

			sb_key(b, keys[k], first);
			if (vals[k][0] == '\001')
			{
				/* a host's private shape (SQLite's inline object, a map entry): no name to show */
				snprintf(tmp, sizeof(tmp), "an inline object%s", at ? at : "");
				sb_str(b, tmp);
			}
			else
				sb_str(b, vals[k]);
			first = false;
		}
	sb_put(b, "}", 1);
}

/* "unknown", "coerce" and "rename" in force at a composite. */
static void
describe_policies(sbuf *b, const sd_node *n)
{
	sb_key(b, "unknown", false);
	sb_str(b, n->reject_unknown ? "reject" : "ignore");
	sb_key(b, "coerce", false);
	sb_put(b, n->coerce ? "true" : "false", n->coerce ? 4 : 5);
	if (n->rename)
	{
		sb_key(b, "rename", false);
		sb_str(b, n->rename);
	}
}

/* Writes "type": ..., and kind-specific members (no braces). */
static void
describe_node(sbuf *b, const sd_node *n, int depth)
{
	sb_key(b, "type", true);
	sb_str(b, n->type->name);
	if (depth == 0)
	{
		/* XML: the root element a document must have, and the namespace of its elements */
		sb_key(b, "xml", false);
		sb_put(b, "{", 1);
		sb_key(b, "root", true);
		if (n->xml_root.local)
			sb_xname(b, n->xml_root.ns, n->xml_root.local);
		else
			sb_put(b, "null", 4);
		sb_key(b, "namespace", false);
		if (n->xml_ns)
			sb_str(b, n->xml_ns);
		else
			sb_put(b, "null", 4);
		if (n->nxml_alt)
		{
			/* `xml.namespaces`: every one its elements may be in, "namespace" first */
			sb_key(b, "namespaces", false);
			sb_put(b, "[", 1);
			if (n->xml_ns)
				sb_str(b, n->xml_ns);
			else
				sb_put(b, "null", 4);
			for (int k = 0; k < n->nxml_alt; k++)
			{
				sb_put(b, ", ", 2);
				if (n->xml_alt[k])
					sb_str(b, n->xml_alt[k]);
				else
					sb_put(b, "null", 4);
			}
			sb_put(b, "]", 1);
		}
		sb_put(b, "}", 1);
	}
	if (n->format == SD_FMT_PATTERN && n->pattern)
	{
		sb_key(b, "format", false);
		sb_put(b, "{", 1);
		sb_key(b, "pattern", true);
		sb_str(b, sd_tspattern_text(n->pattern));
		if (sd_tspattern_zone(n->pattern))
		{
			sb_key(b, "zone", false);
			sb_str(b, sd_tspattern_zone(n->pattern));
		}
		sb_put(b, "}", 1);
	}
	if (format_name(n->format))
	{
		sb_key(b, "format", false);
		sb_str(b, format_name(n->format));
	}
	if (depth > 16 || (depth > 0 && b->budget <= 0))
		return;
	if (n->kind == SD_K_ENUM)
	{
		sb_key(b, "labels", false);
		sb_put(b, "[", 1);
		for (int i = 0; i < n->type->nlabels; i++)
		{
			if (i)
				sb_put(b, ", ", 2);
			sb_str(b, n->type->labels[i]);
		}
		sb_put(b, "]", 1);
	}
	if (n->kind == SD_K_ARRAY && n->is_map)
	{
		sb_key(b, "map", false);
		sb_put(b, "true", 4);
	}
	if (n->kind == SD_K_ARRAY && n->elem)
	{
		sb_key(b, "element", false);
		sb_put(b, "{", 1);
		describe_node(b, n->elem, depth + 1);
		sb_put(b, "}", 1);
	}
	if ((n->kind == SD_K_JSON || n->kind == SD_K_JSONB) && n->elem)
	{
		sb_key(b, "validated_by", false);
		sb_str(b, n->elem->shape ? n->elem->shape : n->elem->type->name);
	}
	if (n->kind == SD_K_COMPOSITE)
	{
		/* a named shape is described on its own; a private one (a host's synthesized shape:
		 * SQLite's inline objects and map entries, names starting with a control character)
		 * has no name to look up, so its fields are described here */
		if (n->shape && n->shape[0] != '\001' && depth > 0)
		{
			sb_key(b, "shape", false);
			sb_str(b, n->shape);
			if (depth > 1)
			{
				/* described in full by its own serde_describe; the policies in force here */
				describe_policies(b, n);
				describe_from(b, n);
				return;
			}
		}
		if (n->tag)
		{
			sb_key(b, "tag", false);
			sb_str(b, n->tag);
			sb_key(b, "variants", false);
			sb_put(b, "{", 1);
			for (int i = 0; i < n->nvariants; i++)
			{
				sb_key(b, n->variants[i].value, i == 0);
				sb_str(b, n->fields[n->variants[i].col].column);
			}
			sb_put(b, "}", 1);
		}
		describe_policies(b, n);
		if (depth > 0)
		{
			/* the namespace of its elements (a field's own "xml" shares this object) */
			sb_key(b, "xml_namespace", false);
			if (n->xml_ns)
				sb_str(b, n->xml_ns);
			else
				sb_put(b, "null", 4);
		}
		sb_key(b, "fields", false);
		b->budget -= n->nfields;
		describe_fields(b, n, depth);
		describe_from(b, n);
	}
}

char *
sd_plan_describe(const sd_plan *plan, size_t *len)
{
	sbuf		b = {0};

	b.hooks = plan->arena.hooks;
	b.budget = 10000;
	sb_put(&b, "{", 1);
	sb_key(&b, "shape", true);
	sb_str(&b, plan->shape);
	sb_put(&b, ", ", 2);
	describe_node(&b, plan->root, 0);
	sb_put(&b, "}", 1);
	if (b.failed)
	{
		sd_hook_free(&b.hooks, b.s);
		return NULL;
	}
	if (len)
		*len = b.len;
	return b.s;
}
