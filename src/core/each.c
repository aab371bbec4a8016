/*
 * each.c — batches (serde_decode_each, serde_decode_each_report, serde_errors_each): a JSON
 * array or newline-delimited JSON read one item at a time, in place.
 *
 * The input is borrowed, never copied whole: an NDJSON line, or an array element whose extent a
 * small scanner finds (strings and brackets only; the element itself is validated by the kernel),
 * is copied with padding and decoded as a document of its own with the offsets of the whole
 * input.  So memory is bounded by the largest item, not by the input, and an item that fails
 * leaves the next one readable.  Three ways to go through the items:
 *   sd_each_next    the first error ends the batch (serde_decode_each's default);
 *   sd_each_triage  an item that fails is reported and the batch goes on (on_error);
 *   sd_each_check   every error of every item (serde_errors_each).
 * Item numbers follow the paths: an array element's 0-based index ("$[41]"), an NDJSON line's
 * 1-based number ("line 42: ").  Malformed JSON inside an array ends the array (its extent can
 * no longer be trusted): one last error for the rest; an NDJSON line is always independent.
 *
 * A small array may be parsed whole instead (sd_each_set_whole, a host's choice: one stage-1
 * pass for every element instead of one per element), read element by element through the
 * kernel's array cursor by sd_each_triage.  It is only a faster way to the same answers: at
 * the first element it cannot take — the whole parse failed, or the element or the array after
 * it did not decode — the batch goes on from that element the ordinary way, which gives that
 * element's own answer (its row, or its error as the element-by-element reading words it).
 */
#include "internal.h"
#include "walker.h"

#include <stdio.h>
#include <string.h>

bool
sd_each_begin(sd_decoder *d, const sd_plan *plan, const sd_node *node, const char *doc,
			  size_t len, const sd_limits *limits, sd_error *err)
{
	size_t		i = 0;

	sd_each_reset(d);
	sd_error_clear(err);
	strcpy(err->path, "$");
	while (i < len && sd_is_ws(doc[i]))
		i++;
	if (!node)
		node = sd_plan_root(plan);
	if (!sd_decoder_bind(d, plan, err))
		return false;
	d->each_limits = sd_limits_or_defaults(limits, (sd_limits) {SD_DEFAULT_MAX_DEPTH,
																 SD_DEFAULT_MAX_DOCUMENT_BYTES, 0});
	if (len > d->each_limits.max_document_bytes)
		return sd_error_set(err, SD_E_SIZE, -1,
							"document of %zu bytes exceeds serde.max_document_bytes (%llu)",
							len, (unsigned long long) d->each_limits.max_document_bytes);
	if (len > UINT32_MAX - 2 * SD_PADDING)
		return sd_error_set(err, SD_E_SIZE, -1, "document of %zu bytes is too large", len);
	if (!d->parser && !(d->parser = d->kernel->parser_new()))
		return sd_error_set(err, SD_E_NOMEM, -1, "out of memory for the JSON parser");
	d->each_array = i < len && doc[i] == '[';
	d->each_input = doc;
	d->each_plan = plan;
	d->each_node = node;
	d->each_len = len;
	d->each_pos = d->each_array ? i + 1 : 0;
	d->each_line = 1;
	d->each_index = 0;
	d->each_expect = 0;
	d->row_line = 0;
	d->row_start = 0;
	d->each_cur = NULL;
	if (d->each_array && len <= d->each_whole_max)
	{
		/* parsed whole: one padded copy; if simdjson rejects it, element by element (their
		 * errors are the batch's) */
		sd_wcursor *cur;

		if (sd_decoder_pad(d, len, "document", err))
		{
			memcpy(d->padded, doc, len);
			memset(d->padded + len, 0, SD_PADDING);
			d->offset_bias = 0;
			if (d->kernel->each_open(d->parser, &cur, d->padded, len, d->padded_cap) > 0)
				d->each_cur = cur;
		}
		/* out of memory for the copy: element by element, which needs less */
		sd_error_clear(err);
		strcpy(err->path, "$");
	}
	return true;
}

void
sd_each_set_whole(sd_decoder *d, size_t max_bytes)
{
	d->each_whole_max = max_bytes;
}

