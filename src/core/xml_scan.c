/*
 * xml_scan.c — byte scans of XML text for the XML reader (xml_read.c), pure functions of the
 * bytes they are given (no reader, no libxml2): where the prolog ends (the first chunk's
 * boundary), line-end normalisation, line and column counting for errors, the "&#38;" that
 * libxml2 writes back into attribute values and namespace URIs, and where a start tag's
 * attribute names are.
 */
#include "xml_scan.h"
#include "xml_read.h"
#include "internal.h"

#include <string.h>

/*
 * sd_xml_eol (xml_read.h): CR LF -> LF and a lone CR -> LF in s[0..n), in place; a CR that
 * ends s is dropped when `last_cr_pairs` says the byte after it is an LF (the caller hands
 * that LF over next).  Returns the new length.
 */
size_t
sd_xml_eol(char *s, size_t n, bool last_cr_pairs)
{
	char	   *cr = memchr(s, '\r', n);

	if (!cr)
		return n;
	size_t		o = (size_t) (cr - s);

	for (size_t i = o; i < n; i++)
	{
		if (s[i] != '\r')
			s[o++] = s[i];
		else if (!(i + 1 < n ? s[i + 1] == '\n' : last_cr_pairs))
			s[o++] = '\n';		/* a lone CR (of CR LF, the LF stays) */
	}
	return o;
}


/*
 * sd_xml_count_position (xml_scan.h): the line and column of byte `to` of doc[0..len), counted
 * forward from byte `from` whose position *line / *column hold (from 0 at 1:1).
 */
void
sd_xml_count_position(const char *doc, size_t len, size_t from, size_t to, uint32_t *line,
					  uint32_t *column)
{
	const unsigned char *s = (const unsigned char *) doc;
	size_t		i = from;
	uint32_t	ln = *line,
				col = *column;

	/* a UTF-8 BOM takes no column */
	if (i == 0 && len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF && to >= 3)
		i = 3;
	for (; i < to; i++)
	{
		/* eight bytes at a time while they hold no line end: a column per byte that is not a
		 * UTF-8 continuation byte (10xxxxxx) */
		while (to - i >= 8)
		{
			uint64_t	x,
						a,
						b,
						cont;

			memcpy(&x, s + i, 8);
			a = x ^ 0x0a0a0a0a0a0a0a0aULL;
			b = x ^ 0x0d0d0d0d0d0d0d0dULL;
			if (((a - 0x0101010101010101ULL) & ~a & 0x8080808080808080ULL) |
				((b - 0x0101010101010101ULL) & ~b & 0x8080808080808080ULL))
				break;
			cont = x & ~(x << 1) & 0x8080808080808080ULL;
			/* the count of marked bytes: each is 0 or 1 after >> 7, the multiply sums them into
			 * the top byte (no popcount instruction: this file is built for every x86-64) */
			col += 8 - (uint32_t) (((cont >> 7) * 0x0101010101010101ULL) >> 56);
			i += 8;
		}
		if (i >= to)
			break;
		unsigned char c = s[i];

		if (c == '\n')
		{
			ln++;
			col = 1;
		}
		else if (c == '\r')
		{
			if (i + 1 < len && s[i + 1] == '\n')
				continue;       /* CR LF: one line end, counted at the LF */
			ln++;
			col = 1;
		}
		else if ((c & 0xC0) != 0x80)
			col++;
	}
	*line = ln;
	*column = col;
}

/*
 * Without entity substitution (XML_PARSE_NOENT is never set), libxml2 hands an attribute value
 * over with every '&' it decoded (from &amp;, &#38;, &#x26;) written back as "&#38;", so that a
 * tree builder keeps it escaped.  Every '&' in such a value starts "&#38;" (other references
 * are replaced, and entities other than the predefined ones are refused): turn them back into
 * '&'.  Returns the new length (the value shrinks in place).
 */
