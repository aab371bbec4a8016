/*
 * error.c — the core's one error model: SQLSTATEs of error codes (by kind of document), setting
 * problems, building paths (jsonpath that PostgreSQL's jsonpath accepts, XPath with 1-based
 * positions), describing found values (cut at 40 characters, valid UTF-8), and the one formatter
 * of "<shape>: <path>: <problem>" messages and their locations that every host raises or returns.
 */
#include "serde_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct
{
	const char *sqlstate;
	const char *name;
}			codes[] = {
	[SD_OK] = {"00000", "ok"},
	[SD_E_SYNTAX] = {"22P02", "syntax"},
	[SD_E_KIND] = {"22032", "kind"},
	[SD_E_MISSING] = {"2203A", "missing"},
	[SD_E_UNKNOWN] = {"2203E", "unknown"},
	[SD_E_DUPLICATE] = {"22030", "duplicate"},
	[SD_E_RANGE] = {"22003", "range"},
	[SD_E_DATETIME] = {"22008", "datetime"},
	[SD_E_LENGTH] = {"22001", "length"},
	[SD_E_NOTNULL] = {"23502", "not_null"},
	[SD_E_CHECK] = {"23514", "check"},
	[SD_E_DEPTH] = {"54001", "depth"},
	[SD_E_SIZE] = {"54000", "size"},
	[SD_E_OPTIONS] = {"22023", "options"},
	[SD_E_NOMEM] = {"53200", "out_of_memory"},
	[SD_E_CANCELED] = {"57014", "canceled"},
	[SD_E_XML_SYNTAX] = {"2200M", "xml_syntax"},
	[SD_E_XML_KIND] = {"2200N", "xml_kind"},
	[SD_E_UNSUPPORTED] = {"0A000", "unsupported"},
	[SD_E_INTERNAL] = {"XX000", "internal"},
};

const char *
sd_code_sqlstate(sd_code code)
{
	if ((unsigned) code > SD_E_INTERNAL)
		code = SD_E_INTERNAL;
	return codes[code].sqlstate;
}

const char *
sd_code_name(sd_code code)
{
	if ((unsigned) code > SD_E_INTERNAL)
		code = SD_E_INTERNAL;
	return codes[code].name;
}

sd_code
sd_code_for_doc(sd_code code, sd_doc doc)
{
	if (doc == SD_DOC_XML)
	{
		if (code == SD_E_KIND)
			return SD_E_XML_KIND;
		if (code == SD_E_SYNTAX)
			return SD_E_XML_SYNTAX;
	}
	return code;
}

void
sd_error_clear(sd_error *err)
{
	err->code = SD_OK;
	err->offset = -1;
	err->line = 0;
	err->column = 0;
	err->doc = SD_DOC_JSON;
	err->path[0] = '\0';
	err->problem[0] = '\0';
}

/* Text that was cut (by a buffer's size, here or where an argument was formatted) ends in a
 * whole UTF-8 character and "...": messages stay valid UTF-8. */
