/*
 * json_walk.cpp — the JSON text walker: reads a document with simdjson On-Demand and hands the
 * rule engine (engine.c) one token at a time through walker.h's ops.  It only reads: every
 * byte is validated (strings unescaped, literals and numbers checked), and every value's
 * token, key and span is reported with its byte offset; the plan's rules, paths, errors and
 * the tape are the engine's.  The engine pulls: simdjson's iterators live in a stack of frames
 * inside the cursor, and every op returns to the engine, so no host hook runs in a C++ frame.
 *
 * This file is compiled once per SIMD kernel (-DSD_KERNEL=haswell with the matching -march and
 * SIMDJSON_BUILTIN_IMPLEMENTATION); json_dispatch.cpp picks one at load time.  Everything here
 * has internal linkage except the kernel table, so the kernels cannot share machine code.
 * Built with exceptions off and NDEBUG.
 *
 * Its parts: json_walk_path.h (simdjson's errors, raw tokens), json_walk_keys.h (member-name
 * fast paths); here: the ops and the kernel's entry points (open, each).
 */
#include <simdjson.h>

#include <cstring>
#include <new>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "json_walk.h"
#include "scalar.h"
#include "walker.h"

#ifndef SD_KERNEL
#error "compile with -DSD_KERNEL=<kernel>"
#endif

namespace ond = simdjson::SIMDJSON_BUILTIN_IMPLEMENTATION::ondemand;

