/*
 * values.c — values of the SQLite adapter: a decoded value (a slot of the core's value tape) as
 * an SQLite column value (INTEGER, REAL, TEXT, BLOB, or canonical JSON text for lists, maps and
 * nested shapes; the table is in docs/reference.md, SQLite section), the SQL type of a field's
 * virtual-table column, and the bytes of a document argument (TEXT or a BLOB of UTF-8 bytes).
 *
 * Calls nothing else in sqlite/.
 */
#include "serde_sqlite.h"

#include <string.h>

/* The bytes of a document argument: a BLOB as is, anything else as its text; NULL for NULL. */
const char *
sq_value_doc(sqlite3_value *v, size_t *len)
{
	const char *s;

	switch (sqlite3_value_type(v))
	{
		case SQLITE_NULL:
			return NULL;
		case SQLITE_BLOB:
			s = sqlite3_value_blob(v);
			*len = (size_t) sqlite3_value_bytes(v);
			return s ? s : "";
		default:
			s = (const char *) sqlite3_value_text(v);
			*len = (size_t) sqlite3_value_bytes(v);
			return s ? s : "";
	}
}

const char *
sq_column_type(const sd_node *n)
{
	switch (n->kind)
	{
		case SD_K_INT2:
		case SD_K_INT4:
		case SD_K_INT8:
		case SD_K_BOOL:
			return "INTEGER";
		case SD_K_FLOAT4:
		case SD_K_FLOAT8:
			return "REAL";
		case SD_K_BYTEA:
			return "BLOB";
		default:
			return "TEXT";      /* text, numeric (exact), dates, uuid, enum; JSON text */
	}
}

bool
sq_field_value(const sq_shape *s, const sd_node *node, const sd_val *tape, uint32_t i,
			   sd_buf *buf, sq_value *out)
{
	const sd_val *v = &tape[i];
	char		tmp[SD_FMT_TIMESTAMP_MAX + 16];
	size_t		n;

	memset(out, 0, sizeof(*out));
	switch (v->tag)
	{
		case SD_V_NULL:
			out->type = SQLITE_NULL;
			return true;
		case SD_V_DEFAULT:
			if ((int) v->len < s->ndefaults)
			{
				*out = s->defaults[v->len];
				return true;
			}
			out->type = SQLITE_NULL;
			return true;
		case SD_V_BOOL:
			out->type = SQLITE_INTEGER;
			out->i = v->u.b ? 1 : 0;
			return true;
		case SD_V_INT:
			out->type = SQLITE_INTEGER;
			out->i = v->u.i;
			return true;
		case SD_V_FLOAT:
			out->type = SQLITE_FLOAT;
			out->f = v->u.f;
			return true;
		case SD_V_NUMERIC:
			/* numeric's canonical text, as PostgreSQL writes it */
			if (!sd_numeric_canonical(buf, v->u.s ? v->u.s : "0", v->u.s ? v->len : 1) || !buf->s)
				return false;
			out->type = SQLITE_TEXT;
			out->s = buf->s;
			out->len = buf->len;
			return true;
		case SD_V_STR:
			out->type = SQLITE_TEXT;
			out->s = (char *) (v->u.s ? v->u.s : "");
			out->len = v->len;
			return true;
		case SD_V_BYTES:
			out->type = SQLITE_BLOB;
			out->s = (char *) (v->u.bytes ? (const char *) v->u.bytes : "");
			out->len = v->len;
			return true;
		case SD_V_ENUM:
			out->type = SQLITE_TEXT;
			out->s = (char *) node->type->labels[v->u.i];
			out->len = strlen(out->s);
			return true;
		case SD_V_TIMESTAMP:
			n = sd_format_timestamp(tmp, v->u.i, node->kind != SD_K_TIMESTAMP);
			break;
		case SD_V_DATE:
			n = sd_format_date(tmp, v->u.i);
			break;
		case SD_V_TIME:
			n = sd_format_time(tmp, v->u.i);
			break;
		case SD_V_UUID:
			n = sd_format_uuid(tmp, v->u.bytes);
			break;
		case SD_V_DECIMAL:
			n = sd_format_decimal(tmp, v->u.i, v->len);
			break;
		case SD_V_JSON:
			/* a json column: its text as the document has it (validated; "copied
			 * as is"), not re-written -- serde_decode's canonical JSON minifies it */
			out->type = SQLITE_TEXT;
			out->s = (char *) (v->u.s ? v->u.s : "null");
			out->len = v->u.s ? v->len : 4;
			return true;
		default:                /* json, lists, maps, nested shapes: canonical JSON text */
			if (!sd_jwriter_write(s->writer, node, tape, i, buf) || !buf->s)
				return false;
			out->type = SQLITE_TEXT;
			out->s = buf->s;
			out->len = buf->len;
			return true;
	}
	if (!sd_buf_put(buf, tmp, n) || !buf->s)
		return false;
	out->type = SQLITE_TEXT;
	out->s = buf->s;
	out->len = buf->len;
	return true;
}

void
sq_result_value(sqlite3_context *ctx, const sq_value *v)
{
	switch (v->type)
	{
		case SQLITE_INTEGER:
			sqlite3_result_int64(ctx, v->i);
			break;
		case SQLITE_FLOAT:
			sqlite3_result_double(ctx, v->f);
			break;
		case SQLITE_TEXT:
			sqlite3_result_text(ctx, v->s, (int) v->len, SQLITE_TRANSIENT);
			break;
		case SQLITE_BLOB:
			sqlite3_result_blob(ctx, v->s, (int) v->len, SQLITE_TRANSIENT);
			break;
		default:
			sqlite3_result_null(ctx);
	}
}

