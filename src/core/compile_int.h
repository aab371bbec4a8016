/*
 * compile_int.h — what the plan compiler's files share: the compile context, the inherited
 * policy, and the option readers of compile_opts.c (which never recurse into the compiler).
 */
#ifndef SERDE_COMPILE_INT_H
#define SERDE_COMPILE_INT_H

#include "internal.h"
#include "xmlnames.h"
#include "strtab.h"

#include <string.h>

#define OPTIONS_MAX_DEPTH 64		/* nesting of shape options (the root object is level 1) */

typedef struct policy
{
	const char *rename;
	bool		reject;
	bool		coerce;
	bool		optional;
	const char *xml_ns;         /* namespace in force (interned in cctx.xns), NULL = none */
	uint32_t	xml_nsi;        /* its index there, 0 = none (part of a shared node's key) */
	bool		xml_strict;     /* the shape has `xml`: its fields' names must be XML names */
	const char *const *xml_alt; /* `xml.namespaces` besides xml_ns (xml_nsi is then the set's) */
	int			xml_nalt;
	const sd_xpfx *xml_pfx;     /* the `xml.ns` prefix map in force */
	const sd_strtab *attrs;     /* this composite's `attributes` (column names), NULL none */
	const sd_policy_from *from; /* where rename/unknown/coerce/optional were set (interned) */
} policy;

typedef struct memo
{
	const char *shape;
	sd_kind		kind;           /* composite, json or jsonb use of the shape */
	const sd_node *node;
	const char *xml_ns;         /* the namespace it inherited (interned) ... */
	bool		own_ns;         /* ... unless its xml.namespace names one */
	uint32_t	xml_nsi;        /* (the inherited namespaces' key; a registered shape's prefix
								 * names resolve through its own xml.ns: registered alone, it has
								 * no other, so the inherited map is no part of the key) */
	policy		in;             /* the policies it inherited (a shape inherits what it leaves unset) */
} memo;

/* interned origins of policies (compile_inherit.c) */
typedef struct origins
{
	const char **names;         /* "Shape" / "Shape at $.path", each once */
	int			nnames;
	int			cap_names;
	sd_policy_from **froms;     /* each combination once */
	int			nfroms;
	int			cap_froms;
} origins;

typedef struct dflt
{
	sd_field   *field;
	const sd_jnode *value;      /* the default's JSON, parsed with the options */
	struct dflt *next;
} dflt;

typedef struct cctx
{
	sd_plan    *plan;
	sd_arena   *a;
	sd_error   *err;
	const sd_resolver *resolver;
	char		opath[SD_PATH_MAX];     /* option path of the current position */
	int			nmemo;          /* memos in use (memos: the last member) */
	int			ref_depth;
	dflt	   *defaults;
	int			ndefaults;
	int			ndeferred;      /* shape references the resolver deferred */
	sd_node_memo nodes;         /* nodes built without field options, shared when reached again */
	const sd_hooks *hooks;      /* should_stop, polled while building */
	size_t		max_bytes;      /* bound on the plan's arena */
	uint32_t	ticks;
	sd_xns_set	xns;            /* XML namespaces of the plan, each once */
	int16_t    *follow;         /* the plan's follow_init being built (hook-allocated) */
	uint32_t	nfollow;
	uint32_t	follow_cap;
	sd_arena	scratch;        /* lookup tables (strtab.h), freed when the compile ends */
	uint32_t	nfields;        /* fields compiled so far (SD_MAX_PLAN_FIELDS) */
	const char *cur_shape;      /* the shape whose options are being read (origins) */
	origins		orig;
	const char *map_value_shape;    /* a map's `shape` naming its value type's shape: for the
									 * entry composite being built next */
	/* shapes referenced (SQLite: named, inline objects, map entries); last, and not zeroed
	 * with the rest (sd_compile_ex): ~38 KB of stack a first compile would fault in for
	 * nothing, as every entry is written whole before it is read */
	memo		memos[256];
} cctx;

enum {ROLE_NONE, ROLE_EXTRA, ROLE_VARIANT, ROLE_SKIPPED, ROLE_ONEOF};