namespace
{

/* One container being iterated. */
struct Frame
{
	bool		is_obj;
	bool		started;
	const char *at;             /* the container's first byte */
	ond::object obj;
	ond::object_iterator oit;
	ond::object_iterator oend;
	simdjson::simdjson_result<ond::field> fr;
	ond::array	arr;
	ond::array_iterator ait;
	ond::array_iterator aend;
	simdjson::simdjson_result<ond::value> er;
};

struct Walk
{
	sd_wcursor	head;           /* first: the engine's view */
	const char *base;
	size_t		len;
	uint32_t	bias;           /* added to every offset (NDJSON: the line's start) */
	ond::document *doc;
	ond::value *cur;            /* the value at the cursor; NULL: the document root */
	std::string_view root_tok;
	Frame	   *frames;
	Frame	   *top;            /* frames[nframes - 1] */
	uint32_t	nframes;
	uint32_t	cap;
	/* skip_fast's depth error: the path from the skipped value down to the container too deep */
	sd_pathent *segs;
	uint32_t	nsegs;
	bool		seg_fill;       /* unwinding a skip error: fill segs */
	/* skip_events' events (the walker's own buffer, grown with new: no host hook in C++) */
	sd_jev	   *jev;
	uint32_t	njev;
	uint32_t	jevcap;
	bool		jev_over;       /* more than SD_JEV_MAX: the value gets none */
	char		problem[SD_PROBLEM_MAX];	/* a skip_events value error's text */
	/* sd_each over an array parsed whole */
	ond::array	each_arr;
	ond::array_iterator each_it;
	ond::array_iterator each_end;
	bool		each_started;
	ond::value	each_val;
};

/* The kernel's parser: simdjson's, the document and the cursor. */
struct Kparser
{
	ond::parser parser;
	ond::document doc;
	Walk		w;
};

inline uint32_t
offset_of(Walk &w, const char *p)
{
	if (p < w.base || p > w.base + w.len)
		return w.bias;
	return (uint32_t) (p - w.base) + w.bias;
}

/* offset_of for a pointer simdjson's structural index gave: inside the document by construction
 * (an object key's opening quote), so not checked: op_object_next's, once per member. */
inline uint32_t
offset_in(Walk &w, const char *p)
{
	return (uint32_t) (p - w.base) + w.bias;
}

int			syntax(Walk &w, simdjson::error_code e, const char *at);

#include "json_walk_path.h"
#include "json_walk_keys.h"

inline Walk &
W(sd_wcursor *c)
{
	return *reinterpret_cast<Walk *>(c);
}

/* simdjson's value_iterator::type() of a value whose first byte is c (3.0.1's switch, kept
 * in step with it): *e = TAPE_ERROR for any other byte. */
inline __attribute__((always_inline)) ond::json_type
type_of_byte(char c, simdjson::error_code *e)
{
	*e = simdjson::SUCCESS;
	switch (c)
	{
		case '{':
			return ond::json_type::object;
		case '[':
			return ond::json_type::array;
		case '"':
			return ond::json_type::string;
		case 'n':
			return ond::json_type::null;
		case 't':
		case 'f':
			return ond::json_type::boolean;
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			return ond::json_type::number;
		default:
			*e = simdjson::TAPE_ERROR;
			return ond::json_type::null;
	}
}

/* The value v as a token: containers only peeked, scalars read whole (and checked). */
template <class V>
inline __attribute__((always_inline)) int
peek_v(Walk &w, V &v, sd_wtok *t)
{
	std::string_view tok = token_of(v);
	ond::json_type jt;
	simdjson::error_code e;

	t->raw = tok.data();
	t->raw_len = tok.size();
	t->flags = 0;
	t->s = nullptr;
	t->len = 0;
	if constexpr (std::is_same<V, ond::value>::value)
	{
		/* a value inside the document: its token is where simdjson's index points (never
		 * empty: the index ends in the root's last structural), and its type is that of its
		 * first byte, as value::type() reads it (the same byte, without a second look-up) */
		t->offset = offset_in(w, tok.data());
		jt = type_of_byte(*tok.data(), &e);
		if (e)
			return syntax(w, e, tok.data());
	}
	else
	{
		t->offset = offset_of(w, tok.data());
		if ((e = v.type().get(jt)))
			return syntax(w, e, tok.data());
	}
	switch (jt)
	{
		case ond::json_type::object:
			t->kind = SD_J_OBJECT;
			return 1;
		case ond::json_type::array:
			t->kind = SD_J_ARRAY;
			return 1;
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
				t->kind = SD_J_STRING;
				t->s = s.data();
				t->len = s.size();
				return 1;
			}
		case ond::json_type::number:
			{
				std::string_view num = scalar_token(tok);

				if (!sd_plain_int(num.data(), num.size()) && !sd_is_json_number(num.data(), num.size()))
					return syntax(w, simdjson::NUMBER_ERROR, tok.data());
				t->kind = SD_J_NUMBER;
				t->s = num.data();
				t->len = num.size();
				return 1;
			}
		case ond::json_type::boolean:
			{
				char		lit = literal_of(tok);

				if (lit != 't' && lit != 'f')
					return syntax(w, simdjson::T_ATOM_ERROR, tok.data());
				t->kind = lit == 't' ? SD_J_TRUE : SD_J_FALSE;
				return 1;
			}
		case ond::json_type::null:
			if (literal_of(tok) != 'n')
				return syntax(w, simdjson::N_ATOM_ERROR, tok.data());
			t->kind = SD_J_NULL;
			return 1;
	}
	return syntax(w, simdjson::TAPE_ERROR, tok.data());
}

int
op_peek(sd_wcursor *c, sd_wtok *t)
{
	Walk	   &w = W(c);

	return w.cur ? peek_v(w, *w.cur, t) : peek_v(w, *w.doc, t);
}

__attribute__((noinline)) bool
grow_frames(Walk &w)
{
	uint32_t	cap = w.cap ? w.cap * 2 : 64;
	Frame	   *f = new (std::nothrow) Frame[cap];

	if (!f)
		return false;
	for (uint32_t i = 0; i < w.nframes; i++)
		f[i] = w.frames[i];
	delete[] w.frames;
	w.frames = f;
	w.top = w.nframes ? &f[w.nframes - 1] : nullptr;
	w.cap = cap;
	return true;
}

inline Frame *
push_frame(Walk &w, const char *at)
{
	if (w.nframes == w.cap && !grow_frames(w))
	{
		w.head.fail.code = SD_E_NOMEM;
		w.head.fail.problem = "out of memory";
		w.head.fail.offset = offset_of(w, at);
		return nullptr;
	}
	Frame	   *f = &w.frames[w.nframes++];

	w.top = f;

	f->started = false;
	f->at = at;
	return f;
}

