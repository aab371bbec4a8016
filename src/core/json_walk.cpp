/*
 * json_walk.cpp — the JSON text walker: reads a document over simdjson's stage-1 structural
 * index and hands the rule engine (engine.c) one token at a time through walker.h's ops.  It
 * only reads: every byte is validated (stage 1: UTF-8, control characters, closed strings;
 * here: the grammar between the structurals, strings unescaped, literals and numbers checked),
 * and every value's token, key and span is reported with its byte offset; the plan's rules,
 * paths, errors and the tape are the engine's.  The engine pulls: the walk is a position in
 * the index and a stack of open containers inside the cursor, and every op returns to the
 * engine, so no host hook runs in a C++ frame.
 *
 * Why the index and not simdjson On-Demand (issue 23, bench/RESULTS.md "JSON walk"): a member
 * is three consecutive structurals ("key", ':', value) followed by ',' or '}', so a member's
 * step is a few loads and compares; On-Demand's iterators re-read the index and track depth
 * for every key, colon and value.  Stage 1 (the SIMD index, UTF-8 validation) is simdjson's
 * own, run by the library's active implementation, and so is the unescaping of strings with
 * escapes (its parse_string): the bytes accepted and the strings produced are On-Demand's.
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
#include <memory>
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

namespace
{

namespace sj = simdjson;

/* One container being iterated. */
struct Frame
{
	uint32_t	open;           /* its '{' or '[' (an index of the structural index) */
	bool		is_obj;
	bool		started;        /* a member or element was read */
};

/* An extra block of unescaped strings (the main buffer was full), freed with the document. */
struct Chunk
{
	Chunk	   *next;
};

struct Walk
{
	sd_wcursor	head;           /* first: the engine's view */
	const char *base;
	size_t		len;
	uint32_t	bias;           /* added to every offset (NDJSON: the line's start) */
	/* stage 1: the positions of every structural character and scalar start (n of them,
	 * then len twice, so that a token's length is always idx[p + 1] - idx[p]) */
	const uint32_t *idx;
	uint32_t	n;
	uint32_t	pos;            /* the next structural to read */
	uint32_t	vpos;           /* the value at the cursor */
	bool		at_root;        /* the cursor is at the root value (nothing begun yet) */
	bool		opened;         /* stage 1 succeeded */
	const sj::internal::dom_parser_implementation *impl;	/* parse_string (unescaping) */
	Frame	   *frames;
	Frame	   *top;            /* frames[nframes - 1] */
	uint32_t	nframes;
	uint32_t	cap;
	/* unescaped strings: [sloc, send) free; they live until the next document */
	uint8_t    *sloc;
	uint8_t    *send;
	uint8_t    *sbuf;
	size_t		scap;
	Chunk	   *chunks;
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
	/* sd_each over an array parsed whole: the element handed out last */
	bool		each_started;
	uint32_t	each_vpos;
	uint32_t	passed;         /* members passed over in a row (SD_KEY_SKIP) */
};

/* The kernel's parser: simdjson's stage 1 (the library's active implementation), the cursor. */
struct Kparser
{
	std::unique_ptr<sj::internal::dom_parser_implementation> impl;
	size_t		capacity;
	Walk		w;
};

inline uint32_t
offset_of(Walk &w, const char *p)
{
	if (p < w.base || p > w.base + w.len)
		return w.bias;
	return (uint32_t) (p - w.base) + w.bias;
}

/* The first byte of structural p, or 0 past the last one. */
inline __attribute__((always_inline)) char
ch(const Walk &w, uint32_t p)
{
	return p < w.n ? w.base[w.idx[p]] : 0;
}

/* Where structural p is (the end of the document past the last one): error positions. */
inline const char *
at_of(const Walk &w, uint32_t p)
{
	return p < w.n ? w.base + w.idx[p] : w.base + w.len;
}

int			syntax(Walk &w, sj::error_code e, const char *at);

inline Walk &
W(sd_wcursor *c)
{
	return *reinterpret_cast<Walk *>(c);
}

/* Room for need more bytes of unescaped strings (a new block when the buffer is full: the
 * strings already made stay where they are). */