size_t
sd_xml_unescape_amp(char *v, size_t n)
{
	char	   *amp = memchr(v, '&', n);

	if (!amp)
		return n;
	size_t		o = (size_t) (amp - v);

	for (size_t i = o; i < n;)
	{
		if (v[i] == '&' && i + 5 <= n && memcmp(v + i, "&#38;", 5) == 0)
		{
			v[o++] = '&';
			i += 5;
		}
		else
			v[o++] = v[i++];
	}
	return o;
}


/* Where the root element's start tag begins (len if never): the prolog (declaration, comments,
 * PIs, DOCTYPE with its internal subset) is fed in one piece, because libxml2's push parser
 * misreads a DOCTYPE cut between chunks inside a quoted literal that holds '>' (a document
 * would then be malformed or not depending on where a chunk ends).  Only a feeding boundary:
 * a wrong guess costs nothing but a bigger first chunk. */
size_t
sd_xml_prolog_end(const char *s, size_t len)
{
	size_t		i = 0;

	for (;;)
	{
		const char *lt = memchr(s + i, '<', len - i);

		if (!lt)
			return len;
		i = (size_t) (lt - s);
		if (i + 1 >= len)
			return len;
		if (s[i + 1] == '?' || (i + 3 < len && memcmp(s + i, "<!--", 4) == 0))
		{
			const char *end = s[i + 1] == '?' ? "?>" : "-->";
			size_t		el = strlen(end);
			size_t		j = i + 2;

			/* the terminator's last byte ('>') found by memchr, then the bytes before it */
			for (;;)
			{
				const char *gt = j + el - 1 < len ? memchr(s + j + el - 1, '>', len - (j + el - 1)) : NULL;

				if (!gt)
					return len;
				j = (size_t) (gt - s) - (el - 1);
				if (memcmp(s + j, end, el) == 0)
					break;
				j++;
			}
			i = j + el;
		}
		else if (s[i + 1] == '!')
		{
			/* <!DOCTYPE …>: quotes, [ … ] and the comments of the internal subset */
			size_t		j = i + 2;
			int			depth = 0;
			char		q = 0;

			for (; j < len; j++)
			{
				char		c = s[j];

				if (q)
				{
					if (c == q)
						q = 0;
				}
				else if (c == '"' || c == '\'')
					q = c;
				else if (c == '[')
					depth++;
				else if (c == ']')
					depth--;
				else if (c == '<' && j + 3 < len && memcmp(s + j, "<!--", 4) == 0)
				{
					size_t		k = j + 4;

					while (k + 3 <= len && memcmp(s + k, "-->", 3) != 0)
						k++;
					j = k + 2;
				}
				else if (c == '>' && depth <= 0)
					break;
			}
			if (j >= len)
				return len;
			i = j + 1;
		}
		else
			return i;
	}
}

/* The offsets of the attribute names written in the start tag at doc[lt..end): xmlns ones are
 * skipped (libxml2 hands them over as namespaces), so the k-th one found is attribute k. */
void
sd_xml_attr_offsets(const char *doc, size_t lt, size_t end, sd_xattr *a, int n)
{
	const char *s = doc;
	size_t		i = lt + 1;
	int			k = 0;

	while (i < end && !sd_is_ws(s[i]) && s[i] != '>' && s[i] != '/')
		i++;                    /* the element's name */
	while (k < n && i < end)
	{
		while (i < end && sd_is_ws(s[i]))
			i++;
		if (i >= end || s[i] == '>' || s[i] == '/')
			break;
		size_t		name = i;

		while (i < end && s[i] != '=' && !sd_is_ws(s[i]))
			i++;
		bool		xmlns = (i - name == 5 && memcmp(s + name, "xmlns", 5) == 0) ||
			(i - name > 6 && memcmp(s + name, "xmlns:", 6) == 0);

		while (i < end && s[i] != '"' && s[i] != '\'')
			i++;
		if (i >= end)
			break;
		char		q = s[i++];
		const char *close = memchr(s + i, q, end - i);

		i = close ? (size_t) (close - s) + 1 : end + 1;
		if (!xmlns)
			a[k++].offset = (int64_t) name;
	}
}
