/*
 * compile_names.c — small pure helpers of the plan compiler (compile.c): the name of a JSON
 * kind in option errors, the rename styles applied to a column's name, and the formats a
 * column type accepts (docs/reference.md, "Shape options").
 */
#include "compile_names.h"

#include <string.h>

const char *
sd_jkind_name(sd_jkind k)
{
	switch (k)
	{
		case SD_J_NULL: return "null";
		case SD_J_FALSE:
		case SD_J_TRUE: return "a boolean";
		case SD_J_NUMBER: return "a number";
		case SD_J_STRING: return "a string";
		case SD_J_ARRAY: return "an array";
		case SD_J_OBJECT: return "an object";
	}
	return "?";
}

char *
sd_apply_rename(sd_arena *a, const char *col, const char *style)
{
	size_t		n = strlen(col);
	char	   *out = sd_arena_alloc(a, n + 1);
	size_t		o = 0;
	bool		up = style && strcmp(style, "pascal") == 0;
	bool		upper,
				kebab;

	if (!out)
		return NULL;
	if (!style)
	{
		memcpy(out, col, n + 1);
		return out;
	}
	/* the style once, not per character (a plan compiles a rename per column) */
	upper = strcmp(style, "upper") == 0;
	kebab = !upper && strcmp(style, "kebab") == 0;
	for (size_t i = 0; i < n; i++)
	{
		char		ch = col[i];

		if (upper)
			out[o++] = (ch >= 'a' && ch <= 'z') ? (char) (ch - 32) : ch;
		else if (kebab)
			out[o++] = ch == '_' ? '-' : ch;
		else if (ch == '_' && o > 0)
			up = true;
		else
		{
			out[o++] = (up && ch >= 'a' && ch <= 'z') ? (char) (ch - 32) : ch;
			up = false;
		}
	}
	out[o] = '\0';
	return out;
}

bool
sd_format_ok(const sd_type *t, const char *f, sd_format *out)
{
	const sd_type *b = t;
	bool		ts;

	while (b->kind == SD_K_ARRAY)
		b = b->elem;
	ts = b->kind == SD_K_TIMESTAMPTZ || b->kind == SD_K_TIMESTAMP;
	if (ts && strcmp(f, "rfc3339") == 0)
		*out = SD_FMT_RFC3339;
	else if (ts && strcmp(f, "rfc2822") == 0)
		*out = SD_FMT_RFC2822;
	else if (ts && strcmp(f, "unix") == 0)
		*out = SD_FMT_UNIX;
	else if (ts && strcmp(f, "unix_ms") == 0)
		*out = SD_FMT_UNIX_MS;
	else if (ts && strcmp(f, "iso8601") == 0)
		*out = SD_FMT_ISO8601;
	else if (b->kind == SD_K_BYTEA && strcmp(f, "base64_mime") == 0)
		*out = SD_FMT_BASE64_MIME;
	else if (b->kind == SD_K_BYTEA && strcmp(f, "base64") == 0)
		*out = SD_FMT_BASE64;
	else if (b->kind == SD_K_BYTEA && strcmp(f, "base64url") == 0)
		*out = SD_FMT_BASE64URL;
	else if (b->kind == SD_K_BYTEA && strcmp(f, "hex") == 0)
		*out = SD_FMT_HEX;
	else
		return false;
	return true;
}

void
sd_resolve_tag(sd_node *node, const char *tag)
{
	const sd_field *f = NULL;

	for (int i = 0; i < node->nfields && !f; i++)
		if (strcmp(node->fields[i].column, tag) == 0)
			f = &node->fields[i];
	for (int i = 0; i < node->nfields && !f; i++)
		if (node->fields[i].name && strcmp(node->fields[i].name, tag) == 0)
			f = &node->fields[i];
	node->tag_name = tag;
	node->tag_xml = tag;
	node->tag_find = SD_TAG_ATTRIBUTE | SD_TAG_ELEMENT;
	if (!f || f->skip || f->is_extra || f->npath != 1 || !f->name)
		return;
	node->tag_name = f->name;
	if (f->xml_path && f->xml.local && f->xml_kind != SD_XML_TEXT)
	{
		node->tag_xml = f->xml.local;
		node->tag_find = f->xml_kind == SD_XML_ATTRIBUTE ? SD_TAG_ATTRIBUTE : SD_TAG_ELEMENT;
	}
}
