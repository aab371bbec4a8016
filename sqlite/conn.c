/*
 * conn.c — the per-connection state of the SQLite adapter (sq_conn): one per sqlite3_serde_init,
 * the user data of every function and module of that connection, released when the last of them
 * is (the connection closes).  It holds the plan cache (cache.c), the decoders the calls borrow
 * (one for the scalar functions, one spare a cursor gave back; a decoder keeps at most 4 MB
 * between calls), the limits (nesting depth 512, documents up to 1 GB), the cache's bounds
 * (serde_config), and the interrupt polling the core calls (sqlite3_is_interrupted, SQLite 3.41
 * and later, looked up at run time).
 *
 * Calls cache.c and catalog.c (to drop the cache and the kept statements when the connection
 * closes).
 */
#include "serde_sqlite.h"

#include <malloc.h>
#include <stdlib.h>

/* sqlite3_is_interrupted() is in the API table from 3.41 on, right after the last 3.40 member:
 * compiled against 3.40's sqlite3ext.h, it is reached past the end of that struct, only when
 * the running library is new enough to have it. */
typedef struct sq_api_341
{
	sqlite3_api_routines base;
	int			(*is_interrupted) (sqlite3 *);
} sq_api_341;

static int	(*interrupted_fn (void)) (sqlite3 *)
{
	if (sqlite3_libversion_number() >= 3041000)
		return ((const sq_api_341 *) sqlite3_api)->is_interrupted;
	return NULL;
}

static bool
should_stop(void *ud)
{
	const sq_conn *c = ud;

	return c->is_interrupted != NULL && c->is_interrupted(c->db) != 0;
}

sd_decoder *
sq_decoder_get(sq_conn *c)
{
	sd_decoder *d;

	if (!c->decoder_busy)
	{
		if (!c->decoder)
			c->decoder = sd_decoder_create(&c->hooks);
		if (c->decoder)
			c->decoder_busy = true;
		return c->decoder;
	}
	if (c->spare)
	{
		d = c->spare;
		c->spare = NULL;
		return d;
	}
	return sd_decoder_create(&c->hooks);
}

void
sq_decoder_put(sq_conn *c, sd_decoder *d)
{
	if (!d)
		return;
	if (sd_decoder_bytes(d) > SQ_DECODER_KEEP_BYTES)
		sd_decoder_trim(d, SQ_DECODER_KEEP_BYTES);
	if (d == c->decoder)
		c->decoder_busy = false;
	else if (!c->spare)
		c->spare = d;
	else
		sd_decoder_destroy(d);
}

void
sq_conn_unref(void *p)
{
	sq_conn    *c = p;

	if (--c->refcount > 0)
		return;
	sq_catalog_release(c);
	sq_cache_clear(c);
	if (c->decoder)
		sd_decoder_destroy(c->decoder);
	if (c->spare)
		sd_decoder_destroy(c->spare);
	sd_buf_free(&c->out);
	free(c);
}

/* The allocator of compiled shapes: malloc, counting what is held (malloc_usable_size), so that
 * the plan cache's bound is in the bytes a plan really holds. */
static void *
plan_alloc(void *ud, size_t size)
{
	sq_conn    *c = ud;
	void	   *p = malloc(size);

	if (p)
		c->plan_bytes += (int64_t) malloc_usable_size(p);
	return p;
}

static void *
plan_realloc(void *ud, void *ptr, size_t size)
{
	sq_conn    *c = ud;
	size_t		old = ptr ? malloc_usable_size(ptr) : 0;
	void	   *p = realloc(ptr, size);

	if (p)
		c->plan_bytes += (int64_t) malloc_usable_size(p) - (int64_t) old;
	return p;
}

static void
plan_free(void *ud, void *ptr)
{
	sq_conn    *c = ud;

	if (ptr)
		c->plan_bytes -= (int64_t) malloc_usable_size(ptr);
	free(ptr);
}

sq_conn *
sq_conn_new(sqlite3 *db)
{
	sq_conn    *c = calloc(1, sizeof(sq_conn));

	if (!c)
		return NULL;
	c->db = db;
	c->refcount = 1;            /* the caller's */
	c->limits.max_depth = SD_DEFAULT_MAX_DEPTH;
	c->limits.max_document_bytes = SD_DEFAULT_MAX_DOCUMENT_BYTES;
	c->limits.stack_budget = 0;
	c->cache_bytes = SQ_CACHE_BYTES_DEFAULT;
	c->cache_entries = SQ_CACHE_ENTRIES_DEFAULT;
	c->catalog_cookie = -1;
	c->hooks.should_stop = should_stop;
	c->hooks.ud = c;
	c->plan_hooks = c->hooks;
	c->plan_hooks.alloc = plan_alloc;
	c->plan_hooks.realloc = plan_realloc;
	c->plan_hooks.free = plan_free;
	c->is_interrupted = interrupted_fn();
	sd_buf_init(&c->out, &c->hooks);
	return c;
}