__attribute__((noinline, cold)) bool
more_strings(Walk &w, size_t need)
{
	size_t		size = need < 65536 ? 65536 : need;
	Chunk	   *c = static_cast<Chunk *>(::operator new(sizeof(Chunk) + size, std::nothrow));

	if (!c)
		return false;
	c->next = w.chunks;
	w.chunks = c;
	w.sloc = reinterpret_cast<uint8_t *>(c + 1);
	w.send = w.sloc + size;
	return true;
}

/* The string whose opening quote is structural p, unescaped by simdjson's parse_string (as
 * On-Demand's get_string and unescaped_key do) into the string buffer. */
inline sj::error_code
unescape(Walk &w, uint32_t p, std::string_view *out)
{
	const uint8_t *src = reinterpret_cast<const uint8_t *>(w.base + w.idx[p] + 1);
	size_t		need = (size_t) (w.idx[p + 1] - w.idx[p]) + sj::SIMDJSON_PADDING;
	uint8_t    *end;

	if ((size_t) (w.send - w.sloc) < need && !more_strings(w, need))
		return sj::MEMALLOC;
	if (!(end = w.impl->parse_string(src, w.sloc)))
		return sj::STRING_ERROR;
	*out = std::string_view(reinterpret_cast<const char *>(w.sloc), (size_t) (end - w.sloc));
	w.sloc = end;
	return sj::SUCCESS;
}

#include "json_walk_path.h"
#include "json_walk_keys.h"

/* A string value with escapes (or no closing quote in reach): unescaped.  Out of line, reached
 * by a tail call: the hot path keeps no registers across it. */
__attribute__((noinline)) int
peek_escaped(Walk &w, uint32_t p, sd_wtok *t)
{
	std::string_view s;
	sj::error_code e;

	if ((e = unescape(w, p, &s)))
		return syntax(w, e, w.base + w.idx[p]);
	t->kind = SD_J_STRING;
	t->s = s.data();
	t->len = s.size();
	return 1;
}

/* A number that is not a plain integer: the JSON grammar checked (out of line, as above). */
__attribute__((noinline)) int
peek_number(Walk &w, const char *tok, std::string_view num, sd_wtok *t)
{
	if (!sd_is_json_number(num.data(), num.size()))
		return syntax(w, sj::NUMBER_ERROR, tok);
	t->kind = SD_J_NUMBER;
	t->s = num.data();
	t->len = num.size();
	return 1;
}

/* The value at structural p as a token: containers only peeked (w.pos = p), scalars read whole
 * and checked (w.pos = p + 1).  p < w.n.  base and idx are w's (locals of the caller: stores
 * through t cannot make the compiler reload them).  Inlined in the member and element steps,
 * with no call but tail calls, so that those keep few registers. */
inline __attribute__((always_inline)) int
peek_in(Walk &w, const char *base, const uint32_t *idx, uint32_t p, sd_wtok *t)
{
	uint32_t	at = idx[p];
	const char *tok = base + at;
	std::string_view raw(tok, (size_t) (idx[p + 1] - at));
	char		c = *tok;

	t->raw = tok;
	t->raw_len = raw.size();
	t->flags = 0;
	t->offset = (int64_t) at + w.bias;
	w.pos = p + 1;
	if (c == '"')
	{
		std::string_view s;

		if (!plain_string(w, raw, &s))
			return peek_escaped(w, p, t);
		t->kind = SD_J_STRING;
		t->s = s.data();
		t->len = s.size();
		return 1;
	}
	if ((unsigned char) (c - '0') < 10 || c == '-')
	{
		std::string_view num = scalar_token(raw);

		if (!sd_plain_int(num.data(), num.size()))
			return peek_number(w, tok, num, t);
		t->kind = SD_J_NUMBER;
		t->s = num.data();
		t->len = num.size();
		return 1;
	}
	t->s = nullptr;
	t->len = 0;
	switch (c)
	{
		case '{':
			t->kind = SD_J_OBJECT;
			w.pos = p;
			return 1;
		case '[':
			t->kind = SD_J_ARRAY;
			w.pos = p;
			return 1;
		case 't':
		case 'f':
			{
				char		lit = literal_of(raw);

				if (lit != 't' && lit != 'f')
					return syntax(w, sj::T_ATOM_ERROR, tok);
				t->kind = lit == 't' ? SD_J_TRUE : SD_J_FALSE;
				return 1;
			}
		case 'n':
			if (literal_of(raw) != 'n')
				return syntax(w, sj::N_ATOM_ERROR, tok);
			t->kind = SD_J_NULL;
			return 1;
	}
	return syntax(w, sj::TAPE_ERROR, tok);
}