static void
fit_utf8(char *buf, size_t size, bool cut)
{
	size_t		n = strlen(buf),
				i = n;

	while (i > 0 && n - i < 4 && ((unsigned char) buf[i - 1] & 0xC0) == 0x80)
		i--;
	if (i > 0 && (unsigned char) buf[i - 1] >= 0xC0)
	{
		unsigned char c = (unsigned char) buf[i - 1];
		size_t		need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

		if (n - (i - 1) < need)
		{
			n = i - 1;			/* an incomplete last character */
			cut = true;
		}
	}
	if (!cut)
		return;
	while (n > 0 && n + 4 > size)
	{
		n--;
		while (n > 0 && ((unsigned char) buf[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(buf + n, "...", 4);
}

size_t
sd_message(char *buf, size_t size, const char *shape, const char *path, const char *problem)
{
	int			r;

	if (size == 0)
		return 0;
	if (path && path[0])
		r = snprintf(buf, size, "%s: %s: %s", shape, path, problem);
	else
		r = snprintf(buf, size, "%s: %s", shape, problem);
	if (r < 0)
	{
		buf[0] = '\0';
		return 0;
	}
	fit_utf8(buf, size, (size_t) r >= size);
	return strlen(buf);
}

size_t
sd_error_message(const sd_error *err, const char *shape, char *buf, size_t size)
{
	return sd_message(buf, size, shape, err->path, err->problem);
}

size_t
sd_error_location(const sd_error *err, char *buf, size_t size)
{
	int			r = 0;

	if (size == 0)
		return 0;
	if (err->doc == SD_DOC_XML && err->line > 0)
		r = err->column > 0 ?
			snprintf(buf, size, "at line %u, column %u", err->line, err->column) :
			snprintf(buf, size, "at line %u", err->line);
	else if (err->doc == SD_DOC_JSON && err->offset >= 0 && err->line > 0)
		r = snprintf(buf, size, "at line %u, column %u, byte offset %lld", err->line,
					 err->column, (long long) err->offset);
	else if (err->doc == SD_DOC_JSON && err->offset >= 0)
		r = snprintf(buf, size, "at byte offset %lld", (long long) err->offset);
	else
		buf[0] = '\0';
	if (r < 0)
		r = 0;
	return (size_t) r < size ? (size_t) r : size - 1;
}

/*
 * Line and column of a byte offset of JSON text, for error reports only (never on the success
 * path): line = 1 + the LFs before the offset, column = 1 + the characters (UTF-8 code points:
 * bytes that are not continuation bytes 10xxxxxx) between the last LF and the offset.  JSON's
 * line end is LF; a CR counts as a character.
 */
void
sd_json_locate(const char *doc, size_t len, int64_t offset, uint32_t *line, uint32_t *column)
{
	size_t		to = offset < 0 ? 0 : (size_t) offset;
	const char *p = doc,
			   *end,
			   *nl;
	uint64_t	ln = 1,
				col = 1;

	*line = *column = 0;
	if (doc == NULL || offset < 0)
		return;
	if (to > len)
		to = len;
	end = doc + to;
	while (p < end && (nl = memchr(p, '\n', (size_t) (end - p))) != NULL)
	{
		ln++;
		p = nl + 1;
	}
	for (; p < end; p++)
		if (((unsigned char) *p & 0xC0) != 0x80)
			col++;
	*line = ln > UINT32_MAX ? UINT32_MAX : (uint32_t) ln;
	*column = col > UINT32_MAX ? UINT32_MAX : (uint32_t) col;
}

void
sd_error_locate_json(sd_error *err, const char *doc, size_t len)
{
	if (err->doc == SD_DOC_JSON && err->offset >= 0 && doc != NULL)
		sd_json_locate(doc, len, err->offset, &err->line, &err->column);
}

bool
sd_error_set(sd_error *err, sd_code code, int64_t offset, const char *fmt,...)
{
	va_list		ap;
	int			r;

	err->code = code;
	err->offset = offset;
	va_start(ap, fmt);
	r = vsnprintf(err->problem, sizeof(err->problem), fmt, ap);
	va_end(ap);
	fit_utf8(err->problem, sizeof(err->problem), r >= (int) sizeof(err->problem));
	return false;
}

/* Appends s[0..n) to path; on overflow the path ends in "..." (still NUL-terminated). */
static void
path_append(char *path, const char *s, size_t n)
{
	size_t		used = strlen(path);

	if (used >= 3 && strcmp(path + used - 3, "...") == 0)
		return;
	if (used + n + 4 > SD_PATH_MAX)
	{
		if (used + 4 <= SD_PATH_MAX)
			memcpy(path + used, "...", 4);
		return;
	}
	memcpy(path + used, s, n);
	path[used + n] = '\0';
}

static bool
is_identifier(const char *name, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			  (i > 0 && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

void
sd_path_member(char *path, const char *name, size_t len)
{
	char		buf[SD_PATH_MAX];
	size_t		n = 0;

	buf[n++] = '.';
	if (is_identifier(name, len))
	{
		if (len > sizeof(buf) - 2)
			len = sizeof(buf) - 2;
		memcpy(buf + n, name, len);
		n += len;
	}
	else
	{
		size_t		i;

		buf[n++] = '"';
		/* whole characters only, so that the path stays valid UTF-8; an ASCII character (or
		 * its escape) that begins before the limit is still written */
		n += sd_json_escape(buf + n, sizeof(buf) - 15, name, len, &i);
		if (i < len && (unsigned char) name[i] < 0x80 && n < sizeof(buf) - 12)
		{
			size_t		one;

			n += sd_json_escape(buf + n, 6, name + i, 1, &one);
			i += one;
		}
		buf[n++] = '"';
		if (i < len)
		{
			/* a cut name: the path ends here, in "..." as a path that no longer fits does */
			memcpy(buf + n, "...", 3);
			n += 3;
		}
	}
	path_append(path, buf, n);
}

void
sd_path_index(char *path, uint64_t index)
{
	char		buf[32];
	int			n = snprintf(buf, sizeof(buf), "[%llu]", (unsigned long long) index);

	path_append(path, buf, (size_t) n);
}

/* "/prefix:local" (or "/local"): whole characters only, a cut name ends the path in "...". */
static void
xpath_name(char *path, const char *lead, const char *prefix, size_t plen, const char *local,
		   size_t llen, uint64_t position)
{
	char		buf[SD_PATH_MAX];
	size_t		n = strlen(lead);
	size_t		room = sizeof(buf) - 32;	/* the position and "..." always fit */
	bool		cut = false;

	memcpy(buf, lead, n);
	if (plen > 0)
	{
		if (n + plen + 1 > room)
		{
			plen = room - n - 1;
			cut = true;
		}
		memcpy(buf + n, prefix, plen);
		n += plen;
		if (!cut)
			buf[n++] = ':';
	}
	if (!cut)
	{
		if (n + llen > room)
		{
			llen = room - n;
			cut = true;
		}
		memcpy(buf + n, local, llen);
		n += llen;
	}
	if (cut)
	{
		/* back to a whole UTF-8 character, then "..." */
		while (n > 0 && ((unsigned char) buf[n - 1] & 0xC0) == 0x80)
			n--;
		if (n > 0 && (unsigned char) buf[n - 1] >= 0xC0)
			n--;
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	else if (position > 0)
		n += (size_t) snprintf(buf + n, sizeof(buf) - n, "[%llu]", (unsigned long long) position);
	path_append(path, buf, n);
}

void
sd_xpath_element(char *path, const char *prefix, size_t plen, const char *local, size_t llen,
				 uint64_t position)
{
	xpath_name(path, "/", prefix, plen, local, llen, position);
}

void
sd_xpath_attribute(char *path, const char *prefix, size_t plen, const char *local, size_t llen)
{
	xpath_name(path, "/@", prefix, plen, local, llen, 0);
}

void
sd_xpath_text(char *path)
{
	path_append(path, "/text()", 7);
}

/* Copies at most 40 characters (UTF-8 aware) of s, adding "..." when cut. */
static size_t
cut40(char *out, size_t outsize, const char *s, size_t len)
{
	size_t		i = 0,
				chars = 0,
				n = 0;

	while (i < len && chars < 40)
	{
		size_t		clen = 1;
		unsigned char c = (unsigned char) s[i];

		if (c >= 0xF0)
			clen = 4;
		else if (c >= 0xE0)
			clen = 3;
		else if (c >= 0xC0)
			clen = 2;
		if (i + clen > len)
			clen = len - i;
		if (n + (c < 0x20 ? 6 : clen) + 4 >= outsize)
			break;
		if (c < 0x20)
		{
			/* a control character (a line end in XML text) as JSON writes it: one line */
			n += (size_t) snprintf(out + n, 7, "\\u%04x", c);
			i++;
		}
		else
		{
			memcpy(out + n, s + i, clen);
			n += clen;
			i += clen;
		}
		chars++;
	}
	if (i < len && n + 4 <= outsize)
	{
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return n;
}

void
sd_describe_found(char *buf, size_t bufsize, const char *tok, size_t len)
{
	char		cut[200];

	while (len > 0 && (tok[len - 1] == ' ' || tok[len - 1] == '\n' ||
					   tok[len - 1] == '\r' || tok[len - 1] == '\t'))
		len--;
	if (len == 0)
	{
		snprintf(buf, bufsize, "nothing");
		return;
	}
	switch (tok[0])
	{
		case '{':
			snprintf(buf, bufsize, "object");
			break;
		case '[':
			snprintf(buf, bufsize, "array");
			break;
		case '"':
			{
				size_t		inner = len >= 2 ? len - 2 : 0;

				cut40(cut, sizeof(cut), tok + 1, inner);
				snprintf(buf, bufsize, "string \"%s\"", cut);
				break;
			}
		case 't':
		case 'f':
			cut40(cut, sizeof(cut), tok, len);
			snprintf(buf, bufsize, "boolean %s", cut);
			break;
		case 'n':
			snprintf(buf, bufsize, "null");
			break;
		default:
			cut40(cut, sizeof(cut), tok, len);
			snprintf(buf, bufsize, "number %s", cut);
			break;
	}
}

void
sd_describe_text(char *buf, size_t bufsize, const char *text, size_t len)
{
	char		cut[200];

	if (len == 0)
	{
		snprintf(buf, bufsize, "empty text");
		return;
	}
	cut40(cut, sizeof(cut), text, len);
	snprintf(buf, bufsize, "text \"%s\"", cut);
}
