-- registration.sql — serde_register / serde_unregister / serde_describe, option validation at
-- register time (22023 with the option's path) and the same through plain INSERT/UPDATE on
-- serde.shapes, privileges, versions, pg_dump configuration, and the NULL / target rules of the
-- decode functions (docs/reference.md, "Functions").  The server-encoding rule (0A000 outside UTF8) needs a non-UTF8
-- database and is not tested here.
-- `result` is "ok" / the value as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- (with_detail false leaves out a DETAIL that would not be stable, such as a failing row)
CREATE FUNCTION pg_temp.try(q text, with_detail boolean DEFAULT true) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text; hint text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT;
    RETURN 'ERROR ' || st || ': ' || msg
           || CASE WHEN with_detail THEN coalesce(' [' || nullif(det, '') || ']', '') ELSE '' END
           || coalesce(' HINT: ' || nullif(hint, ''), '');
END $f$;
-- reg(options): serde_register('RgBad', 'rg_all', options); 'ok' or the error
CREATE FUNCTION pg_temp.reg(options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$SELECT 'ok' FROM serde_register('RgBad', 'rg_all', %L)$q$, options))
$f$;
-- ins(options): the same options through a plain INSERT into serde.shapes
CREATE FUNCTION pg_temp.ins(options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$WITH i AS (INSERT INTO serde.shapes (name, target, options)
                                           VALUES ('RgBad', 'rg_all', %L) RETURNING 1)
                                 SELECT 'ok' FROM i$q$, options))
$f$;
-- upd(options): the same options through a plain UPDATE of an existing shape
CREATE FUNCTION pg_temp.upd(options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$WITH u AS (UPDATE serde.shapes SET options = %L WHERE name = 'RgGood'
                                           RETURNING 1)
                                 SELECT 'ok' FROM u$q$, options))
$f$;

CREATE TYPE rg_colour AS ENUM ('red', 'green');
CREATE DOMAIN rg_pos AS int4 CHECK (VALUE > 0);
CREATE TYPE rg_point AS (x int4, y int4);
CREATE TYPE rg_all AS (n int4, t text, v varchar(3), c rg_colour, p rg_pos, ts timestamptz,
                       b bytea, j jsonb, js json, pt rg_point, pts rg_point[], ip inet);

-- ---- register, describe, unregister -------------------------------------------------------------
SELECT serde_register('RgGood', 'rg_all', '{"rename": "camel", "optional": true,
    "fields": {"n": {"name": "number", "default": 7}, "ts": {"format": "unix"}}}');
SELECT name, target, options, version > 0 AS has_version FROM serde.shapes WHERE name = 'RgGood';
SELECT d.n, d.ts = to_timestamp(60) AS ts_ok FROM serde_decode(NULL::rg_all, '{"ts": 60}') d;
-- serde_describe: the compiled shape (fields with their document names, types and options)
SELECT f->>'column' AS "column", f->>'name' AS name, f->>'type' AS type, f->'optional' AS optional,
       f->'nullable' AS nullable, f->'default' AS "default", f->>'format' AS format
  FROM jsonb_array_elements(serde_describe('RgGood')->'fields') f;
SELECT serde_describe('RgGood') - 'fields' AS shape_level;
SELECT jsonb_pretty(serde_describe('RgGood')->'fields'->9) AS composite_field;
-- describe of a non-composite shape
SELECT serde_register('RgInt', 'int4');
SELECT serde_describe('RgInt');
-- create or replace: same name, new options and target
SELECT serde_register('RgInt', 'int8', '{"coerce": true}');
SELECT name, target, options FROM serde.shapes WHERE name = 'RgInt';
SELECT d FROM serde_decode(NULL::int8, '"12"', 'RgInt') d;
-- unregister: true once, then false
SELECT serde_unregister('RgInt') AS first, serde_unregister('RgInt') AS second,
       serde_unregister('NeverThere') AS never;
SELECT pg_temp.try($$SELECT serde_describe('RgInt')::text$$) AS describe_gone,
       pg_temp.try($$SELECT serde_describe(NULL)::text$$) AS describe_null;