template <class V>
inline int
begin_object(Walk &w, V &v, const sd_wtok *t)
{
	ond::object obj;
	simdjson::error_code e;
	Frame	   *f;

	if ((e = v.get_object().get(obj)))
		return syntax(w, e, t->raw);
	if (!(f = push_frame(w, t->raw)))
		return -1;
	f->is_obj = true;
	f->obj = obj;
	if ((e = f->obj.begin().get(f->oit)) || (e = f->obj.end().get(f->oend)))
		return syntax(w, e, nullptr);
	return 1;
}

int
op_object_begin(sd_wcursor *c, const sd_wtok *t)
{
	Walk	   &w = W(c);

	return w.cur ? begin_object(w, *w.cur, t) : begin_object(w, *w.doc, t);
}

template <class V>
inline int
begin_array(Walk &w, V &v, const sd_wtok *t)
{
	ond::array	arr;
	simdjson::error_code e;
	Frame	   *f;

	if ((e = v.get_array().get(arr)))
		return syntax(w, e, t->raw);
	if (!(f = push_frame(w, t->raw)))
		return -1;
	f->is_obj = false;
	f->arr = arr;
	if ((e = f->arr.begin().get(f->ait)) || (e = f->arr.end().get(f->aend)))
		return syntax(w, e, nullptr);
	return 1;
}

int
op_array_begin(sd_wcursor *c, const sd_wtok *t)
{
	Walk	   &w = W(c);

	return w.cur ? begin_array(w, *w.cur, t) : begin_array(w, *w.doc, t);
}

__attribute__((hot)) int
op_object_next(sd_wcursor *c, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want)
{
	Walk	   &w = W(c);
	Frame	   &f = *w.top;
	simdjson::error_code e;

	if (f.started)
		++f.oit;
	f.started = true;
	if (!(f.oit != f.oend))
	{
		w.nframes--;
		w.top = w.nframes ? w.top - 1 : nullptr;
		return 0;
	}
	/* built in place (guaranteed elision): a copy of a field built on the stack would be
	 * reloaded whole and stall on store forwarding */
	new (&f.fr) simdjson::simdjson_result<ond::field>(*f.oit);
	if ((e = f.fr.error()))
		return syntax(w, e, nullptr);
	ond::field &fld = field_of(f.fr);
	const char *raw = fld.key().raw();

	k->offset = offset_in(w, raw - 1);
	k->has_hash = false;
	/* the member the engine predicts, compared in place */
	if (expect && key_is(raw, w.base + w.len, expect))
	{
		k->matched = true;
		k->in_doc = true;
		k->s = raw;
		k->len = expect->len;
	}
	else
	{
		std::string_view key;
		const char *key_at;
		bool		in_doc;

		if ((e = read_key(w, fld, &key, &key_at, &in_doc)))
			return syntax(w, e, key_at);
		k->matched = false;
		k->in_doc = in_doc;
		k->s = key.data();
		k->len = key.size();
		if ((want & SD_KEY_HASH) && in_doc)
		{
			k->hash = key_hash(key.data(), key.size());
			k->has_hash = true;
		}
	}
	w.cur = &fld.value();
	return peek_v(w, *w.cur, t);
}

__attribute__((hot)) int
op_array_next(sd_wcursor *c, sd_wtok *t)
{
	Walk	   &w = W(c);
	Frame	   &f = *w.top;
	simdjson::error_code e;

	if (f.started)
		++f.ait;
	f.started = true;
	if (!(f.ait != f.aend))
	{
		w.nframes--;
		w.top = w.nframes ? w.top - 1 : nullptr;
		return 0;
	}
	new (&f.er) simdjson::simdjson_result<ond::value>(*f.ait);	/* in place, as above */
	if ((e = f.er.error()))
		return syntax(w, e, nullptr);
	w.cur = &const_cast<ond::value &>(f.er.value_unsafe());
	return peek_v(w, *w.cur, t);
}

