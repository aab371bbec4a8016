/*
 * rules.c — small pieces of the plan's rules that the rule engine (engine.c) and
 * the decoder share, kept below both so that neither calls back into the other: the limits a
 * decode runs under, the duplicate-key set of a map,
 * and serde_errors' collection of the violations found (one found entry, the mark of a
 * value's errors, the one-error answer of a decode that could not go on).
 */
#include "internal.h"
#include "walker.h"

#include <stdio.h>
#include <string.h>

typedef struct sd_keyent
{
	const char *key;            /* NULL: free slot */
	size_t		len;
	uint64_t	hash;
} sd_keyent;

static uint64_t
key_hash(uint64_t seed, const char *s, size_t len)
{
	uint64_t	h = seed ^ ((uint64_t) len * 0x9E3779B97F4A7C15ull);
	uint64_t	v;

	for (; len >= 8; s += 8, len -= 8)
	{
		memcpy(&v, s, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdull;
		h ^= h >> 31;
	}
	v = 0;
	memcpy(&v, s, len);
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
	/* a full finalizer: the table takes the low bits, which a multiply alone leaves depending on
	 * the low bytes only ("key-0001-…" keys probed 9x more with h ^ (h >> 29)) */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static void
keyset_put(sd_keyent *e, uint32_t cap, const sd_keyent *x)
{
	uint32_t	i = (uint32_t) x->hash & (cap - 1);

	while (e[i].key)
		i = (i + 1) & (cap - 1);
	e[i] = *x;
}

sd_limits
sd_limits_or_defaults(const sd_limits *limits, sd_limits fallback)
{
	sd_limits	lim = limits ? *limits : fallback;

	if (lim.max_depth == 0)
		lim.max_depth = SD_DEFAULT_MAX_DEPTH;
	if (lim.stack_budget == 0)
		lim.stack_budget = 1024 * 1024;
	return lim;
}

bool
sd_map_key_new(sd_decoder *d, sd_keyset *ks, const char *key, size_t len, sd_error *err)
{
	/* the seed: where this backend's decoder lives, not known to the document's author */
	sd_keyent	x = {key ? key : "", len, key_hash((uint64_t) (uintptr_t) d * 0x2545F4914F6CDD1Dull, key, len)};

	if ((uint64_t) ks->n * 2 + 2 > ks->cap)
	{
		uint32_t	cap = ks->cap ? ks->cap * 2 : 16;
		sd_keyent  *e;

		if (cap < ks->cap || !(e = sd_arena_alloc(&d->arena, sizeof(sd_keyent) * (size_t) cap)))
			return sd_error_set(err, SD_E_NOMEM, -1, "out of memory");
		memset(e, 0, sizeof(sd_keyent) * (size_t) cap);
		for (uint32_t i = 0; i < ks->cap; i++)
			if (ks->e[i].key)
				keyset_put(e, cap, &ks->e[i]);
		ks->e = e;
		ks->cap = cap;
	}
	for (uint32_t i = (uint32_t) x.hash & (ks->cap - 1);; i = (i + 1) & (ks->cap - 1))
	{
		const sd_keyent *y = &ks->e[i];

		if (!y->key)
			break;
		if (y->hash == x.hash && y->len == len && memcmp(y->key, x.key, len) == 0)
			return sd_error_set(err, SD_E_DUPLICATE, -1, "duplicate member");
	}
	keyset_put(ks->e, ks->cap, &x);
	ks->n++;
	return true;
}

bool
sd_found_add(const sd_hooks *hooks, sd_arena *arena, sd_found **found, uint32_t *cap, int *n,
			 int max, uint32_t seq, const sd_error *err)
{
	sd_found   *f;

	if (*n >= max)
		return true;
	/* grown geometrically: memory follows the errors kept, never the cap */
	if ((uint32_t) *n >= *cap &&
		!sd_grow(hooks, (void **) found, cap, (uint32_t) *n + 1, sizeof(sd_found)))
		return false;
	f = &(*found)[*n];
	f->code = err->code;
	f->seq = seq;
	f->offset = err->offset;
	f->path = sd_arena_strndup(arena, err->path, strlen(err->path));
	f->problem = sd_arena_strndup(arena, err->problem, strlen(err->problem));
	if (!f->path || !f->problem)
		return false;
	(*n)++;
	return true;
}

uint32_t
sd_mark_value(bool ok, int errors_before, int errors_now, uint32_t *values)
{
	if (!ok)
		return SD_MARK_FAILED;
	if (*values < SD_MARK_SEQ)
		(*values)++;
	return *values | (errors_now != errors_before ? SD_MARK_DIRTY : 0);
}

void
sd_collect_add(sd_collect *c, const sd_error *err)
{
	sd_decoder *d = c->d;

	if (!sd_found_add(&d->hooks, &d->arena, &d->found, &d->found_cap, &c->n, c->max, c->values,
					  err))
		c->oom = true;
	c->total++;
}

/* ---- serde_errors' answers of the engine (walker.h) ------------------------------------ */

int
sd_engine_found_fatal(sd_decoder *d, sd_error *err, bool oom, const sd_found **found,
					  int *total, uint32_t *root)
{
	int			n = 0;

	*root = UINT32_MAX;
	if (oom)
		sd_error_set(err, SD_E_NOMEM, -1, "out of memory for the errors found");
	sd_arena_reset(&d->arena);
	if (!sd_found_add(&d->hooks, &d->arena, &d->found, &d->found_cap, &n, 1, 0, err))
	{
		/* not even room for that one: a static entry */
		static sd_found nomem = {SD_E_NOMEM, 0, -1, "$", "out of memory for the errors found"};

		*found = &nomem;
		*total = 1;
		return 1;
	}
	*found = d->found;
	*total = 1;
	return 1;
}