/* The array's rest is malformed at or after `at`: the exact first syntax error of the whole input
 * (the validator's, as for any document), else a plain one at `at`.  Ends the batch. */
static int
array_malformed(sd_decoder *d, size_t at, sd_error *err)
{
	sd_error_clear(err);
	strcpy(err->path, "$");
	if (!sd_json_validate(&d->hooks, d->each_input, d->each_len, err))
	{
		char		problem[SD_PROBLEM_MAX];

		if (err->code != SD_E_SYNTAX)
			return 3;
		snprintf(problem, sizeof(problem), "%s", err->problem);
		sd_error_set(err, SD_E_SYNTAX, err->offset, "malformed JSON: %s", problem);
		strcpy(err->path, "$");
		return 3;
	}
	sd_error_set(err, SD_E_SYNTAX, (int64_t) at, "malformed JSON: unexpected character or structure");
	return 3;
}

/* The bytes an element's extent depends on outside strings. */
static const bool structural[256] = {['"'] = true, ['{'] = true, ['}'] = true, ['['] = true,
[']'] = true};

/* The end of the string whose opening quote is at p (the byte after its closing quote), or len. */
static size_t
string_end(const char *s, size_t p, size_t len)
{
	for (p++; p < len; p++)
	{
		const char *q = memchr(s + p, '"', len - p);
		size_t		k;

		if (!q)
			return len;
		p = (size_t) (q - s);
		/* the quote closes the string unless an odd number of backslashes precede it */
		for (k = p; k > 0 && s[k - 1] == '\\'; k--)
			;
		if (((p - k) & 1) == 0)
			return p + 1;
	}
	return len;
}

/*
 * The next item's extent [*start, *end): 1, 0 at the end, 3 when the input is malformed (err).
 * NDJSON: the next non-blank line (*line its number).  Array: the next element, found by strings
 * and bracket depth only (a mismatched bracket is the element decode's syntax error).
 */
static int
next_extent(sd_decoder *d, size_t *start, size_t *end, uint64_t *line, sd_error *err)
{
	const char *s = d->each_input;
	size_t		len = d->each_len;
	size_t		p = d->each_pos;

	if (!d->each_array)
	{
		while (p < len)
		{
			const char *nl = memchr(s + p, '\n', len - p);
			size_t		e = nl ? (size_t) (nl - s) : len;
			bool		blank = true;

			*line = d->each_line;
			d->each_line++;
			for (size_t i = p; i < e && blank; i++)
				blank = s[i] == ' ' || s[i] == '\t' || s[i] == '\r';
			*start = p;
			*end = e;
			p = nl ? e + 1 : len;
			d->each_pos = p;
			if (!blank)
				return 1;
		}
		return 0;
	}
	if (d->each_expect == 3)
		return 0;
	for (;;)
	{
		while (p < len && sd_is_ws(s[p]))
			p++;
		if (d->each_expect == 2)
		{
			/* after an element: ',' or ']' */
			if (p < len && s[p] == ',')
			{
				p++;
				d->each_expect = 1;
				continue;
			}
			if (p < len && s[p] == ']')
			{
				p++;
				goto closed;
			}
			return array_malformed(d, p, err);
		}
		if (p >= len)
			return array_malformed(d, p, err);
		if (s[p] == ']' && d->each_expect == 0)
		{
			p++;
			goto closed;
		}
		break;
	}
	/* an element starts at p */
	*start = p;
	if (s[p] == '"')
		p = string_end(s, p, len);
	else if (s[p] == '{' || s[p] == '[')
	{
		uint64_t	depth = 0;

		while (p < len)
		{
			char		c;

			/* the bytes that matter: quotes and brackets */
			while (p < len && !structural[(unsigned char) s[p]])
				p++;
			if (p >= len)
				break;
			c = s[p];
			if (c == '"')
			{
				p = string_end(s, p, len);
				continue;
			}
			p++;
			if (c == '{' || c == '[')
				depth++;
			else if (--depth == 0)
				break;
		}
		if (depth != 0)
			return array_malformed(d, p, err);
	}
	else
	{
		while (p < len && !sd_is_ws(s[p]) && s[p] != ',' && s[p] != ']')
			p++;
	}
	if (p == *start)
		return array_malformed(d, p, err);
	*end = p;
	*line = d->each_index;
	d->each_pos = p;
	d->each_expect = 2;
	return 1;

closed:
	while (p < len && sd_is_ws(s[p]))
		p++;
	d->each_pos = p;
	d->each_expect = 3;
	if (p < len)
		return array_malformed(d, p, err);
	return 0;
}

