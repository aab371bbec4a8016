/*
 * cache.c — the plan cache of one SQLite connection (docs/reference.md, "Catalog and plan cache"): a shape is compiled once
 * per connection and reused until the shape, or a shape it refers to, changed in serde_shapes.
 *
 * When is a cached plan still current?  Each entry remembers every shape it was built from
 * (name, version, descriptor text).  Re-checking them means reading those rows again: one indexed
 * lookup per shape, no compile.  To skip even that, an entry also remembers the connection's
 * state when it was last checked — SQLITE_FCNTL_DATA_VERSION of main (changes when another
 * connection committed, seen once this connection holds a read transaction, and at our own
 * commits) and sqlite3_total_changes64 (every row this connection wrote, committed or not,
 * triggers included) — and is taken as current without a lookup when both are unchanged, the
 * connection is in autocommit mode and holds a read transaction on main (the statement that
 * calls us reads main), and the entry was checked in autocommit mode too.  Inside an explicit
 * transaction every first use in a statement re-checks: a ROLLBACK or ROLLBACK TO changes
 * neither number (verified on 3.40), and the rows it restores must be honoured.
 *
 * A re-check compares the descriptor text as well as the version, so a version number that
 * comes again (a rolled-back change, a deleted and re-inserted row) never hides a change.  A
 * write to another table re-checks but recompiles nothing; cache statistics count compiles, hits
 * (a lookup answered by a cached plan, with or without a re-check) and invalidations (a cached
 * plan found out of date).  Call sites keep the plan they got for the rest of their statement
 * (serde.c: sqlite3_set_auxdata; the virtual tables: their cursor).
 */
#include "serde_sqlite.h"

#include <stdlib.h>
#include <string.h>

/* ---- compiled shapes --------------------------------------------------------------------- */

void
sq_shape_ref(sq_shape *s)
{
	s->refcount++;
}

static void
shape_free(sq_shape *s)
{
	if (s->writer)
		sd_jwriter_free(s->writer);
	if (s->plan)
		sd_plan_free(s->plan);
	if (s->desc)
		sd_descriptor_free(s->desc);
	for (int i = 0; i < s->ndeps; i++)
		sq_dep_free(&s->deps[i]);
	free(s->deps);
	for (int i = 0; i < s->ndefaults; i++)
		free(s->defaults[i].s);
	free(s->defaults);
	free(s->columns);
	free(s->name);
	free(s);
}

void
sq_shape_unref(void *p)
{
	sq_shape   *s = p;

	if (s && --s->refcount == 0)
		shape_free(s);
}

const char *
sq_column_type(const sd_node *n)
{
	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_BOOL:
			return "INTEGER";
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
			return "REAL";
		case SD_K_BYTEA:
			return "BLOB";
		default:
			return "TEXT";      /* text, numeric (exact), dates, uuid, enum; JSON text */
	}
}

