/*
 * xmlnames.c — the XML facts of a plan (docs/reference.md, "XML names"): `{uri}local` names and NCName checks, the
 * namespace in force, each field's kind and names, and the check that no two fields of one
 * composite map the same XML element or attribute.  See xmlnames.h.
 */
#include "xmlnames.h"
#include "compile_names.h"

#include <stdio.h>
#include <string.h>

/* ---- namespaces ----------------------------------------------------------------------------- */

bool
sd_xns_intern(sd_arena *a, sd_xns_set *s, const char *uri, size_t len, const char **out,
			  uint32_t *index)
{
	*out = NULL;
	*index = 0;
	if (!uri || len == 0)
		return true;
	bool		plain = !memchr(uri, 0, len);	/* (one with a NUL is never found again) */
	int			at = plain ? sd_strtab_get(&s->idx, uri, len) : -1;

	if (at >= 0)
	{
		*out = s->v[at];
		*index = (uint32_t) at + 1;
		return true;
	}
	if (!s->idx.a)
		sd_strtab_init(&s->idx, a, false);
	if (s->n == s->cap)
	{
		uint32_t	ncap = s->cap ? s->cap * 2 : 8;
		const char **nv = sd_arena_alloc(a, sizeof(char *) * ncap);

		if (!nv)
			return false;
		if (s->n)
			memcpy(nv, s->v, sizeof(char *) * s->n);
		s->v = nv;
		s->cap = ncap;
	}
	if (!(s->v[s->n] = sd_arena_strndup(a, uri, len)))
		return false;
	if (plain && sd_strtab_put(&s->idx, s->v[s->n], len, (int) s->n) == -2)
		return false;
	*out = s->v[s->n++];
	*index = s->n;
	return true;
}

/* ---- names ---------------------------------------------------------------------------------- */

static bool
name_start(uint32_t c)
{
	return (c >= 'A' && c <= 'Z') || c == '_' || (c >= 'a' && c <= 'z') ||
		(c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) ||
		(c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
		(c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) ||
		(c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

static bool
name_char(uint32_t c)
{
	return name_start(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7 ||
		(c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

/* True when s[0..len) is an NCName (XML Namespaces 1.0); else why says what is wrong. */
static bool
ncname_ok(const char *s, size_t len, char *why, size_t size)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		i = 0;

	if (len == 0)
		return snprintf(why, size, "the local name is empty"), false;
	while (i < len)
	{
		size_t		n = sd_utf8_seq(p + i, len - i);
		uint32_t	c;

		if (n == 0)
			return snprintf(why, size, "it is not valid UTF-8"), false;
		c = n == 1 ? p[i] : n == 2 ? (uint32_t) (p[i] & 0x1F) << 6 | (p[i + 1] & 0x3F) :
			n == 3 ? (uint32_t) (p[i] & 0x0F) << 12 | (uint32_t) (p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F) :
			(uint32_t) (p[i] & 0x07) << 18 | (uint32_t) (p[i + 1] & 0x3F) << 12 |
			(uint32_t) (p[i + 2] & 0x3F) << 6 | (p[i + 3] & 0x3F);
		if (c == ':')
			return snprintf(why, size, "it contains \":\" (a prefix is not a namespace here: "
							"write {uri}local)"), false;
		if (i == 0 ? !name_start(c) : !name_char(c))
		{
			char		shown[16];

			if (c > 0x20 && c < 0x7F)
				snprintf(shown, sizeof(shown), "\"%c\"", (char) c);
			else
				snprintf(shown, sizeof(shown), "U+%04X", (unsigned) c);
			return snprintf(why, size, "it %s %s", i == 0 ? "starts with" : "contains", shown), false;
		}
		i += n;
	}
	return true;
}

/* A name as written in the options.  clark: "{uri}local" is parsed (uri "" = no namespace,
 * *has_ns true); else, and for a name without "{", the whole name is the local name and
 * *has_ns false.  SD_XR_BAD with bad->problem (the name quoted) when it is not an XML name. */
#define XML_NS "http://www.w3.org/XML/1998/namespace"

/* The namespace of prefix p[0..len) in map pfx ("xml" is always bound); NULL: not mapped. */
static const sd_xpfx *
prefix_find(const sd_xpfx *pfx, const char *p, size_t len)
{
	static const sd_xpfx xml = {"xml", XML_NS, NULL};

	for (; pfx; pfx = pfx->next)
		if (strlen(pfx->prefix) == len && memcmp(pfx->prefix, p, len) == 0)
			return pfx;
	return len == 3 && memcmp(p, "xml", 3) == 0 ? &xml : NULL;
}

static sd_xres
parse_name(sd_arena *a, sd_xns_set *s, const sd_xpfx *pfx, const char *name, bool clark,
		   sd_xml_name *out, bool *has_ns, sd_xbad *bad)
{
	char		why[160];
	uint32_t	nsi;
	const char *colon = clark && name[0] != '{' ? strchr(name, ':') : NULL;

	out->ns = NULL;
	out->local = NULL;
	*has_ns = false;
	if (clark && name[0] == '{')
	{
		const char *close = strchr(name + 1, '}');
		const char *open = strchr(name + 1, '{');

		if (!close)
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" is not a valid {uri}local name: "
							"no \"}\" closes the namespace", name), SD_XR_BAD;
		if (open && open < close)
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" is not a valid {uri}local name: "
							"the namespace contains \"{\"", name), SD_XR_BAD;
		if (!ncname_ok(close + 1, strlen(close + 1), why, sizeof(why)))
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" is not a valid {uri}local name: %s",
							name, why), SD_XR_BAD;
		if (!sd_xns_intern(a, s, name + 1, (size_t) (close - name - 1), &out->ns, &nsi))
			return SD_XR_NOMEM;
		out->local = close + 1;
		*has_ns = true;
		return SD_XR_OK;
	}
	if (colon && colon > name && ncname_ok(name, (size_t) (colon - name), why, sizeof(why)) &&
		ncname_ok(colon + 1, strlen(colon + 1), why, sizeof(why)))
	{
		/* prefix:local, the prefix from the `xml.ns` map in force */
		const sd_xpfx *m = prefix_find(pfx, name, (size_t) (colon - name));

		if (!m)
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\": prefix \"%.*s\" is not "
							"mapped by xml.ns (map it there, or write {uri}local)", name,
							(int) (colon - name), name), SD_XR_BAD;
		if (!sd_xns_intern(a, s, m->uri, strlen(m->uri), &out->ns, &nsi))
			return SD_XR_NOMEM;
		out->local = colon + 1;
		*has_ns = true;
		return SD_XR_OK;
	}
	if (!ncname_ok(name, strlen(name), why, sizeof(why)))
		return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" is not an XML name: %s", name,
						why), SD_XR_BAD;
	out->local = name;
	return SD_XR_OK;
}

