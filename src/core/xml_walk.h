/*
 * xml_walk.h — the XML walker (xml_walk.c): walker.h's ops over the XML reader, for the rule
 * engine.  Core-internal.
 */
#ifndef SERDE_XML_WALK_H
#define SERDE_XML_WALK_H

#include "walker.h"

typedef struct sd_xcursor sd_xcursor;

/* A cursor over doc[0..len) (borrowed) at its root element; strings go to d's arena.  NULL with
 * err on a limit, a NUL byte or OOM.  leaf_text_only: the consumer never reads the text of an
 * element that has child elements (sd_plan.xml_leaf_text_only): the reader leaves out the text
 * after end tags (xml_read.h, drop_text_after_end), so such an element may show less text. */
sd_xcursor *sd_xml_walker_open(sd_decoder *d, const char *doc, size_t len,
							   const sd_limits *limits, bool leaf_text_only, sd_error *err);
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
/* The name of the root element after the first peek (key->s / ns / prefix). */
void		sd_xml_walker_root_key(const sd_xcursor *c, sd_wkey *key);
void		sd_xml_walker_close(sd_xcursor *c);

/* Batches (xml_each.c): the root element read and kept as the frame around every item (its
 * name is the cursor's batch_key, its namespace declarations stay in scope): 1, or -1 (the
 * reader's error, sd_xml_walker_error).  Then batch_next: 1 with the next child element of the
 * root at the cursor (peeked, not begun; key its name), after skipping whatever the engine left
 * of the item before (a failed item: to its end); 0 when the root ended (then the walker's
 * finish op reads the rest); -1 the reader's error. */
int			sd_xml_walker_batch_begin(sd_xcursor *c);
int			sd_xml_walker_batch_next(sd_xcursor *c, sd_wkey *key);

#endif							/* SERDE_XML_WALK_H */
