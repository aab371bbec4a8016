/*
 * engine_text.c — leaves of the rule engine for XML values: a scalar column decoded from an
 * element's or attribute's text (trimmed for non-text kinds, booleans as true/false/1/0, numbers
 * by the JSON number rules, found-value descriptions as XML text), and lists accumulated from
 * repeated elements. Called by engine.c only; calls nothing above it.
 */
#include "engine_int.h"

#include <stdio.h>
#include <string.h>

/* rewrites a conversion's "found string ..." into the XML description (sd_describe_text) */
static void
xml_describe_fix(sd_error *err)
{
	char	   *p = strstr(err->problem, "found string \"");

	if (!p)
		return;
	char		tail[SD_PROBLEM_MAX];
	const char *rest = p + 13;	/* at the opening quote */

	if (rest[0] == '"' && rest[1] == '"')
		snprintf(tail, sizeof(tail), "found empty text%s", rest + 2);
	else
		snprintf(tail, sizeof(tail), "found text %s", rest);
	size_t		room = sizeof(err->problem) - (size_t) (p - err->problem);

	snprintf(p, room, "%s", tail);
}

bool
sd_eng_text_kind_error(Eng *e, const sd_node *n, const char *s, size_t len, int64_t at)
{
	char		desc[256];

	sd_describe_text(desc, sizeof(desc), s, len);
	return sd_eng_fail(e, SD_E_KIND, at, "expected %s, found %s", sd_expected_name(n), desc);
}

/* text s into dst as a scalar of node n; at locates errors */
bool
sd_eng_text_value(Eng *e, const sd_node *n, const char *s, size_t len, Dest dst, int64_t at)
{
	sd_val		v;
	bool		ok;

	if (n->kind != SD_K_TEXT && n->kind != SD_K_OTHER)
	{
		while (len && sd_is_ws(s[0]))
			s++, len--;
		while (len && sd_is_ws(s[len - 1]))
			len--;
	}
	if (n->kind == SD_K_JSON || n->kind == SD_K_JSONB || n->kind == SD_K_ARRAY ||
		n->kind == SD_K_COMPOSITE)
		return sd_eng_fail(e, SD_E_UNSUPPORTED, at, "decoding XML: this column kind from text is not supported");
	memset(&v, 0, sizeof(v));
	e->err->offset = at;
	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
		case SD_K_NUMERIC:
		number:
			/* numbers from text: the JSON number rules (a text that is none is a kind error) */
			ok = len > 0 && sd_convert_number(n, s, len, &v, e->err);
			if (!ok && (len == 0 || e->err->code == SD_E_KIND || e->err->code == SD_E_SYNTAX))
				return sd_eng_text_kind_error(e, n, s, len, at);
			break;
		case SD_K_BOOL:
			if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))
				ok = sd_convert_bool(n, true, &v, e->err);
			else if ((len == 5 && memcmp(s, "false", 5) == 0) || (len == 1 && s[0] == '0'))
				ok = sd_convert_bool(n, false, &v, e->err);
			else
				return sd_eng_text_kind_error(e, n, s, len, at);
			break;
		case SD_K_TIMESTAMP:
		case SD_K_TIMESTAMPTZ:
			/* `format: unix` / `unix_ms`: the text is a number of (milli)seconds, as in JSON */
			if (n->format == SD_FMT_UNIX || n->format == SD_FMT_UNIX_MS)
				goto number;
			ok = sd_convert_string(&e->d->arena, n, s, len, &v, e->err);
			break;
		default:
			ok = sd_convert_string(&e->d->arena, n, s, len, &v, e->err);
			break;
	}
	if (!ok)
	{
		char		problem[SD_PROBLEM_MAX];

		xml_describe_fix(e->err);
		memcpy(problem, e->err->problem, sizeof(problem));
		return sd_eng_fail(e, e->err->code, at, "%s", problem);
	}
	v.offset = tape_off(at);
	*slot(e, dst) = v;
	return true;
}

bool
sd_eng_acc_add(Eng *e, Acc *a, uint32_t idx, int64_t off)
{
	if (a->n == a->cap)
	{
		uint32_t	ncap = a->cap ? a->cap * 2 : 8;
		uint32_t   *ni = sd_arena_alloc(&e->d->arena, sizeof(uint32_t) * ncap);

		if (!ni)
			return sd_eng_fail(e, SD_E_NOMEM, off, "out of memory");
		if (a->n)
			memcpy(ni, a->idx, sizeof(uint32_t) * a->n);
		a->idx = ni;
		a->cap = ncap;
	}
	a->idx[a->n++] = idx;
	return true;
}

/* the accumulated elements as one contiguous array in dst */
bool
sd_eng_acc_finish(Eng *e, Acc *a, Dest dst, int64_t off)
{
	uint32_t	first = 0;

	if (a->n && !reserve_tape(e, a->n, &first, off))
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		e->d->tape[first + i] = e->d->tape[a->idx[i]];
	sd_val	   *out = slot(e, dst);

	out->tag = SD_V_ARRAY;
	out->u.first = first;
	out->len = a->n;
	out->offset = tape_off(off);
	return true;
}

