/*
 * json_walk_skip.h — part of json_walk.cpp's translation unit (compiled once per SIMD kernel, inside its
 * anonymous namespace; include it nowhere else): the validating skip: values the shape ignores are walked in full (every byte checked),
 * and for jsonb columns written as events (sd_jev).
 */
#ifndef SD_JSON_WALK_SKIP_H
#define SD_JSON_WALK_SKIP_H

/* ---- validating skip ---------------------------------------------------------------------- */

/* -?(0|[1-9][0-9]{0,17}): a short integer literal, valid JSON */
inline bool
plain_int(std::string_view num)
{
	size_t		i = 0;
	size_t		n = num.size();

	if (n > 0 && num[0] == '-')
		i = 1;
	if (i >= n || n - i > 18)
		return false;
	if (num[i] == '0')
		return n - i == 1;
	for (; i < n; i++)
		if ((unsigned) (num[i] - '0') > 9)
			return false;
	return true;
}

/* A valid JSON number literal without an exponent and shorter than numeric's scale limit
 * (16383 fraction digits) is always within numeric's range: nothing to check. */
inline bool
numeric_safe(std::string_view num)
{
	if (num.size() >= 16383)
		return false;
	for (char c : num)
		if ((c | 0x20) == 'e')
			return false;
	return true;
}

template <class V>
bool		skip_value(Walk &w, V &v);


/* One event of the jsonb value being skipped (when w.ev); past SD_JEV_MAX events the value
 * gets none: writing stops, the caller sees w.ev cleared. */
inline bool
event(Walk &w, uint32_t kind, const char *s, size_t len, const char *at)
{
	sd_decoder *d = w.d;

	if (!w.ev)
		return true;
	if (d->jev_len - w.ev_start >= SD_JEV_MAX)
	{
		w.ev = false;
		return true;
	}
	if (d->jev_len == d->jev_cap &&
		!sd_grow(w.hooks, (void **) &d->jev, &d->jev_cap, d->jev_len + 1, sizeof(sd_jev)))
		return fail(w, SD_E_NOMEM, at, "out of memory");
	sd_jev	   &e = d->jev[d->jev_len++];

	e.kind = kind;
	e.len = (uint32_t) len;
	e.s = s;
	return true;
}

inline bool recover(Walk &w, uint32_t depth);

/*
 * A value error found while skipping (inside a jsonb value: \u0000, numeric's limits): in
 * serde_errors' mode it is recorded and the skip goes on, so that the rest of the value is
 * still walked and the iterator stays in step; else the walk stops.
 */
inline bool
skip_value_error(Walk &w)
{
	return recover(w, w.depth);
}

/* A string inside a jsonb value: jsonb cannot hold \u0000. */
inline bool
jsonb_string_ok(Walk &w, std::string_view s, const char *at)
{
	if (w.in_jsonb && memchr(s.data(), 0, s.size()))
	{
		fail(w, SD_E_KIND, at, "\\u0000 cannot be stored in jsonb");
		return skip_value_error(w);
	}
	return true;
}

bool
skip_object(Walk &w, ond::object obj, const char *at)
{
	uint32_t	depth = w.depth;

	if (!container_guard(w, at) || !event(w, SD_JEV_OBJECT, nullptr, 0, at))
		return false;
	for (auto fr : obj)
	{
		std::string_view key;
		simdjson::error_code e;

		if ((e = fr.error()))
			return syntax(w, e, nullptr);
		ond::field &f = field_of(fr);
		const char *key_at;

		if ((e = read_key(w, f, &key, &key_at)))
			return syntax(w, e, key_at);
		if (!enter(w, key.data(), key.size(), 0, key_at) || !jsonb_string_ok(w, key, key_at) ||
			!event(w, SD_JEV_KEY, key.data(), key.size(), key_at) || !skip_value(w, f.value()))
			return false;
		w.depth = depth;
	}
	return event(w, SD_JEV_END, nullptr, 0, at);
}

