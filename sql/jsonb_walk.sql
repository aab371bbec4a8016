-- jsonb_walk.sql — the jsonb walker's member and element loop (src/pg/jsonb_walk.c): each child
-- is read from its JEntry straight into the engine's token, and an object's first value offset
-- is summed from its keys' JEntries.  jsonb stores an end offset instead of a length in every
-- 32nd JEntry (JB_OFFSET_STRIDE): objects and arrays of 70 children cross those entries at keys,
-- at values and at elements, with every kind of value (string, number, true, false, null, object,
-- array); results and errors must equal the same document's as text.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE jw_pt AS (x int4, y int4);
CREATE TYPE jw_wide AS (
    k00 text, k01 int4, k02 bool, k03 bool, k26 text, k31 numeric, k32 int8, k33 jw_pt,
    k34 int4[], k57 text, k58 float8, k59 jsonb, k63 jsonb, k64 int8, k69 int2, zz int4
);
SELECT serde_register('JwWide', 'jw_wide', '{"unknown": "ignore", "optional": true}');
CREATE TYPE jw_strict AS (k00 text, k01 int4, k40 jw_pt, k41 jsonb);
SELECT serde_register('JwStrict', 'jw_strict', '{"unknown": "reject", "optional": true}');

-- 70 members k00..k69 (same length: jsonb's order is theirs), the kinds in turn; the values
-- are entries 70..139 (96 and 128 store offsets), the keys 0..69 (0, 32 and 64)
CREATE TABLE jw_docs (name text, body text);
INSERT INTO jw_docs SELECT 'wide', '{' || string_agg(format('"k%s": %s', lpad(i::text, 2, '0'),
    CASE i % 7 WHEN 0 THEN format('"s%s"', i) WHEN 1 THEN (i * 1000)::text WHEN 2 THEN 'true'
               WHEN 3 THEN 'false' WHEN 4 THEN 'null' WHEN 5 THEN format('{"x": %s, "y": %s}', i, -i)
               ELSE format('[%s, %s, null]', i, i + 1) END), ', ' ORDER BY i) || '}'
FROM generate_series(0, 69) i;
-- the same with other kinds where the row maps them
UPDATE jw_docs SET body = jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(
    body::jsonb, '{k26}', '"twenty-six"'), '{k31}', '31.5'), '{k32}', '9000000000'),
    '{k34}', '[1, 2, 3]'), '{k57}', '"fifty-seven"'), '{k58}', '0.25'), '{k69}', '-69')::text;

SELECT serde_decode(NULL::jw_wide, body::jsonb, 'JwWide') FROM jw_docs;
SELECT serde_decode(NULL::jw_wide, body::jsonb, 'JwWide') *= serde_decode(NULL::jw_wide, body, 'JwWide') AS same
FROM jw_docs;
-- an unknown member, rejected: k42 of k00, k01, k40..k69 (32 keys: the first value, entry 32,
-- stores its offset)
SELECT serde_decode(NULL::jw_strict, body::jsonb, 'JwStrict') FROM jw_docs;
SELECT body::jsonb - (SELECT array_agg('k' || i) FROM generate_series(10, 39) i) - 'k02' - 'k03'
    - 'k04' - 'k05' - 'k06' - 'k07' - 'k08' - 'k09' AS doc32 FROM jw_docs \gset
SELECT serde_decode(NULL::jw_strict, :'doc32'::jsonb, 'JwStrict');
SELECT serde_decode(NULL::jw_strict, :'doc32', 'JwStrict');
SELECT serde_decode(NULL::jw_strict, (:'doc32'::jsonb - (SELECT array_agg('k' || i) FROM generate_series(42, 69) i)), 'JwStrict');
-- a wrong kind at a value that stores its offset (k58 is entry 128) and past it
SELECT serde_decode(NULL::jw_wide, jsonb_set(body::jsonb, '{k58}', '"x"'), 'JwWide') FROM jw_docs;
SELECT serde_decode(NULL::jw_wide, jsonb_set(body::jsonb, '{k58}', '"x"')::text, 'JwWide') FROM jw_docs;
SELECT serde_decode(NULL::jw_wide, jsonb_set(body::jsonb, '{k69}', '70000'), 'JwWide') FROM jw_docs;
SELECT serde_decode(NULL::jw_wide, jsonb_set(body::jsonb, '{k33,y}', 'true'), 'JwWide') FROM jw_docs;
-- serde_errors: every violation, in jsonb's order, as from text
SELECT e.path, e.code, e.message FROM jw_docs, serde_errors(NULL::jw_wide,
    jsonb_set(jsonb_set(jsonb_set(body::jsonb, '{k01}', '"a"'), '{k64}', '{}'), '{k69}', '[]'), 'JwWide') e;
