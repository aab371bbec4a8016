/*
 * strtab.c — a string -> int table (open addressing, linear probing, in an arena) that makes
 * the compiler's name lookups constant time: compiling a shape is linear in its fields.  The
 * hash is seeded once per process (a shape file is untrusted input: its names must not be
 * able to pick their slots).
 */
#include "strtab.h"

#include <string.h>
#include <time.h>

static uint64_t strtab_seed;

static uint64_t
seed(void)
{
	uint64_t	s = __atomic_load_n(&strtab_seed, __ATOMIC_RELAXED);

	if (s == 0)
	{
		struct timespec ts;
		int			local;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		s = ((uint64_t) ts.tv_nsec * 0x9E3779B97F4A7C15ull) ^ (uint64_t) (uintptr_t) &local ^
			((uint64_t) (uintptr_t) &strtab_seed << 17) ^ (uint64_t) ts.tv_sec;
		s |= 1;

		uint64_t	seen = 0;

		/* the first seed stored wins (a table keeps its own anyway) */
		if (!__atomic_compare_exchange_n(&strtab_seed, &seen, s, false, __ATOMIC_RELAXED,
										 __ATOMIC_RELAXED))
			s = seen;
	}
	return s;
}

static inline uint8_t
fold(uint8_t ch, bool nocase)
{
	return nocase && ch >= 'A' && ch <= 'Z' ? (uint8_t) (ch + 32) : ch;
}

static uint32_t
hash(uint64_t seed, const char *s, size_t len, bool nocase)
{
	uint64_t	h = seed ^ ((uint64_t) len * 0xff51afd7ed558ccdull);
	uint64_t	v = 0;
	unsigned	k = 0;
	size_t		i = 0;

	/*
	 * Case-sensitive tables: eight bytes at a time (the loop below, byte by byte, builds the
	 * same little-endian word); a plan's first compile hashes every name of every shape.
	 */
	if (!nocase)
		for (; i + 8 <= len; i += 8)
		{
			memcpy(&v, s + i, 8);
			h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
			h ^= h >> 29;
		}
	v = 0;
	for (; i < len; i++)
	{
		v |= (uint64_t) fold((uint8_t) s[i], nocase) << (8 * k);
		if (++k == 8)
		{
			h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
			h ^= h >> 29;
			v = 0;
			k = 0;
		}
	}
	h = (h ^ v ^ k) * 0xff51afd7ed558ccdull;
	h ^= h >> 32;
	h *= 0x9E3779B97F4A7C15ull;
	return (uint32_t) (h >> 32);
}

static bool
same(const sd_strtab *t, const sd_strtab_ent *e, const char *key, size_t len)
{
	if (e->len != len)
		return false;
	if (!t->nocase)
		return memcmp(e->key, key, len) == 0;
	for (size_t i = 0; i < len; i++)
		if (fold((uint8_t) e->key[i], true) != fold((uint8_t) key[i], true))
			return false;
	return true;
}

void
sd_strtab_init(sd_strtab *t, sd_arena *a, bool nocase)
{
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->nocase = nocase;
	t->seed = seed();
}

int
sd_strtab_get(const sd_strtab *t, const char *key, size_t len)
{
	if (t->n == 0)
		return -1;
	uint32_t	h = hash(t->seed, key, len, t->nocase);

	for (uint32_t s = h & (t->cap - 1);; s = (s + 1) & (t->cap - 1))
	{
		const sd_strtab_ent *e = &t->e[s];

		if (!e->key)
			return -1;
		if (e->hash == h && same(t, e, key, len))
			return e->val;
	}
}

int
sd_strtab_put(sd_strtab *t, const char *key, size_t len, int val)
{
	uint32_t	h = hash(t->seed, key, len, t->nocase);

	if (len > UINT32_MAX)
		return -2;
	if ((t->n + 1) * 2 > t->cap)
	{
		uint32_t	ncap = t->cap ? t->cap * 2 : 16;
		sd_strtab_ent *ne;

		if (ncap > (1u << 30) || !(ne = sd_arena_alloc(t->a, sizeof(*ne) * ncap)))
			return -2;
		memset(ne, 0, sizeof(*ne) * ncap);
		for (uint32_t i = 0; i < t->cap; i++)
			if (t->e[i].key)
			{
				uint32_t	s = t->e[i].hash & (ncap - 1);

				while (ne[s].key)
					s = (s + 1) & (ncap - 1);
				ne[s] = t->e[i];
			}
		t->e = ne;
		t->cap = ncap;
	}
	uint32_t	s = h & (t->cap - 1);

	for (; t->e[s].key; s = (s + 1) & (t->cap - 1))
		if (t->e[s].hash == h && same(t, &t->e[s], key, len))
			return t->e[s].val;
	t->e[s].key = key;
	t->e[s].len = (uint32_t) len;
	t->e[s].hash = h;
	t->e[s].val = val;
	t->n++;
	return -1;
}
