-- each.sql — serde_decode_each (docs/reference.md, "Functions"): one row per element of a JSON array (first non-blank
-- byte '['), else per line of newline-delimited JSON (blank lines skipped, empty input: no rows);
-- jsonb input must be an array.  Items are decoded in order and the first error ends the
-- statement (on_error and the report: sql/batches.sql); errors name the element ($[41].id) or
-- the line (line 42: $.id).  Typed, typed-with-shape and record forms; text, json, jsonb, bytea.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE DOMAIN ea_qty AS int4 CHECK (VALUE > 0);
CREATE TYPE ea_item AS (id int8, sku varchar(8), qty ea_qty, at timestamptz);
SELECT serde_register('EaItem', 'ea_item', '{"fields": {"at": {"optional": true}}}');

-- ---- a JSON array -------------------------------------------------------------------------------
SELECT * FROM serde_decode_each(NULL::ea_item, '[
    {"id": 1, "sku": "A-1", "qty": 2, "at": "2024-05-01T10:00:00Z"},
    {"id": 2, "sku": "B-2", "qty": 1},
    {"sku": "C-3", "qty": 7, "id": 3}
]');
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 2}]'::json);
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 2}]'::jsonb);
SELECT * FROM serde_decode_each(NULL::ea_item, convert_to('  [{"id": 1, "sku": "A", "qty": 1}]', 'UTF8'));
SELECT * FROM serde_decode_each(NULL::ea_item, '[]');
SELECT * FROM serde_decode_each(NULL::ea_item, '[]'::jsonb);
-- a null element is a row of NULLs
SELECT * FROM serde_decode_each(NULL::ea_item, '[null, {"id": 9, "sku": "Z", "qty": 9}]');

-- ---- newline-delimited JSON ----------------------------------------------------------------------
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2}\n');
-- blank lines (also whitespace-only), CRLF line ends, no final newline
SELECT * FROM serde_decode_each(NULL::ea_item,
    E'\n  \n{"id": 1, "sku": "A", "qty": 1}\r\n\t\r\n{"id": 2, "sku": "B", "qty": 2}\r\n\n{"id": 3, "sku": "C", "qty": 3}');
SELECT * FROM serde_decode_each(NULL::ea_item, convert_to(E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2}', 'UTF8'));
-- a single object (also the only thing a json value that is not an array can hold)
SELECT * FROM serde_decode_each(NULL::ea_item, '{"id": 1, "sku": "A", "qty": 1}'::json);
-- empty input, blank input: no rows
SELECT count(*) FROM serde_decode_each(NULL::ea_item, '');
SELECT count(*) FROM serde_decode_each(NULL::ea_item, E' \n\n\t\r\n');
SELECT count(*) FROM serde_decode_each(NULL::ea_item, ''::bytea);

-- ---- errors name the element or the line --------------------------------------------------------
-- $[41]: the 42nd element of a generated array
SELECT count(*) FROM serde_decode_each(NULL::ea_item,
    (SELECT '[' || string_agg(CASE WHEN g = 41 THEN '{"id": "41", "sku": "x", "qty": 1}'
                                   ELSE format('{"id": %s, "sku": "x", "qty": 1}', g) END, ',' ORDER BY g) || ']'
       FROM generate_series(0, 99) g));
-- line 42 of generated NDJSON
SELECT count(*) FROM serde_decode_each(NULL::ea_item,
    (SELECT string_agg(CASE WHEN g = 42 THEN '{"sku": "x", "qty": 1}'
                            ELSE format('{"id": %s, "sku": "x", "qty": 1}', g) END, E'\n' ORDER BY g)
       FROM generate_series(1, 100) g));
-- the same through jsonb (paths, no offsets)
SELECT count(*) FROM serde_decode_each(NULL::ea_item,
    (SELECT jsonb_agg(CASE WHEN g = 41 THEN '{"id": 41, "sku": "much too long", "qty": 1}'::jsonb
                           ELSE jsonb_build_object('id', g, 'sku', 'x', 'qty', 1) END ORDER BY g)
       FROM generate_series(0, 99) g));
-- a domain CHECK (checked after the core) also names the element / line, with the right offset
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 0}]');
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1}\n\n{"id": 2, "sku": "B", "qty": 0}');
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 0}]'::jsonb);
-- malformed input: a bad line, a broken array, trailing garbage
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2,}\n');
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B",\n "qty": 2}\n');
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1},');
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}] x');
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}] [{"id": 1, "sku": "A", "qty": 1}]');
-- two values on one NDJSON line
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1} {"id": 2, "sku": "B", "qty": 2}');
-- NDJSON lines must each be one element
SELECT * FROM serde_decode_each(NULL::ea_item, E'{"id": 1, "sku": "A", "qty": 1}\n[{"id": 2, "sku": "B", "qty": 2}]');
SELECT * FROM serde_decode_each(NULL::ea_item, '42');
-- jsonb must be an array
SELECT * FROM serde_decode_each(NULL::ea_item, '{"id": 1, "sku": "A", "qty": 1}'::jsonb);
SELECT * FROM serde_decode_each(NULL::ea_item, '"x"'::jsonb);

