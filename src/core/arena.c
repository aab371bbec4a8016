/*
 * arena.c — the core's allocation: hook wrappers (malloc when a hook is absent), the geometric
 * growth of a buffer over them (sd_grow), and a chunk arena whose blocks never move, so pointers
 * into it stay valid until reset/free.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct sd_chunk
{
	sd_chunk   *next;
	size_t		size;           /* usable bytes */
	size_t		used;
	/* data follows, 16-aligned */
};

#define CHUNK_HDR ((sizeof(sd_chunk) + 15) & ~(size_t) 15)
#define CHUNK_MIN 4096

void *
sd_hook_alloc(const sd_hooks *h, size_t size)
{
	return h && h->alloc ? h->alloc(h->ud, size) : malloc(size);
}

void *
sd_hook_realloc(const sd_hooks *h, void *p, size_t size)
{
	return h && h->realloc ? h->realloc(h->ud, p, size) : realloc(p, size);
}

void
sd_hook_free(const sd_hooks *h, void *p)
{
	if (!p)
		return;
	if (h && h->free)
		h->free(h->ud, p);
	else
		free(p);
}

/* Grows *buf (*cap elements of elem_size bytes) to hold at least need elements: doubling from
 * 64, at most UINT32_MAX elements and 1 TB; false when the hook's realloc fails or a bound is
 * passed (the buffer is then unchanged). */
bool
sd_grow(const sd_hooks *h, void **buf, uint32_t *cap, uint32_t need, size_t elem_size)
{
	uint64_t	ncap = *cap ? *cap : 64;
	void	   *nb;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX || ncap * elem_size > ((uint64_t) 1 << 40))
		return false;
	if (!(nb = sd_hook_realloc(h, *buf, (size_t) ncap * elem_size)))
		return false;
	*buf = nb;
	*cap = (uint32_t) ncap;
	return true;
}

void
sd_arena_init(sd_arena *a, const sd_hooks *hooks)
{
	memset(a, 0, sizeof(*a));
	if (hooks)
		a->hooks = *hooks;
}

void *
sd_arena_alloc(sd_arena *a, size_t size)
{
	sd_chunk   *c = a->head;

	size = (size + 7) & ~(size_t) 7;
	if (!c || c->size - c->used < size)
	{
		size_t		want = size > CHUNK_MIN ? size : CHUNK_MIN;

		if (c && c->size * 2 > want && c->size < (1u << 20))
			want = c->size * 2;
		c = sd_hook_alloc(&a->hooks, CHUNK_HDR + want);
		if (!c)
			return NULL;
		c->next = a->head;
		c->size = want;
		c->used = 0;
		a->head = c;
		a->bytes += CHUNK_HDR + want;
	}
	void	   *p = (char *) c + CHUNK_HDR + c->used;

	c->used += size;
	return p;
}

char *
sd_arena_strndup(sd_arena *a, const char *s, size_t n)
{
	char	   *p = sd_arena_alloc(a, n + 1);

	if (p)
	{
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

void
sd_arena_reset(sd_arena *a)
{
	sd_chunk   *keep = a->head;

	if (!keep)
		return;
	for (sd_chunk *c = keep->next; c;)
	{
		sd_chunk   *next = c->next;

		a->bytes -= CHUNK_HDR + c->size;
		sd_hook_free(&a->hooks, c);
		c = next;
	}
	keep->next = NULL;
	keep->used = 0;
}

void
sd_arena_free(sd_arena *a)
{
	for (sd_chunk *c = a->head; c;)
	{
		sd_chunk   *next = c->next;

		sd_hook_free(&a->hooks, c);
		c = next;
	}
	a->head = NULL;
	a->bytes = 0;
}