-- NULL options mean {}
SELECT serde_register('RgNullOptions', 'rg_point', NULL);
SELECT options FROM serde.shapes WHERE name = 'RgNullOptions';
SELECT serde_unregister('RgNullOptions');

-- ---- option validation at register time: 22023 with the option's path --------------------------
SELECT options, pg_temp.reg(options) AS result FROM (VALUES
    ('{"colour": "blue"}'),
    ('[]'),
    ('"camel"'),
    ('{"fields": []}'),
    ('{"fields": {"nn": {}}}'),
    ('{"fields": {"n": 1}}'),
    ('{"fields": {"n": {"nme": "x"}}}'),
    ('{"fields": {"n": {"name": 1}}}'),
    ('{"fields": {"n": {"name": ""}}}'),
    ('{"fields": {"n": {"name": "t"}}}'),
    ('{"fields": {"n": {"path": []}}}'),
    ('{"fields": {"n": {"path": "a.b"}}}'),
    ('{"fields": {"n": {"path": ["a", 1]}}}'),
    ('{"fields": {"n": {"path": ["a"], "name": "b"}}}'),
    ('{"fields": {"n": {"optional": "yes"}}}'),
    ('{"fields": {"n": {"nullable": 0}}}'),
    ('{"fields": {"n": {"skip": null}}}'),
    ('{"fields": {"n": {"skip": true, "default": 1}}}'),
    ('{"fields": {"n": {"default": 1.5}}}'),
    ('{"fields": {"n": {"default": "1"}}}'),
    ('{"fields": {"n": {"default": 2147483648}}}'),
    ('{"fields": {"n": {"nullable": false, "default": null}}}'),
    ('{"fields": {"v": {"default": "abcd"}}}'),
    ('{"fields": {"c": {"default": "blue"}}}'),
    ('{"fields": {"p": {"default": 0}}}'),
    ('{"fields": {"ts": {"default": "yesterday"}}}'),
    ('{"fields": {"ts": {"default": 0}}}'),
    ('{"fields": {"b": {"default": "!!"}}}'),
    ('{"fields": {"pt": {"default": {"x": 1}}}}'),
    ('{"fields": {"pts": {"default": [{"x": 1, "y": "2"}]}}}'),
    ('{"fields": {"ip": {"default": "not an address"}}}'),
    ('{"fields": {"ts": {"format": "iso"}}}'),
    ('{"fields": {"ts": {"format": 1}}}'),
    ('{"fields": {"ts": {"format": "hex"}}}'),
    ('{"fields": {"b": {"format": "unix"}}}'),
    ('{"fields": {"n": {"format": "unix"}}}'),
    ('{"fields": {"t": {"format": "base64"}}}'),
    ('{"fields": {"pt": {"shape": "NoSuchShape"}}}'),
    ('{"fields": {"n": {"shape": "RgPoint"}}}'),
    ('{"fields": {"pt": {"shape": "RgGood"}}}'),
    ('{"fields": {"pt": {"shape": 1}}}'),
    ('{"rename": "snake"}'),
    ('{"rename": 1}'),
    ('{"unknown": "maybe"}'),
    ('{"unknown": true}'),
    ('{"coerce": "yes"}'),
    ('{"optional": null}'),
    ('{"extra": "n"}'),
    ('{"extra": "t"}'),
    ('{"extra": "nope"}'),
    ('{"extra": 1}'),
    ('{"extra": "j", "unknown": "reject"}')
) v(options);
-- options nest at most 64 levels (the root object is level 1): a clear 22023 naming the limit
SELECT pg_temp.reg('{"fields": {"j": {"default": ' || repeat('[', 61) || repeat(']', 61) || '}}}') AS depth_64,
       pg_temp.reg('{"fields": {"j": {"default": ' || repeat('[', 62) || repeat(']', 62) || '}}}') AS depth_65,
       pg_temp.reg('{"colour": ' || repeat('{"a": ', 100) || '1' || repeat('}', 100) || '}') AS depth_101;