-- in FROM, PostgreSQL collects every row of a function before the first: an error in the last
-- element shows even under LIMIT 1 (in the select list rows stream: sql/batches.sql)
SELECT * FROM serde_decode_each(NULL::ea_item,
    E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2}\n{"id": 3, "sku": "C", "qty": "3"}') LIMIT 1;
SELECT * FROM serde_decode_each(NULL::ea_item,
    '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 2}, {"id": 3, "sku": "C", "qty": -3}]') LIMIT 1;

-- ---- other targets and forms --------------------------------------------------------------------
SELECT * FROM serde_decode_each(NULL::int4, '[1, 2, 3]');
SELECT x FROM serde_decode_each(NULL::int4, E'1\n\n2\n3') x;
-- NDJSON whose first line is an array reads as one JSON array (the first non-blank byte decides)
SELECT serde_decode_each(NULL::text[], E'["a", "b"]\n[]\n["c"]');
SELECT serde_decode_each(NULL::text[], E'\n[["a", "b"], [], ["c"]]');
SELECT * FROM serde_decode_each(NULL::jsonb, E'{"b": 1, "a": [true]}\n"s"\nnull\n1.50');
SELECT * FROM serde_decode_each(NULL::int4, '[1, 2, 3.5]');
-- typed with an explicit shape
SELECT serde_register('EaInt', 'int4', '{"coerce": true}');
SELECT * FROM serde_decode_each(NULL::int4, '["1", 2, "3"]', 'EaInt');
-- the two-argument form uses the one shape registered for the type
SELECT * FROM serde_decode_each(NULL::int4, '["1", 2, "3"]');
-- the record form: in the select list, and in FROM with a column definition list
SELECT serde_decode_each('EaItem', E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2}');
SELECT t.id, t.qty FROM serde_decode_each('EaItem', '[{"id": 5, "sku": "A", "qty": 4}]'::jsonb)
    AS t(id int8, sku varchar(8), qty ea_qty, at timestamptz);
SELECT to_jsonb(serde_decode_each('EaItem', '[{"id": 5, "sku": "A", "qty": 4, "at": "2024-05-01T10:00:00.5+02:00"}]'));
-- a type with a dropped column still fits a column definition list
CREATE TYPE ea_slim AS (id int8, gone text, sku text);
ALTER TYPE ea_slim DROP ATTRIBUTE gone;
SELECT serde_register('EaSlim', 'ea_slim');
SELECT t.* FROM serde_decode_each('EaSlim', E'{"id": 1, "sku": "a"}\nnull\n{"id": 2, "sku": "b", "gone": 1}') AS t(id int8, sku text);
SELECT t.* FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]'::jsonb) AS t(id int8, sku text);
-- (DETAIL left out: PostgreSQL 18 words it differently; the ea_try cases below show it)
\set VERBOSITY terse
SELECT t.* FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]') AS t(id int8, sku varchar);
\set VERBOSITY default
SELECT t.* FROM serde_decode_each(NULL::ea_slim, '[{"id": 4, "sku": "d"}]') t;
-- a column definition list as long as the type with its dropped columns (or of any other
-- length) is 42804 with a clear message, never an internal error; the same for serde_decode's
-- record form, also for a domain over the type, and whatever the document (NULL too)
CREATE FUNCTION pg_temp.ea_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text; hint text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT;
    -- PostgreSQL 18 names the column too ('in column "sku" (position 2)'): shown as 15-17 write it
    det := regexp_replace(det, 'in column "[^"]*" \(position (\d+)\)', 'in column \1');
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '')
           || coalesce(' HINT: ' || nullif(hint, ''), '');
