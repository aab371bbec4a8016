-- jsonb_ref.sql — a json/jsonb column decoded from a stored jsonb document: a container that no
-- shape validates is taken as its bytes in the document (no walk, no rebuild), a scalar is built
-- from the stored value; serde.max_depth still applies (checked from the container's size, then
-- from its JEntries).  Every result here is compared, byte for byte (`*=`, record_image_eq),
-- with the same document decoded from its text, and with jsonb's own `->` of the same member.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE jr_kv AS (key text, value jsonb);
CREATE TYPE jr_inner AS (label text, body jsonb, note json);
CREATE TYPE jr_row AS (
    id      int4,
    doc     jsonb,          -- kept: any value, as stored
    raw     json,           -- kept as text
    docs    jsonb[],        -- an array of kept values
    m       jr_kv[],        -- a map of kept values
    inner_  jr_inner,       -- kept values one level down
    checked jsonb           -- validated against a shape: walked, then kept
);
CREATE TYPE jr_pt AS (x int4, y int4);
CREATE TYPE jr_one AS (v jsonb);   -- `*=` (record_image_eq) compares one jsonb byte for byte
SELECT serde_register('JrPt', 'jr_pt', '{"unknown": "reject"}');
SELECT serde_register('JrRow', 'jr_row', '{"optional": true, "fields": {
    "inner_": {"name": "inner"}, "m": {"map": true}, "checked": {"shape": "JrPt"}}}');

CREATE TABLE jr_docs (n int, d text);
INSERT INTO jr_docs VALUES
 (1, '{"id": 1, "doc": {"a": [1, 2.50, {"b": null}], "c": "x\u00e9\"y", "": {}}, "raw": {"k": [true, false]},
       "docs": [{"p": 1}, [], {}, 3, "s", true, [[[]]]], "m": {"one": {"z": 1e2}, "two": [1, "2"], "three": 0.000},
       "inner": {"label": "L", "body": {"deep": {"er": [{"x": [1]}]}}, "note": [1, {"q": "w"}]},
       "checked": {"x": 1, "y": 2}}'),
 -- empty containers
 (2, '{"id": 2, "doc": {}, "raw": [], "docs": [[], {}], "m": {"e": {}, "f": []}, "inner": {"body": [], "note": {}}}'),
 -- scalars in jsonb columns (stored as jsonb raw scalars)
 (3, '{"id": 3, "doc": "text \u0001 with \\ escapes", "raw": 12.50, "docs": [1, -0.5, 1e-3, "a", false, null],
       "m": {"s": "v", "n": 123456789012345678901234567890, "b": true, "z": 0}, "inner": {"body": -7.25e10, "note": "n"}}'),
 (4, '{"id": 4, "doc": 0, "raw": true, "inner": {"body": false}}'),
 (5, '{"id": 5, "doc": 1.000000000000000000001, "raw": "x", "inner": {"body": "unicode \ud83d\ude00"}}'),
 -- a huge value: a wide array (its size proves nothing about its depth: its JEntries are read)
 (6, (SELECT format('{"id": 6, "doc": {"big": [%s], "s": "%s"}, "docs": [[%s]]}',
        string_agg(i::text, ','), repeat('x', 5000), string_agg(format('{"k%s": [%s]}', i, i), ','))
      FROM generate_series(1, 20000) i)),
 -- nested just within the default limit (512: the document's object, doc, 510 arrays)
 (7, format('{"id": 7, "doc": %s1%s, "m": {"a": %s{}%s}}', repeat('[', 510), repeat(']', 510),
            repeat('{"k": ', 508), repeat('}', 508)));

-- jsonb input against the text of the same jsonb: byte for byte, every column
SELECT n, serde_decode(NULL::jr_row, d::jsonb) *= serde_decode(NULL::jr_row, d::jsonb::text) AS same_as_text,
       (serde_decode(NULL::jr_row, d::jsonb)).doc::text = (d::jsonb -> 'doc')::text AS doc_text
  FROM jr_docs ORDER BY n;
-- each kept value against jsonb's own `->` (the container's bytes as PostgreSQL copies them)
SELECT n, ROW((r).doc)::jr_one *= ROW(j -> 'doc')::jr_one AS doc,
       ROW(((r).inner_).body)::jr_one *= ROW(j -> 'inner' -> 'body')::jr_one AS inner_body,
       (r).raw::text IS NOT DISTINCT FROM (j -> 'raw')::text AS raw_json,
       ((r).inner_).note::text IS NOT DISTINCT FROM (j -> 'inner' -> 'note')::text AS inner_note
  FROM (SELECT n, d::jsonb AS j, serde_decode(NULL::jr_row, d::jsonb) AS r FROM jr_docs) s ORDER BY n;
