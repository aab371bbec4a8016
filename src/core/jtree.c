/*
 * jtree.c — a small strict JSON (RFC 8259) parser into an arena tree.  Used for shape options
 * and SQLite descriptors (small, parsed once per compile), never for documents.
 */
#include "internal.h"
#include "scalar.h"

#include <string.h>

typedef struct jp
{
	sd_arena   *arena;
	const char *s;
	size_t		len;
	size_t		pos;
	uint32_t	max_depth;
	sd_error   *err;
	sd_jnode	dummy;          /* validate-only mode (arena == NULL): every node */
} jp;

static void
skip_ws(jp *p)
{
	while (p->pos < p->len)
	{
		char		c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static bool
fail(jp *p, const char *what)
{
	return sd_error_set(p->err, SD_E_SYNTAX, (int64_t) p->pos, "invalid JSON: %s", what);
}

/* Four hex digits at s[0..avail): 1 with *out, 0 for a bad digit, -1 when truncated. */
int
sd_hex4(const char *s, size_t avail, unsigned *out)
{
	unsigned	v = 0;

	if (avail < 4)
		return -1;
	for (int i = 0; i < 4; i++)
	{
		char		c = s[i];
		int			h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (h < 0)
			return 0;
		v = v * 16 + (unsigned) h;
	}
	*out = v;
	return 1;
}

static bool
read_hex4(jp *p, unsigned *out)
{
	int			r = sd_hex4(p->s + p->pos, p->len - p->pos, out);

	if (r <= 0)
		return fail(p, r < 0 ? "truncated \\u escape" : "bad \\u escape");
	p->pos += 4;
	return true;
}

/* Validates one UTF-8 sequence at s[0..avail); returns its length or 0. */
size_t
sd_utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return avail >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF)
	{
		if (avail < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4)
	{
		if (avail < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

static size_t
put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80)
	{
		o[0] = (char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		o[0] = (char) (0xC0 | (cp >> 6));
		o[1] = (char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		o[0] = (char) (0xE0 | (cp >> 12));
		o[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char) (0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char) (0xF0 | (cp >> 18));
	o[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char) (0x80 | (cp & 0x3F));
	return 4;
}

/* p->pos at the opening quote. */
static bool
parse_string(jp *p, const char **out, size_t *outlen)
{
	size_t		start = ++p->pos;
	size_t		end = start;

	/* find the end to size the buffer (unescaped is never longer) */
	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->len)
		return fail(p, "unterminated string");
	char		scratch[4];
	char	   *buf = p->arena ? sd_arena_alloc(p->arena, end - start + 1) : NULL;
	size_t		n = 0;
	bool		keep = buf != NULL;

	if (p->arena && !buf)
		return sd_error_set(p->err, SD_E_NOMEM, -1, "out of memory");
	if (!keep)
		buf = scratch;			/* validate only: write each piece over the scratch */
	while (p->pos < end)
	{
		unsigned char c = (unsigned char) p->s[p->pos];

		if (c < 0x20)
			return fail(p, "control character in string");
		if (c == '\\')
		{
			char		e = p->s[++p->pos];

			p->pos++;
			if (!keep)
				n = 0;
			switch (e)
			{
				case '"': buf[n++] = '"'; break;
				case '\\': buf[n++] = '\\'; break;
				case '/': buf[n++] = '/'; break;
				case 'b': buf[n++] = '\b'; break;
				case 'f': buf[n++] = '\f'; break;
				case 'n': buf[n++] = '\n'; break;
				case 'r': buf[n++] = '\r'; break;
				case 't': buf[n++] = '\t'; break;
				case 'u':
					{
						unsigned	cp,
									lo;

						if (!read_hex4(p, &cp))
							return false;
						if (cp >= 0xD800 && cp <= 0xDBFF)
						{
							if (p->pos + 6 > p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
								return fail(p, "lone surrogate");
							p->pos += 2;
							if (!read_hex4(p, &lo))
								return false;
							if (lo < 0xDC00 || lo > 0xDFFF)
								return fail(p, "lone surrogate");
							cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
						}
						else if (cp >= 0xDC00 && cp <= 0xDFFF)
							return fail(p, "lone surrogate");
						n += put_utf8(buf + n, cp);
						if (p->pos > end)	/* escapes ran past the scanned end */
							return fail(p, "bad escape");
						break;
					}
				default:
					p->pos--;
					return fail(p, "bad escape");
			}
			continue;
		}
		size_t		l = sd_utf8_seq((const unsigned char *) p->s + p->pos, end - p->pos);

		if (!l)
			return fail(p, "invalid UTF-8");
		if (keep)
		{
			memcpy(buf + n, p->s + p->pos, l);
			n += l;
		}
		p->pos += l;
	}
	p->pos = end + 1;
	if (!keep)
	{
		*out = "";
		*outlen = 0;
		return true;
	}
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return true;
}

static sd_jnode *parse_value(jp *p, uint32_t depth);

static sd_jnode *
new_node(jp *p, sd_jkind kind)
{
	sd_jnode   *n = p->arena ? sd_arena_alloc(p->arena, sizeof(sd_jnode)) : &p->dummy;

	if (!n)
	{
		sd_error_set(p->err, SD_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->offset = p->pos;
	return n;
}

/* Collects items into a growing arena array (copied on growth; options are small). */
static bool
push_item(jp *p, sd_jnode *parent, int *cap, const char *key, size_t klen, sd_jnode *item)
{
	if (!p->arena)
		return true;
	if (parent->n == *cap)
	{
		int			ncap = *cap ? *cap * 2 : 8;
		sd_jnode  **items = sd_arena_alloc(p->arena, sizeof(sd_jnode *) * (size_t) ncap);
		const char **keys = parent->kind == SD_J_OBJECT ?
			sd_arena_alloc(p->arena, sizeof(char *) * (size_t) ncap) : NULL;
		size_t	   *klens = parent->kind == SD_J_OBJECT ?
			sd_arena_alloc(p->arena, sizeof(size_t) * (size_t) ncap) : NULL;

		if (!items || (parent->kind == SD_J_OBJECT && (!keys || !klens)))
			return sd_error_set(p->err, SD_E_NOMEM, -1, "out of memory");
		if (parent->n)
		{
			memcpy(items, parent->items, sizeof(sd_jnode *) * (size_t) parent->n);
			if (keys)
			{
				memcpy(keys, parent->keys, sizeof(char *) * (size_t) parent->n);
				memcpy(klens, parent->key_lens, sizeof(size_t) * (size_t) parent->n);
			}
		}
		parent->items = items;
		parent->keys = keys;
		parent->key_lens = klens;
		*cap = ncap;
	}
	if (parent->keys)
	{
		parent->keys[parent->n] = key;
		parent->key_lens[parent->n] = klen;
	}
	parent->items[parent->n++] = item;
	return true;
}

static sd_jnode *
parse_container(jp *p, uint32_t depth, bool object)
{
	sd_jnode   *node = new_node(p, object ? SD_J_OBJECT : SD_J_ARRAY);
	int			cap = 0;

	if (!node)
		return NULL;
	if (depth > p->max_depth)
	{
		sd_error_set(p->err, SD_E_DEPTH, (int64_t) p->pos, "nesting deeper than %u levels",
					 p->max_depth);
		return NULL;
	}
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == (object ? '}' : ']'))
	{
		p->pos++;
		return node;
	}
	for (;;)
	{
		const char *key = NULL;
		size_t		klen = 0;

		skip_ws(p);
		if (object)
		{
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, "expected member name"), NULL;
			if (!parse_string(p, &key, &klen))
				return NULL;
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, "expected ':'"), NULL;
			p->pos++;
		}
		sd_jnode   *item = parse_value(p, depth + 1);

		if (!item || !push_item(p, node, &cap, key, klen, item))
			return NULL;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',')
		{
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == (object ? '}' : ']'))
		{
			p->pos++;
			return node;
		}
		return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'"), NULL;
	}
}

static bool
literal(jp *p, const char *word)
{
	size_t		n = strlen(word);

	if (p->pos + n > p->len || memcmp(p->s + p->pos, word, n) != 0)
		return fail(p, "unexpected character");
	p->pos += n;
	return true;
}

static sd_jnode *
parse_value(jp *p, uint32_t depth)
{
	sd_jnode   *n = NULL;
	size_t		start;

	skip_ws(p);
	start = p->pos;
	if (p->pos >= p->len)
		return fail(p, "unexpected end of input"), NULL;
	switch (p->s[p->pos])
	{
		case '{':
			n = parse_container(p, depth, true);
			break;
		case '[':
			n = parse_container(p, depth, false);
			break;
		case '"':
			if ((n = new_node(p, SD_J_STRING)) && !parse_string(p, &n->str, &n->len))
				n = NULL;
			break;
		case 't':
			if ((n = new_node(p, SD_J_TRUE)) && !literal(p, "true"))
				n = NULL;
			break;
		case 'f':
			if ((n = new_node(p, SD_J_FALSE)) && !literal(p, "false"))
				n = NULL;
			break;
		case 'n':
			if ((n = new_node(p, SD_J_NULL)) && !literal(p, "null"))
				n = NULL;
			break;
		default:
			{
				size_t		e = p->pos;

				while (e < p->len && strchr("+-0123456789.eE", p->s[e]) && p->s[e])
					e++;
				if (e == p->pos || !sd_is_json_number(p->s + p->pos, e - p->pos))
					return fail(p, "bad number or unexpected character"), NULL;
				if ((n = new_node(p, SD_J_NUMBER)) && p->arena)
				{
					n->str = sd_arena_strndup(p->arena, p->s + p->pos, e - p->pos);
					n->len = e - p->pos;
					if (!n->str)
						return sd_error_set(p->err, SD_E_NOMEM, -1, "out of memory"), NULL;
				}
				p->pos = e;
			}
	}
	if (n)
	{
		n->text = p->s + start;
		n->text_len = p->pos - start;
	}
	return n;
}

sd_jnode *
sd_jparse(sd_arena *arena, const char *text, size_t len, uint32_t max_depth, sd_error *err)
{
	jp			p = {arena, text, len, 0, max_depth ? max_depth : 64, err, {0}};
	sd_jnode   *root = parse_value(&p, 1);

	if (!root)
		return NULL;
	skip_ws(&p);
	if (p.pos != len)
		return fail(&p, "unexpected data after the value"), NULL;
	return root;
}

const sd_jnode *
sd_jget(const sd_jnode *obj, const char *key)
{
	if (!obj || obj->kind != SD_J_OBJECT)
		return NULL;
	for (int i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}