inline __attribute__((always_inline)) int
peek_at(Walk &w, uint32_t p, sd_wtok *t)
{
	return peek_in(w, w.base, w.idx, p, t);
}

int
op_peek(sd_wcursor *c, sd_wtok *t)
{
	Walk	   &w = W(c);

	return peek_at(w, w.vpos, t);
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

/* Begins the container at the cursor (peeked): its frame, the walk after its opening byte. */
inline int
begin(Walk &w, const sd_wtok *t, char open)
{
	if (ch(w, w.vpos) != open)
		return syntax(w, sj::INCORRECT_TYPE, t->raw);
	if (w.nframes == w.cap && !grow_frames(w))
	{
		w.head.fail.code = SD_E_NOMEM;
		w.head.fail.problem = "out of memory";
		w.head.fail.offset = offset_of(w, t->raw);
		return -1;
	}
	Frame	   *f = &w.frames[w.nframes++];

	w.top = f;
	f->open = w.vpos;
	f->is_obj = open == '{';
	f->started = false;
	w.pos = w.vpos + 1;
	w.at_root = false;			/* every value from here on is inside the root */
	return 1;
}

int
op_object_begin(sd_wcursor *c, const sd_wtok *t)
{
	return begin(W(c), t, '{');
}

int
op_array_begin(sd_wcursor *c, const sd_wtok *t)
{
	return begin(W(c), t, '[');
}

/* The structural after the value at p, found by nesting alone (On-Demand's skip of a value it
 * was not asked to read: no check; the value is walked, and checked, later or never used). */
uint32_t
skip_struct(const Walk &w, uint32_t p)
{
	char		c = ch(w, p);
	uint32_t	depth = 0;

	if (c != '{' && c != '[')
		return p + 1;
	for (; p < w.n; p++)
	{
		c = w.base[w.idx[p]];
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0)
			return p + 1;
	}
	return w.n;
}

