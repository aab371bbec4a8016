/*
 * json_walk_keys.h — part of json_walk.cpp's translation unit (compiled once per SIMD kernel, inside its
 * anonymous namespace; include it nowhere else): member names: raw key reads, in-place comparison with the member the engine
 * predicts (8-byte prefixes), key hashing with wide loads, plain strings and literals.
 */
#ifndef SD_JSON_WALK_KEYS_H
#define SD_JSON_WALK_KEYS_H

/* ---- member names ------------------------------------------------------------------------ */
/* Keys are read in place from the document, which is readable SD_PADDING bytes past its end
 * (the padded copy; NDJSON lines are followed by the rest of the input). */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SD_LE 1
#else
#define SD_LE 0
#endif

inline uint64_t
load8(const char *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return v;
}

/* The length of the plain key text starting at s (after the opening quote): the offset of the
 * first '"' or '\\' within avail bytes, or avail when there is none. */
inline size_t
key_stop(const char *s, size_t avail)
{
	size_t		i = 0;

#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"');
	const __m128i bslash = _mm_set1_epi8('\\');

	while (i < avail)
	{
		__m128i		x = _mm_loadu_si128((const __m128i *) (s + i));
		unsigned	hit = (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
																	 _mm_cmpeq_epi8(x, bslash)));

		if (hit)
		{
			i += (size_t) __builtin_ctz(hit);
			return i < avail ? i : avail;
		}
		i += 16;
	}
	return avail;
#else
	while (i < avail && s[i] != '"' && s[i] != '\\')
		i++;
	return i;
#endif
}

/* A member's name (its opening quote is structural p): read in place when it has no escapes
 * (the common case), else unescaped into the string buffer (as On-Demand's unescaped_key).
 * *in_doc = read in place. */
inline simdjson::error_code
read_key(Walk &w, uint32_t p, std::string_view *key, bool *in_doc)
{
	const char *start = w.base + w.idx[p] + 1;
	const char *end = w.base + w.len;

	if (start < end)
	{
		size_t		avail = (size_t) (end - start);
		size_t		n = key_stop(start, avail);

		if (n < avail && start[n] == '"')
		{
			*key = std::string_view(start, n);
			if (in_doc)
				*in_doc = true;
			return simdjson::SUCCESS;
		}
	}
	if (in_doc)
		*in_doc = false;
	return unescape(w, p, key);
}

/* True when the key whose text starts at s (after its opening quote) is exactly member m's
 * name.  span: the bytes from the key's opening quote to the structural after it (the ':'), so
 * the quotes and the name fit in it when it matches.  A plain name (no '"' or '\\') matches when
 * the raw bytes equal it and a '"' follows: that quote is unescaped (a name byte precedes it, or
 * the opening quote), so it ends the key.  Reads up to 8 bytes past the name (padding). */
inline __attribute__((always_inline)) bool
key_is(const char *s, uint32_t span, const sd_member *m)
{
	size_t		n = m->len;

	if (!m->plain || n + 2 > span)
		return false;
#if SD_LE
	if (n <= 8)
	{
		uint64_t	mask = n == 8 ? ~(uint64_t) 0 : (((uint64_t) 1 << (n * 8)) - 1);

		return (load8(s) & mask) == m->prefix && s[n] == '"';
	}
	if (load8(s) != m->prefix)
		return false;
	for (size_t i = 8; i + 8 < n; i += 8)
		if (load8(s + i) != load8(m->name + i))
			return false;
	return load8(s + n - 8) == load8(m->name + n - 8) && s[n] == '"';
#else
	return memcmp(s, m->name, n) == 0 && s[n] == '"';
#endif
}

/* sd_hash_name() of a key read in place: the same value, with the tail read as one masked
 * 8-byte load (the document is padded) instead of a variable-length copy. */
inline uint32_t
key_hash(const char *s, size_t len)
{
#if SD_LE
	uint64_t	h = 0x9E3779B97F4A7C15ull ^ (uint64_t) len;

	while (len >= 8)
	{
		h = (h ^ load8(s)) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	if (len)
	{
		uint64_t	v = load8(s) & (((uint64_t) 1 << (len * 8)) - 1);

		h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 29;
	}
	return (uint32_t) (h ^ (h >> 32));
#else
	return sd_hash_name(s, len);
#endif
}

/* A string value's contents in place, when it has no escapes: true with *s set.  tok is its
 * raw token (opening quote first). */
inline bool
plain_string(Walk &w, std::string_view tok, std::string_view *s)
{
	const char *start = tok.data() + 1;
	const char *end = w.base + w.len;

	if (tok.empty() || start >= end)
		return false;
	size_t		avail = (size_t) (end - start);
	size_t		n = key_stop(start, avail);

	if (n >= avail || start[n] != '"')
		return false;
	*s = std::string_view(start, n);
	return true;
}

/* 't', 'f' or 'n' when the token is exactly true/false/null (simdjson 3.0.1's root get_bool and
 * is_null accept "falseA" and reject "null\n": literals are checked here, from the token). */
inline __attribute__((always_inline)) char
literal_of(std::string_view tok)
{
	std::string_view t = scalar_token(tok);

	/* by length, then the bytes (inlined: one per boolean or null member) */
	if (t.size() == 4)
	{
		if (memcmp(t.data(), "true", 4) == 0)
			return 't';
		if (memcmp(t.data(), "null", 4) == 0)
			return 'n';
	}
	else if (t.size() == 5 && memcmp(t.data(), "false", 5) == 0)
		return 'f';
	return 0;
}

#endif /* SD_JSON_WALK_KEYS_H */