int
op_object_find(sd_wcursor *c, const char *name, size_t len, unsigned kinds, sd_wtok *t)
{
	Walk	   &w = W(c);
	Frame	   &f = *w.top;
	simdjson::error_code e;
	int			found = 0;

	for (auto fr : f.obj)
	{
		std::string_view key;

		if ((e = fr.error()))
			return syntax(w, e, nullptr);
		ond::field &fld = field_of(fr);
		const char *key_at;

		if ((e = read_key(w, fld, &key, &key_at)))
			return syntax(w, e, key_at);
		if (key.size() != len || memcmp(key.data(), name, len) != 0)
			continue;
		if (peek_v(w, fld.value(), t) < 0)
			return -1;
		found = 1;
		break;
	}
	bool		reset_ok;

	if ((e = f.obj.reset().get(reset_ok)))
		return syntax(w, e, f.at);
	if ((e = f.obj.begin().get(f.oit)) || (e = f.obj.end().get(f.oend)))
		return syntax(w, e, nullptr);
	f.started = false;
	return found;
}

/* ---- skip_fast / skip_events: the validating skip, in C++ -------------------------------- */

/* A skip failed at `level` (the skipped value is 1): code and problem, with room for the path
 * segments of levels 2..level, filled while unwinding (skip_segment). */
__attribute__((noinline, cold)) int
skip_fail(Walk &w, sd_code code, const char *problem, const char *at, uint32_t level)
{
	delete[] w.segs;
	w.segs = level > 1 ? new (std::nothrow) sd_pathent[level - 1]() : nullptr;
	w.nsegs = level - 1;
	w.seg_fill = true;
	w.head.fail.offset = offset_of(w, at);
	if (level > 1 && !w.segs)
	{
		w.nsegs = 0;
		w.seg_fill = false;
		w.head.fail.code = SD_E_NOMEM;
		w.head.fail.problem = "out of memory";
		return -1;
	}
	w.head.fail.code = code;
	w.head.fail.problem = problem;
	w.head.fail.path = w.segs;
	w.head.fail.npath = w.nsegs;
	return -1;
}

/* The segment of the child (at level + 1) of a container at `level`, on a skip error. */
inline void
skip_segment(Walk &w, uint32_t level, const char *name, size_t len, uint64_t index)
{
	if (w.seg_fill && level - 1 < w.nsegs)
	{
		w.segs[level - 1].name = name;
		w.segs[level - 1].len = len;
		w.segs[level - 1].index = index;
	}
}

/* One event of skip_events (past SD_JEV_MAX the value gets none: jev_over). */
inline int
ev_push(Walk &w, uint32_t kind, const char *s, size_t len)
{
	if (__builtin_expect(w.njev == w.jevcap, 0))
	{
		if (w.jev_over)
			return 1;
		if (w.njev >= SD_JEV_MAX)
		{
			w.jev_over = true;
			return 1;
		}
		uint32_t	ncap = w.jevcap ? w.jevcap * 2 : 256;
		sd_jev	   *nv = new (std::nothrow) sd_jev[ncap];

		if (!nv)
		{
			w.head.fail.code = SD_E_NOMEM;
			w.head.fail.problem = "out of memory";
			w.head.fail.offset = -1;
			w.head.fail.npath = 0;
			return -1;
		}
		if (w.njev)
			memcpy(nv, w.jev, sizeof(sd_jev) * w.njev);
		delete[] w.jev;
		w.jev = nv;
		w.jevcap = ncap;
	}
	sd_jev	   &e = w.jev[w.njev++];

	e.kind = kind;
	e.len = (uint32_t) len;
	e.s = s;
	return 1;
}

/* A string or key of a jsonb value (EV): jsonb cannot hold \u0000 (the engine's rule, stated
 * once in sd_jsonb_string_ok). */
template <bool EV>
inline int
jsonb_text(Walk &w, std::string_view s, const char *at, uint32_t level, uint32_t kind)
{
	if (!EV)
		return 1;
	if (!sd_jsonb_string_ok(s.data(), s.size()))
		return skip_fail(w, SD_E_KIND, SD_JSONB_NUL_PROBLEM, at, level);
	return ev_push(w, kind, s.data(), s.size());
}

/* Walks value v at `level`, checking what peek_v checks (keys and strings unescaped when they
 * have escapes, literals, numbers), counting values into *count; with EV also writing the
 * value's events and making a jsonb value's checks (sd_jsonb_string_ok, sd_jsonb_number_check).
 * Recursive: at most `room` levels (the engine sizes room by its stack budget, walker.h
 * SD_SKIP_FAST_STACK). */