-- a shape named by "shape" must decode into the column's type
SELECT serde_register('RgPoint', 'rg_point');
SELECT pg_temp.reg('{"fields": {"pt": {"shape": "RgPoint"}, "pts": {"shape": "RgPoint"}}}') AS composite_and_array;
SELECT pg_temp.reg('{"fields": {"pt": {"shape": "RgGood"}}}') AS shape_of_another_type;
-- the same when the shape names itself
SELECT pg_temp.try($$SELECT 'ok' FROM serde_register('RgGood', 'rg_all', '{"fields": {"pt": {"shape": "RgGood"}}}')$$) AS shape_names_itself;
SELECT pg_temp.reg('{"fields": {"j": {"shape": "RgPoint"}, "js": {"shape": "RgPoint"}}}') AS json_validated_by_shape;
SELECT pg_temp.reg('{"extra": "j"}') AS extra_jsonb, pg_temp.reg('{"extra": "js"}') AS extra_json;
SELECT serde_unregister('RgBad');
-- nothing invalid was stored
SELECT name FROM serde.shapes WHERE name LIKE 'Rg%' ORDER BY name;

-- ---- options that do not apply to a column are errors, not ignored ---------------------------------
-- The "extra" column takes no option; a skipped column only "skip" (and no NOT NULL domain: it
-- decodes to NULL); a variant column only "shape"; the column receiving the tag no default and
-- no "optional": true (a missing tag is an error whatever the column says).
CREATE DOMAIN rg_nn AS int4 NOT NULL;
CREATE TYPE rg_va AS (x int4);
CREATE TYPE rg_vb AS (y int4);
CREATE TYPE rg_un AS (kind text, a rg_va, b rg_vb, rest jsonb, s text, nn rg_nn);
SELECT serde_register('RgVa', 'rg_va');
SELECT options, pg_temp.try(format($q$SELECT 'ok' FROM serde_register('RgUn', 'rg_un', %L)$q$, options)) AS result
  FROM (VALUES
    ('{"extra": "rest", "fields": {"rest": {"name": "r"}}}'),
    ('{"extra": "rest", "fields": {"rest": {"path": ["r", "s"]}}}'),
    ('{"extra": "rest", "fields": {"rest": {"skip": true}}}'),
    ('{"extra": "rest", "fields": {"rest": {"default": {}}}}'),
    ('{"extra": "rest", "fields": {"rest": {"optional": false}}}'),
    ('{"extra": "rest", "fields": {"rest": {"nullable": false}}}'),
    ('{"extra": "rest", "fields": {"rest": {"shape": "RgVa"}}}'),
    ('{"extra": "rest", "fields": {"rest": {}}}'),
    ('{"fields": {"s": {"skip": true, "name": "t"}}}'),
    ('{"fields": {"s": {"skip": true, "path": ["p", "s"]}}}'),
    ('{"fields": {"s": {"skip": true, "optional": true}}}'),
    ('{"fields": {"s": {"skip": true, "nullable": false}}}'),
    ('{"fields": {"a": {"skip": true, "shape": "RgVa"}}}'),
    ('{"fields": {"s": {"skip": false, "name": "t"}}}'),
    ('{"fields": {"nn": {"skip": true}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"a": {"name": "x"}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"a": {"optional": true}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"a": {"default": {"x": 1}}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"b": {"nullable": false}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"b": {"skip": true}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"a": {"shape": "RgVa"}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"kind": {"default": "A"}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"kind": {"optional": true}}}'),
    ('{"tag": "type", "variants": {"A": "a"}, "fields": {"kind": {"name": "type", "optional": true}}}'),
    ('{"tag": "kind", "variants": {"A": "a", "B": "b"}, "fields": {"kind": {"optional": false, "nullable": false}}}'),
    ('{"tag": "kind", "variants": {"A": "a"}, "optional": true}')
) v(options);
SELECT serde_unregister('RgUn'), serde_unregister('RgVa');
DROP TYPE rg_un, rg_va, rg_vb;
DROP DOMAIN rg_nn;

