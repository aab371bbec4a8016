/*
 * json_walk_path.h — part of json_walk.cpp's translation unit (compiled once per SIMD kernel,
 * inside its anonymous namespace; include it nowhere else): simdjson's errors as the walker
 * reports them to the engine (walker.h's sd_wfail: problem text and where), raw tokens.
 */
#ifndef SD_JSON_WALK_PATH_H
#define SD_JSON_WALK_PATH_H

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

/* Malformed input: what and where, for the engine (which re-validates for the exact offset). */
int
syntax(Walk &w, simdjson::error_code e, const char *at)
{
	if (e == simdjson::MEMALLOC)
	{
		w.head.fail.code = SD_E_NOMEM;
		w.head.fail.problem = "out of memory";
		w.head.fail.offset = at ? (int64_t) offset_of(w, at) : -1;
		return -1;
	}
	if (e == simdjson::UTF8_ERROR || e == simdjson::UNESCAPED_CHARS)
	{
		size_t		bad = find_bad_byte((const unsigned char *) w.base, w.len);

		if (bad < w.len)
			at = w.base + bad;
	}
	if (!at && w.opened)
		at = at_of(w, w.pos);
	w.head.fail.code = SD_E_SYNTAX;
	w.head.fail.problem = simdjson_problem(e);
	w.head.fail.offset = at ? (int64_t) offset_of(w, at) : -1;
	return -1;
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

/* A number's or literal's token with trailing whitespace removed, as trimmed() gives it, scanning forward
 * when there is whitespace: simdjson's structural index starts a new token at every
 * non-whitespace byte that follows whitespace, so once a scalar's token has whitespace the rest
 * of it is whitespace (an indented document's numbers end in a newline and the indentation:
 * trimmed() would walk back over all of it).  Scalar tokens only (a string's token can hold
 * whitespace between its quotes). */
inline std::string_view
scalar_token(std::string_view tok)
{
	size_t		n = tok.size();
	size_t		i = 0;

	if (n == 0 || (tok[n - 1] != ' ' && tok[n - 1] != '\n' && tok[n - 1] != '\r' && tok[n - 1] != '\t'))
		return tok;
	while (i < n && tok[i] != ' ' && tok[i] != '\n' && tok[i] != '\r' && tok[i] != '\t')
		i++;
	return tok.substr(0, i);
}

#endif /* SD_JSON_WALK_PATH_H */
