/*
 * xml_walk.h — the XML walker (xml_walk.c): walker.h's ops over the XML reader, for the rule
 * engine.  Core-internal.
 */
#ifndef SERDE_XML_WALK_H
#define SERDE_XML_WALK_H

#include "walker.h"

typedef struct sd_xcursor sd_xcursor;

/* A cursor over doc[0..len) (borrowed) at its root element; strings go to d's arena.  NULL with
 * err on a limit, a NUL byte or OOM. */
sd_xcursor *sd_xml_walker_open(sd_decoder *d, const char *doc, size_t len,
							   const sd_limits *limits, sd_error *err);
sd_wcursor *sd_xml_walker_cursor(sd_xcursor *c);
/* The reader's error (XML, with line and column) after an op returned -1. */
const sd_error *sd_xml_walker_error(const sd_xcursor *c);
/* The prefix the document binds to namespace uri[0..len) where the walk is (the elements begun
 * and not ended), for XPath of a missing element: 1 with *prefix (NULL for the default
 * namespace), 0 when nothing binds it there (write {uri}local). */
int			sd_xml_walker_prefix(const sd_xcursor *c, const char *uri, size_t len,
								 const char **prefix, size_t *plen);
/* 1-based line and column (characters) of a byte offset of the document (errors' DETAIL). */
void		sd_xml_walker_locate(sd_xcursor *c, int64_t offset, uint32_t *line, uint32_t *column);
void		sd_xml_walker_close(sd_xcursor *c);

#endif							/* SERDE_XML_WALK_H */