const char *
sd_xml_clark(const sd_xml_name *x, char *buf, size_t size)
{
	if (x->ns)
		snprintf(buf, size, "{%s}%s", x->ns, x->local ? x->local : "");
	else
		snprintf(buf, size, "%s", x->local ? x->local : "");
	return buf;
}

/* ---- shape level ---------------------------------------------------------------------------- */

/* A namespace URI as options write it: no "{", "}" or \u0000. */
static bool
uri_ok(const sd_jnode *v, sd_xbad *bad)
{
	if (strpbrk(v->str, "{}"))
		return snprintf(bad->problem, sizeof(bad->problem),
						"a namespace URI must not contain \"{\" or \"}\""), false;
	if (strlen(v->str) != v->len)
		return snprintf(bad->problem, sizeof(bad->problem),
						"a namespace URI must not contain \\u0000"), false;
	return true;
}

/* xml.ns: {prefix: uri} over the inherited map */
static sd_xres
shape_prefixes(sd_arena *a, sd_xns_set *s, const sd_jnode *map, sd_xscope *scope, sd_xbad *bad)
{
	char		why[160];
	uint32_t	nsi;

	bad->member = "ns";
	for (int i = 0; i < map->n; i++)
	{
		const char *p = map->keys[i];
		const sd_jnode *v = map->items[i];
		sd_xpfx    *e;

		if (v->kind != SD_J_STRING)
			return snprintf(bad->problem, sizeof(bad->problem), "prefix \"%s\" must map to a namespace "
							"URI (a string)", p), SD_XR_BAD;
		if (strlen(p) != map->key_lens[i] || !ncname_ok(p, strlen(p), why, sizeof(why)))
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" is not a prefix (an XML name "
							"without \":\")", p), SD_XR_BAD;
		if (strcmp(p, "xml") == 0 || strcmp(p, "xmlns") == 0)
			return snprintf(bad->problem, sizeof(bad->problem), "prefix \"%s\" is reserved by XML", p),
				SD_XR_BAD;
		if (v->len == 0)
			return snprintf(bad->problem, sizeof(bad->problem), "prefix \"%s\" must map to a namespace "
							"URI, not \"\"", p), SD_XR_BAD;
		if (!uri_ok(v, bad))
			return SD_XR_BAD;
		if (!(e = sd_arena_alloc(a, sizeof(sd_xpfx))))
			return SD_XR_NOMEM;
		e->prefix = p;
		if (!sd_xns_intern(a, s, v->str, v->len, &e->uri, &nsi))
			return SD_XR_NOMEM;
		e->next = scope->pfx;
		scope->pfx = e;
	}
	return SD_XR_OK;
}