/* Copies the item's bytes with padding and opens the kernel's walker on them (offsets of the
 * whole input); resets the per-document buffers. */
static bool
item_open(sd_decoder *d, size_t start, size_t end, sd_wcursor **cur, sd_error *err)
{
	if (!sd_decoder_pad(d, end - start, "item", err))
		return false;
	memcpy(d->padded, d->each_input + start, end - start);
	memset(d->padded + (end - start), 0, SD_PADDING);
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	d->offset_bias = (uint32_t) start;
	if (d->kernel->open(d->parser, cur, d->padded, end - start, d->padded_cap, d->offset_bias) < 0)
		return sd_engine_walker_error(d, *cur, err);
	return true;
}

/* Runs the engine over the opened item: an array element is element i of the input ("$[i]"),
 * checked for anything after it here (the engine does that for a whole document only). */
static bool
item_run(sd_decoder *d, sd_wcursor *cur, sd_collect *col, int64_t index, uint32_t *root,
		 sd_error *err)
{

	if (!sd_engine_decode(d, cur, d->each_node, &d->each_limits, col, index, root, err))
		return false;
	if (index >= 0 && cur->ops->finish && cur->ops->finish(cur) < 0)
		return sd_engine_walker_error(d, cur, err);
	return true;
}

/* "line 42: $.id" for an NDJSON line's path (a path cut to fit keeps its "..." mark). */
static void
line_path(char *out, size_t size, uint64_t line, const char *path)
{
	int			n = snprintf(out, size, "line %llu: %s", (unsigned long long) line, path);

	if (n >= (int) size)
		memcpy(out + size - 4, "...", 4);
}

/* Item bookkeeping after an item was decoded (whatever the outcome). */
static void
item_done(sd_decoder *d, size_t start, size_t end, uint64_t line)
{
	d->offset_bias = 0;
	d->each_last_start = start;
	d->each_last_end = end;
	if (d->each_array)
	{
		d->row_line = d->each_index + 1;
		d->row_start = 0;
		d->each_index++;
	}
	else
	{
		d->row_line = line;
		d->row_start = start;
	}
}

/* A stop (cancel) leaves the item to be read again by the next call. */
static void
item_retry(sd_decoder *d, size_t start, uint64_t line)
{
	d->offset_bias = 0;
	d->each_pos = start;
	if (d->each_array)
		d->each_expect = d->each_index == 0 ? 0 : 1;
	else
		d->each_line = line;
}

/*
 * The next element of an array parsed whole: 1 (decoded, *root), 0 at the end (the array and
 * nothing after it read), -1 when the whole parse cannot take this element (the caller reads it
 * the ordinary way; err is not for the caller).
 */
static int
whole_next(sd_decoder *d, uint32_t *root, sd_error *err)
{
	int			r = d->kernel->each_next(d->each_cur);

	if (r < 0)
		return -1;
	if (r == 0)
	{
		d->each_cur = NULL;
		d->each_expect = 3;
		sd_each_reset(d);
		return 0;
	}
	d->tape_len = 0;
	d->stack_len = 0;
	d->pairs_len = 0;
	d->jev_len = 0;
	sd_arena_reset(&d->arena);
	if (!sd_engine_decode(d, d->each_cur, d->each_node, &d->each_limits, NULL,
						  (int64_t) d->each_index, root, err))
		return -1;
	d->row_line = d->each_index + 1;
	d->row_start = 0;
	d->each_index++;
	return 1;
}

/*
 * Leaves the whole parse for element by element, at the element the whole parse stopped at
 * (each_index): the extents of the elements before it are found again, without decoding them
 * (they decoded).  False when that fails (err: as reading them would have said).
 */
static bool
whole_leave(sd_decoder *d, sd_error *err)
{
	uint64_t	skip = d->each_index;
	size_t		i = 0;

	d->each_cur = NULL;
	while (i < d->each_len && sd_is_ws(d->each_input[i]))
		i++;
	d->each_pos = i + 1;
	d->each_expect = 0;
	d->each_index = 0;
	for (uint64_t k = 0; k < skip; k++)
	{
		size_t		start,
					end;
		uint64_t	line;

		if (next_extent(d, &start, &end, &line, err) != 1)
			return false;
		d->each_index++;
	}
	return true;
}

