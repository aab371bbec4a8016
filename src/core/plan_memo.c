/*
 * plan_memo.c — the compiler's table of plan nodes already built, so that a type reached more
 * than once under the same inherited policy is compiled once and its node shared (a plan is a
 * DAG, like the type tree it mirrors).  Without it, 13 composites each using the previous one
 * four times compile into 4^13 nodes.  The key is everything that determines a node built
 * without field options: the type, the inherited policy (rename, unknown, coerce, optional, and
 * where each was set) and the format; see build_node in compile.c.  Also the member-name hash and lookup of compiled
 * composites (moved here from compile.c, which keeps under 1,500 lines).
 */
#include "internal.h"

#include <string.h>

static uint32_t
memo_hash(const void *type, const char *rename, uint32_t flags, const void *from)
{
	uint64_t	h = (uint64_t) (uintptr_t) type * 0x9E3779B97F4A7C15ull;

	h ^= (uint64_t) (uintptr_t) from * 0x94d049bb133111ebull;
	h ^= (uint64_t) (uintptr_t) rename * 0xff51afd7ed558ccdull;
	h ^= (uint64_t) flags * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 31;
	return (uint32_t) (h ^ (h >> 32));
}

const void *
sd_node_memo_get(const sd_node_memo *m, const void *type, const char *rename, uint32_t flags,
				 const void *from)
{
	if (m->n == 0)
		return NULL;
	for (uint32_t s = memo_hash(type, rename, flags, from) & (m->cap - 1);; s = (s + 1) & (m->cap - 1))
	{
		const sd_node_memo_entry *e = &m->e[s];

		if (e->type == NULL)
			return NULL;
		if (e->type == type && e->rename == rename && e->flags == flags && e->from == from)
			return e->node;
	}
}

static void
memo_insert(sd_node_memo_entry *tab, uint32_t cap, const sd_node_memo_entry *e)
{
	uint32_t	s = memo_hash(e->type, e->rename, e->flags, e->from) & (cap - 1);

	while (tab[s].type != NULL)
		s = (s + 1) & (cap - 1);
	tab[s] = *e;
}

bool
sd_node_memo_put(sd_node_memo *m, const void *type, const char *rename, uint32_t flags,
				 const void *from, const void *node)
{
	sd_node_memo_entry e = {type, rename, flags, from, node};

	if ((m->n + 1) * 2 > m->cap)
	{
		uint32_t	ncap = m->cap ? m->cap * 2 : 64;
		sd_node_memo_entry *tab = sd_hook_alloc(&m->hooks, sizeof(*tab) * ncap);

		if (!tab)
			return false;
		memset(tab, 0, sizeof(*tab) * ncap);
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->e[i].type != NULL)
				memo_insert(tab, ncap, &m->e[i]);
		sd_hook_free(&m->hooks, m->e);
		m->e = tab;
		m->cap = ncap;
	}
	memo_insert(m->e, m->cap, &e);
	m->n++;
	return true;
}

void
sd_node_memo_free(sd_node_memo *m)
{
	sd_hook_free(&m->hooks, m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}

/* ---- member tables ------------------------------------------------------------------------ */

/* Member-name hash: 8 bytes per step (names are short; this runs once per document member). */
uint32_t
sd_hash_name(const char *s, size_t len)
{
	uint64_t	h = 0x9E3779B97F4A7C15ull ^ (uint64_t) len;
	uint64_t	v;

	while (len >= 8)
	{
		memcpy(&v, s, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	if (len)
	{
		v = 0;
		memcpy(&v, s, len);
		h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 29;
	}
	return (uint32_t) (h ^ (h >> 32));
}

int
sd_members_find(const sd_members *ms, const char *name, size_t len, uint32_t hash)
{
	for (uint32_t slot = hash & ms->mask;; slot = (slot + 1) & ms->mask)
	{
		int			i = ms->table[slot];

		if (i < 0)
			return -1;
		if (ms->m[i].hash == hash && ms->m[i].len == len && memcmp(ms->m[i].name, name, len) == 0)
			return i;
	}
}

int
sd_members_find_xml(const sd_members *ms, uint8_t kind, const char *ns, size_t ns_len,
					const char *name, size_t len, uint32_t hash)
{
	for (uint32_t slot = hash & ms->mask;; slot = (slot + 1) & ms->mask)
	{
		int			i = ms->table[slot];

		if (i < 0)
			return -1;
		const sd_member *m = &ms->m[i];

		if (m->hash == hash && m->len == len && m->xml_kind == kind && m->ns_len == ns_len &&
			memcmp(m->name, name, len) == 0 && (ns_len == 0 || memcmp(m->ns, ns, ns_len) == 0))
			return i;
	}
}