SELECT (SELECT array_agg(path || ' ' || code || ' ' || message) FROM serde_errors(NULL::jw_wide,
            jsonb_set(jsonb_set(body::jsonb, '{k01}', '"a"'), '{k64}', '{}'), 'JwWide')) =
       (SELECT array_agg(path || ' ' || code || ' ' || message) FROM serde_errors(NULL::jw_wide,
            jsonb_set(jsonb_set(body::jsonb, '{k01}', '"a"'), '{k64}', '{}')::text, 'JwWide')) AS same
FROM jw_docs;

-- arrays of 70 elements: offsets stored at elements 0, 32 and 64
CREATE TYPE jw_lists AS (ints int4[], texts text[], pts jw_pt[], any_ jsonb[]);
SELECT serde_register('JwLists', 'jw_lists', '{"fields": {"any_": {"name": "any"}}}');
CREATE TABLE jw_arrays AS SELECT
    (SELECT json_agg(i * 7)::text FROM generate_series(1, 70) i) AS ints,
    (SELECT json_agg('t' || i)::text FROM generate_series(1, 70) i) AS texts,
    (SELECT json_agg(json_build_object('x', i, 'y', -i))::text FROM generate_series(1, 70) i) AS pts,
    (SELECT json_agg(CASE i % 5 WHEN 0 THEN to_json(i) WHEN 1 THEN to_json('s' || i) WHEN 2 THEN 'true'::json
                               WHEN 3 THEN json_build_array(i) ELSE json_build_object('k', i) END)::text
     FROM generate_series(1, 70) i) AS anys;
SELECT format('{"ints": %s, "texts": %s, "pts": %s, "any": %s}', ints, texts, pts, anys) AS doc
FROM jw_arrays \gset
SELECT (r).ints[1], (r).ints[33], (r).ints[65], (r).ints[70], (r).texts[32:34], (r).pts[64:66],
       (r).any_[1:5], cardinality((r).any_) AS n
FROM (SELECT serde_decode(NULL::jw_lists, :'doc'::jsonb, 'JwLists') AS r) s;
SELECT serde_decode(NULL::jw_lists, :'doc'::jsonb, 'JwLists') *= serde_decode(NULL::jw_lists, :'doc', 'JwLists') AS same;
-- a wrong element at 65 (index 64 stores its offset) and at 70
SELECT serde_decode(NULL::jw_lists, jsonb_set(:'doc'::jsonb, '{ints,64}', '"x"'), 'JwLists');
SELECT serde_decode(NULL::jw_lists, jsonb_set(:'doc'::jsonb, '{ints,64}', '"x"')::text, 'JwLists');
SELECT serde_decode(NULL::jw_lists, jsonb_set(:'doc'::jsonb, '{pts,69,x}', '1.5'), 'JwLists');
SELECT serde_decode(NULL::jw_lists, jsonb_set(:'doc'::jsonb, '{pts,69,x}', '1.5')::text, 'JwLists');

-- the root as a scalar, an empty object and an empty array (the root token, no member read)
SELECT serde_decode(NULL::jw_pt, '{}'::jsonb);
SELECT serde_decode(NULL::jw_pt, '5'::jsonb);
SELECT serde_decode(NULL::jw_pt, '[]'::jsonb);
SELECT serde_decode(NULL::jw_lists, '{"ints": [], "texts": [], "pts": [], "any": []}'::jsonb, 'JwLists');
-- serde_decode_each over a jsonb array (each element is its walk's root)
SELECT * FROM serde_decode_each(NULL::jw_pt, (SELECT pts FROM jw_arrays)::jsonb) LIMIT 3 OFFSET 31;
SELECT count(*) FROM serde_decode_each(NULL::jw_pt, (SELECT pts FROM jw_arrays)::jsonb);

-- 20 nested objects (a jsonb column validated against its own shape): the walker's frames grow
-- past the 12 kept in its cursor, and shrink back
CREATE TYPE jw_node AS (value int4, next jsonb, after int4);
SELECT serde_register('JwNode', 'jw_node', '{"fields": {"next": {"shape": "JwNode", "optional": true},
    "after": {"optional": true}}}');
SELECT (SELECT string_agg(format('{"value": %s, "next": ', i), '' ORDER BY i) FROM generate_series(1, 20) i)
       || '{"value": 21}' || repeat(', "after": 1}', 20) AS chain \gset
SELECT (n).value, (n).after, jsonb_typeof((n).next) FROM (SELECT serde_decode(NULL::jw_node, :'chain'::jsonb, 'JwNode') AS n) s;
SELECT serde_decode(NULL::jw_node, :'chain'::jsonb, 'JwNode') *= serde_decode(NULL::jw_node, :'chain', 'JwNode') AS same;
SELECT serde_decode(NULL::jw_node, replace(:'chain', '"value": 18', '"value": "x"')::jsonb, 'JwNode');
SELECT serde_decode(NULL::jw_node, replace(:'chain', '"value": 18', '"value": "x"'), 'JwNode');
SELECT serde_decode(NULL::jw_node, replace(:'chain', '"value": 21}', '"value": 21, "after": []}')::jsonb, 'JwNode');
SELECT serde_decode(NULL::jw_node, replace(:'chain', '"value": 21}', '"value": 21, "after": []}'), 'JwNode');