template <bool EV>
int
skip_rec(Walk &w, ond::value &v, uint32_t level, uint32_t room, uint32_t *count)
{
	std::string_view tok = token_of(v);
	ond::json_type jt;
	simdjson::error_code e;

	(*count)++;
	jt = type_of_byte(*tok.data(), &e);	/* value::type() of the same byte (peek_v) */
	if (e)
		return syntax(w, e, tok.data());
	switch (jt)
	{
		case ond::json_type::object:
			{
				ond::object obj;

				if (__builtin_expect(level > room, 0))
					return skip_fail(w, SD_E_DEPTH, "nesting too deep", tok.data(), level);
				if ((e = v.get_object().get(obj)))
					return syntax(w, e, tok.data());
				if (EV && ev_push(w, SD_JEV_OBJECT, nullptr, 0) < 0)
					return -1;
				for (auto fr : obj)
				{
					std::string_view key;
					const char *key_at;

					if ((e = fr.error()))
						return syntax(w, e, nullptr);
					ond::field &fld = field_of(fr);

					if ((e = read_key(w, fld, &key, &key_at)))
						return syntax(w, e, key_at);
					if (EV && jsonb_text<EV>(w, key, key_at, level + 1, SD_JEV_KEY) < 0)
					{
						skip_segment(w, level, key.data(), key.size(), 0);
						return -1;
					}
					if (skip_rec<EV>(w, fld.value(), level + 1, room, count) < 0)
					{
						skip_segment(w, level, key.data(), key.size(), 0);
						return -1;
					}
				}
				return EV ? ev_push(w, SD_JEV_END, nullptr, 0) : 1;
			}
		case ond::json_type::array:
			{
				ond::array	arr;
				uint64_t	i = 0;

				if (__builtin_expect(level > room, 0))
					return skip_fail(w, SD_E_DEPTH, "nesting too deep", tok.data(), level);
				if ((e = v.get_array().get(arr)))
					return syntax(w, e, tok.data());
				if (EV && ev_push(w, SD_JEV_ARRAY, nullptr, 0) < 0)
					return -1;
				for (auto er : arr)
				{
					if ((e = er.error()))
						return syntax(w, e, nullptr);
					if (skip_rec<EV>(w, const_cast<ond::value &>(er.value_unsafe()), level + 1, room, count) < 0)
					{
						skip_segment(w, level, nullptr, 0, i);
						return -1;
					}
					i++;
				}
				return EV ? ev_push(w, SD_JEV_END, nullptr, 0) : 1;
			}
		case ond::json_type::string:
			{
				std::string_view s;

				if (plain_string(w, tok, &s))
				{
					ond::raw_json_string raw;

					/* no backslash: nothing to unescape, no \u0000 */
					if ((e = v.get_raw_json_string().get(raw)))
						return syntax(w, e, tok.data());
					return EV ? ev_push(w, SD_JEV_STRING, s.data(), s.size()) : 1;
				}
				if ((e = v.get_string().get(s)))
					return syntax(w, e, tok.data());
				return jsonb_text<EV>(w, s, tok.data(), level, SD_JEV_STRING);
			}
		case ond::json_type::number:
			{
				std::string_view num = scalar_token(tok);

				if (sd_plain_int(num.data(), num.size()))
					return EV ? ev_push(w, SD_JEV_NUMBER, num.data(), num.size()) : 1;
				if (!sd_is_json_number(num.data(), num.size()))
					return syntax(w, simdjson::NUMBER_ERROR, tok.data());
				if (EV)
				{
					sd_code		c = sd_jsonb_number_check(num.data(), num.size(), w.problem);

					if (c != SD_OK)
						return skip_fail(w, c, w.problem, tok.data(), level);
					return ev_push(w, SD_JEV_NUMBER, num.data(), num.size());
				}
				return 1;
			}
		case ond::json_type::boolean:
			{
				char		lit = literal_of(tok);

				if (lit != 't' && lit != 'f')
					return syntax(w, simdjson::T_ATOM_ERROR, tok.data());
				return EV ? ev_push(w, lit == 't' ? SD_JEV_TRUE : SD_JEV_FALSE, nullptr, 0) : 1;
			}
		case ond::json_type::null:
			if (literal_of(tok) != 'n')
				return syntax(w, simdjson::N_ATOM_ERROR, tok.data());
			return EV ? ev_push(w, SD_JEV_NULL, nullptr, 0) : 1;
	}
	return syntax(w, simdjson::TAPE_ERROR, tok.data());
}