END $f$;
CREATE DOMAIN ea_slim_d AS ea_slim;
SELECT serde_register('EaSlimD', 'ea_slim_d');
SELECT q, pg_temp.ea_try(q) AS result FROM (VALUES
    ($$SELECT t::text FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]') AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]'::jsonb) AS t(id int8, gone int4, sku text)$$),
    ($$SELECT t::text FROM serde_decode_each('EaSlim', NULL::text) AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode_each('EaSlimD', '[{"id": 3, "sku": "c"}]') AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]') AS t(id int8)$$),
    ($$SELECT t::text FROM serde_decode_each('EaSlim', '[{"id": 3, "sku": "c"}]') AS t(id int8, sku int4)$$),
    ($$SELECT t::text FROM serde_decode_each('EaItem', '[{"id": 3, "sku": "c", "qty": 1}]') AS t(id int8, sku text, qty int4, at timestamptz, more int4)$$),
    ($$SELECT t::text FROM serde_decode('EaSlim', '{"id": 3, "sku": "c"}') AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode('EaSlim', NULL::jsonb) AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode('EaSlimD', '{"id": 3, "sku": "c"}') AS t(id int8, gone text, sku text)$$),
    ($$SELECT t::text FROM serde_decode('EaSlim', '{"id": 3, "sku": "c"}') AS t(id int8, sku text)$$),
    ($$SELECT t::text FROM serde_decode('EaSlimD', '{"id": 3, "sku": "c"}') AS t(id int8, sku text)$$)
) v(q);
SELECT serde_unregister('EaSlimD');
DROP DOMAIN ea_slim_d;
-- over a table of batches, LATERAL
CREATE TEMP TABLE ea_batches (batch int, body text);
INSERT INTO ea_batches VALUES
    (1, E'{"id": 1, "sku": "A", "qty": 1}\n{"id": 2, "sku": "B", "qty": 2}'),
    (2, '[{"id": 3, "sku": "C", "qty": 3}]'),
    (3, ''),
    (4, NULL);
SELECT b.batch, i.id, i.sku FROM ea_batches b, LATERAL serde_decode_each(NULL::ea_item, b.body) i ORDER BY 1, 2;
SELECT b.batch, count(i.id) FROM ea_batches b LEFT JOIN LATERAL serde_decode_each(NULL::ea_item, b.body) i ON true
 GROUP BY 1 ORDER BY 1;

-- ---- NULL, shape and target rules (as serde_decode) ---------------------------------------------
SELECT count(*) FROM serde_decode_each(NULL::ea_item, NULL::text);
SELECT count(*) FROM serde_decode_each(NULL::ea_item, NULL::jsonb);
SELECT serde_decode_each('EaItem', NULL::text);
SELECT serde_decode_each(NULL::text, '[{"id": 1, "sku": "A", "qty": 1}]');
SELECT serde_decode_each('NoSuchShape', NULL::text);
SELECT * FROM serde_decode_each(NULL::ea_item, NULL::text, NULL);
SELECT * FROM serde_decode_each(ROW(1, 'a', 1, NULL)::ea_item, '[]');
SELECT * FROM serde_decode_each(NULL::int8, '[]', 'EaInt');
SELECT serde_decode_each('EaInt', '[1]');
-- limits
SET serde.max_document_bytes = 40;
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "B", "qty": 2}]');
RESET serde.max_document_bytes;
-- array elements are at depth 2 (the array is the root), NDJSON lines at depth 1
SET serde.max_depth = 1;
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}]');
SELECT * FROM serde_decode_each(NULL::ea_item, '{"id": 1, "sku": "A", "qty": 1}');
SET serde.max_depth = 2;
SELECT * FROM serde_decode_each(NULL::ea_item, '[{"id": 1, "sku": "A", "qty": 1}]');
RESET serde.max_depth;

-- declared STABLE PARALLEL SAFE, 100 rows: the planner's estimate per call is that of
-- jsonb_populate_recordset (1000 made a LATERAL call over a small table cost enough to be
-- JIT-compiled when jit is on)
SELECT p.oid::regprocedure, p.provolatile, p.proparallel, p.prorows, p.proretset,
       p.prorows = (SELECT prorows FROM pg_proc WHERE proname = 'jsonb_populate_recordset') AS as_builtin
  FROM pg_proc p WHERE p.proname = 'serde_decode_each' ORDER BY 1::text;

-- clean up
SELECT serde_unregister('EaItem'), serde_unregister('EaInt'), serde_unregister('EaSlim');
DROP TABLE ea_batches;
DROP TYPE ea_item, ea_slim;
DROP DOMAIN ea_qty;