bool
skip_array(Walk &w, ond::array arr, const char *at)
{
	uint32_t	depth = w.depth;
	uint64_t	i = 0;

	if (!container_guard(w, at) || !event(w, SD_JEV_ARRAY, nullptr, 0, at))
		return false;
	for (auto er : arr)
	{
		ond::value	ev;
		simdjson::error_code e;

		if ((e = er.get(ev)))
			return syntax(w, e, nullptr);
		if (!enter(w, nullptr, 0, i++, at) || !skip_value(w, ev))
			return false;
		w.depth = depth;
	}
	return event(w, SD_JEV_END, nullptr, 0, at);
}

template <class V>
bool
skip_value(Walk &w, V &v)
{
	ond::json_type t;
	simdjson::error_code e;
	std::string_view tok = token_of(v);

	if (!poll(w, tok.data()))
		return false;
	if ((e = v.type().get(t)))
		return syntax(w, e, tok.data());
	switch (t)
	{
		case ond::json_type::object:
			{
				ond::object obj;

				if ((e = v.get_object().get(obj)))
					return syntax(w, e, tok.data());
				return skip_object(w, obj, tok.data());	/* a tail call: keep it one */
			}
		case ond::json_type::array:
			{
				ond::array	arr;

				if ((e = v.get_array().get(arr)))
					return syntax(w, e, tok.data());
				return skip_array(w, arr, tok.data());	/* a tail call: keep it one */
			}
		case ond::json_type::string:
			{
				std::string_view s;

				/* without a backslash it has nothing to unescape or check (UTF-8 and control
				 * characters were checked by iterate()) and no \u0000: consumed raw.  (It must
				 * be consumed: the iterator skips an unread string followed by ':' as a key.) */
				if (plain_string(w, tok, &s))
				{
					ond::raw_json_string raw;

					if ((e = v.get_raw_json_string().get(raw)))
						return syntax(w, e, tok.data());
					return event(w, SD_JEV_STRING, s.data(), s.size(), tok.data());
				}
				if ((e = v.get_string().get(s)))
					return syntax(w, e, tok.data());
				return jsonb_string_ok(w, s, tok.data()) &&
					event(w, SD_JEV_STRING, s.data(), s.size(), tok.data());
			}
		case ond::json_type::number:
			{
				std::string_view num = trimmed(tok);

				if (plain_int(num))
					;			/* the common case: valid, and within numeric's limits */
				else if (!sd_is_json_number(num.data(), num.size()))
					return syntax(w, simdjson::NUMBER_ERROR, tok.data());
				else if (w.in_jsonb && !numeric_safe(num))
				{
					/* jsonb stores numbers as numeric: its limits apply */
					char		problem[SD_PROBLEM_MAX];
					sd_code		c = sd_check_numeric(num.data(), num.size(), -1, -1, problem);

					if (c != SD_OK)
					{
						fail(w, c, tok.data(), "%s", problem);
						return skip_value_error(w);
					}
				}
				return event(w, SD_JEV_NUMBER, num.data(), num.size(), tok.data());
			}
		case ond::json_type::boolean:
			{
				char		lit = literal_of(tok);

				if (lit != 't' && lit != 'f')
					return syntax(w, simdjson::T_ATOM_ERROR, tok.data());
				return event(w, lit == 't' ? SD_JEV_TRUE : SD_JEV_FALSE, nullptr, 0, tok.data());
			}
		case ond::json_type::null:
			if (literal_of(tok) != 'n')
				return syntax(w, simdjson::N_ATOM_ERROR, tok.data());
			return event(w, SD_JEV_NULL, nullptr, 0, tok.data());
	}
	return syntax(w, simdjson::TAPE_ERROR, tok.data());
}

/* The JSON text of a value just walked: a scalar's token, or up to the current location. */
std::string_view
walked_span(Walk &w, std::string_view tok)
{
	char		c = tok.empty() ? 0 : tok[0];

	if (c == '{' || c == '[')
	{
		const char *loc;
		const char *end = w.base + w.len;

		if (!w.doc->current_location().get(loc))
			end = loc;
		std::string_view span(tok.data(), (size_t) (end - tok.data()));

		return trimmed(span);
	}
	return trimmed(tok);
}

#endif /* SD_JSON_WALK_SKIP_H */