/* The container at the cursor (peeked), skipped here: the number of values walked, or -1. */
int
op_skip_fast(sd_wcursor *c, const sd_wtok *t, uint32_t room)
{
	Walk	   &w = W(c);
	uint32_t	count = 0;

	if (t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY)
		return 1;
	if (!w.cur)
		return 0;				/* the root (the engine walks it) */
	w.seg_fill = false;
	if (skip_rec<false>(w, *w.cur, 1, room, &count) < 0)
		return -1;
	return count > INT32_MAX ? INT32_MAX : (int) count;
}

/* The container at the cursor (peeked) of a jsonb value, skipped here with its events. */
int
op_skip_events(sd_wcursor *c, const sd_wtok *t, uint32_t room, const sd_jev **ev, uint32_t *nev)
{
	Walk	   &w = W(c);
	uint32_t	count = 0;

	*ev = nullptr;
	*nev = 0;
	if ((t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY) || !w.cur)
		return 0;				/* the engine walks it */
	w.seg_fill = false;
	w.njev = 0;
	w.jev_over = false;
	if (skip_rec<true>(w, *w.cur, 1, room, &count) < 0)
		return -1;
	if (!w.jev_over)
	{
		*ev = w.jev;
		*nev = w.njev;
	}
	return count > INT32_MAX ? INT32_MAX : (int) count;
}

/* The JSON text of a value just walked: a scalar's token, or up to the current location. */
int
op_capture(sd_wcursor *c, const sd_wtok *t, unsigned how, sd_val *out)
{
	Walk	   &w = W(c);
	std::string_view tok(t->raw, t->raw_len);
	char		ch = tok.empty() ? 0 : tok[0];
	std::string_view span;

	(void) how;
	if (ch == '{' || ch == '[')
	{
		const char *loc;
		const char *end = w.base + w.len;

		if (!w.doc->current_location().get(loc))
			end = loc;
		span = trimmed(std::string_view(tok.data(), (size_t) (end - tok.data())));
	}
	else
		span = trimmed(tok);
	out->u.s = span.data();
	out->len = (uint32_t) span.size();
	return 1;
}

/* Nothing may follow the root value. */
int
op_finish(sd_wcursor *c)
{
	Walk	   &w = W(c);
	std::string_view tok = w.root_tok;
	char		c0 = tok.empty() ? 0 : tok[0];

	if (c0 == '{' || c0 == '[')
	{
		const char *loc;

		if (w.doc->current_location().get(loc) != simdjson::OUT_OF_BOUNDS)
			return syntax(w, simdjson::TAPE_ERROR, loc);
	}
	else if (tok.data() + tok.size() < w.base + w.len)
		return syntax(w, simdjson::TAPE_ERROR, tok.data() + tok.size());
	return 1;
}

const sd_walker_ops json_ops = {
	.flags = SD_WF_TEXT | SD_WF_EVENTS,
	.peek = op_peek,
	.object_begin = op_object_begin,
	.object_next = op_object_next,
	.object_find = op_object_find,
	.array_begin = op_array_begin,
	.array_next = op_array_next,
	.skip_fast = op_skip_fast,
	.capture = op_capture,
	.number_direct = nullptr,
	.number_text = nullptr,
	.finish = op_finish,
	.skip_events = op_skip_events,
	.locate = nullptr,
	.root_key = nullptr,
	.ns_prefix = nullptr,
};

/* ---- kernel entry points ------------------------------------------------------------------ */