/* "\"id\" TEXT, \"amount\" INTEGER": the columns a virtual table is created with. */
static char *
columns_of(const sd_node *root)
{
	sd_buf		b;

	sd_buf_init(&b, NULL);
	for (int i = 0; i < root->nfields; i++)
	{
		const sd_field *f = &root->fields[i];

		if (i > 0)
			sd_buf_put(&b, ", ", 2);
		sd_buf_put(&b, "\"", 1);
		for (const char *p = f->column; *p; p++)
			sd_buf_put(&b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
		sd_buf_put(&b, "\" ", 2);
		sd_buf_put(&b, sq_column_type(f->node), strlen(sq_column_type(f->node)));
	}
	if (b.failed || !b.s)
	{
		sd_buf_free(&b);
		return NULL;
	}
	return b.s;                 /* malloc'd (NULL hooks) */
}

/* The descriptor lookup of sd_descriptor_build: reads referenced shapes from the catalog and
 * records them (they are the entry's dependencies). */
typedef struct build_ctx
{
	sq_shape   *s;
	sq_conn    *c;
	sqlite3_stmt *stmt;
	char	   *errmsg;
} build_ctx;

static bool
add_dep(sq_shape *s, sq_dep *dep)
{
	sq_dep	   *n = realloc(s->deps, sizeof(sq_dep) * (size_t) (s->ndeps + 1));

	if (!n)
		return false;
	s->deps = n;
	s->deps[s->ndeps++] = *dep;
	return true;
}

static bool
lookup_shape(void *ud, const char *shape, const char **json, size_t *len, sd_error *err)
{
	build_ctx  *b = ud;
	sq_dep		dep;
	int			r;

	for (int i = 0; i < b->s->ndeps; i++)
		if (strcmp(b->s->deps[i].name, shape) == 0)
		{
			*json = b->s->deps[i].descriptor;
			*len = b->s->deps[i].dlen;
			return true;
		}
	r = sq_catalog_read(b->c->db, &b->stmt, shape, &dep, &b->errmsg);
	if (r < 0)
		return sd_error_set(err, SD_E_INTERNAL, -1, "%s", b->errmsg ? b->errmsg : "catalog read failed");
	if (r == 0)
	{
		*json = NULL;
		return true;
	}
	if (!add_dep(b->s, &dep))
	{
		sq_dep_free(&dep);
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
	}
	*json = dep.descriptor;
	*len = dep.dlen;
	return true;
}

/* Every default of the plan once as a column value (the virtual table's), from the value the
 * plan compiled for it (sd_plan_default_value). */
static bool
build_defaults(sq_conn *c, sq_shape *s, sd_error *err)
{
	int			n = sd_plan_ndefaults(s->plan);
	sd_buf		buf;
	bool		ok = true;

	(void) c;
	if (n == 0)
		return true;
	if (!(s->defaults = calloc((size_t) n, sizeof(sq_value))))
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
	s->ndefaults = n;
	sd_buf_init(&buf, NULL);
	for (int i = 0; ok && i < n; i++)
	{
		const sd_field *f = sd_plan_default(s->plan, i);
		uint32_t	root;
		const sd_val *tape = sd_plan_default_value(s->plan, i, &root);
		sq_value	v;

		if (!tape)
			continue;           /* not compiled (cannot happen for a descriptor): NULL */
		sd_buf_reset(&buf);
		if (!sq_field_value(s, f->node, tape, root, &buf, &v))
		{
			ok = sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
			break;
		}
		s->defaults[i] = v;
		s->defaults[i].s = NULL;
		if (v.type == SQLITE_TEXT || v.type == SQLITE_BLOB)
		{
			if (!(s->defaults[i].s = malloc(v.len + 1)))
			{
				s->defaults[i].type = SQLITE_NULL;
				ok = sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
				break;
			}
			memcpy(s->defaults[i].s, v.s, v.len);
			s->defaults[i].s[v.len] = '\0';
		}
	}
	sd_buf_free(&buf);
	return ok;
}

/* Builds a shape from its descriptor; root: the catalog row it came from (its version), or NULL
 * for a descriptor that is not in the catalog (serde_register's check). */
static sq_shape *
shape_build(sq_conn *c, const char *name, const char *json, size_t len, sq_dep *root, sq_err *e)
{
	sq_shape   *s = calloc(1, sizeof(sq_shape));
	build_ctx	b = {s, c, NULL, NULL};
	sd_descriptor_lookup lk = {lookup_shape, &b};
	sd_error	err;

	sd_error_clear(&err);
	if (!s || !(s->name = strdup(name)))
		goto nomem;
	s->refcount = 1;
	if (root)
	{
		if (!add_dep(s, root))
			goto nomem;
		memset(root, 0, sizeof(*root));   /* owned by s now */
	}
	if (!(s->desc = sd_descriptor_build(name, json, len, &lk, &c->hooks, &err)) ||
		!(s->plan = sd_descriptor_compile(s->desc, &c->hooks, &err)) ||
		!(s->writer = sd_jwriter_create(s->plan, &c->hooks, &err)) ||
		!build_defaults(c, s, &err))
	{
		sq_catalog_finish(&b.stmt);
		if (b.errmsg && err.code == SD_E_INTERNAL)
		{
			sq_err_printf(e, SD_E_INTERNAL, "%s", b.errmsg);
			sqlite3_free(b.errmsg);
		}
		else
		{
			sqlite3_free(b.errmsg);
			sq_err_set(e, name, &err);
		}
		if (s)
			shape_free(s);
		return NULL;
	}
	sq_catalog_finish(&b.stmt);
	if (!(s->columns = columns_of(sd_plan_root(s->plan))))
		goto nomem;
	return s;

nomem:
	sq_catalog_finish(&b.stmt);
	sqlite3_free(b.errmsg);
	if (s)
		shape_free(s);
	sq_err_printf(e, SD_E_NOMEM, "serde: out of memory");
	return NULL;
}

sq_shape *
sq_shape_build(sq_conn *c, const char *name, const char *json, size_t len, sq_err *e)
{
	return shape_build(c, name, json, len, NULL, e);
}

/* ---- the cache --------------------------------------------------------------------------- */

/* The connection's state now; false when it cannot vouch for a cached entry (see the top). */
static bool
state_now(sq_conn *c, unsigned int *dv, int64_t *tc, bool *autocommit)
{
	*autocommit = sqlite3_get_autocommit(c->db) != 0;
	*dv = 0;
	sqlite3_file_control(c->db, "main", SQLITE_FCNTL_DATA_VERSION, dv);
	*tc = sqlite3_total_changes64(c->db);
	return *autocommit && sqlite3_txn_state(c->db, "main") != SQLITE_TXN_NONE;
}

static void
stamp(sq_conn *c, sq_shape *s)
{
	bool		ac;

	(void) state_now(c, &s->data_version, &s->total_changes, &ac);
	s->trusted = ac;
}

/* 1: every shape s was built from is unchanged; 0: one changed or is gone; -1: error. */
static int
recheck(sq_conn *c, sq_shape *s, sq_err *e)
{
	sqlite3_stmt *st = NULL;
	int			same = 1;

	for (int i = 0; same == 1 && i < s->ndeps; i++)
	{
		sq_dep		now;
		char	   *msg = NULL;
		int			r = sq_catalog_read(c->db, &st, s->deps[i].name, &now, &msg);

		if (r < 0)
		{
			sq_err_printf(e, SD_E_INTERNAL, "%s", msg);
			sqlite3_free(msg);
			same = -1;
		}
		else if (r == 0)
			same = 0;
		else
		{
			if (now.version != s->deps[i].version || now.dlen != s->deps[i].dlen ||
				memcmp(now.descriptor, s->deps[i].descriptor, now.dlen) != 0)
				same = 0;
			sq_dep_free(&now);
		}
	}
	sq_catalog_finish(&st);
	return same;
}

static void
cache_remove(sq_conn *c, int i)
{
	sq_shape   *s = c->shapes[i];

	c->shapes[i] = c->shapes[--c->nshapes];
	sq_shape_unref(s);
}

sq_shape *
sq_shape_get(sq_conn *c, const char *name, sq_err *e)
{
	sq_shape   *s;
	sq_dep		root;
	sqlite3_stmt *st = NULL;
	char	   *msg = NULL;
	int			r;

	for (int i = 0; i < c->nshapes; i++)
	{
		unsigned int dv;
		int64_t		tc;
		bool		ac;

		s = c->shapes[i];
		if (strcmp(s->name, name) != 0)
			continue;
		if (state_now(c, &dv, &tc, &ac) && s->trusted && dv == s->data_version &&
			tc == s->total_changes)
		{
			c->hits++;
			sq_shape_ref(s);
			return s;
		}
		r = recheck(c, s, e);
		if (r < 0)
			return NULL;
		if (r == 1)
		{
			stamp(c, s);
			c->hits++;
			sq_shape_ref(s);
			return s;
		}
		c->invalidations++;
		cache_remove(c, i);
		break;
	}

	r = sq_catalog_read(c->db, &st, name, &root, &msg);
	sq_catalog_finish(&st);
	if (r < 0)
	{
		sq_err_printf(e, SD_E_INTERNAL, "%s", msg);
		sqlite3_free(msg);
		return NULL;
	}
	if (r == 0)
	{
		sq_err_printf(e, SQ_E_UNDEFINED, "shape \"%s\" does not exist", name);
		return NULL;
	}
	s = shape_build(c, name, root.descriptor, root.dlen, &root, e);
	sq_dep_free(&root);
	if (!s)
		return NULL;
	c->compiles++;
	stamp(c, s);
	if (c->nshapes == c->cap)
	{
		int			ncap = c->cap ? c->cap * 2 : 8;
		sq_shape  **n = realloc(c->shapes, sizeof(sq_shape *) * (size_t) ncap);

		if (!n)
		{
			sq_shape_unref(s);
			sq_err_printf(e, SD_E_NOMEM, "serde: out of memory");
			return NULL;
		}
		c->shapes = n;
		c->cap = ncap;
	}
	c->shapes[c->nshapes++] = s;
	sq_shape_ref(s);            /* the cache's and the caller's */
	return s;
}

void
sq_cache_clear(sq_conn *c)
{
	while (c->nshapes > 0)
		cache_remove(c, c->nshapes - 1);
	free(c->shapes);
	c->shapes = NULL;
	c->cap = 0;
}

size_t
sq_cache_bytes(const sq_conn *c)
{
	size_t		n = 0;

	for (int i = 0; i < c->nshapes; i++)
		n += sd_plan_bytes(c->shapes[i]->plan);
	return n;
}