/* xml.namespaces: [uri, ...], the first in force, the others matched as it is; the node key
 * (scope->nsi) is the whole list's, interned as "uri}uri}..." ("}" is in no URI). */
static sd_xres
shape_namespaces(sd_arena *a, sd_xns_set *s, const sd_jnode *list, sd_xscope *scope,
				 sd_xbad *bad)
{
	const char **alt;
	size_t		klen = 0;
	char	   *key;
	const char *ignored;

	bad->member = "namespaces";
	if (list->n == 0)
		return snprintf(bad->problem, sizeof(bad->problem), "must name at least one namespace"),
			SD_XR_BAD;
	if (!(alt = sd_arena_alloc(a, sizeof(char *) * (size_t) list->n)))
		return SD_XR_NOMEM;
	for (int i = 0; i < list->n; i++)
	{
		const sd_jnode *v = list->items[i];
		uint32_t	nsi;

		bad->index = i;
		if (v->kind != SD_J_STRING)
			return snprintf(bad->problem, sizeof(bad->problem), "must be an array of namespace URIs "
							"(strings)"), SD_XR_BAD;
		if (!uri_ok(v, bad))
			return SD_XR_BAD;
		if (!sd_xns_intern(a, s, v->str, v->len, &alt[i], &nsi))
			return SD_XR_NOMEM;
		for (int k = 0; k < i; k++)
			if (alt[k] == alt[i])
				return snprintf(bad->problem, sizeof(bad->problem), "namespace \"%s\" is listed twice",
								v->str), SD_XR_BAD;
		klen += v->len + 1;
	}
	bad->index = -1;
	if (!(key = sd_arena_alloc(a, klen + 1)))
		return SD_XR_NOMEM;
	klen = 0;
	for (int i = 0; i < list->n; i++)
	{
		size_t		l = strlen(list->items[i]->str);

		memcpy(key + klen, list->items[i]->str, l);
		key[klen + l] = '}';
		klen += l + 1;
	}
	scope->ns = alt[0];
	scope->alt = alt + 1;
	scope->nalt = list->n - 1;
	if (scope->nalt == 0)
		return sd_xns_intern(a, s, scope->ns, scope->ns ? strlen(scope->ns) : 0, &ignored,
							 &scope->nsi) ? SD_XR_OK : SD_XR_NOMEM;
	return sd_xns_intern(a, s, key, klen, &ignored, &scope->nsi) ? SD_XR_OK : SD_XR_NOMEM;
}

sd_xres
sd_xml_shape(sd_arena *a, sd_xns_set *s, const sd_jnode *xml, sd_xscope *scope,
			 sd_xml_name *root, sd_xbad *bad)
{
	const sd_jnode *v;
	bool		has_ns;
	sd_xres		r;

	root->ns = root->local = NULL;
	bad->index = -1;
	if ((v = sd_jget(xml, "ns")) && (r = shape_prefixes(a, s, v, scope, bad)) != SD_XR_OK)
		return r;
	if ((v = sd_jget(xml, "namespace")))
	{
		bad->member = "namespace";
		if (sd_jget(xml, "namespaces"))
			return snprintf(bad->problem, sizeof(bad->problem), "use either \"namespace\" or "
							"\"namespaces\", not both"), SD_XR_BAD;
		if (!uri_ok(v, bad))
			return SD_XR_BAD;
		if (!sd_xns_intern(a, s, v->str, v->len, &scope->ns, &scope->nsi))
			return SD_XR_NOMEM;
		scope->alt = NULL;
		scope->nalt = 0;
	}
	if ((v = sd_jget(xml, "namespaces")) && (r = shape_namespaces(a, s, v, scope, bad)) != SD_XR_OK)
		return r;
	if ((v = sd_jget(xml, "root")))
	{
		bad->member = "root";
		if ((r = parse_name(a, s, scope->pfx, v->str, true, root, &has_ns, bad)) != SD_XR_OK)
			return r;
		if (!has_ns)
			root->ns = scope->ns;
	}
	return SD_XR_OK;
}

