/*
 * cache.c — the plan cache of one SQLite connection: a shape is compiled once
 * per connection and reused until the shape, or a shape it refers to, changed in serde_shapes.
 *
 * When is a cached plan still current?  Each entry remembers every shape it was built from
 * (name, version, descriptor text).  Re-checking them means reading those rows again: one indexed
 * lookup per shape, no compile.  To skip even that, an entry also remembers the connection's
 * state when it was last checked — SQLITE_FCNTL_DATA_VERSION of main (changes when another
 * connection committed, seen once this connection holds a read transaction, and at our own
 * commits) and sqlite3_total_changes64 (every row this connection wrote, committed or not,
 * triggers included) — and is taken as current without a lookup when both are unchanged, the
 * connection is in autocommit mode, and the entry was checked in autocommit mode too.  The data
 * version is only refreshed when a read transaction on main begins: when the statement that
 * calls us holds one (it reads main), it is current; when it holds none (SELECT
 * serde_decode('K', ?1), executed again and again), sq_catalog_probe runs the kept PRAGMA
 * main.schema_version, reads both numbers while its read transaction is open, and checks that
 * main's schema is the one the catalog was last inspected with (issue 23: one small statement
 * per call instead of the PRAGMA and a lookup of every shape); for a main in memory (no file
 * name: no other pager) the data version is current without it (main_private).  Inside an explicit
 * transaction every first use in a statement re-checks: a ROLLBACK or ROLLBACK TO changes
 * neither number (verified on 3.40), and the rows it restores must be honoured.
 *
 * A re-check compares the descriptor text as well as the version, so a version number that
 * comes again (a rolled-back change, a deleted and re-inserted row) never hides a change.  A
 * write to another table re-checks but recompiles nothing; cache statistics count compiles, hits
 * (a lookup answered by a cached plan, with or without a re-check) and invalidations (a cached
 * plan found out of date).  Call sites keep the plan they got for the rest of their statement
 * (functions.c: sqlite3_set_auxdata; the virtual tables: their cursor).
 *
 * The cache is bounded, by bytes (what each compiled shape holds: the core's descriptor, plan
 * and writer, counted by the allocator they are built with, plus the adapter's copies of the
 * descriptors) and by number of plans:
 * serde_config('cache_bytes', n) (default 64 MB) and serde_config('cache_entries', n) (default
 * 64).  Past either bound the least recently used plans are evicted (statistics: evictions);
 * the plan a lookup returns stays, even alone above the bound, until the next lookup.  A plan
 * evicted while a statement still holds it lives until that statement lets it go.
 *
 * Calls catalog.c, values.c, errors.c.
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
	sq_err		e;              /* a failed catalog read */
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
	r = sq_catalog_read(b->c, &b->stmt, shape, &dep, &b->e);
	if (r < 0)              /* the host's error, kept in b->e: the core passes it on */
		return sd_error_set(err, b->e.code == SD_E_NOMEM ? SD_E_NOMEM : SD_E_INTERNAL, -1,
							"reading the catalog failed");
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
	build_ctx	b = {s, c, NULL, SQ_ERR_INIT};
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
	if (!(s->desc = sd_descriptor_build(name, json, len, &lk, &c->plan_hooks, &err)) ||
		!(s->plan = sd_descriptor_compile(s->desc, &c->plan_hooks, &err)) ||
		!(s->writer = sd_jwriter_create(s->plan, &c->plan_hooks, &err)) ||
		!build_defaults(c, s, &err))
	{
		sq_catalog_finish(c, &b.stmt);
		if (b.e.code != SD_OK)
		{
			sq_err_clear(e);
			*e = b.e;           /* the catalog's error, with its SQLite result code */
		}
		else
			sq_err_core(e, name, &err);
		if (s)
			shape_free(s);
		return NULL;
	}
	sq_catalog_finish(c, &b.stmt);
	sq_err_clear(&b.e);
	if (!(s->columns = columns_of(sd_plan_root(s->plan))))
		goto nomem;
	return s;

nomem:
	sq_catalog_finish(c, &b.stmt);
	sq_err_clear(&b.e);
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

/* The connection's state now: ST_TXN (autocommit mode, a transaction open on main: *dv and *tc
 * read, they vouch for a cached entry, see the top), ST_NO_TXN (autocommit mode, no transaction
 * on main: *dv would be stale, sq_catalog_probe reads it), ST_EXPLICIT (inside BEGIN ... ). */
enum
{
	ST_EXPLICIT, ST_NO_TXN, ST_TXN
};

static int
state_now(sq_conn *c, unsigned int *dv, int64_t *tc)
{
	if (sqlite3_get_autocommit(c->db) == 0)
		return ST_EXPLICIT;
	if (sqlite3_txn_state(c->db, "main") == SQLITE_TXN_NONE)
		return ST_NO_TXN;
	*dv = 0;
	sqlite3_file_control(c->db, "main", SQLITE_FCNTL_DATA_VERSION, dv);
	*tc = sqlite3_total_changes64(c->db);
	return ST_TXN;
}