/* A column's field options as read (compile_opts.c), before build_field applies them. */
typedef struct fopts
{
	sd_format	fmt;
	const sd_tspattern *pattern;    /* fmt SD_FMT_PATTERN: compiled (compile_format.c) */
	const char *shape;          /* "shape": a registered shape's name */
	bool		has_optional;   /* "optional" was given */
	bool		is_map;
	bool		has_coerce;     /* field-level "coerce" was given ... */
	bool		coerce;         /* ... with this value */
	const sd_jnode *inline_opts;    /* the inline shape options of a composite field, or NULL */
	const char *inline_key;     /* the first of them (errors) */
	const sd_jnode *view;       /* the options without the inline ones (the field's own) */
} fopts;

/* The shape-level option keys (build_composite); inline nested options accept the same ones
 * except "coerce" and "optional", which keep their field meaning in field options. */
extern const char *const sd_cc_shape_keys[];

enum {FROM_RENAME, FROM_UNKNOWN, FROM_COERCE, FROM_OPTIONAL};

bool		sd_cc_oom(cctx *c);
bool		sd_cc_grow_ok(cctx *c);
bool		sd_cc_opt_fail(cctx *c, const char *member, const char *fmt, const char *a1, const char *a2);
bool		sd_cc_want_kind(cctx *c, const char *member, const sd_jnode *v, sd_jkind k, const char *what);
bool		sd_cc_in_list(const char *s, const char *const *list);
bool		sd_cc_check_keys(cctx *c, const sd_jnode *obj, const char *const *allowed);
sd_jnode   *sd_cc_parse_options(sd_arena *a, const char *text, size_t len, sd_error *err);
bool		sd_cc_parse_policy(cctx *c, const sd_jnode *opts, policy *pol, const char **extra,
							   sd_xml_name *root);
bool		sd_cc_xml_field(cctx *c, sd_field *f, const sd_column *col, const sd_jnode *fo, bool is_map,
							const policy *pol, policy *cpol);
bool		sd_cc_format(cctx *c, const sd_column *col, const sd_jnode *v, fopts *o);
void		sd_cc_set_pattern(const sd_node *node, const sd_tspattern *p);
bool		sd_cc_field_options(cctx *c, sd_field *f, const sd_column *col, const sd_jnode *fo,
								int *role, fopts *o);
/* compile_xml.c: the XML authoring options (`attributes`, `xml_choice`) */
bool		sd_cc_attributes(cctx *c, const sd_jnode *opts, const sd_type *t, const sd_strtab *cols,
							 const sd_jnode *fields, const char *extra, sd_strtab *set,
							 const sd_strtab **out);
bool		sd_cc_xml_choice(cctx *c, const sd_field *f, const sd_node *elem);

/* compile_oneof.c: `one_of` groups (read before a composite's fields are built), a carrier's
 * names and default given to the listed columns (after) */
bool		sd_cc_one_of_read(cctx *c, const sd_jnode *fields, const sd_type *t, const sd_strtab *cols,
							  const sd_strtab *fkeys, const sd_strtab *vcols, const char *extra,
							  const sd_one_of ***out);
bool		sd_cc_one_of_finish(cctx *c, sd_field *fs, int ci);

/* A column listed in another column's one_of: it maps no member of its own. */
static inline bool
sd_cc_one_of_listed(const sd_field *f)
{
	return f->one_of && strcmp(f->one_of->carrier, f->column) != 0;
}

/* compile_inherit.c: origins of policies; compile_opts.c: inline options */
const char *sd_cc_origin_here(cctx *c);
bool		sd_cc_set_from(cctx *c, policy *pol, int which, const char *origin);
bool		sd_cc_policy_origins(cctx *c, const sd_jnode *opts, policy *pol);
bool		sd_cc_is_inline_key(const sd_jnode *fo, int i);
bool		sd_cc_split_inline(cctx *c, const sd_jnode *fo, const sd_jnode **field_view, fopts *o);

#endif							/* SERDE_COMPILE_INT_H */