/* ---- fields --------------------------------------------------------------------------------- */

static bool
scalar_kind(sd_kind k)
{
	return k != SD_K_ARRAY && k != SD_K_COMPOSITE;
}

/* `xml_choice`: the element names of a list of a union's variants (in namespace ns unless
 * written {uri}local or prefix:local) */
static sd_xres
field_choice(sd_arena *a, sd_xns_set *s, const char *ns, const sd_xpfx *pfx, sd_field *f,
			 const sd_jnode *v, sd_xbad *bad)
{
	sd_xml_name *names;
	bool		has_ns;
	sd_xres		r;

	bad->member = "xml_choice";
	if (v->n == 0)
		return snprintf(bad->problem, sizeof(bad->problem), "must name at least one element"),
			SD_XR_BAD;
	if (!(names = sd_arena_alloc(a, sizeof(sd_xml_name) * (size_t) v->n)))
		return SD_XR_NOMEM;
	for (int i = 0; i < v->n; i++)
	{
		bad->index = i;
		if (v->items[i]->kind != SD_J_STRING)
			return snprintf(bad->problem, sizeof(bad->problem), "must be an array of element names "
							"(strings), not %s", sd_jkind_name(v->items[i]->kind)), SD_XR_BAD;
		if ((r = parse_name(a, s, pfx, v->items[i]->str, true, &names[i], &has_ns, bad)) != SD_XR_OK)
			return r;
		if (!has_ns)
			names[i].ns = ns;
		for (int k = 0; k < i; k++)
			if (names[k].ns == names[i].ns && strcmp(names[k].local, names[i].local) == 0)
				return snprintf(bad->problem, sizeof(bad->problem), "element \"%s\" is listed twice",
								v->items[i]->str), SD_XR_BAD;
	}
	bad->index = -1;
	f->xml_choice = names;
	f->nxml_choice = v->n;
	return SD_XR_OK;
}

