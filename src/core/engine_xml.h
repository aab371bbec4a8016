/*
 * engine_xml.h — XML decoding through the rule engine's XML rules (engine_xml.c).  Core-internal.
 */
#ifndef SERDE_ENGINE_XML_H
#define SERDE_ENGINE_XML_H

#include "internal.h"

/* Decodes the XML document doc[0..len) (borrowed: `xml` columns point into it) against node
 * (NULL: the plan's root) into d's tape (*root).  False with err (XPath, line/column, XML
 * SQLSTATEs) on the first error. */
bool		sd_decode_xml(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
						  size_t len, const sd_limits *limits, uint32_t *root, sd_error *err);

#endif							/* SERDE_ENGINE_XML_H */
