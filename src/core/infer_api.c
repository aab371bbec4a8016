/*
 * infer_api.c — serde_infer's entry points for the hosts (infer.h): the inference's lifetime,
 * its options (22023 with the option's path), and one sample at a time handed to the JSON or XML
 * reader (infer_json.c, infer_xml.c) with the decoder's limits.  The model is infer.c's.
 */
#include "infer_int.h"
#include "scalar.h"

#include <stdio.h>
#include <string.h>

/* ---- entry points --------------------------------------------------------------------------- */

sd_infer *
sd_infer_create(const sd_hooks *hooks, const sd_limits *limits)
{
	sd_hooks	h = {0};
	sd_infer   *inf;

	if (hooks)
		h = *hooks;
	inf = sd_hook_alloc(&h, sizeof(sd_infer));
	if (!inf)
		return NULL;
	memset(inf, 0, sizeof(*inf));
	inf->hooks = h;
	if (limits)
		inf->limits = *limits;
	if (inf->limits.max_depth == 0)
		inf->limits.max_depth = SD_DEFAULT_MAX_DEPTH;
	if (inf->limits.max_document_bytes == 0)
		inf->limits.max_document_bytes = SD_DEFAULT_MAX_DOCUMENT_BYTES;
	sd_arena_init(&inf->arena, &h);
	sd_arena_init(&inf->scratch, &h);
	return inf;
}

void
sd_infer_free(sd_infer *inf)
{
	sd_hooks	h;

	if (!inf)
		return;
	h = inf->hooks;
	sd_arena_free(&inf->arena);
	sd_arena_free(&inf->scratch);
	sd_hook_free(&h, inf);
}

uint32_t
sd_infer_samples(const sd_infer *inf)
{
	return inf->samples;
}

bool
sd_infer_add(sd_infer *inf, const char *doc, size_t len, bool xml, bool detect,
			 uint32_t max_samples, sd_error *err)
{
	bool		ok;

	sd_error_clear(err);
	inf->err = err;
	if (max_samples == 0)
		max_samples = 1000;
	if (inf->samples >= max_samples)
		return true;
	if (detect)
	{
		size_t		i = 0;

		if (len >= 3 && memcmp(doc, "\xEF\xBB\xBF", 3) == 0)
			i = 3;
		while (i < len && sd_is_ws(doc[i]))
			i++;
		xml = i < len && doc[i] == '<';
	}
	if (inf->format && inf->format != (xml ? 2 : 1))
	{
		sd_error_set(err, SD_E_OPTIONS, -1, "sample %u is %s, the samples before it %s",
					 inf->samples + 1, xml ? "XML" : "JSON", xml ? "JSON" : "XML");
		return false;
	}
	if (len > inf->limits.max_document_bytes)
	{
		err->doc = xml ? SD_DOC_XML : SD_DOC_JSON;
		return sd_error_set(err, SD_E_SIZE, -1,
							"document of %zu bytes exceeds serde.max_document_bytes (%llu)",
							len, (unsigned long long) inf->limits.max_document_bytes);
	}
	if (!inf->root && !(inf->root = inf_node_new(inf)))
		return false;
	inf->format = xml ? 2 : 1;
	ok = xml ? inf_add_xml(inf, doc, len) : inf_add_json(inf, doc, len);
	sd_arena_reset(&inf->scratch);
	if (ok)
		inf->samples++;
	return ok;
}

/* ---- options ------------------------------------------------------------------------------- */

static bool
opt_fail(sd_error *err, const char *key, const char *fmt, const char *what)
{
	snprintf(err->path, sizeof(err->path), "$.%s", key);
	return sd_error_set(err, SD_E_OPTIONS, -1, fmt, what);
}

static bool
ident_ok(const char *s, size_t len)
{
	if (len == 0 || len > 40)
		return false;
	for (size_t i = 0; i < len; i++)
	{
		char		c = s[i];

		if (!((c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

bool
sd_infer_options_read(sd_infer *inf, const char *json, size_t len, sd_infer_options *o,
					  sd_error *err)
{
	const sd_jnode *t;

	memset(o, 0, sizeof(*o));
	o->name = "doc";
	o->max_samples = 1000;
	sd_error_clear(err);
	if (!json || len == 0)
		return true;
	if (!(t = sd_jparse(&inf->arena, json, len, 64, err)))
	{
		if (err->code == SD_E_NOMEM)
			return false;
		strcpy(err->path, "$");
		return sd_error_set(err, SD_E_OPTIONS, -1, "%s", "options must be a JSON object");
	}
	if (t->kind != SD_J_OBJECT)
	{
		strcpy(err->path, "$");
		return sd_error_set(err, SD_E_OPTIONS, -1, "%s", "options must be a JSON object");
	}
	for (int i = 0; i < t->n; i++)
	{
		const char *k = t->keys[i];
		const sd_jnode *v = t->items[i];

		if (strcmp(k, "name") == 0 || strcmp(k, "prefix") == 0 || strcmp(k, "schema") == 0)
		{
			bool		prefix = strcmp(k, "prefix") == 0;

			if (v->kind != SD_J_STRING ||
				!(prefix ? (v->len == 0 || ident_ok(v->str, v->len)) : ident_ok(v->str, v->len)))
				return opt_fail(err, k, "%s must be a lower-case SQL name of 1 to 40 "
								"characters (a-z, 0-9, _; not starting with a digit)", k);
			if (k[0] == 'n')
				o->name = v->str;
			else if (prefix)
				o->prefix = v->str;
			else
				o->schema = v->str;
		}
		else if (strcmp(k, "max_samples") == 0)
		{
			int64_t		n;
			char		problem[SD_PROBLEM_MAX];

			if (v->kind != SD_J_NUMBER ||
				sd_parse_int(v->str, v->len, 1, 1000000, false, "integer", &n, problem) != SD_OK)
				return opt_fail(err, k, "%s must be an integer from 1 to 1000000", k);
			o->max_samples = (uint32_t) n;
		}
		else if (strcmp(k, "enums") == 0 || strcmp(k, "strict") == 0)
		{
			if (v->kind != SD_J_TRUE && v->kind != SD_J_FALSE)
				return opt_fail(err, k, "%s must be true or false", k);
			if (k[0] == 'e')
				o->enums = v->kind == SD_J_TRUE;
			else
				o->strict = v->kind == SD_J_TRUE;
		}
		else
		{
			snprintf(err->path, sizeof(err->path), "$");
			sd_path_member(err->path, k, t->key_lens[i]);
			return sd_error_set(err, SD_E_OPTIONS, -1, "%s",
								"unknown option (expected name, prefix, schema, max_samples, "
								"enums, strict)");
		}
	}
	return true;
}