/* Is main a database no other pager can change?  An in-memory or temporary database has no file
 * name: only this connection's pager, or one shared with the connections of a shared cache,
 * writes it, and its commits bump the data version at once, with or without a read transaction.
 * (An in-memory database of the memdb VFS, which other connections open with pagers of their
 * own, has a name: "/name".) */
static bool
main_private(sq_conn *c)
{
	const char *f = sqlite3_db_filename(c->db, "main");

	return f == NULL || f[0] == '\0';
}

/* Remembers the state the entry was found current in: main's data version as of its last
 * transaction (the catalog statements' that just read it) and the total changes. */
static void
stamp(sq_conn *c, sq_shape *s)
{
	s->data_version = 0;
	sqlite3_file_control(c->db, "main", SQLITE_FCNTL_DATA_VERSION, &s->data_version);
	s->total_changes = sqlite3_total_changes64(c->db);
	s->trusted = sqlite3_get_autocommit(c->db) != 0;
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
		int			r = sq_catalog_read(c, &st, s->deps[i].name, &now, e);

		if (r < 0)
			same = -1;
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
	sq_catalog_finish(c, &st);
	return same;
}

static void
cache_remove(sq_conn *c, int i)
{
	sq_shape   *s = c->shapes[i];

	c->shapes[i] = c->shapes[--c->nshapes];
	sq_shape_unref(s);
}

/* Evicts least recently used plans, never keep, until the cache is within its bounds. */
static void
trim(sq_conn *c, const sq_shape *keep)
{
	size_t		total = sq_cache_bytes(c);

	while (c->nshapes > 0 &&
		   (c->nshapes > c->cache_entries || total > (uint64_t) c->cache_bytes))
	{
		int			lru = -1;

		for (int i = 0; i < c->nshapes; i++)
			if (c->shapes[i] != keep &&
				(lru < 0 || c->shapes[i]->last_used < c->shapes[lru]->last_used))
				lru = i;
		if (lru < 0)
			break;              /* only keep is left */
		total -= c->shapes[lru]->bytes;
		c->evictions++;
		cache_remove(c, lru);
	}
}

void
sq_cache_trim(sq_conn *c)
{
	trim(c, NULL);
}

sq_shape *
sq_shape_get(sq_conn *c, const char *name, sq_err *e)
{
	sq_shape   *s;
	sq_dep		root;
	sqlite3_stmt *st = NULL;
	int64_t		held;
	int			r;

	c->clock++;
	for (int i = 0; i < c->nshapes; i++)
	{
		unsigned int dv = 0;
		int64_t		tc = 0;

		s = c->shapes[i];
		if (strcmp(s->name, name) != 0)
			continue;
		if (s->trusted)
		{
			int			st = state_now(c, &dv, &tc);

			r = st == ST_TXN;
			/* a statement that reads no table of main: a read transaction of its own tells,
			 * unless main is in memory (no other pager sees it: its version is current) */
			if (st == ST_NO_TXN && main_private(c))
			{
				dv = 0;
				sqlite3_file_control(c->db, "main", SQLITE_FCNTL_DATA_VERSION, &dv);
				tc = sqlite3_total_changes64(c->db);
				r = 1;
			}
			else if (st == ST_NO_TXN && (r = sq_catalog_probe(c, &dv, &tc, e)) < 0)
				return NULL;
			if (r == 1 && dv == s->data_version && tc == s->total_changes)
			{
				c->hits++;
				s->last_used = c->clock;
				sq_shape_ref(s);
				return s;
			}
		}
		r = recheck(c, s, e);
		if (r < 0)
			return NULL;
		if (r == 1)
		{
			stamp(c, s);
			c->hits++;
			s->last_used = c->clock;
			sq_shape_ref(s);
			return s;
		}
		c->invalidations++;
		cache_remove(c, i);
		break;
	}

	r = sq_catalog_read(c, &st, name, &root, e);
	sq_catalog_finish(c, &st);
	if (r < 0)
		return NULL;
	if (r == 0)
	{
		sq_err_printf(e, SQ_E_UNDEFINED, "shape \"%s\" does not exist", name);
		return NULL;
	}
	held = c->plan_bytes;
	s = shape_build(c, name, root.descriptor, root.dlen, &root, e);
	sq_dep_free(&root);
	if (!s)
		return NULL;
	c->compiles++;
	stamp(c, s);
	s->last_used = c->clock;
	/* what the core holds for it (descriptor, plan, writer), and the adapter's own copies */
	s->bytes = (size_t) (c->plan_bytes > held ? c->plan_bytes - held : 0) + sizeof(sq_shape) +
		strlen(s->columns) + 1 + sizeof(sq_value) * (size_t) s->ndefaults;
	for (int i = 0; i < s->ndeps; i++)
		s->bytes += sizeof(sq_dep) + s->deps[i].dlen + strlen(s->deps[i].name) + 2;
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
	trim(c, s);
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
		n += c->shapes[i]->bytes;
	return n;
}
