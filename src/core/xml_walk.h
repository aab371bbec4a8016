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
void		sd_xml_walker_close(sd_xcursor *c);

#endif							/* SERDE_XML_WALK_H */
