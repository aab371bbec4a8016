/*
 * json_walk_path.h — part of json_walk.cpp's translation unit (compiled once per SIMD kernel, inside its
 * anonymous namespace; include it nowhere else): paths, errors, polling and simdjson's error codes: the path stack (enter/leave), fail(),
 * container and poll guards, syntax errors with the exact offset, raw tokens.
 */
#ifndef SD_JSON_WALK_PATH_H
#define SD_JSON_WALK_PATH_H

/* ---- path stack --------------------------------------------------------------------------- */

bool fail(Walk &w, sd_code code, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

void
build_path(Walk &w)
{
	sd_pathent *pe = (sd_pathent *) w.d->path;

	strcpy(w.err->path, "$");
	for (uint32_t i = 0; i < w.depth && i < w.d->path_cap; i++)
	{
		if (pe[i].name)
			sd_path_member(w.err->path, pe[i].name, pe[i].len);
		else
			sd_path_index(w.err->path, pe[i].index);
	}
}

bool
fail(Walk &w, sd_code code, const char *at, const char *fmt, ...)
{
	va_list		ap;

	build_path(w);
	w.err->code = code;
	w.err->offset = at ? (int64_t) offset_of(w, at) : -1;
	va_start(ap, fmt);
	vsnprintf(w.err->problem, sizeof(w.err->problem), fmt, ap);
	va_end(ap);
	return false;
}

__attribute__((noinline)) bool
grow_path(Walk &w, const char *at)
{
	if (!sd_grow(w.hooks, &w.d->path, &w.d->path_cap, w.depth + 2, sizeof(sd_pathent)))
		return fail(w, SD_E_NOMEM, at, "out of memory");
	return true;
}

/* Enters a member / an element: depth + 1 and the path entry. */
inline bool
enter(Walk &w, const char *name, size_t len, uint64_t index, const char *at)
{
	if (__builtin_expect(w.depth + 1 >= w.d->path_cap, 0) && !grow_path(w, at))
		return false;
	sd_pathent *pe = (sd_pathent *) w.d->path + w.depth;

	pe->name = name;
	pe->len = len;
	pe->index = index;
	w.depth++;
	return true;
}

inline void
leave(Walk &w)
{
	w.depth--;
}

bool		syntax(Walk &w, simdjson::error_code e, const char *at);

/* Checked on entering every container: nesting limit, stack budget, cancellation. */
inline bool
container_guard(Walk &w, const char *at)
{
	char		here;

	if (w.depth + 1 > w.max_depth || (size_t) (w.stack_start - &here) > w.stack_budget)
	{
		sd_error	exact;

		/* a malformed document is a syntax error, however deep */
		if (!sd_json_validate(w.hooks, w.base, w.len, &exact))
		{
			if (exact.code == SD_E_NOMEM)
				return fail(w, SD_E_NOMEM, at, "out of memory");
			return syntax(w, simdjson::TAPE_ERROR, w.base + exact.offset);
		}
		if (w.depth + 1 > w.max_depth)
			return fail(w, SD_E_DEPTH, at, "nesting deeper than serde.max_depth (%u)", w.max_depth);
		return fail(w, SD_E_DEPTH, at, "document nested too deeply for the stack");
	}
	return true;
}

inline bool
poll(Walk &w, const char *at)
{
	if (++w.poll >= 4096)
	{
		w.poll = 0;
		if (w.hooks->should_stop && w.hooks->should_stop(w.hooks->ud))
			return fail(w, SD_E_CANCELED, at, "canceled");
	}
	return true;
}

const char *
simdjson_problem(simdjson::error_code e)
{
	switch (e)
	{
		case simdjson::UTF8_ERROR:
			return "invalid UTF-8";
		case simdjson::UNCLOSED_STRING:
			return "unterminated string";
		case simdjson::UNESCAPED_CHARS:
			return "unescaped control character in a string";
		case simdjson::STRING_ERROR:
			return "invalid string (bad escape)";
		case simdjson::T_ATOM_ERROR:
		case simdjson::F_ATOM_ERROR:
		case simdjson::N_ATOM_ERROR:
			return "invalid literal";
		case simdjson::NUMBER_ERROR:
			return "invalid number";
		case simdjson::EMPTY:
			return "empty document";
		case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
			return "unexpected end of input";
		case simdjson::DEPTH_ERROR:
			return "nesting too deep";
		case simdjson::CAPACITY:
			return "document too large";
		case simdjson::MEMALLOC:
			return "out of memory";
		default:
			return "unexpected character or structure";
	}
}

/* First byte of invalid UTF-8 or of a raw control character inside a string, or len. */
size_t
find_bad_byte(const unsigned char *s, size_t len)
{
	bool		in_string = false;

	for (size_t i = 0; i < len;)
	{
		unsigned char c = s[i];

		if (c < 0x80)
		{
			if (in_string && c < 0x20)
				return i;
			if (c == '"')
				in_string = !in_string;
			else if (c == '\\' && in_string)
				i++;
			i++;
			continue;
		}
		size_t		n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;

		if (n == 0 || c > 0xF4 || i + n > len)
			return i;
		for (size_t k = 1; k < n; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
		if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0) ||
			(c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))
			return i;
		i += n;
	}
	return len;
}

bool
syntax(Walk &w, simdjson::error_code e, const char *at)
{
	if (e == simdjson::MEMALLOC)
		return fail(w, SD_E_NOMEM, at, "out of memory");
	if (e == simdjson::UTF8_ERROR || e == simdjson::UNESCAPED_CHARS)
	{
		size_t		bad = find_bad_byte((const unsigned char *) w.base, w.len);

		if (bad < w.len)
			at = w.base + bad;
	}
	if (!at && w.doc)
	{
		const char *loc;

		if (!w.doc->current_location().get(loc))
			at = loc;
	}
	uint32_t	saved = w.depth;
	sd_error	exact;

	w.depth = 0;				/* malformed input is reported at the root */
	/* simdjson's errors carry no position: the strict validator finds the first bad byte */
	bool		valid = sd_json_validate(w.hooks, w.base, w.len, &exact);

	if (!valid && exact.code == SD_E_SYNTAX)
		fail(w, SD_E_SYNTAX, w.base + exact.offset, "malformed JSON: %s", exact.problem);
	else if (!valid && exact.code == SD_E_NOMEM)
		fail(w, SD_E_NOMEM, at, "out of memory");
	else
		fail(w, SD_E_SYNTAX, at, "malformed JSON: %s", simdjson_problem(e));
	w.depth = saved;
	return false;
}

/* The token with trailing whitespace removed. */
inline std::string_view
trimmed(std::string_view tok)
{
	size_t		n = tok.size();

	while (n > 0 && (tok[n - 1] == ' ' || tok[n - 1] == '\n' || tok[n - 1] == '\r' ||
					 tok[n - 1] == '\t'))
		n--;
	return tok.substr(0, n);
}


/* The raw token of a value or of the document root (empty when there is none). */
inline std::string_view
token_of(ond::value &v)
{
	return v.raw_json_token();
}

inline std::string_view
token_of(ond::document &doc)
{
	std::string_view s;

	if (doc.raw_json_token().get(s))
		return std::string_view();
	return s;
}

#endif /* SD_JSON_WALK_PATH_H */