int
sd_each_triage(sd_decoder *d, uint32_t *root, sd_error *err)
{
	size_t		start = 0,
				end = 0;
	uint64_t	line = 0;
	sd_wcursor *cur;
	int			r;

	if (d->each_xml)
		return sd_each_xml_triage(d, root, err);
	sd_error_clear(err);
	strcpy(err->path, "$");
	if (!d->each_plan)
		return 0;
	if (!sd_decoder_bind(d, d->each_plan, err))
	{
		sd_each_reset(d);
		return -1;
	}
	if (d->each_cur)
	{
		r = whole_next(d, root, err);
		if (r >= 0)
			return r;
		/* not for the whole parse: this element the ordinary way */
		sd_error_clear(err);
		strcpy(err->path, "$");
		if (!whole_leave(d, err))
		{
			sd_each_reset(d);
			return -1;
		}
	}
	r = next_extent(d, &start, &end, &line, err);
	if (r != 1)
	{
		if (r == 3)
		{
			d->row_line = d->each_index + 1;
			d->row_start = 0;
		}
		sd_each_reset(d);
		return r;
	}
	if (item_open(d, start, end, &cur, err) && item_run(d, cur, NULL, d->each_array ? (int64_t) d->each_index : -1, root, err))
	{
		item_done(d, start, end, line);
		return 1;
	}
	if (err->code == SD_E_CANCELED)
	{
		item_retry(d, start, line);
		return -1;
	}
	if (err->code == SD_E_NOMEM || err->code == SD_E_INTERNAL || err->code == SD_E_UNSUPPORTED)
	{
		sd_each_reset(d);
		return -1;
	}
	item_done(d, start, end, line);
	if (!d->each_array)
	{
		char		path[SD_PATH_MAX];

		line_path(path, sizeof(path), line, err->path);
		strcpy(err->path, path);
		return 2;
	}
	if (err->code == SD_E_SYNTAX)
	{
		/* malformed inside an element: the array's rest cannot be read */
		d->each_expect = 3;
		sd_each_reset(d);
		return 3;
	}
	return 2;
}

int
sd_each_next(sd_decoder *d, uint32_t *root, sd_error *err)
{
	int			r = sd_each_triage(d, root, err);

	if (r == 2 || r == 3)
	{
		sd_each_reset(d);
		return -1;
	}
	return r;
}

/* NDJSON: the found entries' paths name the line, as sd_each_next's errors do.  False on OOM. */
static bool
found_on_line(sd_decoder *d, uint64_t line, int n)
{
	for (int i = 0; i < n; i++)
	{
		char		path[SD_PATH_MAX];
		char	   *p;

		line_path(path, sizeof(path), line, d->found[i].path);
		if (!(p = sd_arena_strndup(&d->arena, path, strlen(path))))
			return false;
		d->found[i].path = p;
	}
	return true;
}

/* serde_errors' mode over the item [start, end) (index: its array index, -1 for NDJSON); the
 * status of sd_each_check.  recheck: an item read before (the batch's position stays). */
static int
item_check(sd_decoder *d, size_t start, size_t end, uint64_t line, int64_t index, bool recheck,
		   int max_errors, const sd_found **found, int *n, int *total, uint32_t *root)
{
	sd_wcursor *cur;
	sd_error	err;
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	int			status = 1;

	sd_error_clear(&err);
	strcpy(err.path, "$");
	if (!item_open(d, start, end, &cur, &err) || !item_run(d, cur, &col, index, root, &err) ||
		col.oom)
	{
		bool		oom = col.oom;

		if (err.code == SD_E_CANCELED && !recheck)
			item_retry(d, start, line);
		else if (!recheck)
			item_done(d, start, end, line);
		d->offset_bias = 0;
		*n = sd_engine_found_fatal(d, &err, oom, found, total, root);
		if (oom || err.code == SD_E_NOMEM || err.code == SD_E_INTERNAL ||
			err.code == SD_E_UNSUPPORTED || err.code == SD_E_CANCELED)
			return -1;
		status = d->each_array && err.code == SD_E_SYNTAX ? 3 : 2;
	}
	else
	{
		if (!recheck)
			item_done(d, start, end, line);
		d->offset_bias = 0;
		*found = d->found;
		*n = col.n;
		*total = col.total;
		status = *n > 0 ? 2 : 1;
	}
	if (!d->each_array && *n > 0 && !found_on_line(d, line, *n))
	{
		sd_error_set(&err, SD_E_NOMEM, -1, "out of memory");
		*n = sd_engine_found_fatal(d, &err, true, found, total, root);
		return -1;
	}
	*found = *n > 0 ? *found : d->found;
	return status;
}

