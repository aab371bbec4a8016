/*
 * infer.c — serde_infer's model: samples merged value by value into nodes (kinds, number and
 * string forms, members in first-seen order with their presence, tag candidates), and the merge of
 * two nodes (a map's values).  The readers (infer_json.c, infer_xml.c) call down into it; the
 * entry points are infer_api.c's, writing the script infer_render.c's.
 */
#include "infer_int.h"
#include "scalar.h"

#include <stdio.h>
#include <string.h>

bool
inf_oom(sd_infer *inf)
{
	return sd_error_set(inf->err, SD_E_NOMEM, -1, "out of memory");
}

bool
inf_stop(sd_infer *inf)
{
	if ((++inf->work & 4095) == 0 && inf->hooks.should_stop && inf->hooks.should_stop(inf->hooks.ud))
		return sd_error_set(inf->err, SD_E_CANCELED, -1, "canceled");
	return true;
}

inf_node *
inf_node_new(sd_infer *inf)
{
	inf_node   *n = sd_arena_alloc(&inf->arena, sizeof(inf_node));

	if (!n)
	{
		inf_oom(inf);
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	return n;
}

static bool
same_ns(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool
rehash(sd_infer *inf, inf_node *n, uint32_t size)
{
	int32_t    *s = sd_arena_alloc(&inf->arena, size * sizeof(int32_t));

	if (!s)
		return inf_oom(inf);
	for (uint32_t i = 0; i < size; i++)
		s[i] = -1;
	n->slots = s;
	n->mask = size - 1;
	for (int i = 0; i < n->nmem; i++)
	{
		uint32_t	h = sd_hash_name(n->mem[i].name, n->mem[i].len) & n->mask;

		while (s[h] >= 0)
			h = (h + 1) & n->mask;
		s[h] = i;
	}
	return true;
}

/* The index of member (name, kind, ns) of object node n, added when new; -1 on OOM. */
int
inf_member_get(sd_infer *inf, inf_node *n, const char *name, size_t len, uint8_t kind,
			   const char *ns)
{
	uint32_t	h;
	inf_member *m;

	if (len > UINT32_MAX)
		len = UINT32_MAX;
	if (n->slots)
	{
		h = sd_hash_name(name, len) & n->mask;
		for (; n->slots[h] >= 0; h = (h + 1) & n->mask)
		{
			m = &n->mem[n->slots[h]];
			if (m->len == len && m->kind == kind && memcmp(m->name, name, len) == 0 &&
				same_ns(m->ns, ns))
				return n->slots[h];
		}
	}
	if (n->nmem == n->capmem)
	{
		int			cap = n->capmem ? n->capmem * 2 : 8;
		inf_member *mm = sd_arena_alloc(&inf->arena, (size_t) cap * sizeof(inf_member));

		if (!mm)
			return inf_oom(inf), -1;
		if (n->nmem)
			memcpy(mm, n->mem, (size_t) n->nmem * sizeof(inf_member));
		n->mem = mm;
		n->capmem = cap;
	}
	m = &n->mem[n->nmem];
	memset(m, 0, sizeof(*m));
	if (!(m->name = sd_arena_strndup(&inf->arena, name, len)) ||
		(ns && !(m->ns = sd_arena_strndup(&inf->arena, ns, strlen(ns)))) ||
		!(m->val = inf_node_new(inf)))
		return inf_oom(inf), -1;
	m->len = (uint32_t) len;
	m->kind = kind;
	n->nmem++;
	if ((uint32_t) n->nmem * 2 > (n->slots ? n->mask + 1 : 0))
	{
		if (!rehash(inf, n, n->slots ? (n->mask + 1) * 2 : 16))
			return -1;
	}
	else
	{
		h = sd_hash_name(name, len) & n->mask;
		while (n->slots[h] >= 0)
			h = (h + 1) & n->mask;
		n->slots[h] = n->nmem - 1;
	}
	return n->nmem - 1;
}

bool
inf_add_null(sd_infer *inf, inf_node *n)
{
	n->n_null++;
	return inf_stop(inf);
}

bool
inf_add_bool(sd_infer *inf, inf_node *n)
{
	n->n_bool++;
	return inf_stop(inf);
}

/* An integer literal: true with *v when it fits int8, *big when it does not. */
static bool
read_int(const char *lit, size_t len, int64_t *v, bool *big)
{
	char		problem[SD_PROBLEM_MAX];
	sd_code		c;

	for (size_t i = 0; i < len; i++)
		if (lit[i] == '.' || lit[i] == 'e' || lit[i] == 'E')
			return false;
	c = sd_parse_int(lit, len, INT64_MIN, INT64_MAX, false, "bigint", v, problem);
	*big = c != SD_OK;
	return true;
}

static bool
has_exponent(const char *lit, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (lit[i] == 'e' || lit[i] == 'E')
			return true;
	return false;
}

bool
inf_add_number(sd_infer *inf, inf_node *n, const char *lit, size_t len)
{
	int64_t		v = 0;
	bool		big = false;

	if (read_int(lit, len, &v, &big))
	{
		if (big)
			n->int_big = true;
		else
		{
			if (n->n_int == 0 || v < n->imin)
				n->imin = v;
			if (n->n_int == 0 || v > n->imax)
				n->imax = v;
		}
		n->n_int++;
	}
	else if (has_exponent(lit, len))
		n->n_float++;
	else
		n->n_dec++;
	return inf_stop(inf);
}

bool
inf_add_string(sd_infer *inf, inf_node *n, const char *s, size_t len, bool xml_text,
			   int *distinct)
{
	char		problem[SD_PROBLEM_MAX];
	int64_t		us;
	int32_t		days;
	bool		had;
	uint8_t		uuid[16];
	const char *t = s;
	size_t		tl = len;

	*distinct = -1;
	n->n_str++;
	if (xml_text)
	{
		/* XML scalars are read trimmed (except text columns) */
		while (tl > 0 && sd_is_ws(*t))
			t++, tl--;
		while (tl > 0 && sd_is_ws(t[tl - 1]))
			tl--;
		if (tl == 0)
			n->t_empty++;
		else if (sd_is_json_number(t, tl))
		{
			int64_t		v = 0;
			bool		big = false;

			if (read_int(t, tl, &v, &big))
			{
				if (big)
					n->tint_big = true;
				else
				{
					if (n->t_int == 0 || v < n->timin)
						n->timin = v;
					if (n->t_int == 0 || v > n->timax)
						n->timax = v;
				}
				n->t_int++;
			}
			else if (has_exponent(t, tl))
				n->t_float++;
			else
				n->t_dec++;
		}
		else if ((tl == 4 && memcmp(t, "true", 4) == 0) || (tl == 5 && memcmp(t, "false", 5) == 0))
			n->t_bool++;
	}
	if (tl >= 10 && tl <= 64)
	{
		if (sd_parse_timestamp(t, tl, false, &us, &had, problem) == SD_OK)
		{
			if (had)
				n->s_tz++;
			else
				n->s_ts++;
		}
		else if (tl == 10 && sd_parse_date(t, tl, &days, problem) == SD_OK)
			n->s_date++;
		else if (tl == 36 && sd_parse_uuid(t, tl, uuid, problem) == SD_OK)
			n->s_uuid++;
		else if (sd_parse_rfc2822(t, tl, &us, problem) == SD_OK)
			n->s_2822++;
	}
	if (!n->distinct_over)
	{
		for (uint32_t i = 0; i < n->ndistinct; i++)
			if (n->dvlen[i] == len && memcmp(n->dv[i], s, len) == 0)
			{
				*distinct = (int) i;
				return inf_stop(inf);
			}
		if (n->ndistinct == INF_DISTINCT || len > 63 || memchr(s, 0, len))
		{
			n->distinct_over = true;
			n->ndistinct = 0;
		}
		else
		{
			if (!(n->dv[n->ndistinct] = sd_arena_strndup(&inf->arena, s, len)))
				return inf_oom(inf);
			n->dvlen[n->ndistinct] = (uint32_t) len;
			*distinct = (int) n->ndistinct++;
		}
	}
	return inf_stop(inf);
}

static bool
tag_or(sd_infer *inf, inf_tagc *c, int v, int member)
{
	uint32_t	w = (uint32_t) member / 64;

	if (w >= c->words[v])
	{
		uint32_t	nw = w + 1 > c->words[v] * 2 ? w + 1 : c->words[v] * 2;
		uint64_t   *b = sd_arena_alloc(&inf->arena, nw * sizeof(uint64_t));

		if (!b)
			return inf_oom(inf);
		memset(b, 0, nw * sizeof(uint64_t));
		if (c->words[v])
			memcpy(b, c->bits[v], c->words[v] * sizeof(uint64_t));
		c->bits[v] = b;
		c->words[v] = nw;
	}
	c->bits[v][w] |= (uint64_t) 1 << (member % 64);
	return true;
}

bool
inf_object_done(sd_infer *inf, inf_node *n, const int *members, const int *dvals, int count)
{
	uint64_t	stamp = ++inf->stamp;

	n->n_obj++;
	for (int i = 0; i < count; i++)
	{
		inf_member *m = &n->mem[members[i]];

		if (m->stamp != stamp)
		{
			m->stamp = stamp;
			m->reps = 0;
			m->present++;
		}
		if (++m->reps > m->max_repeat)
			m->max_repeat = m->reps;
	}
	/* tag candidates: the first members whose value was a string */
	for (int i = 0; n->n_obj == 1 && i < count && n->ntagc < INF_TAGS; i++)
	{
		bool		known = false;

		if (dvals[i] < 0 || n->mem[members[i]].present != n->n_obj)
			continue;
		for (int k = 0; k < n->ntagc && !known; k++)
			known = n->tagc[k].member == members[i];
		if (!known)
		{
			memset(&n->tagc[n->ntagc], 0, sizeof(inf_tagc));
			n->tagc[n->ntagc++].member = members[i];
		}
	}
	for (int k = 0; k < n->ntagc; k++)
	{
		inf_tagc   *c = &n->tagc[k];
		int			v = -1;

		if (c->dead)
			continue;
		for (int i = 0; i < count; i++)
			if (members[i] == c->member)
			{
				v = dvals[i];
				break;
			}
		if (v < 0 || v >= INF_TAG_VALUES || n->mem[c->member].val->n_str != n->mem[c->member].present)
		{
			c->dead = true;
			continue;
		}
		c->nobj[v]++;
		for (int i = 0; i < count; i++)
			if (!tag_or(inf, c, v, members[i]))
				return false;
	}
	return inf_stop(inf);
}

static bool
merge_members(sd_infer *inf, inf_node *dst, const inf_node *src)
{
	for (int i = 0; i < src->nmem; i++)
	{
		const inf_member *s = &src->mem[i];
		int			j = inf_member_get(inf, dst, s->name, s->len, s->kind, s->ns);

		if (j < 0)
			return false;
		dst->mem[j].present += s->present;
		if (s->max_repeat > dst->mem[j].max_repeat)
			dst->mem[j].max_repeat = s->max_repeat;
		if (!inf_merge(inf, dst->mem[j].val, s->val))
			return false;
	}
	return true;
}

bool
inf_merge(sd_infer *inf, inf_node *dst, const inf_node *src)
{
	if (!inf_stop(inf))
		return false;
	if (src->n_int)
	{
		if (dst->n_int == 0 || src->imin < dst->imin)
			dst->imin = src->imin;
		if (dst->n_int == 0 || src->imax > dst->imax)
			dst->imax = src->imax;
	}
	if (src->t_int)
	{
		if (dst->t_int == 0 || src->timin < dst->timin)
			dst->timin = src->timin;
		if (dst->t_int == 0 || src->timax > dst->timax)
			dst->timax = src->timax;
	}
	dst->int_big |= src->int_big;
	dst->tint_big |= src->tint_big;
#define ADD(f) dst->f += src->f
	ADD(n_null); ADD(n_bool); ADD(n_int); ADD(n_dec); ADD(n_float); ADD(n_str); ADD(n_obj);
	ADD(n_arr); ADD(s_tz); ADD(s_ts); ADD(s_2822); ADD(s_date); ADD(s_uuid); ADD(t_int);
	ADD(t_dec); ADD(t_float); ADD(t_bool); ADD(t_empty);
#undef ADD
	if (src->distinct_over)
	{
		dst->distinct_over = true;
		dst->ndistinct = 0;
	}
	for (uint32_t i = 0; i < src->ndistinct && !dst->distinct_over; i++)
	{
		bool		found = false;

		for (uint32_t k = 0; k < dst->ndistinct && !found; k++)
			found = dst->dvlen[k] == src->dvlen[i] && memcmp(dst->dv[k], src->dv[i], src->dvlen[i]) == 0;
		if (found)
			continue;
		if (dst->ndistinct == INF_DISTINCT)
		{
			dst->distinct_over = true;
			dst->ndistinct = 0;
			break;
		}
		dst->dv[dst->ndistinct] = src->dv[i];
		dst->dvlen[dst->ndistinct++] = src->dvlen[i];
	}
	if (src->nmem && !merge_members(inf, dst, src))
		return false;
	if (!dst->ns && src->ns)
		dst->ns = src->ns;
	dst->ntagc = 0;             /* a merged node is a map's value: no union detection */
	if (src->elem)
	{
		if (!dst->elem && !(dst->elem = inf_node_new(inf)))
			return false;
		return inf_merge(inf, dst->elem, src->elem);
	}
	return true;
}

