/*
 * json_walk.cpp — the JSON decoder: walks a document with simdjson On-Demand, driven by the plan,
 * and writes the value tape.  Every byte is validated (values the shape ignores are walked too),
 * every value is checked against its column, and errors carry a jsonpath and a byte offset.
 * A jsonb column's value is walked once, and what the walk reads (keys and strings unescaped,
 * number literals, container bounds) is also written as events (sd_jev), from which the host
 * builds its jsonb without parsing the text again.
 *
 * This file is compiled once per SIMD kernel (-DSD_KERNEL=haswell with the matching -march and
 * SIMDJSON_BUILTIN_IMPLEMENTATION); json_dispatch.cpp picks one at load time.  Everything here
 * has internal linkage except the kernel table, so the kernels cannot share machine code.
 * Built with exceptions off and NDEBUG; it calls no host function except the sd_hooks, which
 * must not longjmp.
 *
 * Its parts: json_walk_path.h (paths, errors, polling), json_walk_keys.h (member-name fast
 * paths), json_walk_skip.h (the validating skip); here: typed decoding and the kernel's entry
 * points (decode, each).
 */
#include <simdjson.h>

#include <cstdarg>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "json_walk.h"
#include "scalar.h"

#ifndef SD_KERNEL
#error "compile with -DSD_KERNEL=<kernel>"
#endif

namespace ond = simdjson::SIMDJSON_BUILTIN_IMPLEMENTATION::ondemand;

