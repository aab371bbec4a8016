/*
 * xmlnames.h — the XML facts of a plan (docs/reference.md, "XML names"), resolved by the compiler so that an XML
 * walker never interprets options: `{uri}local` names, NCName checks, the namespace in force
 * (interned, so that it can be part of a shared node's key), each field's kind and names, and
 * the check that no two fields of a composite map the same XML element or attribute.
 * Core-internal (compile.c and describe.c); hosts read the results in serde_core.h.
 */
#ifndef SERDE_XMLNAMES_H
#define SERDE_XMLNAMES_H

#include "internal.h"
#include "strtab.h"

#include <string.h>

/* Namespace URIs met while compiling one plan, each kept once: a namespace in force is one of
 * these pointers, so equal pointers mean equal namespaces. */
typedef struct sd_xns_set
{
	const char **v;
	uint32_t	n;
	uint32_t	cap;
	sd_strtab	idx;            /* uri -> position in v (its arena set at the first intern) */
} sd_xns_set;

/* The canonical copy (in arena) of the namespace uri[0..len); "" is no namespace (NULL, index 0).
 * *index = 1 + its position.  False on OOM. */
bool		sd_xns_intern(sd_arena *a, sd_xns_set *s, const char *uri, size_t len,
						  const char **out, uint32_t *index);

typedef enum sd_xres
{
	SD_XR_OK, SD_XR_BAD, SD_XR_NOMEM
} sd_xres;

/* Where a problem is, for the option path: member of the field's (or shape's xml) options, or
 * NULL for the field itself; index >= 0 for an element of `path`. */
typedef struct sd_xbad
{
	const char *member;
	int			index;
	char		problem[SD_PROBLEM_MAX];
} sd_xbad;

/* A prefix map (`xml.ns`): prefix -> namespace URI (interned), a shape's own entries first,
 * then the ones it inherited (a nested shape adds and overrides). */
typedef struct sd_xpfx
{
	const char *prefix;
	const char *uri;
	const struct sd_xpfx *next;
} sd_xpfx;

/* The namespaces a shape's elements may be in (`xml.namespace` or `xml.namespaces`): ns, and
 * nalt others (interned; NULL = no namespace) that match as ns does. */
typedef struct sd_xscope
{
	const char *ns;
	uint32_t	nsi;            /* ns's index; with alternatives, the whole set's (a node key) */
	const char *const *alt;
	int			nalt;
	const sd_xpfx *pfx;         /* the prefix map in force */
} sd_xscope;

/* Shape level `xml` (an object; its members' kinds already checked): ns (a prefix map over the
 * inherited one), namespace / namespaces (interned; absent: the inherited ones), and root
 * (local NULL: absent), into *scope. */
sd_xres		sd_xml_shape(sd_arena *a, sd_xns_set *s, const sd_jnode *xml, sd_xscope *scope,
						 sd_xml_name *root, sd_xbad *bad);

/* The XML facts of field f of a composite whose elements are in namespace ns (interned; NULL
 * none): f->name/path are its document (JSON) names, explicit when the options gave them.
 * fo: the field's options or NULL; is_map: a map column; strict: a name that is not an XML name
 * is an error (else the field has no XML name and is never found in XML).  An explicit name
 * beginning with "{" is always parsed as {uri}local.  *child_ns (interned) is the namespace in
 * force below the field: that of its element (of its item for a wrapped list). */
/* pfx: the prefix map in force (`prefix:local` names); attr: the shape's `attributes` lists the
 * column.  Also `xml: "presence"` and `xml_choice` (its names; that they are variants is the
 * compiler's check, once the column's node exists). */
sd_xres		sd_xml_field(sd_arena *a, sd_xns_set *s, const char *ns, const sd_xpfx *pfx,
						 sd_field *f, const sd_type *coltype, const sd_jnode *fo,
						 bool explicit_name, bool is_map, bool strict, bool attr,
						 const char **child_ns, uint32_t *child_nsi, sd_xbad *bad);

/* No two of the fields fs[0..n) marked in mapped take the same XML element or attribute (or the
 * element's text); a path step written in two ways that mean one element is an error too.
 * Returns the index of the offending field (problem set), or -1; -2 when out of memory (the
 * path steps seen are kept in the scratch arena: linear in the fields). */
int			sd_xml_conflict(sd_arena *scratch, const sd_field *fs, int n, const bool *mapped,
							char *problem, size_t size);

/* Writes "{uri}local" or "local" (Clark notation) into buf; returns buf. */
const char *sd_xml_clark(const sd_xml_name *x, char *buf, size_t size);

/* The name nm is local[0..llen) in namespace ns[0..nslen) (nslen 0: none; NULL or "" in nm is
 * no namespace too): how a document's element is matched against a plan's name. */
bool		sd_xml_name_is(const sd_xml_name *nm, const char *local, size_t llen, const char *ns,
						   size_t nslen);

/* A document element's namespace ns[0..*len) as node n's elements are named in its plan: one of
 * n's `xml.namespaces` alternatives is its first namespace (elements only, never attributes). */
static inline void
sd_xml_ns_canon(const sd_node *n, uint8_t kind, const char **ns, size_t *len)
{
	if (kind != SD_XML_ELEMENT)
		return;
	for (int i = 0; i < n->nxml_alt; i++)
	{
		const char *a = n->xml_alt[i];
		size_t		al = a ? strlen(a) : 0;

		if (al == *len && (al == 0 || memcmp(a, *ns, al) == 0))
		{
			*ns = n->xml_ns;
			*len = n->xml_ns ? strlen(n->xml_ns) : 0;
			return;
		}
	}
}

#endif							/* SERDE_XMLNAMES_H */