sd_xres
sd_xml_field(sd_arena *a, sd_xns_set *s, const char *ns, const sd_xpfx *pfx, sd_field *f,
			 const sd_type *coltype, const sd_jnode *fo, bool explicit_name, bool is_map,
			 bool strict, bool attr, const char **child_ns, uint32_t *child_nsi, sd_xbad *bad)
{
	const sd_jnode *v;
	const sd_jnode *item = fo ? sd_jget(fo, "xml_item") : NULL;
	const sd_jnode *choice = fo ? sd_jget(fo, "xml_choice") : NULL;
	sd_xml_name *steps;
	bool		has_ns;
	sd_xres		r;

	bad->member = NULL;
	bad->index = -1;
	f->xml_kind = attr ? SD_XML_ATTRIBUTE : SD_XML_ELEMENT;
	if (attr)
		strict = true;
	if (fo && (v = sd_jget(fo, "xml")))
	{
		bad->member = "xml";
		f->xml_kind = strcmp(v->str, "attribute") == 0 ? SD_XML_ATTRIBUTE :
			strcmp(v->str, "text") == 0 ? SD_XML_TEXT : SD_XML_ELEMENT;
		if (f->xml_kind != SD_XML_ELEMENT && !scalar_kind(coltype->kind))
			return snprintf(bad->problem, sizeof(bad->problem), "\"%s\" needs a scalar column, not %s",
							v->str, coltype->name), SD_XR_BAD;
		if (f->xml_kind == SD_XML_TEXT && sd_jget(fo, "path"))
			return snprintf(bad->problem, sizeof(bad->problem), "\"text\" takes no \"path\": it is the "
							"character data of the element itself"), SD_XR_BAD;
		if (strcmp(v->str, "presence") == 0)
		{
			/* a boolean: the element is there (whatever it holds); absent is false */
			if (coltype->kind != SD_K_BOOL)
				return snprintf(bad->problem, sizeof(bad->problem), "\"presence\" needs a boolean "
								"column, not %s", coltype->name), SD_XR_BAD;
			if (sd_jget(fo, "default"))
				return snprintf(bad->problem, sizeof(bad->problem), "\"presence\" takes no \"default\": "
								"an absent element is false"), SD_XR_BAD;
			f->xml_presence = true;
			f->optional = true;
		}
		strict = true;
	}
	if (item)
	{
		bad->member = "xml_item";
		if (coltype->kind != SD_K_ARRAY || is_map)
			return snprintf(bad->problem, sizeof(bad->problem), "\"xml_item\" needs a list column (an "
							"array), not %s%s", is_map ? "a map column " : "", coltype->name), SD_XR_BAD;
		strict = true;
	}
	if (choice)
	{
		bad->member = "xml_choice";
		if (coltype->kind != SD_K_ARRAY || is_map || coltype->elem->kind != SD_K_COMPOSITE)
			return snprintf(bad->problem, sizeof(bad->problem), "\"xml_choice\" needs a list of a "
							"composite type with \"tag\" and \"variants\", not %s%s",
							is_map ? "a map column " : "", coltype->name), SD_XR_BAD;
		if (item || f->xml_kind != SD_XML_ELEMENT || f->xml_presence)
			return snprintf(bad->problem, sizeof(bad->problem), "\"xml_choice\" names the list's "
							"elements: not with \"%s\"", item ? "xml_item" : "xml"), SD_XR_BAD;
		strict = true;
	}
	*child_ns = ns;
	if (!sd_xns_intern(a, s, ns, ns ? strlen(ns) : 0, child_ns, child_nsi))
		return SD_XR_NOMEM;
	if (f->xml_kind == SD_XML_TEXT)
		return SD_XR_OK;

	/* the element (or attribute) and the elements of its path */
	if (!(steps = sd_arena_alloc(a, sizeof(sd_xml_name) * (size_t) f->npath)))
		return SD_XR_NOMEM;
	/* a name without {uri} is in the namespace of the element holding it: the composite's for
	 * the first step, the step before for the others; an attribute's is in none */
	for (int i = 0; i < f->npath; i++)
	{
		bool		last = i == f->npath - 1;

		bad->member = !explicit_name ? NULL : fo && sd_jget(fo, "path") ? "path" : "name";
		bad->index = bad->member && strcmp(bad->member, "path") == 0 ? i : -1;
		r = parse_name(a, s, pfx, f->path[i], explicit_name, &steps[i], &has_ns, bad);
		if (r == SD_XR_NOMEM)
			return r;
		if (r == SD_XR_BAD)
		{
			if (strict && !explicit_name)
			{
				char		problem[SD_PROBLEM_MAX];

				snprintf(problem, sizeof(problem), "column \"%s\" has no XML name: %s; give it a \"name\"",
						 f->column, bad->problem);
				snprintf(bad->problem, sizeof(bad->problem), "%s", problem);
			}
			if (strict || (explicit_name && f->path[i][0] == '{'))
				return SD_XR_BAD;
			/* a document name only JSON can have: the field is never found in XML */
			return SD_XR_OK;
		}
		if (!has_ns)
			steps[i].ns = last && f->xml_kind == SD_XML_ATTRIBUTE ? NULL : i ? steps[i - 1].ns : ns;
	}
	f->xml_path = steps;
	f->xml = steps[f->npath - 1];
	if (f->xml_kind == SD_XML_ELEMENT)
		*child_ns = f->xml.ns;
	if (item)
	{
		bad->member = "xml_item";
		bad->index = -1;
		if ((r = parse_name(a, s, pfx, item->str, true, &f->xml_item, &has_ns, bad)) != SD_XR_OK)
			return r;
		if (!has_ns)
			f->xml_item.ns = f->xml.ns;
		*child_ns = f->xml_item.ns;
	}
	if (choice)
	{
		/* the choice elements are where the field's own element would be */
		if ((r = field_choice(a, s, f->xml.ns, pfx, f, choice, bad)) != SD_XR_OK)
			return r;
		*child_ns = f->xml_choice[0].ns;
	}
	if (!sd_xns_intern(a, s, *child_ns, *child_ns ? strlen(*child_ns) : 0, child_ns, child_nsi))
		return SD_XR_NOMEM;
	return SD_XR_OK;
}

/* ---- conflicts ------------------------------------------------------------------------------ */

/* A path step of the mapped fields seen so far: the fields seen so far never conflict, so a step
 * is either the last one of exactly one field (end) or a step the fields through it (the first
 * of them: first) all write the same way. */