void *
parser_new()
{
	Kparser    *k = new (std::nothrow) Kparser();

	if (k)
	{
		k->w.frames = nullptr;
		k->w.nframes = 0;
		k->w.cap = 0;
		k->w.segs = nullptr;
		k->w.nsegs = 0;
		k->w.seg_fill = false;
		k->w.jev = nullptr;
		k->w.njev = 0;
		k->w.jevcap = 0;
		k->w.jev_over = false;
	}
	return k;
}

void
parser_free(void *p)
{
	Kparser    *k = static_cast<Kparser *>(p);

	if (k)
	{
		delete[] k->w.frames;
		delete[] k->w.segs;
		delete[] k->w.jev;
	}
	delete k;
}

size_t
parser_bytes(void *p)
{
	Kparser    *k = static_cast<Kparser *>(p);

	/* structural index (4 bytes per input byte) + string buffer (about the input size) */
	return k->parser.capacity() * 6 + (size_t) k->w.cap * sizeof(Frame) +
		(size_t) k->w.jevcap * sizeof(sd_jev);
}

void
walk_init(Kparser *k, const char *buf, size_t len, uint32_t bias)
{
	Walk	   &w = k->w;

	if (w.jevcap > 65536)
	{
		/* a big jsonb value's events are not kept for the documents after it */
		delete[] w.jev;
		w.jev = nullptr;
		w.jevcap = 0;
	}
	w.njev = 0;
	w.head.ops = &json_ops;
	w.head.fail.code = SD_OK;
	w.head.fail.problem = nullptr;
	w.head.fail.offset = -1;
	w.head.fail.path = nullptr;
	w.head.fail.npath = 0;
	w.head.text = buf;
	w.head.text_len = len;
	w.base = buf;
	w.len = len;
	w.bias = bias;
	w.doc = nullptr;
	w.cur = nullptr;
	w.root_tok = std::string_view();
	w.nframes = 0;
	w.each_started = false;
}

int
walk_open(void *parser, sd_wcursor **cur, const char *buf, size_t len, size_t cap, uint32_t bias)
{
	Kparser    *k = static_cast<Kparser *>(parser);
	Walk	   &w = k->w;
	simdjson::error_code e;

	walk_init(k, buf, len, bias);
	*cur = &w.head;
	if ((e = k->parser.iterate(buf, len, cap).get(k->doc)))
		return syntax(w, e, buf);
	w.doc = &k->doc;
	w.root_tok = token_of(k->doc);
	return 1;
}

int
each_open(void *parser, sd_wcursor **cur, const char *buf, size_t len, size_t cap)
{
	Kparser    *k = static_cast<Kparser *>(parser);
	Walk	   &w = k->w;
	simdjson::error_code e;

	walk_init(k, buf, len, 0);
	*cur = &w.head;
	if ((e = k->parser.iterate(buf, len, cap).get(k->doc)))
		return syntax(w, e, buf);
	w.doc = &k->doc;
	if ((e = k->doc.get_array().get(w.each_arr)) || (e = w.each_arr.begin().get(w.each_it)) ||
		(e = w.each_arr.end().get(w.each_end)))
		return syntax(w, e, nullptr);
	return 1;
}

/* The next element of the array (the cursor at it): 1, 0 at the end, -1 on an error. */
int
each_next(sd_wcursor *c)
{
	Walk	   &w = W(c);
	simdjson::error_code e;

	w.nframes = 0;
	if (w.each_started)
		++w.each_it;
	w.each_started = true;
	if (!(w.each_it != w.each_end))
	{
		/* the array is done: nothing may follow it */
		const char *loc;

		if (w.doc->current_location().get(loc) != simdjson::OUT_OF_BOUNDS)
			return syntax(w, simdjson::TAPE_ERROR, loc);
		return 0;
	}
	if ((e = (*w.each_it).get(w.each_val)))
		return syntax(w, e, nullptr);
	w.cur = &w.each_val;
	return 1;
}

}								/* namespace */

#define SD_CAT2(a, b) a##b
#define SD_CAT(a, b) SD_CAT2(a, b)
#define SD_STR2(a) #a
#define SD_STR(a) SD_STR2(a)

extern "C" const sd_kernel SD_CAT(sd_kernel_, SD_KERNEL) = {
	SD_STR(SD_KERNEL), parser_new, parser_free, parser_bytes, walk_open, each_open, each_next
};
