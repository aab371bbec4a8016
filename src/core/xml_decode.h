/*
 * xml_decode.h — XML documents decoded by the one rule engine (engine.c) over the XML walker
 * (xml_walk.c).  Core-internal (the hosts include it).
 */
#ifndef SERDE_XML_DECODE_H
#define SERDE_XML_DECODE_H

#include "internal.h"

/* Decodes the XML document doc[0..len) (borrowed: `xml` columns point into it) against node
 * (NULL: the plan's root) into d's tape (*root).  False with err (XPath, line/column, XML
 * SQLSTATEs) on the first error. */
bool		sd_decode_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
						  size_t len, const sd_limits *limits, uint32_t *root, sd_error *err);

/* serde_errors' mode: every violation up to max_errors, in document order (entries in d->found,
 * texts in d->arena, XPath paths, byte offsets of the '<' or the attribute), as
 * sd_check_json_found returns them; a malformed document, a limit, a cancel or a shape XML
 * does not support ("decoding XML: ...", SD_E_INTERNAL) is that one entry, *root UINT32_MAX. */
int			sd_check_xml_found(sd_decoder *d, const sd_plan *plan, const sd_node *node,
							   const char *doc, size_t len, const sd_limits *limits,
							   int max_errors, const sd_found **found, int *total,
							   uint32_t *root);

/* Whether an element named k is what the plan's `xml.root` asks for (true when it sets none). */
struct sd_wkey;
bool		sd_xml_root_is(const sd_plan *plan, const struct sd_wkey *k);

#endif							/* SERDE_XML_DECODE_H */