-- ---- shape names have at most 63 bytes (NAMEDATALEN - 1): they head every message --------------
-- a longer one is 22023 at registration; one looked up (no such shape can exist) is cut in the
-- message at 63 bytes on a character boundary; messages stay valid UTF-8 wherever a long value
-- is cut (valid_utf8: convert_from verifies the bytes)
CREATE FUNCTION pg_temp.valid_utf8(t text) RETURNS boolean LANGUAGE sql AS $f$
    SELECT convert_from(convert_to(t, 'UTF8'), 'UTF8') = t
$f$;
SELECT n, pg_temp.try(format($q$SELECT 'ok' FROM serde_register(%L, 'int4')$q$, n)) AS result
  FROM (VALUES (repeat('x', 63)), (repeat('é', 31) || 'x'), (repeat('x', 64)), (repeat('é', 32))) v(n);
SELECT octet_length(r) AS message_bytes, left(r, 60) AS message_starts, pg_temp.valid_utf8(r) AS valid_utf8
  FROM (SELECT pg_temp.try(format($q$SELECT 'ok' FROM serde_register(%L, 'int4')$q$, repeat('ü', 100000))) AS r) s;
SELECT pg_temp.try(format($q$INSERT INTO serde.shapes (name, target) VALUES (%L, 'int4') RETURNING 'ok'$q$, repeat('y', 64))) AS insert_long;
SELECT q, octet_length(r) AS message_bytes, r AS message, pg_temp.valid_utf8(r) AS valid_utf8 FROM (
    SELECT q, pg_temp.try(format(q, repeat('é', 100000))) AS r FROM (VALUES
        ($$SELECT serde_decode(%L, '1')::text$$),
        ($$SELECT serde_decode(NULL::int4, '1', %L)::text$$),
        ($$SELECT serde_describe(%L)::text$$),
        ($$SELECT 'ok' FROM serde_register('RgLong', 'rg_all', jsonb_build_object('fields', jsonb_build_object('pt', jsonb_build_object('shape', %L))))$$)
    ) v(q)) s;
-- an option value that overflows the message is cut at a character, with "..."
SELECT octet_length(r) < 450 AS bounded, right(r, 6) AS message_ends, pg_temp.valid_utf8(r) AS valid_utf8
  FROM (SELECT pg_temp.reg(jsonb_build_object('rename', repeat('é', 400))::text) AS r) s;
SELECT serde_unregister(repeat('x', 63)), serde_unregister(repeat('é', 31) || 'x');
DROP FUNCTION pg_temp.valid_utf8(text);

-- ---- the same validation for plain INSERT and UPDATE on serde.shapes ------------------------------
SELECT options, pg_temp.ins(options) AS "insert", pg_temp.upd(options) AS "update" FROM (VALUES
    ('{"colour": "blue"}'),
    ('{"fields": {"nn": {}}}'),
    ('{"fields": {"n": {"default": "x"}}}'),
    ('{"fields": {"p": {"default": -1}}}'),
    ('{"extra": "n"}'),
    ('{"extra": "j", "unknown": "reject"}'),
    ('{"fields": {"ts": {"format": "iso"}}}'),
    ('{"rename": "snake"}'),
    ('{"fields": {"pt": {"shape": "NoSuchShape"}}}'),
    ('{"fields": {"pt": {"shape": "RgGood"}}}')
) v(options);
SELECT pg_temp.try($$INSERT INTO serde.shapes (name, target) VALUES ('', 'int4') RETURNING 'ok'$$) AS empty_name;
SELECT pg_temp.try($$UPDATE serde.shapes SET target = 'int4' WHERE name = 'RgGood' RETURNING 'ok'$$) AS retarget_breaks_options;
-- a valid INSERT and UPDATE work like serde_register
INSERT INTO serde.shapes (name, target, options) VALUES ('RgPlain', 'rg_point', '{"rename": "upper"}');
SELECT d.* FROM serde_decode(NULL::rg_point, '{"X": 1, "Y": 2}', 'RgPlain') d;
UPDATE serde.shapes SET options = '{"rename": "pascal"}' WHERE name = 'RgPlain';
SELECT d.* FROM serde_decode(NULL::rg_point, '{"X": 3, "Y": 4}', 'RgPlain') d;
-- a row naming a shape that another row of the same statement creates
INSERT INTO serde.shapes (name, target, options) VALUES
    ('RgOuterFirst', 'rg_all', '{"optional": true, "fields": {"pt": {"shape": "RgInnerSecond"}, "pts": {"shape": "RgInnerSecond"}}}'),
    ('RgInnerSecond', 'rg_point', '{"rename": "upper"}');