int
sd_each_check(sd_decoder *d, int max_errors, const sd_found **found, int *n, int *total,
			  uint32_t *root)
{
	size_t		start = 0,
				end = 0;
	uint64_t	line = 0;
	sd_error	err;
	int			r;

	if (d->each_xml)
		return sd_each_xml_check(d, max_errors, found, n, total, root);
	*n = *total = 0;
	*root = UINT32_MAX;
	*found = NULL;
	sd_error_clear(&err);
	strcpy(err.path, "$");
	if (!d->each_plan)
		return 0;
	if (!sd_decoder_bind(d, d->each_plan, &err) || (d->each_cur && !whole_leave(d, &err)))
	{
		sd_each_reset(d);
		*n = sd_engine_found_fatal(d, &err, false, found, total, root);
		return -1;
	}
	r = next_extent(d, &start, &end, &line, &err);
	if (r != 1)
	{
		if (r == 3)
		{
			d->row_line = d->each_index + 1;
			d->row_start = 0;
			*n = sd_engine_found_fatal(d, &err, false, found, total, root);
		}
		sd_each_reset(d);
		return r;
	}
	r = item_check(d, start, end, line, d->each_array ? (int64_t) d->each_index : -1, false,
				   max_errors, found, n, total, root);
	if (r == 3 || (r == -1 && (*found)[0].code != SD_E_CANCELED))
	{
		d->each_expect = 3;
		sd_each_reset(d);
	}
	return r;
}

int
sd_each_recheck(sd_decoder *d, int max_errors, const sd_found **found, int *n, int *total,
				uint32_t *root)
{
	sd_error	err;

	if (d->each_xml)
		return sd_each_xml_recheck(d, max_errors, found, n, total, root);
	*n = *total = 0;
	*root = UINT32_MAX;
	sd_error_clear(&err);
	if (!d->each_plan || !sd_decoder_bind(d, d->each_plan, &err))
	{
		if (err.code == SD_OK)
			sd_error_set(&err, SD_E_INTERNAL, -1, "no batch item to read again");
		*n = sd_engine_found_fatal(d, &err, false, found, total, root);
		return -1;
	}
	return item_check(d, d->each_last_start, d->each_last_end, d->row_line,
					  d->each_array ? (int64_t) d->row_line - 1 : -1, true, max_errors, found, n,
					  total, root);
}

int
sd_engine_check_at(sd_decoder *d, sd_wcursor *cur, const sd_node *node, const sd_limits *limits,
				   int64_t first_index, int max_errors, const sd_found **found, int *total,
				   uint32_t *root)
{
	sd_collect	col = {d, max_errors > 0 ? max_errors : 1, 0, 0, 0, false};
	sd_error	err;

	*root = UINT32_MAX;
	sd_error_clear(&err);
	strcpy(err.path, "$");
	if (!sd_engine_decode(d, cur, node, limits, &col, first_index, root, &err) || col.oom)
		return sd_engine_found_fatal(d, &err, col.oom, found, total, root);
	*found = d->found;
	*total = col.total;
	return col.n;
}

uint64_t
sd_each_item(const sd_decoder *d)
{
	if (d->each_xml)
		return d->row_line;
	return d->each_array ? (d->row_line ? d->row_line - 1 : 0) : d->row_line;
}

bool
sd_each_row(const sd_decoder *d, uint64_t *line, size_t *line_start)
{
	if (!d->each_array)
	{
		*line = d->row_line;
		*line_start = d->row_start;
		return true;
	}
	*line = d->row_line ? d->row_line - 1 : 0;
	*line_start = 0;
	return false;
}
