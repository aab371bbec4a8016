/*
 * xml_messages.c — libxml2's messages for malformed XML in plain words: ONE table, from the start
 * of libxml2's message (as the reader collects it: one line, white-space runs as one space) to
 * what the user reads after "malformed XML: ".  Line and column are the error's own (DETAIL in
 * PostgreSQL, the message's end in SQLite), so the words say what is wrong and how to write it.
 * A message not in the table passes through as libxml2 wrote it.  Used by the XML reader
 * (xml_read.c) for both hosts; libxml2's names of its error fields only, no libxml2 header.
 */
#include "xml_messages.h"

#include <stdio.h>
#include <string.h>

/*
 * One row: libxml2's message (`exact`: the whole message, else its start) and the plain words,
 * where $1 and $2 are libxml2's str1 and str2 fields (element, attribute or entity names), $n its
 * int1 field (a line number) and $r the rest of libxml2's message after the matched start.
 */
static const struct
{
	const char *libxml2;
	bool		exact;
	const char *plain;
}			table[] = {
	{"xmlParseEntityRef: no name", true, "an unescaped '&' (write &amp;)"},
	{"EntityRef: expecting ';'", true,
	"an unescaped '&' or an entity reference without its ';' (write &amp; for '&')"},
	{"Opening and ending tag mismatch: ", false, "mismatched end tag </$2> for <$1> opened at line $n"},
	{"Premature end of data in tag ", false,
	"the document ends inside <$1> opened at line $n (its end tag is missing)"},
	{"EndTag: '</' not found", true, "the document ends before an end tag (an element is not closed)"},
	{"Extra content at the end of the document", true,
	"content after the end of the root element (a document has one root element)"},
	{"StartTag: invalid element name", true,
	"an invalid element name after '<' (in text, write &lt; for '<')"},
	{"AttValue: \" or ' expected", true, "an attribute value without quotes (write name=\"value\")"},
	{"Unescaped '<' not allowed in attributes values", true,
	"an unescaped '<' in an attribute value (write &lt;)"},
	{"Entity '", false,
	"undefined entity &$1; (only &amp; &lt; &gt; &quot; &apos; are predefined: write the character "
	"itself or a character reference such as &#160;)"},
	{"Couldn't find end of Start Tag ", false, "the start tag <$1> is not closed by '>'"},
	{"attributes construct error", true,
	"a malformed attribute in a start tag (write name=\"value\", separated by white space)"},
	{"Specification mandates value for attribute ", false,
	"attribute $1 has no value (write $1=\"value\")"},
	{"Attribute ", false, "attribute $1 appears twice in one element"},
	{"Comment not terminated", true, "a comment not closed by '-->'"},
	{"Input is not proper UTF-8, indicate encoding ! Bytes: ", false,
	"invalid UTF-8 in bytes $r (the document must be UTF-8 text)"},
	{"Input is not proper UTF-8, indicate encoding !", true,
	"invalid UTF-8 (the document must be UTF-8 text)"},
};

/* Appends s[0..n) to out (size bytes, NUL-terminated), cut to fit. */
static void
put(char *out, size_t size, size_t *at, const char *s, size_t n)
{
	if (*at + 1 >= size)
		return;
	if (n > size - 1 - *at)
		n = size - 1 - *at;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
}

/* The first word of s (libxml2 ends its names at white space or a newline), at most 200 bytes. */
static size_t
word_len(const char *s)
{
	size_t		n = 0;

	while (s && s[n] && s[n] != ' ' && s[n] != '\n' && s[n] != '\t' && s[n] != '\r' && n < 200)
		n++;
	return n;
}

bool
sd_xml_plain_message(const char *msg, const char *str1, const char *str2, int int1, char *out,
					 size_t size)
{
	size_t		i;

	if (msg == NULL || size == 0)
		return false;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
	{
		size_t		len = strlen(table[i].libxml2);

		if (table[i].exact ? strcmp(msg, table[i].libxml2) == 0 :
			strncmp(msg, table[i].libxml2, len) == 0)
			break;
	}
	if (i == sizeof(table) / sizeof(table[0]))
		return false;
	/* "Attribute x redefined" only: other messages start with "Attribute" too */
	if (strcmp(table[i].libxml2, "Attribute ") == 0 &&
		(strlen(msg) < 10 || strcmp(msg + strlen(msg) - 10, " redefined") != 0))
		return false;

	const char *rest = msg + strlen(table[i].libxml2);
	size_t		at = 0;

	out[0] = '\0';
	for (const char *p = table[i].plain; *p; p++)
	{
		char		num[16];

		if (p[0] != '$' || !p[1])
		{
			put(out, size, &at, p, 1);
			continue;
		}
		switch (*++p)
		{
			case '1':
				/* a field libxml2 did not fill: the message is not the one the table knows */
				if (!str1 || !word_len(str1))
					return false;
				put(out, size, &at, str1, word_len(str1));
				break;
			case '2':
				if (!str2 || !word_len(str2))
					return false;
				put(out, size, &at, str2, word_len(str2));
				break;
			case 'n':
				if (int1 <= 0)
					return false;
				snprintf(num, sizeof(num), "%d", int1);
				put(out, size, &at, num, strlen(num));
				break;
			case 'r':
				put(out, size, &at, rest, strlen(rest));
				break;
			default:
				put(out, size, &at, p - 1, 2);
		}
	}
	return true;
}