SELECT (d.pt).y FROM serde_decode(NULL::rg_all, '{"pt": {"X": 1, "Y": 2}}', 'RgOuterFirst') d;
SELECT pg_temp.try($$INSERT INTO serde.shapes (name, target, options) VALUES
    ('RgOuterAlone', 'rg_all', '{"fields": {"pt": {"shape": "RgNeverCreated"}, "pts": {"shape": "RgPlain"}}}') RETURNING 'ok'$$) AS dangling;
-- the catalog triggers fire always (also under session_replication_role = replica)
SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'serde.shapes'::regclass AND NOT tgisinternal ORDER BY tgname;
SET session_replication_role = replica;
SELECT pg_temp.ins('{"colour": "blue"}') AS replica_insert, pg_temp.upd('{"rename": "snake"}') AS replica_update;
RESET session_replication_role;

-- ---- target types --------------------------------------------------------------------------------
SELECT target, pg_temp.try(format($q$SELECT 'ok' FROM serde_register('RgTarget', %L)$q$, target)) AS result
  FROM (VALUES ('int4'), ('int8[]'), ('jsonb'), ('rg_colour'), ('rg_pos'), ('rg_point[]'), ('text'),
               ('record'), ('anyelement'), ('void'), ('no_such_type')) v(target);
SELECT serde_unregister('RgTarget');
SELECT pg_temp.try($$SELECT serde_register('', 'int4')::text$$) AS empty_name;
SELECT pg_temp.try($$SELECT serde_register('RgNullTarget', NULL)::text$$, false) AS null_target;
SELECT pg_temp.try($$SELECT serde_register(NULL, 'int4')::text$$, false) AS null_name;

-- ---- versions: bumped on every change, never repeated ---------------------------------------------
CREATE TEMP TABLE rg_versions (n serial, step text, version bigint);
SELECT serde_register('RgVer', 'rg_point');
INSERT INTO rg_versions (step, version) SELECT 'register', version FROM serde.shapes WHERE name = 'RgVer';
SELECT serde_register('RgVer', 'rg_point');
INSERT INTO rg_versions (step, version) SELECT 're-register, same options', version FROM serde.shapes WHERE name = 'RgVer';
SELECT serde_register('RgVer', 'rg_point', '{"optional": true}');
INSERT INTO rg_versions (step, version) SELECT 're-register, new options', version FROM serde.shapes WHERE name = 'RgVer';
UPDATE serde.shapes SET options = '{}' WHERE name = 'RgVer';
INSERT INTO rg_versions (step, version) SELECT 'plain UPDATE', version FROM serde.shapes WHERE name = 'RgVer';
UPDATE serde.shapes SET version = 1 WHERE name = 'RgVer';
INSERT INTO rg_versions (step, version) SELECT 'UPDATE setting version = 1', version FROM serde.shapes WHERE name = 'RgVer';
SELECT serde_unregister('RgVer');
INSERT INTO serde.shapes (name, target, version) VALUES ('RgVer', 'rg_point', 1);
INSERT INTO rg_versions (step, version) SELECT 'DELETE, then INSERT with version = 1', version FROM serde.shapes WHERE name = 'RgVer';
SELECT step, version > lag(version) OVER (ORDER BY n) AS bumped FROM rg_versions ORDER BY n;
SELECT serde_unregister('RgVer');
DROP TABLE rg_versions;