typedef struct xstep
{
	int			end;            /* the field whose last step it is, or -1 */
	int			first;          /* the first field through it, or -1 */
} xstep;

/* The key of step k of f below step parent: (parent, attribute?, namespace, local name). */
static char *
step_key(sd_arena *a, const sd_field *f, int k, int32_t parent, bool attr, size_t *len)
{
	const sd_xml_name *x = &f->xml_path[k];
	size_t		nl = x->ns ? strlen(x->ns) : 0;
	size_t		ll = x->local ? strlen(x->local) : 0;
	char	   *key = sd_arena_alloc(a, 4 + 1 + nl + 1 + ll);

	if (!key)
		return NULL;
	memcpy(key, &parent, 4);
	key[4] = (char) ((attr ? 1 : 0) | (x->ns ? 2 : 0) | (x->local ? 4 : 0));
	memcpy(key + 5, x->ns ? x->ns : "", nl);
	key[5 + nl] = '\0';
	memcpy(key + 6 + nl, x->local ? x->local : "", ll);
	*len = 6 + nl + ll;
	return key;
}

/* Fields are checked in order against the earlier ones; the one reported against is the first
 * earlier field in conflict (at the first step where they meet), as a check of all pairs would. */
int
sd_xml_conflict(sd_arena *scratch, const sd_field *fs, int n, const bool *mapped, char *problem,
				size_t size)
{
	int			text = -1;
	char		shown[SD_PROBLEM_MAX / 2];
	sd_strtab	tab;
	xstep	   *st = NULL;
	uint32_t	nst = 0,
				capst = 0;

	sd_strtab_init(&tab, scratch, false);
	for (int i = 0; i < n; i++)
	{
		const sd_field *f = &fs[i];
		int32_t		parent = -1;

		if (!mapped[i] || f->xml_choice)
			continue;			/* (an xml_choice's names: the member table finds a conflict) */
		if (f->xml_kind == SD_XML_TEXT)
		{
			if (text >= 0)
				return snprintf(problem, size, "the element's text is already mapped by column \"%s\"",
								fs[text].column), i;
			text = i;
			continue;
		}
		if (!f->xml_path)
			continue;
		for (int k = 0; k < f->npath; k++)
		{
			bool		flast = k == f->npath - 1;
			bool		fattr = flast && f->xml_kind == SD_XML_ATTRIBUTE;
			size_t		klen;
			char	   *key = step_key(scratch, f, k, parent, fattr, &klen);
			int			at;

			if (!key)
				return -2;
			if ((at = sd_strtab_get(&tab, key, klen)) >= 0)
			{
				const xstep *x = &st[at];
				int			g = x->end >= 0 ? x->end : x->first;

				sd_xml_clark(&f->xml_path[k], shown, sizeof(shown));
				if (flast || x->end >= 0)
					return snprintf(problem, size, "XML %s \"%s\" is already mapped by column \"%s\"",
									fattr ? "attribute" : "element", shown, fs[g].column), i;
				if (strcmp(f->path[k], fs[g].path[k]) != 0)
					return snprintf(problem, size, "XML element \"%s\" is written \"%s\" here and \"%s\" in "
									"the path of column \"%s\": write it the same way", shown, f->path[k],
									fs[g].path[k], fs[g].column), i;
				parent = at;
				continue;
			}
			/* a step no earlier field takes: new from here on */
			if (nst == capst)
			{
				uint32_t	ncap = capst ? capst * 2 : 16;
				xstep	   *ns = sd_arena_alloc(scratch, sizeof(xstep) * ncap);

				if (!ns)
					return -2;
				if (nst)
					memcpy(ns, st, sizeof(xstep) * nst);
				st = ns;
				capst = ncap;
			}
			st[nst].end = flast ? i : -1;
			st[nst].first = flast ? -1 : i;
			if (sd_strtab_put(&tab, key, klen, (int) nst) == -2)
				return -2;
			parent = (int32_t) nst++;
		}
	}
	return -1;
}

bool
sd_xml_name_is(const sd_xml_name *nm, const char *local, size_t llen, const char *ns, size_t nslen)
{
	if (!nm->local || strlen(nm->local) != llen || memcmp(nm->local, local, llen) != 0)
		return false;
	if (!nm->ns || !nm->ns[0])
		return nslen == 0;
	return strlen(nm->ns) == nslen && memcmp(nm->ns, ns, nslen) == 0;
}