/* Malformed input where a member or element should follow (structural p). */
__attribute__((noinline, cold)) int
item_syntax(Walk &w, uint32_t p)
{
	return syntax(w, p < w.n ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
}

/* The end of the container at the top (its closing byte is structural p). */
inline int
end_container(Walk &w, uint32_t p)
{
	w.nframes--;
	w.top = w.nframes ? w.top - 1 : nullptr;
	w.pos = p + 1;
	return 0;
}

/* A member whose key is not the one predicted: read (unescaped when it has escapes), hashed
 * when the engine looks it up and it was read in place, then its value peeked.  Out of line,
 * reached by a tail call. */
int			op_object_next(sd_wcursor *c, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want);

__attribute__((noinline)) int
member_other(Walk &w, sd_wkey *k, sd_wtok *t, uint32_t p, const sd_member *expect, unsigned want)
{
	std::string_view key;
	bool		in_doc;
	sj::error_code e;

	if ((e = read_key(w, p, &key, &in_doc)))
		return syntax(w, e, w.base + w.idx[p]);
	k->matched = false;
	k->in_doc = in_doc;
	k->s = key.data();
	k->len = key.size();
	k->has_hash = false;
	/* a name no member has (the table's filter of length, first and last bytes): no hash,
	 * the engine skips its lookup */
	k->absent = (want & SD_KEY_FILTER) &&
		!((k->filter >> sd_key_filter_bit(key.data(), key.size())) & 1);
	if ((want & SD_KEY_HASH) && in_doc && !k->absent)
	{
		k->hash = key_hash(key.data(), key.size());
		k->has_hash = true;
	}
	if (k->absent && (want & SD_KEY_SKIP))
	{
		/* a member the engine ignores: its value checked (peek_in), then the next member, up
		 * to 63 in a row (the engine's cancel polling counts the members it sees) */
		int			r = peek_in(w, w.base, w.idx, p + 2, t);

		if (r == 1 && t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY &&
			!(t->flags & SD_TOK_NATIVE) && w.passed < 63)
		{
			w.passed++;
			return op_object_next(&w.head, k, t, expect, want);
		}
		w.passed = 0;
		return r;
	}
	w.passed = 0;
	return peek_in(w, w.base, w.idx, p + 2, t);
}

/* The next member: "key" ':' value, three structurals after the ',' (none before the first).
 * The first byte of a structural is read without a bounds check once p + 2 < n is known. */
__attribute__((hot)) int
op_object_next(sd_wcursor *c, sd_wkey *k, sd_wtok *t, const sd_member *expect, unsigned want)
{
	Walk	   &w = W(c);
	const char *const base = w.base;
	const uint32_t *const idx = w.idx;
	const uint32_t n = w.n;
	uint32_t	p = w.pos;
	Frame	   &f = *w.top;
	char		c0;

	/* a container value peeked and not walked (the engine's recovery after a value error):
	 * skipped by nesting, as On-Demand's iterator skips an unread child */
	if (__builtin_expect(p == w.vpos, 0))
		p = skip_struct(w, p);
	c0 = p < n ? base[idx[p]] : 0;
	if (c0 == '}')
		return end_container(w, p);
	if (f.started)
	{
		if (__builtin_expect(c0 != ',', 0))
			return item_syntax(w, p);
		p++;
	}
	f.started = true;
	if (__builtin_expect(p + 2 >= n || base[idx[p]] != '"' || base[idx[p + 1]] != ':', 0))
		return item_syntax(w, p);

	uint32_t	kat = idx[p];
	const char *raw = base + kat + 1;

	k->offset = (int64_t) kat + w.bias;
	w.vpos = p + 2;
	/* the member the engine predicts, compared in place (the key's token, quotes included,
	 * is at most the span to the ':') */
	if (__builtin_expect(!expect || !key_is(raw, idx[p + 1] - kat, expect), 0))
		return member_other(w, k, t, p, expect, want);
	k->has_hash = false;
	k->matched = true;
	k->in_doc = true;
	k->s = raw;
	k->len = expect->len;
	return peek_in(w, base, idx, p + 2, t);
}

__attribute__((hot)) int
op_array_next(sd_wcursor *c, sd_wtok *t)
{
	Walk	   &w = W(c);
	const char *const base = w.base;
	const uint32_t *const idx = w.idx;
	const uint32_t n = w.n;
	uint32_t	p = w.pos;
	Frame	   &f = *w.top;
	char		c0;

	if (__builtin_expect(p == w.vpos, 0))
		p = skip_struct(w, p);	/* as in op_object_next */
	c0 = p < n ? base[idx[p]] : 0;
	if (c0 == ']')
		return end_container(w, p);
	if (f.started)
	{
		if (__builtin_expect(c0 != ',', 0))
			return item_syntax(w, p);
		p++;
	}
	f.started = true;
	if (__builtin_expect(p >= n, 0))
		return item_syntax(w, p);
	w.vpos = p;
	return peek_in(w, base, idx, p, t);
}

int
op_object_find(sd_wcursor *c, const char *name, size_t len, unsigned kinds, sd_wtok *t)
{
	Walk	   &w = W(c);
	Frame	   &f = *w.top;
	uint32_t	p = f.open + 1;
	uint32_t	save = w.pos;
	int			found = 0;

	(void) kinds;
	if (ch(w, p) != '}')
		for (;;)
		{
			std::string_view key;
			sj::error_code e;
			char		c2;

			if (ch(w, p) != '"' || ch(w, p + 1) != ':' || p + 2 >= w.n)
				return syntax(w, sj::TAPE_ERROR, at_of(w, p));
			if ((e = read_key(w, p, &key, nullptr)))
				return syntax(w, e, at_of(w, p));
			if (key.size() == len && memcmp(key.data(), name, len) == 0)
			{
				if (peek_at(w, p + 2, t) < 0)
					return -1;
				found = 1;
				break;
			}
			p = skip_struct(w, p + 2);
			c2 = ch(w, p);
			if (c2 == '}')
				break;
			if (c2 != ',')
				return syntax(w, c2 ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
			p++;
		}
	w.pos = save;
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

/* Walks the value at structural *pp at `level` (*pp then past it), checking what peek_at
 * checks (keys and strings unescaped when they have escapes, literals, numbers) and the
 * grammar between the structurals, counting values into *count; with EV also writing the
 * value's events and making a jsonb value's checks (sd_jsonb_string_ok,
 * sd_jsonb_number_check).  Recursive: at most `room` levels (the engine sizes room by its
 * stack budget, walker.h SD_SKIP_FAST_STACK). */
template <bool EV>
int
skip_rec(Walk &w, uint32_t *pp, uint32_t level, uint32_t room, uint32_t *count)
{
	uint32_t	p = *pp;
	char		c = ch(w, p);
	const char *tok = at_of(w, p);

	(*count)++;
	switch (c)
	{
		case '{':
			{
				if (__builtin_expect(level > room, 0))
					return skip_fail(w, SD_E_DEPTH, "nesting too deep", tok, level);
				if (EV && ev_push(w, SD_JEV_OBJECT, nullptr, 0) < 0)
					return -1;
				p++;
				if (ch(w, p) != '}')
					for (;;)
					{
						std::string_view key;
						sj::error_code e;

						if (ch(w, p) != '"' || ch(w, p + 1) != ':' || p + 2 >= w.n)
							return syntax(w, ch(w, p) ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
						if ((e = read_key(w, p, &key, nullptr)))
							return syntax(w, e, at_of(w, p));
						if (EV && jsonb_text<EV>(w, key, at_of(w, p), level + 1, SD_JEV_KEY) < 0)
						{
							skip_segment(w, level, key.data(), key.size(), 0);
							return -1;
						}
						p += 2;
						if (skip_rec<EV>(w, &p, level + 1, room, count) < 0)
						{
							skip_segment(w, level, key.data(), key.size(), 0);
							return -1;
						}
						c = ch(w, p);
						if (c == '}')
							break;
						if (c != ',')
							return syntax(w, c ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
						p++;
					}
				*pp = p + 1;
				return EV ? ev_push(w, SD_JEV_END, nullptr, 0) : 1;
			}
		case '[':
			{
				uint64_t	i = 0;

				if (__builtin_expect(level > room, 0))
					return skip_fail(w, SD_E_DEPTH, "nesting too deep", tok, level);
				if (EV && ev_push(w, SD_JEV_ARRAY, nullptr, 0) < 0)
					return -1;
				p++;
				if (ch(w, p) != ']')
					for (;;)
					{
						if (skip_rec<EV>(w, &p, level + 1, room, count) < 0)
						{
							skip_segment(w, level, nullptr, 0, i);
							return -1;
						}
						i++;
						c = ch(w, p);
						if (c == ']')
							break;
						if (c != ',')
							return syntax(w, c ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
						p++;
					}
				*pp = p + 1;
				return EV ? ev_push(w, SD_JEV_END, nullptr, 0) : 1;
			}
		case '"':
			{
				std::string_view s;
				sj::error_code e;

				*pp = p + 1;
				if (plain_string(w, std::string_view(tok, (size_t) (w.idx[p + 1] - w.idx[p])), &s))
					return EV ? ev_push(w, SD_JEV_STRING, s.data(), s.size()) : 1;	/* no \u0000 */
				if ((e = unescape(w, p, &s)))
					return syntax(w, e, tok);
				return jsonb_text<EV>(w, s, tok, level, SD_JEV_STRING);
			}
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
			{
				std::string_view num = scalar_token(std::string_view(tok, (size_t) (w.idx[p + 1] - w.idx[p])));

				*pp = p + 1;
				if (sd_plain_int(num.data(), num.size()))
					return EV ? ev_push(w, SD_JEV_NUMBER, num.data(), num.size()) : 1;
				if (!sd_is_json_number(num.data(), num.size()))
					return syntax(w, sj::NUMBER_ERROR, tok);
				if (EV)
				{
					sd_code		code = sd_jsonb_number_check(num.data(), num.size(), w.problem);

					if (code != SD_OK)
						return skip_fail(w, code, w.problem, tok, level);
					return ev_push(w, SD_JEV_NUMBER, num.data(), num.size());
				}
				return 1;
			}
		case 't':
		case 'f':
			{
				char		lit = literal_of(std::string_view(tok, (size_t) (w.idx[p + 1] - w.idx[p])));

				*pp = p + 1;
				if (lit != 't' && lit != 'f')
					return syntax(w, sj::T_ATOM_ERROR, tok);
				return EV ? ev_push(w, lit == 't' ? SD_JEV_TRUE : SD_JEV_FALSE, nullptr, 0) : 1;
			}
		case 'n':
			*pp = p + 1;
			if (literal_of(std::string_view(tok, (size_t) (w.idx[p + 1] - w.idx[p]))) != 'n')
				return syntax(w, sj::N_ATOM_ERROR, tok);
			return EV ? ev_push(w, SD_JEV_NULL, nullptr, 0) : 1;
		case 0:
			return syntax(w, sj::INCOMPLETE_ARRAY_OR_OBJECT, tok);
	}
	return syntax(w, sj::TAPE_ERROR, tok);
}

/* The container at the cursor (peeked), skipped here: the number of values walked, or -1. */
int
op_skip_fast(sd_wcursor *c, const sd_wtok *t, uint32_t room)
{
	Walk	   &w = W(c);
	uint32_t	count = 0;
	uint32_t	p = w.vpos;

	if (t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY)
		return 1;
	if (w.at_root)
		return 0;				/* the root (the engine walks it) */
	w.seg_fill = false;
	if (skip_rec<false>(w, &p, 1, room, &count) < 0)
		return -1;
	w.pos = p;
	return count > INT32_MAX ? INT32_MAX : (int) count;
}

/* The container at the cursor (peeked) of a jsonb value, skipped here with its events. */
int
op_skip_events(sd_wcursor *c, const sd_wtok *t, uint32_t room, const sd_jev **ev, uint32_t *nev)
{
	Walk	   &w = W(c);
	uint32_t	count = 0;
	uint32_t	p = w.vpos;

	*ev = nullptr;
	*nev = 0;
	if ((t->kind != SD_J_OBJECT && t->kind != SD_J_ARRAY) || w.at_root)
		return 0;				/* the engine walks it */
	w.seg_fill = false;
	w.njev = 0;
	w.jev_over = false;
	if (skip_rec<true>(w, &p, 1, room, &count) < 0)
		return -1;
	w.pos = p;
	if (!w.jev_over)
	{
		*ev = w.jev;
		*nev = w.njev;
	}
	return count > INT32_MAX ? INT32_MAX : (int) count;
}

/* The JSON text of a value just walked: a scalar's token, or up to the next structural. */
int
op_capture(sd_wcursor *c, const sd_wtok *t, unsigned how, sd_val *out)
{
	Walk	   &w = W(c);
	std::string_view tok(t->raw, t->raw_len);
	char		ch0 = tok.empty() ? 0 : tok[0];
	std::string_view span;

	(void) how;
	if (ch0 == '{' || ch0 == '[')
		span = trimmed(std::string_view(tok.data(), (size_t) (at_of(w, w.pos) - tok.data())));
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
	char		c0 = ch(w, 0);
	uint32_t	end = c0 == '{' || c0 == '[' ? w.pos : 1;

	if (end < w.n)
		return syntax(w, sj::TAPE_ERROR, at_of(w, end));
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
		k->capacity = 0;
		k->w.frames = nullptr;
		k->w.nframes = 0;
		k->w.cap = 0;
		k->w.sbuf = nullptr;
		k->w.scap = 0;
		k->w.chunks = nullptr;
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
free_chunks(Walk &w)
{
	while (w.chunks)
	{
		Chunk	   *next = w.chunks->next;

		::operator delete(w.chunks);
		w.chunks = next;
	}
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
		delete[] k->w.sbuf;
		free_chunks(k->w);
	}
	delete k;
}

size_t
parser_bytes(void *p)
{
	Kparser    *k = static_cast<Kparser *>(p);

	/* structural index (4 bytes per input byte) + string buffer (about the input size) */
	return k->capacity * 6 + (size_t) k->w.cap * sizeof(Frame) +
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
	free_chunks(w);
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
	w.idx = nullptr;
	w.n = 0;
	w.pos = 0;
	w.vpos = 0;
	w.at_root = true;
	w.opened = false;
	w.nframes = 0;
	w.top = nullptr;
	w.each_started = false;
	w.each_vpos = 0;
	w.passed = 0;
}

/* Stage 1 over buf[0..len) (readable up to buf + cap): the structural index, as On-Demand's
 * parser::iterate makes it (same capacity, depth and string buffer sizes). */
sj::error_code
index_document(Kparser *k, const char *buf, size_t len, size_t cap)
{
	Walk	   &w = k->w;
	sj::error_code e;

	if (cap < len || cap - len < sj::SIMDJSON_PADDING)
		return sj::INSUFFICIENT_PADDING;
	if (len > sj::SIMDJSON_MAXSIZE_BYTES)
		return sj::CAPACITY;
	if (k->capacity < len || !w.sbuf)
	{
		size_t		scap = SIMDJSON_ROUNDUP_N(5 * len / 3 + sj::SIMDJSON_PADDING, 64);

		k->capacity = 0;
		delete[] w.sbuf;
		w.sbuf = new (std::nothrow) uint8_t[scap];
		w.scap = w.sbuf ? scap : 0;
		if (!w.sbuf)
			return sj::MEMALLOC;
		if (k->impl)
		{
			if ((e = k->impl->set_capacity(len)) ||
				(e = k->impl->set_max_depth(sj::DEFAULT_MAX_DEPTH)))
				return e;
		}
		else if ((e = sj::get_active_implementation()->create_dom_parser_implementation(len, sj::DEFAULT_MAX_DEPTH, k->impl)))
			return e;
		k->capacity = len;
	}
	if ((e = k->impl->stage1(reinterpret_cast<const uint8_t *>(buf), len, sj::stage1_mode::regular)))
		return e;
	w.impl = k->impl.get();
	w.idx = k->impl->structural_indexes.get();
	w.n = k->impl->n_structural_indexes;
	/* the two entries past the last (stage 1 writes them too): every token has a length */
	k->impl->structural_indexes[w.n] = (uint32_t) len;
	k->impl->structural_indexes[w.n + 1] = (uint32_t) len;
	w.sloc = w.sbuf;
	w.send = w.sbuf + w.scap;
	w.opened = true;
	return w.n ? sj::SUCCESS : sj::EMPTY;
}

int
walk_open(void *parser, sd_wcursor **cur, const char *buf, size_t len, size_t cap, uint32_t bias)
{
	Kparser    *k = static_cast<Kparser *>(parser);
	Walk	   &w = k->w;
	sj::error_code e;

	walk_init(k, buf, len, bias);
	*cur = &w.head;
	if ((e = index_document(k, buf, len, cap)))
		return syntax(w, e, buf);
	return 1;
}

int
each_open(void *parser, sd_wcursor **cur, const char *buf, size_t len, size_t cap)
{
	Kparser    *k = static_cast<Kparser *>(parser);
	Walk	   &w = k->w;
	sj::error_code e;

	walk_init(k, buf, len, 0);
	*cur = &w.head;
	if ((e = index_document(k, buf, len, cap)))
		return syntax(w, e, buf);
	if (ch(w, 0) != '[')
		return syntax(w, sj::INCORRECT_TYPE, nullptr);
	w.at_root = false;
	return 1;
}

/* The next element of the array (the cursor at it): 1, 0 at the end, -1 on an error. */
int
each_next(sd_wcursor *c)
{
	Walk	   &w = W(c);
	uint32_t	p;
	char		c1;

	if (!w.each_started)
	{
		w.each_started = true;
		p = 1;					/* after the '[' */
		c1 = ch(w, p);
	}
	else
	{
		/* past the element handed out last: where its walk ended, or found by nesting when
		 * it was not walked to its end */
		p = w.nframes == 0 && w.pos > w.each_vpos ? w.pos : skip_struct(w, w.each_vpos);
		c1 = ch(w, p);
		if (c1 == ',')
			c1 = ch(w, ++p) == ']' ? ',' : ch(w, p);	/* an element must follow (",]": the
														 * engine's peek fails on the ']') */
		else if (c1 != ']')
			return syntax(w, c1 ? sj::TAPE_ERROR : sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
	}
	w.nframes = 0;
	w.top = nullptr;
	if (c1 == ']')
	{
		/* the array is done: nothing may follow it */
		w.pos = p + 1;
		if (w.pos < w.n)
			return syntax(w, sj::TAPE_ERROR, at_of(w, w.pos));
		return 0;
	}
	if (!c1)
		return syntax(w, sj::INCOMPLETE_ARRAY_OR_OBJECT, at_of(w, p));
	w.vpos = p;
	w.pos = p;
	w.each_vpos = p;
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