-- ---- members the engine ignores, passed over by the walker (walker.h SD_KEY_SKIP_BEFORE) ----
-- With `unknown: ignore`, a member whose key sorts before the next member of the plan (jsonb's
-- order: shorter first, then bytewise), or that follows the plan's last one, is skipped in the
-- walker when its value is a scalar or a container whose size proves it nests within the limit;
-- other members go to the engine.  Results and errors as from text, as before.
CREATE TYPE jw_sparse AS (b int4, dd text, zzz jw_pt);
SELECT serde_register('JwSparse', 'jw_sparse', '{"optional": true}');
SELECT serde_register('JwSparseReject', 'jw_sparse', '{"optional": true, "unknown": "reject"}');
CREATE TYPE jw_sparse_x AS (b int4, dd text, rest jsonb);
SELECT serde_register('JwSparseExtra', 'jw_sparse_x', '{"optional": true, "extra": "rest"}');
CREATE TABLE jw_sparse_docs (n int, body text);
INSERT INTO jw_sparse_docs VALUES
    -- unknown keys shorter than, as long as and longer than the next planned key; every kind
    (1, '{"a": 1, "c": "x", "b": 2, "aa": null, "dd": "four", "de": true, "cc": false, "zz": [1, {"q": 2}],
          "zzz": {"x": 1, "y": 2, "extra": [3]}, "zzzz": {"deep": {"er": [1, 2]}}, "longer_key": 1.5}'),
    -- only unknown members; none; the planned ones only
    (2, '{"q": 1, "qq": [], "qqq": {}, "qqqq": "s"}'),
    (3, '{}'),
    (4, '{"b": 7, "dd": "d", "zzz": {"x": 0, "y": 0}}'),
    -- unknown members after the plan's last key (all the rest passed over)
    (5, '{"b": 1, "dd": "x", "zzz": null, "zzzzz": 1, "zzzzzz": [[[]]], "zzzzzzz": {"a": {"b": {}}}}'),
    -- errors: a planned member after passed-over ones, in a nested row past unknown members
    (6, '{"a": [1], "aa": {}, "b": "two"}'),
    (7, '{"a": 1, "zzz": {"a": 1, "w": {"v": 1}, "x": "one"}}');
SELECT n, serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparse') AS from_jsonb,
       serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparse') *= serde_decode(NULL::jw_sparse, body, 'JwSparse') AS same
FROM jw_sparse_docs WHERE n < 6 ORDER BY n;
SELECT serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparse') FROM jw_sparse_docs WHERE n = 6;
SELECT serde_decode(NULL::jw_sparse, body, 'JwSparse') FROM jw_sparse_docs WHERE n = 6;
SELECT serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparse') FROM jw_sparse_docs WHERE n = 7;
SELECT serde_decode(NULL::jw_sparse, body, 'JwSparse') FROM jw_sparse_docs WHERE n = 7;
-- the fallbacks: `unknown: reject`, `extra`, serde_errors keep every member in the engine
SELECT serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparseReject') FROM jw_sparse_docs WHERE n = 1;
SELECT serde_decode(NULL::jw_sparse, body::jsonb, 'JwSparseReject') FROM jw_sparse_docs WHERE n = 5;
SELECT n, serde_decode(NULL::jw_sparse_x, body::jsonb, 'JwSparseExtra') FROM jw_sparse_docs WHERE n IN (1, 2, 5) ORDER BY n;
SELECT n, e.path, e.code, e.message FROM jw_sparse_docs, serde_errors(NULL::jw_sparse, body::jsonb, 'JwSparse') e
WHERE n IN (6, 7) ORDER BY n, e.path;
-- serde.max_depth: an ignored member nesting too deep is still the limit's error (its size does
-- not prove it fits: the engine skips it and checks), one that fits by size is passed over
SET serde.max_depth = 4;
SELECT serde_decode(NULL::jw_sparse, '{"a": {"b": {"c": {"d": {}}}}, "b": 1}'::jsonb, 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"a": {"b": {"c": {"d": {}}}}, "b": 1}', 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"zzzz": [[[[1]]]], "b": 1}'::jsonb, 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"zzzz": [[[[1]]]], "b": 1}', 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"zzz": {"x": 1, "a": {"b": {"c": 1}}}, "b": 1}'::jsonb, 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"zzz": {"x": 1, "a": {"b": {"c": 1}}}, "b": 1}', 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"a": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], "b": 1}'::jsonb, 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"a": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], "b": 1}', 'JwSparse');
SET serde.max_depth = 1;
SELECT serde_decode(NULL::jw_sparse, '{"a": [], "b": 1}'::jsonb, 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"a": [], "b": 1}', 'JwSparse');
SELECT serde_decode(NULL::jw_sparse, '{"a": 1, "b": 1}'::jsonb, 'JwSparse');
RESET serde.max_depth;