-- ---- pg_dump keeps the catalog: configuration tables of the extension --------------------------------
SELECT extconfig::regclass[] AS extconfig, extcondition FROM pg_extension WHERE extname = 'serde';
-- the catalog is closed to PUBLIC
SELECT has_schema_privilege('public', 'serde', 'USAGE') AS public_usage,
       has_table_privilege('public', 'serde.shapes', 'SELECT') AS public_select,
       has_table_privilege('public', 'serde.shapes', 'INSERT') AS public_insert;
-- volatility and parallel safety of the API (docs/reference.md, "Functions")
SELECT DISTINCT p.proname, p.provolatile, p.proparallel, p.prosecdef
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
  JOIN pg_extension e ON d.refobjid = e.oid AND e.extname = 'serde'
 WHERE p.proname IN ('serde_register', 'serde_unregister', 'serde_describe', 'serde_cache_stats',
                     'serde_decode', 'serde_valid')
 ORDER BY 1, 2, 3, 4;

-- ---- privileges ------------------------------------------------------------------------------------
CREATE ROLE regress_serde_nobody;
CREATE ROLE regress_serde_writer;
CREATE TYPE rg_mine AS (a int4);
CREATE TYPE rg_theirs AS (a int4);
ALTER TYPE rg_mine OWNER TO regress_serde_writer;
-- the right to write the catalog, as the extension owner grants it
GRANT USAGE ON SCHEMA serde TO regress_serde_writer;
GRANT SELECT, INSERT, UPDATE, DELETE ON serde.shapes TO regress_serde_writer;
GRANT USAGE ON SEQUENCE serde.shape_version TO regress_serde_writer;
SET ROLE regress_serde_nobody;
SELECT pg_temp.try($$SELECT 'ok' FROM serde_register('RgNobody', 'int4')$$) AS nobody_register,
       pg_temp.try($$SELECT serde_unregister('RgPoint')::text$$) AS nobody_unregister,
       pg_temp.try($$INSERT INTO serde.shapes (name, target) VALUES ('RgNobody', 'int4') RETURNING 'ok'$$) AS nobody_insert;