SELECT n, i, CASE WHEN e IS NULL THEN 'SQL NULL for ' || (j -> 'docs' -> (i - 1)::int)::text
                   ELSE (ROW(e)::jr_one *= ROW(j -> 'docs' -> (i - 1)::int)::jr_one)::text END AS elem
  FROM (SELECT n, d::jsonb AS j, serde_decode(NULL::jr_row, d::jsonb) AS r FROM jr_docs WHERE n IN (1, 2, 3)) s,
       unnest((r).docs) WITH ORDINALITY AS u(e, i) ORDER BY n, i;
SELECT n, kv.key, ROW(kv.value)::jr_one *= ROW(j -> 'm' -> kv.key)::jr_one AS value
  FROM (SELECT n, d::jsonb AS j, serde_decode(NULL::jr_row, d::jsonb) AS r FROM jr_docs WHERE n IN (1, 2, 3, 7)) s,
       unnest((r).m) AS kv ORDER BY n, kv.key;
-- what the results are
SELECT (r).doc, (r).raw, (r).docs, (r).m, (r).inner_, (r).checked
  FROM (SELECT n, serde_decode(NULL::jr_row, d::jsonb) AS r FROM jr_docs WHERE n <= 5) s ORDER BY n;
SELECT jsonb_array_length((r).doc -> 'big') AS big, length((r).doc ->> 's') AS s,
       jsonb_array_length((r).docs[1]) AS docs0, pg_column_size((r).doc) = pg_column_size(j -> 'doc') AS same_size
  FROM (SELECT d::jsonb AS j, serde_decode(NULL::jr_row, d::jsonb) AS r FROM jr_docs WHERE n = 6) s;
-- the whole document into jsonb / json / jsonb[]: the root as stored
SELECT n, ROW(serde_decode(NULL::jsonb, d::jsonb))::jr_one *= ROW(serde_decode(NULL::jsonb, d::jsonb::text))::jr_one AS jsonb_root,
       ROW(serde_decode(NULL::jsonb, d::jsonb))::jr_one *= ROW(d::jsonb)::jr_one AS as_stored,
       serde_decode(NULL::json, d::jsonb)::text = d::jsonb::text AS json_root
  FROM jr_docs ORDER BY n;
SELECT ROW(serde_decode(NULL::jsonb, '"s"'::jsonb))::jr_one *= ROW('"s"'::jsonb)::jr_one AS str,
       ROW(serde_decode(NULL::jsonb, '1.50'::jsonb))::jr_one *= ROW('1.50'::jsonb)::jr_one AS num,
       ROW(serde_decode(NULL::jsonb, 'true'::jsonb))::jr_one *= ROW('true'::jsonb)::jr_one AS bool,
       ROW(serde_decode(NULL::jsonb, '-1e-20'::jsonb))::jr_one *= ROW(serde_decode(NULL::jsonb, '-1e-20'))::jr_one AS small,
       serde_decode(NULL::jsonb[], '[{"a": 1}, 2, "x", [null]]'::jsonb)::text = serde_decode(NULL::jsonb[], '[{"a": 1}, 2, "x", [null]]')::text AS arr;
-- a jsonb column's JSON null is SQL NULL, as from text
SELECT (r).doc IS NULL AS doc_null, (r).docs
  FROM (SELECT serde_decode(NULL::jr_row, '{"doc": null, "docs": [null, {}]}'::jsonb) AS r) s;

-- ---- the fallbacks: a validated subtree is walked and checked -----------------------------------
SELECT (serde_decode(NULL::jr_row, '{"checked": {"y": 2, "x": 1}}'::jsonb)).checked;
SELECT serde_decode(NULL::jr_row, '{"checked": {"x": 1, "y": 2, "z": 3}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"checked": {"x": 1, "y": 2, "z": 3}}');
SELECT serde_decode(NULL::jr_row, '{"checked": {"x": "one", "y": 2}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"checked": [1, 2]}'::jsonb);
SELECT serde_valid(NULL::jr_row, '{"checked": {"x": 1}}'::jsonb) AS missing_y;
SELECT * FROM serde_errors(NULL::jr_row, '{"doc": {"a": 1}, "checked": {"x": [1], "y": {}}}'::jsonb);

