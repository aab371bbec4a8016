/*
 * xml_json.h — XML elements and attributes as JSON text: the value of an `extra` column decoded
 * from XML (docs/reference.md, "XML").  Core-internal; used by the rule engine (engine.c).
 */
#ifndef SERDE_XML_JSON_H
#define SERDE_XML_JSON_H

#include "internal.h"
#include "walker.h"

typedef struct sd_xent sd_xent;

/* The unmapped members of one element, collected in document order. */
typedef struct sd_xjson
{
	sd_buf		b;              /* the values' JSON text */
	sd_arena   *arena;
	sd_xent    *v;
	uint32_t	n;
	uint32_t	cap;
	const char *stack_start;    /* the stack budget of the element rendering's recursion */
	size_t		stack_budget;
} sd_xjson;

#define SD_XJ_OK		1
#define SD_XJ_WALKER	(-1)    /* a walker op failed: its cursor's fail says why */
#define SD_XJ_NOMEM		(-2)
#define SD_XJ_DEEP		(-3)    /* nested too deeply for the stack */

void		sd_xjson_init(sd_xjson *x, const sd_hooks *hooks, sd_arena *arena,
						  const char *stack_start, size_t stack_budget);
void		sd_xjson_free(sd_xjson *x);
/* An attribute k with value s[0..len) ("@name": "value") */
int			sd_xjson_attribute(sd_xjson *x, const sd_wkey *k, const char *s, size_t len);
/* The element k at token t (not begun), walked through cur's ops: the JSON string of its text
 * when it has neither attributes nor child elements, else an object of its attributes
 * ("@name"), child elements by name and, when it has non-blank text, "#text". */
int			sd_xjson_element(sd_xjson *x, sd_wcursor *cur, const sd_wkey *k, const sd_wtok *t);
/* The object of everything added: a name that occurs several times (adjacent or not) becomes
 * an array of its values in document order; names keep the order of their first occurrence.
 * *out (NUL-terminated, in the arena) and *len. */
int			sd_xjson_finish(sd_xjson *x, char **out, size_t *len);

#endif							/* SERDE_XML_JSON_H */