namespace
{

struct Walk
{
	sd_decoder *d;
	const sd_plan *plan;
	const char *base;
	size_t		len;
	sd_error   *err;
	ond::document *doc;
	uint32_t	max_depth;
	uint32_t	depth;
	uint32_t	poll;
	const char *stack_start;
	size_t		stack_budget;
	const sd_hooks *hooks;
	uint32_t	bias;           /* added to every offset (NDJSON: the line's start) */
	sd_collect *collect;        /* serde_errors mode, else NULL */
	bool		consumed;       /* the value being decoded has been read (no skip needed) */
	bool		in_jsonb;       /* walking a value kept as jsonb: \u0000 and numeric limits */
	bool		ev;             /* skip_value writes events (a jsonb value, within SD_JEV_MAX) */
	uint32_t	ev_start;       /* the first event of the value being written */
};

enum Where
{
	IN_TAPE,
	IN_STACK
};

/* A destination slot: in the tape or in the element stack (both may move when they grow). */
struct Dest
{
	Where		where;
	uint32_t	idx;
};

inline sd_val &
slot(Walk &w, Dest dst)
{
	return dst.where == IN_TAPE ? w.d->tape[dst.idx] : w.d->stack[dst.idx];
}

inline uint32_t
offset_of(Walk &w, const char *p)
{
	if (p < w.base || p > w.base + w.len)
		return w.bias;
	return (uint32_t) (p - w.base) + w.bias;
}

#include "json_walk_path.h"
#include "json_walk_keys.h"
#include "json_walk_skip.h"

/* ---- typed decoding ----------------------------------------------------------------------- */

template <class V>
bool		decode_value_in(Walk &w, V &v, const sd_node *n, Dest dst);

/* One value; in serde_errors' mode its slot gets its mark (SD_MARK_*, serde_core.h). */
template <class V>
inline bool
decode_value(Walk &w, V &v, const sd_node *n, Dest dst)
{
	int			before = w.collect ? w.collect->total : 0;
	bool		ok = decode_value_in(w, v, n, dst);

	if (w.collect)
		slot(w, dst).aux = sd_mark_value(ok, before, w.collect->total, &w.collect->values);
	return ok;
}
bool		decode_members(Walk &w, ond::object obj, const sd_node *n, const sd_members *ms,
						   uint32_t row, const char *obj_at, bool top);

inline bool
is_fatal(sd_code c)
{
	return c == SD_E_SYNTAX || c == SD_E_DEPTH || c == SD_E_NOMEM || c == SD_E_CANCELED ||
		c == SD_E_SIZE || c == SD_E_INTERNAL;
}

/* After an error at a value: in collect mode (serde_errors) record it and go on; else stop. */
inline bool
recover(Walk &w, uint32_t depth)
{
	w.depth = depth;
	if (!w.collect || is_fatal(w.err->code))
		return false;
	sd_collect_add(w.collect, w.err);
	return true;
}

/* The same, for an error at value v that may not have been read yet: it is then walked, so
 * that malformed JSON inside it is still found. */
template <class V>
inline bool
recover_value(Walk &w, V &v, uint32_t depth, uint32_t value_depth)
{
	bool		consumed = w.consumed;

	if (!recover(w, depth))
		return false;
	if (!consumed)
	{
		/* walk it where it is (its path entry is still in place) */
		w.depth = value_depth;
		if (!skip_value(w, v))
			return false;
		w.depth = depth;
	}
	return true;
}

/* A value error from convert.c: add path and offset. */
inline bool
convert_failed(Walk &w, const char *at)
{
	sd_error	e = *w.err;

	return fail(w, e.code, at, "%s", e.problem);
}

/* A scalar conversion into slot out failed: the slot is left as it was before (offset only). */
inline bool
scalar_failed(Walk &w, sd_val &out, const char *at)
{
	out.tag = 0;
	out.len = 0;
	out.u.i = 0;
	return convert_failed(w, at);
}

inline bool
reserve_tape(Walk &w, uint32_t n, uint32_t *first, const char *at)
{
	uint32_t	need = w.d->tape_len + n;

	if (need < w.d->tape_len ||
		(need > w.d->tape_cap && !sd_grow(w.hooks, (void **) &w.d->tape, &w.d->tape_cap, need, sizeof(sd_val))))
		return fail(w, SD_E_NOMEM, at, "out of memory");
	*first = w.d->tape_len;
	memset(&w.d->tape[*first], 0, sizeof(sd_val) * n);
	w.d->tape_len = need;
	return true;
}

bool
kind_error(Walk &w, const sd_node *n, std::string_view tok)
{
	char		found[128];

	sd_describe_found(found, sizeof(found), tok.data(), tok.size());
	return fail(w, SD_E_KIND, tok.data(), "expected %s, found %s", sd_expected_name(n), found);
}

/* Starts an element slot on the element stack. */
inline bool
push_element(Walk &w, Dest *ed, const char *at)
{
	if (w.d->stack_len + 1 > w.d->stack_cap &&
		!sd_grow(w.hooks, (void **) &w.d->stack, &w.d->stack_cap, w.d->stack_len + 1, sizeof(sd_val)))
		return fail(w, SD_E_NOMEM, at, "out of memory");
	*ed = Dest {IN_STACK, w.d->stack_len++};
	memset(&w.d->stack[ed->idx], 0, sizeof(sd_val));
	return true;
}

/* Moves the elements pushed since `start` into one tape block and points dst at it. */
bool
finish_elements(Walk &w, uint32_t start, Dest dst, const char *at)
{
	uint32_t	count = w.d->stack_len - start;
	uint32_t	first = 0;

	if (count && !reserve_tape(w, count, &first, at))
		return false;
	if (count)
		memcpy(&w.d->tape[first], &w.d->stack[start], sizeof(sd_val) * count);
	w.d->stack_len = start;
	sd_val	   &out = slot(w, dst);

	out.tag = SD_V_ARRAY;
	out.u.first = first;
	out.len = count;
	out.offset = offset_of(w, at);
	return true;
}

bool
decode_array(Walk &w, ond::array arr, const sd_node *n, Dest dst, const char *at)
{
	uint32_t	start = w.d->stack_len;
	uint64_t	i = 0;

	if (!container_guard(w, at))
		return false;
	for (auto er : arr)
	{
		ond::value	ev;
		simdjson::error_code e;
		Dest		ed = {IN_STACK, 0};
		uint32_t	depth = w.depth;

		if ((e = er.get(ev)))
			return syntax(w, e, nullptr);
		if (!push_element(w, &ed, at) || !enter(w, nullptr, 0, i, at))
			return false;
		if (!decode_value(w, ev, n->elem, ed) && !recover_value(w, ev, depth, depth + 1))
			return false;
		w.depth = depth;
		i++;
	}
	return finish_elements(w, start, dst, at);
}

/* map: true — an object of arbitrary members into (key, value) elements, in document order. */
bool
decode_map(Walk &w, ond::object obj, const sd_node *n, Dest dst, const char *at)
{
	uint32_t	start = w.d->stack_len;
	const sd_node *pair = n->elem;
	sd_keyset	keys = {};			/* a repeated key is 22030, as for mapped members */

	if (!container_guard(w, at))
		return false;
	for (auto fr : obj)
	{
		std::string_view key;
		simdjson::error_code e;
		Dest		ed = {IN_STACK, 0};
		uint32_t	depth = w.depth;
		uint32_t	row = 0;

		if ((e = fr.error()))
			return syntax(w, e, nullptr);
		ond::field &f = field_of(fr);
		const char *key_at;

		if ((e = read_key(w, f, &key, &key_at)))
			return syntax(w, e, key_at);
		ond::value &v = f.value();

		if (!push_element(w, &ed, at) || !reserve_tape(w, 2, &row, at) ||
			!enter(w, key.data(), key.size(), 0, key_at))
			return false;
		{
			sd_val	   &el = slot(w, ed);

			el.tag = SD_V_ROW;
			el.u.first = row;
			el.len = 2;
			el.offset = offset_of(w, key_at);
		}
		sd_val	   &k = w.d->tape[row];

		k.offset = offset_of(w, key_at);
		w.err->offset = k.offset;
		if (!sd_map_key_new(w.d, &keys, key.data(), key.size(), w.err) ||
			!sd_convert_string(&w.d->arena, pair->fields[0].node, key.data(), key.size(), &k, w.err))
		{
			convert_failed(w, key_at);
			if (!recover_value(w, v, depth, depth + 1))
				return false;
			continue;
		}
		if (!decode_value(w, v, pair->fields[1].node, Dest {IN_TAPE, row + 1}) &&
			!recover_value(w, v, depth, depth + 1))
			return false;
		w.depth = depth;
	}
	return finish_elements(w, start, dst, at);
}

/* Writes the object of unmapped members (pairs since pairs_start) into the extra column. */
bool
finish_extra(Walk &w, uint32_t pairs_start, uint32_t row, int col, const char *at)
{
	sd_pair    *pairs = (sd_pair *) w.d->pairs;
	size_t		size = 2;

	for (uint32_t i = pairs_start; i < w.d->pairs_len; i++)
		size += pairs[i].key_len * 6 + 4 + pairs[i].value_len;
	char	   *buf = (char *) sd_arena_alloc(&w.d->arena, size + 1);
	size_t		o = 0;

	if (!buf)
		return fail(w, SD_E_NOMEM, at, "out of memory");
	buf[o++] = '{';
	for (uint32_t i = pairs_start; i < w.d->pairs_len; i++)
	{
		if (i > pairs_start)
			buf[o++] = ',';
		buf[o++] = '"';
		o += sd_json_escape(buf + o, pairs[i].key_len * 6, pairs[i].key, pairs[i].key_len, NULL);
		buf[o++] = '"';
		buf[o++] = ':';
		memcpy(buf + o, pairs[i].value, pairs[i].value_len);
		o += pairs[i].value_len;
	}
	buf[o++] = '}';
	buf[o] = '\0';
	w.d->pairs_len = pairs_start;
	sd_val	   &x = w.d->tape[row + (uint32_t) col];

	x.tag = SD_V_JSON;
	x.u.s = buf;
	x.len = (uint32_t) o;
	x.aux = 0;
	x.offset = offset_of(w, at);
	return true;
}

/* Finds the union's tag member (anywhere in the object) and returns its variant; the object
 * is reset afterwards so that the members are read in one pass from the start. */
bool
select_variant(Walk &w, ond::object &obj, const sd_node *n, const sd_variant **out,
			   const char *at, bool *found_error)
{
	simdjson::error_code e;
	std::string_view tagval;
	const char *tag_at = nullptr;
	bool		found = false;
	size_t		taglen = strlen(n->tag);

	*found_error = false;
	for (auto fr : obj)
	{
		std::string_view key;

		if ((e = fr.error()))
			return syntax(w, e, nullptr);
		ond::field &f = field_of(fr);
		const char *key_at;

		if ((e = read_key(w, f, &key, &key_at)))
			return syntax(w, e, key_at);
		if (key.size() != taglen || memcmp(key.data(), n->tag, taglen) != 0)
			continue;
		ond::value &v = f.value();
		std::string_view tok = token_of(v);
		ond::json_type t;

		if ((e = v.type().get(t)))
			return syntax(w, e, tok.data());
		if (!enter(w, n->tag, taglen, 0, tok.data()))
			return false;
		if (t != ond::json_type::string)
		{
			*found_error = true;
			char		desc[128];
			char		list[256];

			sd_variant_list(n, list, sizeof(list));
			sd_describe_found(desc, sizeof(desc), tok.data(), tok.size());
			return fail(w, SD_E_KIND, tok.data(), "expected string (the union's tag, one of: %s), found %s",
						list, desc);
		}
		if ((e = v.get_string().get(tagval)))
			return syntax(w, e, tok.data());
		w.depth--;
		tag_at = tok.data();
		found = true;
		break;
	}
	bool		reset_ok;

	if ((e = obj.reset().get(reset_ok)))
		return syntax(w, e, at);
	char		list[256];

	if (!found)
	{
		*found_error = true;
		sd_variant_list(n, list, sizeof(list));
		if (!enter(w, n->tag, taglen, 0, at))
			return false;
		return fail(w, SD_E_MISSING, at, "missing required member (the union's tag, one of: %s)", list);
	}
	for (int i = 0; i < n->nvariants; i++)
		if (strlen(n->variants[i].value) == tagval.size() &&
			memcmp(n->variants[i].value, tagval.data(), tagval.size()) == 0)
		{
			*out = &n->variants[i];
			return true;
		}
	*found_error = true;
	sd_variant_list(n, list, sizeof(list));
	if (!enter(w, n->tag, taglen, 0, tag_at))
		return false;
	char		desc[256];

	sd_describe_scalar(desc, sizeof(desc), SD_J_STRING, tagval.data(), tagval.size());
	return fail(w, SD_E_KIND, tag_at, "unknown tag value %s, expected one of: %s", desc + 7, list);
}

bool
decode_object(Walk &w, ond::object obj, const sd_node *n, Dest dst, const char *at)
{
	uint32_t	row = 0;
	const sd_node *members_of = n;
	const sd_variant *variant = nullptr;

	if (!container_guard(w, at))
		return false;
	if (n->tag)
	{
		bool		tag_error;
		uint32_t	depth = w.depth;

		if (!select_variant(w, obj, n, &variant, at, &tag_error))
		{
			if (!tag_error || !recover(w, depth))
				return false;
			/* collect mode: the object is still walked for syntax */
			bool		reset_ok;
			simdjson::error_code e;

			if ((e = obj.reset().get(reset_ok)))
				return syntax(w, e, at);
			slot(w, dst).tag = SD_V_NULL;
			return skip_object(w, obj, at);
		}
		members_of = variant->merged;
	}
	if (!reserve_tape(w, (uint32_t) members_of->nfields, &row, at))
		return false;
	{
		sd_val	   &out = slot(w, dst);

		out.tag = SD_V_ROW;
		out.u.first = row;
		out.len = (uint32_t) n->nfields;
		out.offset = offset_of(w, at);
	}
	if (variant)
	{
		sd_val	   &vs = w.d->tape[row + (uint32_t) variant->col];

		vs.tag = SD_V_ROW;
		vs.u.first = row + (uint32_t) n->nfields;
		vs.len = (uint32_t) (members_of->nfields - n->nfields);
		vs.offset = offset_of(w, at);
	}
	uint32_t	pairs_start = w.d->pairs_len;

	if (!decode_members(w, obj, members_of, members_of->members, row, at, true))
		return false;
	if (n->extra_col >= 0 && !finish_extra(w, pairs_start, row, n->extra_col, at))
		return false;
	return true;
}

/* Fills the slots of a member that did not appear: default, NULL, or a missing error. */
bool
missing_member(Walk &w, const sd_node *n, const sd_member *m, uint32_t row, const char *obj_at)
{
	if (m->field == SD_MEMBER_TAG)
		return true;
	if (m->field >= 0)
	{
		const sd_field *f = &n->fields[m->field];
		sd_val	   &s = w.d->tape[row + (uint32_t) f->col];

		if (f->has_default)
		{
			s.tag = SD_V_DEFAULT;
			s.len = (uint32_t) f->default_index;
			s.offset = offset_of(w, obj_at);
			return true;
		}
		if (f->optional)
			return true;
		uint32_t	depth = w.depth;

		if (!enter(w, m->name, m->len, 0, obj_at))
			return false;
		fail(w, SD_E_MISSING, obj_at, "missing required member");
		return recover(w, depth);
	}
	/* a path prefix: reported at its own name when any field below it is required */
	if (!m->group_required)
	{
		for (int i = 0; i < m->group->n; i++)
			if (!missing_member(w, n, &m->group->m[i], row, obj_at))
				return false;
		return true;
	}
	uint32_t	depth = w.depth;

	if (!enter(w, m->name, m->len, 0, obj_at))
		return false;
	fail(w, SD_E_MISSING, obj_at, "missing required member");
	return recover(w, depth);
}

bool
decode_members(Walk &w, ond::object obj, const sd_node *n, const sd_members *ms, uint32_t row,
			   const char *obj_at, bool top)
{
	uint64_t	seen_small[4] = {0, 0, 0, 0};
	uint64_t   *seen = seen_small;
	int			prev = 0;		/* follow[] slot of the last mapped member: 0 = none yet */
	const char *end = w.base + w.len;

	if (ms->follow_at + (uint32_t) ms->n >= w.d->nfollow)	/* a node of another plan */
		return fail(w, SD_E_INTERNAL, obj_at, "member table of another plan");
	int16_t    *follow = w.d->follow + ms->follow_at;	/* the decoder's prediction (sd_follow) */

	if (ms->n > 256)
	{
		seen = (uint64_t *) sd_arena_alloc(&w.d->arena, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
		if (!seen)
			return fail(w, SD_E_NOMEM, obj_at, "out of memory");
		memset(seen, 0, sizeof(uint64_t) * (size_t) ((ms->n + 63) / 64));
	}
	for (auto fr : obj)
	{
		std::string_view key;
		simdjson::error_code e;
		uint32_t	depth = w.depth;

		if ((e = fr.error()))
			return syntax(w, e, nullptr);
		ond::field &f = field_of(fr);
		const char *key_at;
		ond::value &v = f.value();
		int			mi = follow[prev];
		const char *raw = f.key().raw();

		/* the member that followed the previous one last time, compared in place */
		if (mi >= 0 && key_is(raw, end, &ms->m[mi]))
		{
			key_at = raw - 1;
			key = std::string_view(raw, ms->m[mi].len);
		}
		else
		{
			bool		in_doc;

			if ((e = read_key(w, f, &key, &key_at, &in_doc)))
				return syntax(w, e, key_at);
			mi = -1;
			if (ms->n)
			{
				uint32_t	h = in_doc ? key_hash(key.data(), key.size()) :
					sd_hash_name(key.data(), key.size());

				mi = find_member(ms, key.data(), key.size(), h);
				if (mi >= 0)
					follow[prev] = (int16_t) mi;
			}
		}
		if (mi < 0)
		{
			std::string_view tok = token_of(v);

			if (!enter(w, key.data(), key.size(), 0, key_at))
				return false;
			if (n->reject_unknown)
			{
				fail(w, SD_E_UNKNOWN, key_at, "unknown member");
				w.consumed = false;
				if (!recover_value(w, v, depth, depth + 1))
					return false;
				continue;
			}
			bool		saved = w.in_jsonb;

			if (top && n->extra_col >= 0)
				w.in_jsonb = n->fields[n->extra_col].node->kind == SD_K_JSONB;
			bool		ok = skip_value(w, v);

			w.in_jsonb = saved;
			if (!ok)
				return false;
			w.depth = depth;
			if (top && n->extra_col >= 0)
			{
				if (w.d->pairs_len + 1 > w.d->pairs_cap &&
					!sd_grow(w.hooks, &w.d->pairs, &w.d->pairs_cap, w.d->pairs_len + 1, sizeof(sd_pair)))
					return fail(w, SD_E_NOMEM, key_at, "out of memory");
				std::string_view span = walked_span(w, tok);
				sd_pair    *p = (sd_pair *) w.d->pairs + w.d->pairs_len++;

				p->key = key.data();
				p->key_len = key.size();
				p->value = span.data();
				p->value_len = span.size();
			}
			continue;
		}
		const sd_member *m = &ms->m[mi];

		if (!enter(w, m->name, m->len, 0, key_at))
			return false;
		if (seen[mi >> 6] & ((uint64_t) 1 << (mi & 63)))
		{
			fail(w, SD_E_DUPLICATE, key_at, "duplicate member");
			w.consumed = false;
			if (!recover_value(w, v, depth, depth + 1))
				return false;
			continue;
		}
		seen[mi >> 6] |= (uint64_t) 1 << (mi & 63);
		prev = mi + 1;
		if (m->field == SD_MEMBER_TAG)
		{
			/* the union's tag, already read by select_variant: validate only */
			if (!skip_value(w, v))
				return false;
		}
		else if (m->field >= 0)
		{
			const sd_field *fd = &n->fields[m->field];
			Dest		dst = {IN_TAPE, row + (uint32_t) fd->col};

			if (!decode_value(w, v, fd->node, dst))
			{
				if (!recover_value(w, v, depth, depth + 1))
					return false;
				continue;
			}
			if (!fd->nullable && w.d->tape[dst.idx].tag == SD_V_NULL)
			{
				w.d->tape[dst.idx].aux = SD_MARK_FAILED;
				fail(w, SD_E_NOTNULL, w.base + w.d->tape[dst.idx].offset,
					 "null is not allowed for column \"%s\"", fd->column);
				if (!recover(w, depth))
					return false;
				continue;
			}
		}
		else
		{
			std::string_view tok = token_of(v);
			ond::json_type t;
			ond::object sub;

			if ((e = v.type().get(t)))
				return syntax(w, e, tok.data());
			if (t == ond::json_type::object)
			{
				if ((e = v.get_object().get(sub)))
					return syntax(w, e, tok.data());
				if (!container_guard(w, tok.data()))
					return false;
				if (!decode_members(w, sub, n, m->group, row, tok.data(), false))
					return false;
			}
			else if (t == ond::json_type::null)
			{
				/* a null parent makes the values below it null: 23502 for the non-nullable */
				if (literal_of(tok) != 'n')
					return syntax(w, simdjson::N_ATOM_ERROR, tok.data());
				w.depth = depth;
				build_path(w);
				w.err->offset = offset_of(w, tok.data());
				auto report = [](void *c) { return recover(*(Walk *) c, ((Walk *) c)->depth); };
				if (!sd_null_prefix(n, m, w.err, report, &w))
					return false;
			}
			else
			{
				/* a path through a scalar or an array */
				char		found[128];

				sd_describe_found(found, sizeof(found), tok.data(), tok.size());
				fail(w, SD_E_KIND, tok.data(), "expected object (on the path of column \"%s\"), found %s",
					 m->group_column, found);
				w.consumed = false;
				if (!recover_value(w, v, depth, depth + 1))
					return false;
				continue;
			}
		}
		w.depth = depth;
	}
	for (int base = 0; base < ms->n; base += 64)
	{
		uint64_t	missing = ~seen[base >> 6];

		if (ms->n - base < 64)
			missing &= ((uint64_t) 1 << (ms->n - base)) - 1;
		while (missing)
		{
			int			i = base + __builtin_ctzll(missing);

			missing &= missing - 1;
			if (!missing_member(w, n, &ms->m[i], row, obj_at))
				return false;
		}
	}
	return true;
}

/* A json/jsonb column validated against a shape: decoded into scratch slots, text kept. */
template <class V>
bool
validate_json(Walk &w, V &v, const sd_node *n, ond::json_type t, std::string_view tok)
{
	uint32_t	scratch = 0;
	simdjson::error_code e;

	if (!reserve_tape(w, 1, &scratch, tok.data()))
		return false;
	if (t == ond::json_type::array && n->elem->kind == SD_K_COMPOSITE)
	{
		/* an array: each element is validated */
		ond::array	arr;
		sd_node		each = *n;

		if ((e = v.get_array().get(arr)))
			return syntax(w, e, tok.data());
		w.consumed = true;
		each.kind = SD_K_ARRAY;
		return decode_array(w, arr, &each, Dest {IN_TAPE, scratch}, tok.data());
	}
	return decode_value(w, v, n->elem, Dest {IN_TAPE, scratch});
}

template <class V>
bool
decode_value_in(Walk &w, V &v, const sd_node *n, Dest dst)
{
	ond::json_type t;
	simdjson::error_code e;
	std::string_view tok = token_of(v);

	w.consumed = false;
	if (!poll(w, tok.data()))
		return false;
	if ((e = v.type().get(t)))
		return syntax(w, e, tok.data());
	slot(w, dst).offset = offset_of(w, tok.data());
	if (t == ond::json_type::null)
	{
		if (literal_of(tok) != 'n')
			return syntax(w, simdjson::N_ATOM_ERROR, tok.data());
		slot(w, dst).tag = SD_V_NULL;
		return true;
	}
	switch (n->kind)
	{
		case SD_K_JSON:
		case SD_K_JSONB:
			{
				uint32_t	aux = 0;

				if (n->elem)
				{
					int			before = w.collect ? w.collect->total : 0;

					if (!validate_json(w, v, n, t, tok))
						return false;
					w.consumed = true;
					if (w.collect && w.collect->total != before)
						return true;	/* errors inside were recorded */
				}
				else
				{
					bool		saved = w.in_jsonb;

					w.in_jsonb = n->kind == SD_K_JSONB;
					/* a jsonb value also gets its events (not in serde_errors' mode) */
					w.ev = w.in_jsonb && !w.collect;
					w.ev_start = w.d->jev_len;
					bool		ok = skip_value(w, v);

					w.in_jsonb = saved;
					if (!ok)
					{
						w.ev = false;
						return false;
					}
					if (w.ev)
						aux = w.ev_start + 1;
					else
						w.d->jev_len = w.ev_start;	/* too many: the host parses the text */
					w.ev = false;
				}
				w.consumed = true;
				std::string_view span = walked_span(w, tok);
				sd_val	   &out = slot(w, dst);

				out.tag = SD_V_JSON;
				out.u.s = span.data();
				out.len = (uint32_t) span.size();
				out.aux = aux;
				return true;
			}
		case SD_K_COMPOSITE:
			{
				ond::object obj;

				if (t != ond::json_type::object)
					return kind_error(w, n, tok);
				if ((e = v.get_object().get(obj)))
					return syntax(w, e, tok.data());
				bool		ok = decode_object(w, obj, n, dst, tok.data());

				w.consumed = true;
				return ok;
			}
		case SD_K_ARRAY:
			if (n->is_map)
			{
				ond::object obj;

				if (t != ond::json_type::object)
					return kind_error(w, n, tok);
				if ((e = v.get_object().get(obj)))
					return syntax(w, e, tok.data());
				bool		ok = decode_map(w, obj, n, dst, tok.data());

				w.consumed = true;
				return ok;
			}
			else
			{
				ond::array	arr;

				if (t != ond::json_type::array)
					return kind_error(w, n, tok);
				if ((e = v.get_array().get(arr)))
					return syntax(w, e, tok.data());
				bool		ok = decode_array(w, arr, n, dst, tok.data());

				w.consumed = true;
				return ok;
			}
		default:
			break;
	}
	/* converted straight into the slot (the tape does not move meanwhile): a converted copy
	 * reloaded as a whole stalls on store forwarding */
	sd_val	   &out = slot(w, dst);

	out.tag = 0;
	out.len = 0;
	out.u.i = 0;
	w.err->offset = out.offset;
	switch (t)
	{
		case ond::json_type::string:
			{
				std::string_view s;

				/* read in place when there is nothing to unescape (consumed raw: an unread
				 * string followed by ':' would be skipped as a key) */
				if (plain_string(w, tok, &s))
				{
					ond::raw_json_string raw;

					if ((e = v.get_raw_json_string().get(raw)))
						return syntax(w, e, tok.data());
				}
				else if ((e = v.get_string().get(s)))
					return syntax(w, e, tok.data());
				w.consumed = true;
				if (!sd_convert_string(&w.d->arena, n, s.data(), s.size(), &out, w.err))
					return scalar_failed(w, out, tok.data());
				break;
			}
		case ond::json_type::number:
			{
				std::string_view num = trimmed(tok);

				if (!sd_is_json_number(num.data(), num.size()))
					return syntax(w, simdjson::NUMBER_ERROR, tok.data());
				if (!sd_convert_number(n, num.data(), num.size(), &out, w.err))
					return scalar_failed(w, out, tok.data());
				break;
			}
		case ond::json_type::boolean:
			{
				char		lit = literal_of(tok);

				if (lit != 't' && lit != 'f')
					return syntax(w, simdjson::T_ATOM_ERROR, tok.data());
				if (!sd_convert_bool(n, lit == 't', &out, w.err))
					return scalar_failed(w, out, tok.data());
				break;
			}
		case ond::json_type::object:
		case ond::json_type::array:
			return kind_error(w, n, tok);
		default:
			return syntax(w, simdjson::TAPE_ERROR, tok.data());
	}
	return true;
}

void		walk_init(Walk &w, sd_decoder *d, const sd_plan *plan, size_t len,
					  const sd_limits *limits, sd_error *err, const char *stack_start);

/* ---- kernel entry points ------------------------------------------------------------------ */

void *
parser_new()
{
	return new (std::nothrow) ond::parser();
}

void
parser_free(void *p)
{
	delete static_cast<ond::parser *>(p);
}

size_t
parser_bytes(void *p)
{
	/* structural index (4 bytes per input byte) + string buffer (about the input size) */
	return static_cast<ond::parser *>(p)->capacity() * 6;
}

bool
decode(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *buf, size_t len,
	   size_t cap, const sd_limits *limits, sd_collect *collect, uint32_t *root, sd_error *err)
{
	ond::parser *p = static_cast<ond::parser *>(d->parser);
	ond::document doc;
	char		here;
	Walk		w;

	walk_init(w, d, plan, len, limits, err, &here);
	w.base = buf;
	w.bias = d->offset_bias;
	w.collect = collect;

	simdjson::error_code e = p->iterate(buf, len, cap).get(doc);

	if (e)
		return syntax(w, e, buf);
	w.doc = &doc;

	uint32_t	first = 0;

	if (!reserve_tape(w, 1, &first, buf))
		return false;
	std::string_view tok = token_of(doc);

	if (!decode_value(w, doc, node, Dest {IN_TAPE, first}) && !recover_value(w, doc, 0, 0))
	{
		/* a malformed document is rejected as such, even when a value error came first */
		sd_error	exact;

		if (!is_fatal(err->code) && !sd_json_validate(w.hooks, buf, len, &exact))
		{
			if (exact.code == SD_E_NOMEM)
				return fail(w, SD_E_NOMEM, nullptr, "out of memory");
			return syntax(w, simdjson::TAPE_ERROR, buf + exact.offset);
		}
		return false;
	}

	/* nothing may follow the root value */
	char		c0 = tok.empty() ? 0 : tok[0];

	if (c0 == '{' || c0 == '[')
	{
		const char *loc;

		if (doc.current_location().get(loc) != simdjson::OUT_OF_BOUNDS)
			return syntax(w, simdjson::TAPE_ERROR, loc);
	}
	else if (tok.data() + tok.size() < buf + len)
		return syntax(w, simdjson::TAPE_ERROR, tok.data() + tok.size());
	*root = first;
	return true;
}

/* ---- sd_each_* array mode: one element per step ---------------------------------------- */

struct EachIter
{
	ond::document doc;
	ond::array	arr;
	ond::array_iterator it;
	ond::array_iterator end;
	uint64_t	index;
	const sd_plan *plan;
	const sd_node *node;
	sd_limits	lim;
	size_t		len;
};

void
walk_init(Walk &w, sd_decoder *d, const sd_plan *plan, size_t len, const sd_limits *limits,
		  sd_error *err, const char *stack_start)
{
	w.d = d;
	w.plan = plan;
	w.base = d->padded;
	w.len = len;
	w.err = err;
	w.doc = nullptr;
	w.max_depth = limits->max_depth;
	w.depth = 0;
	w.poll = 0;
	w.stack_start = stack_start;
	w.stack_budget = limits->stack_budget;
	w.hooks = &d->hooks;
	w.bias = 0;
	w.collect = nullptr;
	w.consumed = false;
	w.in_jsonb = false;
	w.ev = false;
	w.ev_start = 0;
}

void *
each_open(sd_decoder *d, const sd_plan *plan, const sd_node *node, size_t len,
		  const sd_limits *limits, sd_error *err)
{
	ond::parser *p = static_cast<ond::parser *>(d->parser);
	EachIter   *st = new (std::nothrow) EachIter();
	char		here;
	Walk		w;
	simdjson::error_code e;

	walk_init(w, d, plan, len, limits, err, &here);
	if (!st)
	{
		fail(w, SD_E_NOMEM, nullptr, "out of memory");
		return nullptr;
	}
	st->plan = plan;
	st->node = node;
	st->lim = *limits;
	st->len = len;
	st->index = 0;
	if ((e = p->iterate(d->padded, len, d->padded_cap).get(st->doc)))
	{
		syntax(w, e, d->padded);
		delete st;
		return nullptr;
	}
	w.doc = &st->doc;
	if ((e = st->doc.get_array().get(st->arr)) || (e = st->arr.begin().get(st->it)) ||
		(e = st->arr.end().get(st->end)))
	{
		syntax(w, e, nullptr);
		delete st;
		return nullptr;
	}
	return st;
}

int
each_step(sd_decoder *d, void *state, uint32_t *root, sd_error *err)
{
	EachIter   *st = static_cast<EachIter *>(state);
	char		here;
	Walk		w;
	simdjson::error_code e;

	walk_init(w, d, st->plan, st->len, &st->lim, err, &here);
	w.doc = &st->doc;
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	if (!(st->it != st->end))
	{
		/* the array is done: nothing may follow it */
		const char *loc;

		if (st->doc.current_location().get(loc) != simdjson::OUT_OF_BOUNDS)
		{
			syntax(w, simdjson::TAPE_ERROR, loc);
			return -1;
		}
		return 0;
	}
	ond::value	ev;
	uint32_t	first = 0;

	if ((e = (*st->it).get(ev)))
	{
		syntax(w, e, nullptr);
		return -1;
	}
	if (!reserve_tape(w, 1, &first, d->padded) || !enter(w, nullptr, 0, st->index, d->padded))
		return -1;
	if (!decode_value(w, ev, st->node, Dest {IN_TAPE, first}))
	{
		sd_error	exact;

		if (!is_fatal(err->code) && !sd_json_validate(w.hooks, d->padded, st->len, &exact))
		{
			if (exact.code == SD_E_NOMEM)
				fail(w, SD_E_NOMEM, nullptr, "out of memory");
			else
				syntax(w, simdjson::TAPE_ERROR, d->padded + exact.offset);
		}
		return -1;
	}
	++st->it;
	st->index++;
	*root = first;
	return 1;
}

void
each_close(void *state)
{
	delete static_cast<EachIter *>(state);
}

}								/* namespace */

#define SD_CAT2(a, b) a##b
#define SD_CAT(a, b) SD_CAT2(a, b)
#define SD_STR2(a) #a
#define SD_STR(a) SD_STR2(a)

extern "C" const sd_kernel SD_CAT(sd_kernel_, SD_KERNEL) = {
	SD_STR(SD_KERNEL), parser_new, parser_free, parser_bytes, each_open, each_step, each_close, decode
};