-- decoding needs no rights on the catalog
SELECT d.* FROM serde_decode(NULL::rg_point, '{"x": 1, "y": 2}', 'RgPoint') d;
RESET ROLE;
SET ROLE regress_serde_writer;
-- (a built-in type is the bootstrap superuser's: 42501 too; security.sql has the whole rule)
SELECT pg_temp.try($$SELECT 'ok' FROM serde_register('RgMine', 'rg_mine')$$) AS own_composite,
       pg_temp.try($$SELECT 'ok' FROM serde_register('RgTheirs', 'rg_theirs')$$) AS not_owned_composite,
       pg_temp.try($$SELECT 'ok' FROM serde_register('RgWriterInt', 'int4')$$) AS base_type;
SELECT pg_temp.try($$UPDATE serde.shapes SET target = 'rg_theirs' WHERE name = 'RgMine' RETURNING 'ok'$$) AS retarget_not_owned,
       pg_temp.try($$INSERT INTO serde.shapes (name, target) VALUES ('RgTheirs', 'rg_theirs') RETURNING 'ok'$$) AS insert_not_owned;
SELECT serde_unregister('RgMine'), serde_unregister('RgWriterInt');
RESET ROLE;
REVOKE ALL ON serde.shapes FROM regress_serde_writer;
REVOKE ALL ON SEQUENCE serde.shape_version FROM regress_serde_writer;
REVOKE ALL ON SCHEMA serde FROM regress_serde_writer;
DROP TYPE rg_mine, rg_theirs;
DROP ROLE regress_serde_nobody, regress_serde_writer;

-- ---- NULL and target rules of the decode functions ----------------------------------------------------
SELECT serde_register('RgPointA', 'rg_point', '{"optional": true}');
SELECT q, pg_temp.try(q) AS result FROM (VALUES
    -- the shape is resolved first: NULL name 22004, unknown 42704 — even with a NULL document
    ($$SELECT serde_decode(NULL::text, '{}')::text$$),
    ($$SELECT serde_decode(NULL::text, NULL::text)::text$$),
    ($$SELECT serde_decode(NULL::rg_point, '{}', NULL)::text$$),
    ($$SELECT serde_decode(NULL::rg_point, NULL::jsonb, NULL)::text$$),
    ($$SELECT serde_valid(NULL::text, '{}')::text$$),
    ($$SELECT serde_decode('NoSuchShape', '{}')::text$$),
    ($$SELECT serde_decode('NoSuchShape', NULL::bytea)::text$$),
    ($$SELECT serde_decode(NULL::rg_point, NULL::json, 'NoSuchShape')::text$$),
    ($$SELECT serde_valid('NoSuchShape', NULL::text)::text$$),
    -- several shapes for the typed two-argument form: 22023 naming them
    ($$SELECT serde_decode(NULL::rg_point, '{}')::text$$),
    ($$SELECT serde_decode(NULL::rg_point, NULL::text)::text$$),
    ($$SELECT serde_valid(NULL::rg_point, '{}')::text$$),
    -- the explicit shape resolves it
    ($$SELECT serde_decode(NULL::rg_point, '{"x": 1}', 'RgPointA')::text$$),
    -- a shape of another type in the three-argument form: 42804
    ($$SELECT serde_decode(NULL::rg_all, '{}', 'RgPointA')::text$$),
    ($$SELECT serde_decode(NULL::int4, '1', 'RgPointA')::text$$),
    ($$SELECT serde_valid(NULL::rg_all, NULL::text, 'RgPointA')::text$$),
    -- a non-NULL target: 22023
    ($$SELECT serde_decode(ROW(1, 2)::rg_point, '{}', 'RgPointA')::text$$),
    ($$SELECT serde_decode(1, '1')::text$$),
    ($$SELECT serde_valid(ROW(1, 2)::rg_point, '{}', 'RgPointA')::text$$),
    -- a NULL document: NULL from every form
    ($$SELECT serde_decode(NULL::rg_point, NULL::text, 'RgPointA') IS NULL$$),
    ($$SELECT serde_decode('RgPointA', NULL::jsonb) IS NULL$$),
    ($$SELECT serde_decode(NULL::int4, NULL::bytea) IS NULL$$),
    ($$SELECT serde_valid(NULL::rg_point, NULL::json, 'RgPointA') IS NULL$$),
    ($$SELECT serde_valid('RgPointA', NULL::text) IS NULL$$),
    -- a type with no shape: default options
    ($$SELECT serde_decode(NULL::rg_colour, '"red"')::text$$),
    -- text/varchar targets read as a shape name in the two-argument form
    ($$SELECT serde_decode(NULL::varchar, '"x"')::text$$),
    -- the record form needs a composite shape
    ($$SELECT serde_decode('RgPointA', '{"x": 1}')::text$$),
    ($$SELECT serde_decode('RgGood', '{}')::text$$)
) v(q);
SELECT serde_register('RgInt4', 'int4');
SELECT pg_temp.try($$SELECT serde_decode('RgInt4', '1')::text$$) AS record_form_of_int4,
       serde_decode(NULL::int4, '41', 'RgInt4') + 1 AS typed_form;
SELECT r.x, r.y FROM serde_decode('RgPointA', '{"x": 1, "y": 2}') AS r(x int4, y int4);
SELECT row_to_json(serde_decode('RgPointA', '{"x": 1}')) AS row_to_json;

-- ---- clean up ------------------------------------------------------------------------------------
SELECT count(*) FILTER (WHERE serde_unregister(name)) AS unregistered
  FROM (SELECT name FROM serde.shapes WHERE name LIKE 'Rg%') s;
SELECT count(*) AS left_over FROM serde.shapes WHERE name LIKE 'Rg%';
DROP TYPE rg_all, rg_point, rg_colour;
DROP DOMAIN rg_pos;
-- check_function_bodies = off (every pg_dump script sets it): a shape may refer to a shape that
-- does not exist yet — a --inserts dump restores one row per statement in physical order, so a
-- referring shape can come before its referee.  Like a function body naming a table restored
-- later, only that reference (and a default decoded through it) is checked at first use; every
-- other option is validated as usual, and name, target and ownership too.  With the setting on,
-- the reference must resolve.
CREATE TYPE rg_leaf AS (v int);
CREATE TYPE rg_tree AS (leaf rg_leaf, n int4, ip inet);
SELECT pg_temp.try($$SELECT serde_register('RgTree', 'rg_tree', '{"optional": true, "fields": {"leaf": {"shape": "RgLeaf"}}}')$$);
SET check_function_bodies = off;
SELECT pg_temp.try($$SELECT serde_register('RgTree', 'rg_tree', '{"optional": true, "fields": {"leaf": {"shape": "RgLeaf"}}}')$$);
SELECT options, pg_temp.try(format($q$SELECT 'ok' FROM serde_register('RgTree2', 'rg_tree', %L)$q$, options)) AS result
  FROM (VALUES
    ('{"fields": {"nope": {"shape": "RgLeaf"}}}'),
    ('{"rename": "snake", "fields": {"leaf": {"shape": "RgLeaf"}}}'),
    ('{"fields": {"leaf": {"shape": "RgLeaf", "format": "unix"}}}'),
    ('{"fields": {"leaf": {"shape": "RgLeaf", "colour": "blue"}}}'),
    ('{"fields": {"leaf": {"shape": "RgLeaf"}, "n": {"default": "x"}}}'),
    ('{"fields": {"leaf": {"shape": "RgLeaf"}, "ip": {"default": "not an address"}}}'),
    ('{"fields": {"leaf": {"shape": "RgLeaf"}, "n": {"name": "leaf"}}}'),
    -- the default of the deferred column decodes through RgLeaf: checked with it
    ('{"optional": true, "fields": {"leaf": {"shape": "RgLeaf", "default": {"w": 1}}, "ip": {"default": "10.0.0.1"}}}')
) v(options);
-- the same through a plain INSERT (the catalog trigger defers only the reference)
SELECT pg_temp.try($$INSERT INTO serde.shapes (name, target, options)
    VALUES ('RgTree5', 'rg_tree', '{"fields": {"leaf": {"shape": "RgLeaf"}, "n": {"default": 1.5}}}') RETURNING 'ok'$$) AS insert_deferred;
RESET check_function_bodies;
SELECT pg_temp.try($$SELECT (serde_decode(NULL::rg_tree, '{"leaf": {"w": 1}}', 'RgTree')).leaf$$);
SELECT pg_temp.try($$SELECT serde_register('RgLeaf', 'rg_leaf', '{"fields": {"v": {"name": "w"}}}')$$);
SELECT pg_temp.try($$SELECT (serde_decode(NULL::rg_tree, '{"leaf": {"w": 1}}', 'RgTree')).leaf$$);
SELECT pg_temp.try($$SELECT (serde_decode(NULL::rg_tree, '{}', 'RgTree2')).leaf$$);
SET check_function_bodies = off;
SELECT pg_temp.try($$SELECT serde_register('RgTree3', 'rg_nope', '{"fields": {"leaf": {"shape": "RgMissing"}}}')$$);
RESET check_function_bodies;
SELECT serde_unregister('RgTree'), serde_unregister('RgTree2'), serde_unregister('RgLeaf');
DROP TYPE rg_tree, rg_leaf;

-- a `shape` option names a shape of a type of the same name in another schema: the core compares
-- the types themselves, not their names
CREATE SCHEMA rg_a;
CREATE SCHEMA rg_b;
CREATE TYPE rg_a.pt AS (x int4);
CREATE TYPE rg_b.pt AS (x int4);
CREATE TYPE rg_holder AS (p rg_b.pt);
SELECT serde_register('RgAPt', 'rg_a.pt'::regtype);
SELECT pg_temp.try($$SELECT serde_register('RgHolder', 'rg_holder'::regtype, '{"fields": {"p": {"shape": "RgAPt"}}}')$$);
SELECT serde_unregister('RgAPt');
DROP TYPE rg_holder;
DROP TYPE rg_a.pt, rg_b.pt;
DROP SCHEMA rg_a, rg_b;

DROP FUNCTION pg_temp.upd(text), pg_temp.ins(text), pg_temp.reg(text), pg_temp.try(text, boolean);
