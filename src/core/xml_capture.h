/*
 * xml_capture.h — an element of an XML document made a standalone, equivalent element, for an
 * `xml` column (docs/reference.md: "An `xml` column receives its element …"): the element's
 * bytes as the document writes them, with the namespace declarations in scope that its
 * subtree's names use written onto its start tag, and its line ends normalised.
 * Host-neutral (no PostgreSQL).
 */
#ifndef SERDE_XML_CAPTURE_H
#define SERDE_XML_CAPTURE_H

#include "serde_core.h"
#include "xml_read.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The namespace declarations written on the i-th element around the captured one
 * (0 = the document's root, ascending towards the captured element's parent): *n of them. */
typedef const sd_xnsdecl *(*sd_xns_scope) (void *ud, uint32_t i, uint32_t *n);

/*
 * The element doc[start..end) of the reader's document (from its '<' to the end of its end
 * tag; the reader has read it, so it is well-formed) as a standalone element:
 *   - every prefix its subtree uses in an element or attribute name, and the default namespace
 *     when an element name in it has no prefix, that its own start tag does not declare, gets
 *     the declaration in scope (the innermost of scope(0..nscopes)), written on its start tag
 *     (xmlns="" and undeclared prefixes are left out: nothing is bound there);
 *   - CR LF and a lone CR become LF (character references such as &#13; stay as written).
 * *out / *outlen: the document's own bytes when nothing changes, else text in arena.
 * The work and the bytes added count against the reader's budget (sd_xr_account).  false with
 * err set: SD_E_SIZE (the budget), SD_E_NOMEM.
 */
bool		sd_xml_standalone(sd_xreader *r, const sd_hooks *hooks, sd_arena *arena,
							  int64_t start, int64_t end, sd_xns_scope scope, void *ud,
							  uint32_t nscopes, const char **out, size_t *outlen, sd_error *err);

#endif							/* SERDE_XML_CAPTURE_H */
