-- cold_names.sql — a plan formats the names of its composite and array types only when a
-- message or serde_describe needs them (src/pg/types.c, SdPgType.name): the names must be those
-- of the search path the plan was built with, as when they were formatted while building it —
-- in serde_describe, in a compile error (compiled again with the names), in the column list
-- error of a record form.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE SCHEMA cn;
CREATE TYPE cn.cn_inner AS (a int4, b text);
CREATE TYPE cn.cn_outer AS (i cn.cn_inner, l cn.cn_inner[], n int4);
SELECT serde_register('CnOuter', 'cn.cn_outer', '{"optional": true}');

-- built with cn in the search path: the names are unqualified, also when printed after a RESET
\c
SET search_path = cn, public;
SELECT serde_decode(NULL::cn_outer, '{"i": {"a": 1}, "l": [{"a": 2, "b": "x"}], "n": 3}');
RESET search_path;
SELECT f->>'name' AS field, f->>'type' AS type
  FROM jsonb_array_elements(serde_describe('CnOuter')->'fields') f;
SELECT t::text FROM serde_decode_each('CnOuter', '[{"n": 1}]') AS t(a int4, b int4, c int4, d int4);

-- built without cn in the search path: qualified, also when printed after a SET
\c
SELECT serde_decode('CnOuter', '{"n": 3}');
SET search_path = cn, public;
SELECT f->>'name' AS field, f->>'type' AS type
  FROM jsonb_array_elements(serde_describe('CnOuter')->'fields') f;
SELECT t::text FROM serde_decode_each('CnOuter', '[{"n": 1}]') AS t(a int4, b int4, c int4, d int4);
RESET search_path;

-- a compile error naming an array of a composite type, first thing in a backend (the plan is
-- compiled again with the names): a field option that the type no longer fits
CREATE TYPE cn.cn_pair AS (k text, v int4);
CREATE TYPE cn_bag AS (m cn.cn_pair[], p cn.cn_pair);
SELECT serde_register('CnBag', 'cn_bag', '{"fields": {"m": {"map": true}}}');
ALTER TYPE cn.cn_pair ADD ATTRIBUTE w int4;
\c
SELECT serde_decode('CnBag', '{"m": {"a": 1}}');
\c
SET search_path = cn, public;
SELECT serde_decode('CnBag', '{"m": {"a": 1}}');
RESET search_path;

\c
DROP TYPE cn_bag;
DROP SCHEMA cn CASCADE;
DELETE FROM serde.shapes WHERE name IN ('CnOuter', 'CnBag');