-- ---- serde.max_depth on kept values: the same errors as from text -------------------------------
SET serde.max_depth = 4;
-- at the limit: four containers, the document's object counting one
SELECT (serde_decode(NULL::jr_row, '{"doc": [[[1, 2]]]}'::jsonb)).doc AS at_the_limit;
SELECT serde_decode(NULL::jr_row, '{"doc": [[[[1]]]]}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"doc": [[[[1]]]]}');
SELECT serde_decode(NULL::jr_row, '{"doc": {"a": {"b": {"c": {}}}}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"doc": {"a": {"b": {"c": {}}}}}');
-- deep inside a big value: the size says nothing, the JEntries find it
SELECT serde_decode(NULL::jr_row, format('{"doc": [%s, [[[[0]]]], 1]}', string_agg(i::text, ','))::jsonb)
  FROM generate_series(1, 3000) i;
SELECT serde_decode(NULL::jr_row, format('{"doc": [%s, [[[[0]]]], 1]}', string_agg(i::text, ',')))
  FROM generate_series(1, 3000) i;
SELECT jsonb_array_length((serde_decode(NULL::jr_row, format('{"doc": [%s, [[0]], 1]}', string_agg(i::text, ','))::jsonb)).doc) AS wide_at_the_limit
  FROM generate_series(1, 3000) i;
-- in an array of jsonb, a map of jsonb, a composite
SELECT serde_decode(NULL::jr_row, '{"docs": [1, [[[[]]]]]}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"docs": [1, [[[[]]]]]}');
SELECT serde_decode(NULL::jr_row, '{"m": {"k": {"a": [{"b": {}}]}}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"m": {"k": {"a": [{"b": {}}]}}}');
SELECT serde_decode(NULL::jr_row, '{"inner": {"body": [[{"c": []}]]}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"inner": {"body": [[{"c": []}]]}}');
SELECT serde_decode(NULL::jr_row, '{"raw": {"a": {"b": {"c": []}}}}'::jsonb);
SELECT serde_decode(NULL::jr_row, '{"raw": {"a": {"b": {"c": []}}}}');
-- the whole document
SELECT serde_decode(NULL::jsonb, '[[[[[]]]]]'::jsonb);
SELECT serde_decode(NULL::jsonb, '[[[[[]]]]]');
SELECT serde_decode(NULL::jsonb, '[[[[]]]]'::jsonb) AS at_the_limit;
SET serde.max_depth = 1;
SELECT serde_decode(NULL::jsonb, '[]'::jsonb) AS empty_at_1, serde_decode(NULL::jsonb, '{}'::jsonb) AS empty_obj_at_1;
SELECT serde_decode(NULL::jsonb, '[[]]'::jsonb);
SELECT serde_decode(NULL::jsonb, '[1, 2, {}]'::jsonb);
SELECT serde_decode(NULL::jsonb, '[1, 2, {}]');
RESET serde.max_depth;
-- past the default limit (512)
SELECT serde_decode(NULL::jr_row, format('{"doc": %s1%s}', repeat('[', 512), repeat(']', 512))::jsonb);
SELECT serde_decode(NULL::jr_row, format('{"doc": %s1%s}', repeat('[', 512), repeat(']', 512)));
SELECT serde_decode(NULL::jr_row, format('{"m": {"a": %s{}%s}}', repeat('{"k": ', 510), repeat('}', 510))::jsonb);
SELECT serde_decode(NULL::jr_row, format('{"m": {"a": %s{}%s}}', repeat('{"k": ', 510), repeat('}', 510)));
-- serde_valid and serde_errors read the same limit
SET serde.max_depth = 3;
SELECT serde_valid(NULL::jr_row, '{"doc": [[[1]]]}'::jsonb) AS deep_valid, serde_valid(NULL::jr_row, '{"doc": [[1]]}'::jsonb) AS ok_valid;
SELECT * FROM serde_errors(NULL::jr_row, '{"doc": [[[1]]], "docs": [[[{}]]]}'::jsonb);
RESET serde.max_depth;

DROP TABLE jr_docs;
DROP TYPE jr_row, jr_inner, jr_kv, jr_pt, jr_one CASCADE;
