/*
 * infer_int.h — the model of serde_infer shared inside the core (infer.c builds it from samples,
 * infer_json.c / infer_xml.c read the samples into it, infer_render.c writes the script).
 *
 * A node summarises every value seen at one place of the documents: how many of each kind, what
 * the numbers and strings look like, and for objects their members (in first-seen order) with
 * how many objects had them.  Memory grows with the distinct places, never with the samples.
 */
#ifndef SERDE_INFER_INT_H
#define SERDE_INFER_INT_H

#include "infer.h"
#include "internal.h"

#define INF_DISTINCT 16         /* distinct string values kept per node (enums, tags) */
#define INF_TAGS 8              /* tag candidates per object node */
#define INF_TAG_VALUES 8        /* a tag has at most this many values */

enum
{
	INF_K_ELEMENT = 0,          /* JSON member / XML child element */
	INF_K_ATTRIBUTE,
	INF_K_TEXT                  /* XML: the element's own text */
};

typedef struct inf_node inf_node;

typedef struct inf_member
{
	const char *name;           /* JSON member name / XML local name ("" for the text) */
	uint32_t	len;
	uint8_t		kind;           /* INF_K_* */
	const char *ns;             /* XML namespace URI, NULL = none */
	uint32_t	present;        /* objects that had it */
	uint32_t	max_repeat;     /* XML: most occurrences in one element (> 1: a list) */
	uint64_t	stamp;          /* the object instance it was last seen in */
	uint32_t	reps;           /* occurrences in that instance */
	inf_node   *val;
} inf_member;

typedef struct inf_tagc
{
	int			member;         /* index of the candidate member */
	bool		dead;           /* not a string, too many values, or missing somewhere */
	uint32_t	nobj[INF_TAG_VALUES];
	uint64_t   *bits[INF_TAG_VALUES];  /* members seen with each value */
	uint32_t	words[INF_TAG_VALUES];
} inf_tagc;

struct inf_node
{
	uint32_t	n_null, n_bool, n_int, n_dec, n_float, n_str, n_obj, n_arr;
	/* integers (JSON numbers, XML text): smallest and largest, beyond int8 */
	int64_t		imin, imax;
	bool		int_big;
	/* strings: how many match each format */
	uint32_t	s_tz, s_ts, s_2822, s_date, s_uuid;
	/* XML text: how many read as integer / decimal / float / boolean */
	uint32_t	t_int, t_dec, t_float, t_bool, t_empty;
	int64_t		timin, timax;
	bool		tint_big;
	/* distinct string values in first-seen order (capped) */
	uint32_t	ndistinct;
	bool		distinct_over;
	const char *dv[INF_DISTINCT];
	uint32_t	dvlen[INF_DISTINCT];
	/* object */
	int			nmem, capmem;
	inf_member *mem;
	int32_t    *slots;
	uint32_t	mask;
	const char *ns;             /* XML: the element's namespace (first seen) */
	int			ntagc;
	inf_tagc	tagc[INF_TAGS];
	/* array element (JSON) */
	inf_node   *elem;
};

struct sd_infer
{
	sd_hooks	hooks;
	sd_limits	limits;
	sd_arena	arena;          /* the model */
	sd_arena	scratch;        /* one sample's tree, reset after each */
	inf_node   *root;
	uint32_t	samples;
	int			format;         /* 0 none yet, 1 JSON, 2 XML */
	const char *root_local;     /* XML: the root element's name and namespace */
	const char *root_ns;
	uint64_t	stamp;
	uint64_t	work;
	sd_error   *err;
};

/* infer.c: building the model */
inf_node   *inf_node_new(sd_infer *inf);
int			inf_member_get(sd_infer *inf, inf_node *n, const char *name, size_t len, uint8_t kind,
						   const char *ns);
/* A scalar value at n: returns false on OOM (err set). */
bool		inf_add_null(sd_infer *inf, inf_node *n);
bool		inf_add_bool(sd_infer *inf, inf_node *n);
bool		inf_add_number(sd_infer *inf, inf_node *n, const char *lit, size_t len);
/* A string (JSON) or a text (xml_text: XML, also classified as number / boolean). *distinct gets
 * its index among the node's distinct values (-1 beyond the cap). */
bool		inf_add_string(sd_infer *inf, inf_node *n, const char *s, size_t len, bool xml_text,
						   int *distinct);
/* An object instance: the members it had (indices, in document order, repeats allowed) and for
 * each the distinct index of its string value (-1 when none). */
bool		inf_object_done(sd_infer *inf, inf_node *n, const int *members, const int *dvals,
							int count);
/* Merges src into dst (maps: every member's values into one node). */
bool		inf_merge(sd_infer *inf, inf_node *dst, const inf_node *src);
bool		inf_stop(sd_infer *inf);
bool		inf_oom(sd_infer *inf);

/* infer_json.c / infer_xml.c */
bool		inf_add_json(sd_infer *inf, const char *doc, size_t len);
bool		inf_add_xml(sd_infer *inf, const char *doc, size_t len);

#endif							/* SERDE_INFER_INT_H */
