/*
 * jescape.c — the one JSON string escaper of the core, used by error paths, describe, `extra`
 * objects and the canonical JSON writer: a leaf, so every one of them can call it.
 */
#include "internal.h"

#include <string.h>

size_t
sd_json_escape(char *out, size_t cap, const char *s, size_t len, size_t *consumed)
{
	static const char hexdig[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *) s;
	size_t		i = 0,
				o = 0;

	while (i < len)
	{
		unsigned char c = u[i];

		/* a run of plain ASCII (no quote, backslash or control byte) is copied at once */
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
		{
			size_t		j = i + 1;

			/* eight bytes at a time while none is non-ASCII, a control byte, '"' or '\\' */
			while (j + 8 <= len)
			{
				uint64_t	w;
				const uint64_t ones = 0x0101010101010101ull,
							high = 0x8080808080808080ull;

				memcpy(&w, u + j, 8);
				if (((w | ((w - ones * 0x20) & ~w) | ((w ^ (ones * '"')) - ones) |
					  ((w ^ (ones * '\\')) - ones)) & high) != 0)
					break;
				j += 8;
			}
			while (j < len && u[j] >= 0x20 && u[j] < 0x80 && u[j] != '"' && u[j] != '\\')
				j++;
			if (o + (j - i) > cap)
				j = i + (cap - o);
			if (j == i)
				break;
			memcpy(out + o, s + i, j - i);
			o += j - i;
			i = j;
			continue;
		}
		if (c == '"' || c == '\\')
		{
			if (o + 2 > cap)
				break;
			out[o++] = '\\';
			out[o++] = (char) c;
			i++;
		}
		else if (c < 0x20)
		{
			if (o + 6 > cap)
				break;
			out[o++] = '\\';
			out[o++] = 'u';
			out[o++] = '0';
			out[o++] = '0';
			out[o++] = hexdig[c >> 4];
			out[o++] = hexdig[c & 15];
			i++;
		}
		else
		{
			size_t		clen = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

			if (i + clen > len)
				clen = 1;		/* cut short by the end of s: byte by byte */
			for (size_t k = 1; k < clen; k++)
				if ((u[i + k] & 0xC0) != 0x80)
					clen = 1;	/* not UTF-8: a quote or control byte is never swallowed */
			if (o + clen > cap)
				break;
			memcpy(out + o, s + i, clen);
			o += clen;
			i += clen;
		}
	}
	if (consumed)
		*consumed = i;
	return o;
}
