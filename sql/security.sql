-- security.sql — privileges and search_path safety (docs/reference.md, "Functions" (Catalog, Volatility), "Privileges"; issue 5
-- point 6): a role without rights can neither register, alter nor drop shapes, by function or by
-- plain DML; the rights the extension owner grants allow it, but only for target types the role
-- owns, with every composite they decode into through domains and arrays (42501; issue 11 points
-- 2 and 3); plans keep nothing of the role that built them (issue 11 point 1); decoding needs no
-- rights on the catalog; nothing of the extension runs SECURITY DEFINER; the SQL
-- functions' bodies are fully qualified, so operators and functions planted in a schema ahead of
-- pg_catalog in search_path change nothing.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- try(q): the first column of q's first row, or "ERROR <sqlstate>: <message>"
CREATE FUNCTION pg_temp.sec_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;
GRANT EXECUTE ON FUNCTION pg_temp.sec_try(text) TO PUBLIC;

CREATE ROLE regress_serde_sec_nobody;
CREATE ROLE regress_serde_sec_writer;
CREATE TYPE sec_point AS (x int4, y int4);                 -- owned by the superuser
CREATE TYPE sec_own AS (x int4, y int4);                   -- owned by the writer
ALTER TYPE sec_own OWNER TO regress_serde_sec_writer;
CREATE TYPE sec_colour AS ENUM ('red', 'green');
SELECT serde_register('SecPoint', 'sec_point', '{"fields": {"y": {"optional": true}}}');
SELECT serde_register('SecColour', 'sec_colour');

-- ---- nothing runs with elevated rights -----------------------------------------------------------------
-- every function of the extension: SECURITY INVOKER, no SET clauses (proconfig), owned by the
-- installing role but executed with the caller's rights
SELECT l.lanname AS language, count(*) AS functions,
       count(*) FILTER (WHERE p.prosecdef) AS security_definer,
       count(*) FILTER (WHERE p.proconfig IS NOT NULL) AS with_set_clause,
       count(*) FILTER (WHERE p.proleakproof) AS leakproof
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'serde'
  JOIN pg_language l ON l.oid = p.prolang
 GROUP BY 1 ORDER BY 1;
-- the SQL-language functions and their bodies (every operator, function and relation in them is
-- schema-qualified; pinned here so that a change to them is reviewed)
SELECT p.oid::regprocedure AS function, p.prosrc AS body
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'serde'
 WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
 ORDER BY 1::text;
-- a crude check of the same: no function call or operator in the bodies that is not qualified
-- (a name followed by "(" other than SQL keywords, or a bare comparison operator)
SELECT p.proname, m[1] AS unqualified
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'serde',
       LATERAL regexp_matches(p.prosrc, '(?:^|[^.\w])([a-z_][a-z_0-9]*)\s*\(', 'gi') m
 WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
   AND upper(m[1]) NOT IN ('VALUES', 'COALESCE', 'OPERATOR', 'AS', 'IN', 'ON', 'CONFLICT', 'INTO',
                           'SHAPES', 'GONE', 'S', 'SET')
UNION ALL
SELECT p.proname, m[1]
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'serde',
       LATERAL regexp_matches(regexp_replace(regexp_replace(p.prosrc, 'OPERATOR\(pg_catalog\.[^)]*\)', '', 'g'),
                                             '\w+ = EXCLUDED\.', '', 'g'),   -- assignments of ON CONFLICT
                              '([=<>!]+)', 'g') m
 WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql');
-- the catalog's schema, table, sequence and trigger functions: no rights for PUBLIC (the owner's
-- MAINTAIN, "m", which PostgreSQL 17 added to a table's privileges, is left out: the same on all)
SELECT 'schema serde' AS object, nspacl::text AS acl FROM pg_namespace WHERE nspname = 'serde'
UNION ALL
SELECT c.oid::regclass::text, regexp_replace(c.relacl::text, '=arwdDxtm/', '=arwdDxt/', 'g') FROM pg_class c
 WHERE c.relnamespace = 'serde'::regnamespace ORDER BY 1;
SELECT p.oid::regprocedure AS trigger_function, p.proacl::text AS acl, p.prosecdef
  FROM pg_proc p WHERE p.pronamespace = 'serde'::regnamespace ORDER BY 1::text;
SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'serde.shapes'::regclass AND NOT tgisinternal ORDER BY 1;

-- ---- a role without rights ----------------------------------------------------------------------------
SET ROLE regress_serde_sec_nobody;
SELECT 'register' AS action, pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecNobody', 'int4')$$) AS result
UNION ALL SELECT 're-register (alter)', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecPoint', 'sec_point', '{"optional": true}')$$)
UNION ALL SELECT 'unregister', pg_temp.sec_try($$SELECT serde_unregister('SecPoint')::text$$)
UNION ALL SELECT 'unregister (unknown)', pg_temp.sec_try($$SELECT serde_unregister('NoSuchShape')::text$$)
UNION ALL SELECT 'INSERT', pg_temp.sec_try($$INSERT INTO serde.shapes (name, target) VALUES ('SecNobody', 'int4') RETURNING 'ok'$$)
UNION ALL SELECT 'UPDATE', pg_temp.sec_try($$UPDATE serde.shapes SET options = '{"optional": true}' WHERE name = 'SecPoint' RETURNING 'ok'$$)
UNION ALL SELECT 'DELETE', pg_temp.sec_try($$DELETE FROM serde.shapes WHERE name = 'SecPoint' RETURNING 'ok'$$)
UNION ALL SELECT 'TRUNCATE', pg_temp.sec_try($$TRUNCATE serde.shapes$$)
UNION ALL SELECT 'SELECT', pg_temp.sec_try($$SELECT count(*)::text FROM serde.shapes$$)
UNION ALL SELECT 'nextval', pg_temp.sec_try($$SELECT nextval('serde.shape_version')::text$$)
UNION ALL SELECT 'setval', pg_temp.sec_try($$SELECT setval('serde.shape_version', 1)::text$$)
UNION ALL SELECT 'CREATE in serde', pg_temp.sec_try($$CREATE TABLE serde.sec_x (a int)$$)
UNION ALL SELECT 'disable trigger', pg_temp.sec_try($$ALTER TABLE serde.shapes DISABLE TRIGGER shapes_validate$$)
UNION ALL SELECT 'trigger function', pg_temp.sec_try($$SELECT serde.shapes_validate()::text$$);
-- ... but decodes with every function: the decode functions read the catalog themselves
SELECT d.x, d.y FROM serde_decode(NULL::sec_point, '{"x": 1}') d;
SELECT d.x, d.y FROM serde_decode(NULL::sec_point, '{"x": 1, "y": 2}'::jsonb, 'SecPoint') d;
SELECT d.x FROM serde_decode('SecPoint', '{"x": 3}') AS d(x int4, y int4);
SELECT serde_decode(NULL::sec_colour, '"green"') AS colour;
SELECT x, y FROM serde_decode_each(NULL::sec_point, '[{"x": 1}, {"x": 2, "y": 3}]');
SELECT x, y FROM serde_decode_each('SecPoint', E'{"x": 4}\n{"x": 5}') AS t(x int4, y int4);
SELECT serde_valid(NULL::sec_point, '{"x": 1}') AS valid, serde_valid('SecPoint', '{"y": 1}') AS invalid;
SELECT path, code FROM serde_errors(NULL::sec_point, '{"x": "a", "y": "b"}');
SELECT serde_describe('SecPoint')->'fields'->1->>'name' AS described;
SELECT plans >= 1 AS has_plans FROM serde_cache_stats();
RESET ROLE;
-- USAGE on the schema alone is not enough either
GRANT USAGE ON SCHEMA serde TO regress_serde_sec_nobody;
SET ROLE regress_serde_sec_nobody;
SELECT 'register' AS action, pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecNobody', 'int4')$$) AS result
UNION ALL SELECT 'unregister', pg_temp.sec_try($$SELECT serde_unregister('SecPoint')::text$$)
UNION ALL SELECT 'UPDATE', pg_temp.sec_try($$UPDATE serde.shapes SET options = '{}' RETURNING 'ok'$$)
UNION ALL SELECT 'nextval', pg_temp.sec_try($$SELECT nextval('serde.shape_version')::text$$);
RESET ROLE;
REVOKE USAGE ON SCHEMA serde FROM regress_serde_sec_nobody;
-- nothing changed
SELECT name, target, options FROM serde.shapes WHERE name LIKE 'Sec%' ORDER BY name;

-- ---- the rights the extension owner grants -----------------------------------------------------------------
GRANT USAGE ON SCHEMA serde TO regress_serde_sec_writer;
GRANT SELECT, INSERT, UPDATE, DELETE ON serde.shapes TO regress_serde_sec_writer;
GRANT USAGE ON SEQUENCE serde.shape_version TO regress_serde_sec_writer;
SET ROLE regress_serde_sec_writer;
-- a composite type the role owns: allowed; a built-in type is the bootstrap superuser's: 42501
SELECT 'register own composite' AS action, pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecOwn', 'sec_own')$$) AS result
UNION ALL SELECT 're-register own composite', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecOwn', 'sec_own', '{"optional": true}')$$)
UNION ALL SELECT 'register base type', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecInt', 'int4')$$)
UNION ALL SELECT 'UPDATE own shape', pg_temp.sec_try($$UPDATE serde.shapes SET options = '{"fields": {"x": {"name": "X"}}}' WHERE name = 'SecOwn' RETURNING 'ok'$$)
-- a composite type it does not own: 42501, however it is written
UNION ALL SELECT 'register not-owned composite', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecTheirs', 'sec_point')$$)
UNION ALL SELECT 're-register not-owned (alter)', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecPoint', 'sec_point', '{"optional": true}')$$)
UNION ALL SELECT 'INSERT not-owned', pg_temp.sec_try($$INSERT INTO serde.shapes (name, target) VALUES ('SecTheirs', 'sec_point') RETURNING 'ok'$$)
UNION ALL SELECT 'UPDATE options of not-owned', pg_temp.sec_try($$UPDATE serde.shapes SET options = '{"optional": true}' WHERE name = 'SecPoint' RETURNING 'ok'$$)
UNION ALL SELECT 'UPDATE name of not-owned', pg_temp.sec_try($$UPDATE serde.shapes SET name = 'SecPoint2' WHERE name = 'SecPoint' RETURNING 'ok'$$)
UNION ALL SELECT 'retarget own shape to not-owned', pg_temp.sec_try($$UPDATE serde.shapes SET target = 'sec_point' WHERE name = 'SecOwn' RETURNING 'ok'$$)
-- (replacing another role's shape, even with one for one's own type, would change what the owner's
-- typed call decodes: refused like DELETE)
UNION ALL SELECT 'upsert over not-owned', pg_temp.sec_try($$INSERT INTO serde.shapes (name, target) VALUES ('SecPoint', 'sec_own') ON CONFLICT (name) DO UPDATE SET target = EXCLUDED.target RETURNING 'ok'$$)
-- still no TRUNCATE, no DDL on the catalog, no way around the triggers
UNION ALL SELECT 'TRUNCATE', pg_temp.sec_try($$TRUNCATE serde.shapes$$)
UNION ALL SELECT 'disable trigger', pg_temp.sec_try($$ALTER TABLE serde.shapes DISABLE TRIGGER shapes_validate$$)
UNION ALL SELECT 'replica role', pg_temp.sec_try($$SET session_replication_role = replica$$)
UNION ALL SELECT 'CREATE in serde', pg_temp.sec_try($$CREATE TABLE serde.sec_x (a int)$$);
-- the version is the trigger's: a writer cannot set it (a stale version would defeat the plan caches)
SELECT pg_temp.sec_try($$UPDATE serde.shapes SET version = 1 WHERE name = 'SecOwn' RETURNING (version > 1)::text$$) AS update_version,
       pg_temp.sec_try($$INSERT INTO serde.shapes (name, target, version) VALUES ('SecOwn2', 'sec_own', 9223372036854775807) RETURNING (version < 9223372036854775807)::text$$) AS insert_version;

-- type of an array target — a writer can register a shape for an array of a composite it does not
-- own, and that shape then changes how the owner's serde_decode(NULL::sec_point[], doc) decodes
-- (here: a default the owner never set).  Expected: 42501 "must be owner of type sec_point".
SELECT pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecTheirsArr', 'sec_point[]', '{"fields": {"y": {"default": 666}}}')$$) AS array_of_not_owned;
RESET ROLE;
SELECT serde_decode(NULL::sec_point[], '[{"x": 1}]') AS owner_decodes_with_writers_default;
SELECT serde_unregister('SecTheirsArr');
SET ROLE regress_serde_sec_writer;
-- deleting takes the same ownership: shapes of others' types stay
SELECT pg_temp.sec_try($$SELECT serde_unregister('SecColour')::text$$) AS others,
       pg_temp.sec_try($$DELETE FROM serde.shapes WHERE name = 'SecPoint' RETURNING 'ok'$$) AS others_by_delete;
SELECT serde_unregister('SecOwn') AS own, serde_unregister('SecOwn2') AS own2, serde_unregister('SecInt') AS base;
RESET ROLE;
SELECT name, target, options FROM serde.shapes WHERE name LIKE 'Sec%' ORDER BY name;
SELECT serde_register('SecColour', 'sec_colour');
-- revoking the rights takes them away again
REVOKE ALL ON serde.shapes FROM regress_serde_sec_writer;
REVOKE ALL ON SEQUENCE serde.shape_version FROM regress_serde_sec_writer;
REVOKE ALL ON SCHEMA serde FROM regress_serde_sec_writer;
SET ROLE regress_serde_sec_writer;
SELECT pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecOwn', 'sec_own')$$) AS after_revoke;
RESET ROLE;

-- ---- search_path tricks ------------------------------------------------------------------------------------
-- a schema ahead of pg_catalog holding look-alikes of what the SQL functions use: "=" and ">" that
-- always answer true, count() that answers 0, jsonb_build_object, coalesce and to_jsonb that
-- answer other options, a table named like the catalog and a type named like the target
CREATE SCHEMA sec_evil;
CREATE FUNCTION sec_evil.always(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR sec_evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = sec_evil.always);
CREATE FUNCTION sec_evil.always_gt(bigint, integer) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR sec_evil.> (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = sec_evil.always_gt);
CREATE FUNCTION sec_evil.count_sfunc(bigint) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint';
CREATE AGGREGATE sec_evil.count(*) (SFUNC = sec_evil.count_sfunc, STYPE = bigint, INITCOND = 0);
CREATE FUNCTION sec_evil.jsonb_build_object(VARIADIC text[]) RETURNS jsonb LANGUAGE sql AS $$SELECT '{"optional": true}'::jsonb$$;
CREATE FUNCTION sec_evil.coalesce(jsonb, jsonb) RETURNS jsonb LANGUAGE sql AS $$SELECT '{"optional": true}'::jsonb$$;
CREATE FUNCTION sec_evil.to_jsonb(anyelement) RETURNS jsonb LANGUAGE sql AS $$SELECT '{"optional": true}'::jsonb$$;
CREATE TABLE sec_evil.shapes (name text, target regtype, options jsonb, version bigint);
CREATE TYPE sec_evil.sec_point AS (z int4);
GRANT USAGE ON SCHEMA sec_evil TO PUBLIC;
SET search_path = sec_evil, pg_catalog, public;
-- the planted objects do work on unqualified SQL
SELECT 'a' = 'b' AS planted_eq, (SELECT count(*) FROM generate_series(1, 3)) AS planted_count;
SELECT serde_register('SecEvilA', 'public.sec_point'), serde_register('SecEvilB', 'public.sec_point');
-- unregister removes exactly one shape and answers true/false correctly
SELECT serde_unregister('SecEvilA') AS removed, serde_unregister('SecEvilA') AS again,
       serde_unregister('NoSuchShape') AS unknown;
SELECT name FROM serde.shapes WHERE name OPERATOR(pg_catalog.~~) 'Sec%' ORDER BY name;
-- register stores exactly the options given (and the type named, resolved by the caller's path)
SELECT serde_register('SecEvilB', 'public.sec_point', '{"fields": {"x": {"name": "X"}}}');
SELECT name, target, options FROM serde.shapes WHERE name OPERATOR(pg_catalog.=) 'SecEvilB';
SELECT serde_register('SecEvilC', 'sec_point');   -- sec_evil.sec_point: the caller's search_path
SELECT name, target FROM serde.shapes WHERE name OPERATOR(pg_catalog.=) 'SecEvilC';
-- decoding behaves the same
SELECT d.x, d.y FROM public.serde_decode(NULL::public.sec_point, '{"X": 1, "y": 2}', 'SecEvilB') d;
SELECT x, y FROM public.serde_decode_each(NULL::public.sec_point, '[{"X": 5, "y": null}, {"X": 6, "y": 7}]', 'SecEvilB');
SELECT public.serde_valid(NULL::public.sec_point, '{"x": 1}', 'SecEvilB') AS valid_strict,
       public.serde_valid(NULL::public.sec_point, '{"X": 1, "y": 1}', 'SecEvilB') AS valid_renamed;
SELECT path, code FROM public.serde_errors(NULL::public.sec_point, '{"x": 1}', 'SecEvilB');
SELECT public.serde_describe('SecEvilB')->'fields'->0->>'name' AS described;
-- and so do plain writes to the catalog (the validation trigger uses no search_path either)
SELECT pg_temp.sec_try($$UPDATE serde.shapes SET options = '{"fields": {"x": {"nmae": "X"}}}' WHERE name OPERATOR(pg_catalog.=) 'SecEvilB' RETURNING 'ok'$$) AS bad_option,
       pg_temp.sec_try($$UPDATE serde.shapes SET options = '{"fields": {"x": {"name": "x"}}}' WHERE name OPERATOR(pg_catalog.=) 'SecEvilB' RETURNING 'ok'$$) AS good_option;
SELECT options FROM serde.shapes WHERE name OPERATOR(pg_catalog.=) 'SecEvilB';
-- ... also for an unprivileged role with the same search_path
SET ROLE regress_serde_sec_nobody;
SELECT d.x, d.y FROM public.serde_decode(NULL::public.sec_point, '{"x": 1, "y": 2}', 'SecEvilB') d;
SELECT pg_temp.sec_try($$SELECT public.serde_unregister('SecEvilB')::text$$) AS nobody_unregister;
RESET ROLE;
RESET search_path;
SELECT serde_unregister('SecEvilB'), serde_unregister('SecEvilC');
SELECT count(*) AS planted_rows FROM sec_evil.shapes;

-- ---- the target's owner decides, followed through domains and arrays (issue 11 points 2, 3) ------------
-- A role with the rights to write the catalog may write a shape only for a type it owns, and only
-- if it also owns every composite that type decodes into through domains and arrays, in any
-- combination; built-in types (jsonb, int8[], …) belong to the bootstrap superuser.  Replacing or
-- deleting a shape takes the same ownership of its old target, TRUNCATE of every target.
-- run(q): 'ok', or "ERROR <sqlstate>: <message>" (for commands that return no rows)
CREATE FUNCTION pg_temp.sec_run(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text;
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;
GRANT EXECUTE ON FUNCTION pg_temp.sec_run(text) TO PUBLIC;
CREATE ROLE regress_priv_owner;
CREATE ROLE regress_priv_writer;
CREATE TYPE sec_acct AS (id int4, note text);
CREATE DOMAIN sec_acct_d AS sec_acct;                      -- the owner's domain over its composite
CREATE DOMAIN sec_acct_arr_d AS sec_acct_d[];              -- ... over an array of that domain
CREATE DOMAIN sec_w_acct AS sec_acct;                      -- the writer's domain over the owner's composite
CREATE DOMAIN sec_w_acct_arr AS sec_acct_arr_d[];          -- the writer's: array of a domain of an array of ...
CREATE DOMAIN sec_w_ids AS int8[];                         -- the writer's domain over a built-in array
ALTER TYPE sec_acct OWNER TO regress_priv_owner;
ALTER DOMAIN sec_acct_d OWNER TO regress_priv_owner;
ALTER DOMAIN sec_acct_arr_d OWNER TO regress_priv_owner;
ALTER DOMAIN sec_w_acct OWNER TO regress_priv_writer;
ALTER DOMAIN sec_w_acct_arr OWNER TO regress_priv_writer;
ALTER DOMAIN sec_w_ids OWNER TO regress_priv_writer;
GRANT USAGE ON SCHEMA serde TO regress_priv_writer, regress_priv_owner;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON serde.shapes TO regress_priv_writer, regress_priv_owner;
GRANT USAGE ON SEQUENCE serde.shape_version TO regress_priv_writer, regress_priv_owner;
-- shapes of others: the owner's for its domain, the superuser's for jsonb
SET ROLE regress_priv_owner;
SELECT serde_register('SecAcctD', 'sec_acct_d', '{"fields": {"note": {"optional": true}}}');
RESET ROLE;
SELECT serde_register('SecJsonb', 'jsonb');
SET ROLE regress_priv_writer;
SELECT 'composite' AS target, pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW1', 'sec_acct', '{"fields": {"note": {"default": "injected"}}}')$$) AS result
UNION ALL SELECT 'array of composite', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW2', 'sec_acct[]', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'owner''s domain over composite', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW3', 'sec_acct_d', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'array of that domain', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW4', 'sec_acct_d[]', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'domain over array of domain', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW5', 'sec_acct_arr_d', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'own domain over composite', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW6', 'sec_w_acct', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'own domain, deep', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW7', 'sec_w_acct_arr', '{"fields": {"note": {"default": "injected"}}}')$$)
UNION ALL SELECT 'by INSERT', pg_temp.sec_try($$INSERT INTO serde.shapes (name, target, options) VALUES ('SecW8', 'sec_acct_d', '{"fields": {"note": {"default": "injected"}}}') RETURNING 'ok'$$)
UNION ALL SELECT 'jsonb', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW9', 'jsonb')$$)
UNION ALL SELECT 'int8[] with coerce', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW10', 'int8[]', '{"coerce": true}')$$)
UNION ALL SELECT 'text', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecW11', 'text')$$)
UNION ALL SELECT 'own domain over int8[]', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecWIds', 'sec_w_ids', '{"coerce": true}')$$)
-- others' shapes can be neither replaced, retargeted, renamed nor deleted
UNION ALL SELECT 'upsert over owner''s shape', pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecAcctD', 'sec_w_ids')$$)
UNION ALL SELECT 'retarget owner''s shape', pg_temp.sec_try($$UPDATE serde.shapes SET target = 'sec_w_ids' WHERE name = 'SecAcctD' RETURNING 'ok'$$)
UNION ALL SELECT 'rename owner''s shape', pg_temp.sec_try($$UPDATE serde.shapes SET name = 'SecAcctD2' WHERE name = 'SecAcctD' RETURNING 'ok'$$)
UNION ALL SELECT 'unregister owner''s shape', pg_temp.sec_try($$SELECT serde_unregister('SecAcctD')::text$$)
UNION ALL SELECT 'unregister jsonb shape', pg_temp.sec_try($$SELECT serde_unregister('SecJsonb')::text$$)
UNION ALL SELECT 'TRUNCATE', regexp_replace(pg_temp.sec_run($$TRUNCATE serde.shapes$$), 'type .*', 'type …')   -- (the first by name)
UNION ALL SELECT 'retarget own shape to jsonb', pg_temp.sec_try($$UPDATE serde.shapes SET target = 'jsonb' WHERE name = 'SecWIds' RETURNING 'ok'$$);
RESET ROLE;
SELECT name, target, options FROM serde.shapes WHERE name LIKE 'SecW%' OR name IN ('SecAcctD', 'SecJsonb') ORDER BY name;
-- every other role's typed calls decode as before: the owner's domain with the owner's shape (no
-- injected default), jsonb with the one superuser's shape, int8[] strictly
SET ROLE regress_priv_owner;
SELECT pg_temp.sec_try($$SELECT serde_decode(NULL::sec_acct_d, '{"id": 1}')::text$$) AS owner_domain,
       pg_temp.sec_try($$SELECT serde_decode(NULL::sec_acct, '{"id": 1}')::text$$) AS owner_composite,
       pg_temp.sec_try($$SELECT serde_decode(NULL::sec_acct_d[], '[{"id": 1}]')::text$$) AS owner_domain_array,
       pg_temp.sec_try($$SELECT serde_decode(NULL::jsonb, '{"a": 1}')::text$$) AS jsonb,
       pg_temp.sec_try($$SELECT serde_decode(NULL::int8[], '["1"]')::text$$) AS int8_array;
-- the writer's own shape works for its own type
RESET ROLE;
SELECT serde_decode(NULL::sec_w_ids, '["1", 2]') AS writer_ids;
-- the owner may replace and delete its shapes (and TRUNCATE, while it owns every target: here it
-- does not, so that is refused too)
SET ROLE regress_priv_owner;
SELECT regexp_replace(pg_temp.sec_run($$TRUNCATE serde.shapes$$), 'type .*', 'type …') AS owner_truncate,
       pg_temp.sec_try($$SELECT 'ok' FROM serde_register('SecAcctD', 'sec_acct_d', '{}')$$) AS owner_replace,
       pg_temp.sec_try($$SELECT serde_unregister('SecAcctD')::text$$) AS owner_unregister;
RESET ROLE;
-- a shape whose target was dropped may be deleted by any writer
SELECT serde_register('SecGone', 'sec_acct_arr_d');
DROP DOMAIN sec_w_acct_arr, sec_acct_arr_d;
SET ROLE regress_priv_writer;
SELECT pg_temp.sec_try($$SELECT serde_unregister('SecGone')::text$$) AS dropped_target,
       pg_temp.sec_try($$SELECT serde_unregister('SecWIds')::text$$) AS own;
RESET ROLE;
SELECT serde_unregister('SecJsonb');
SELECT name FROM serde.shapes WHERE name LIKE 'SecW%' OR name IN ('SecAcctD', 'SecJsonb', 'SecGone');

-- ---- a plan keeps nothing of the role that built it (issue 11 point 1) ----------------------------------
-- A domain CHECK calls a function the decoding role may not execute: a direct decode is 42501, as
-- PostgreSQL's own cast is — also after a SECURITY DEFINER function of the owner decoded with the
-- same plan, and also for a default of that domain, converted for the role that uses it.
-- (PL/pgSQL: a SQL function would be inlined into the CHECK, and PostgreSQL itself then checks no
-- EXECUTE right either)
CREATE FUNCTION sec_positive(int4) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN $1 > 0; END';
REVOKE EXECUTE ON FUNCTION sec_positive(int4) FROM PUBLIC;
CREATE DOMAIN sec_pos AS int4 CHECK (sec_positive(VALUE));
CREATE TYPE sec_meter AS (id int4, n sec_pos);
CREATE TYPE sec_gauge AS (id int4, n sec_pos);
SELECT serde_register('SecGauge', 'sec_gauge', '{"fields": {"n": {"default": 5}}}');
CREATE FUNCTION sec_definer_decode(doc text) RETURNS text LANGUAGE sql SECURITY DEFINER
    SET search_path = public AS $$ SELECT serde_decode(NULL::sec_meter, doc)::text $$;
CREATE FUNCTION sec_definer_gauge(doc text) RETURNS text LANGUAGE sql SECURITY DEFINER
    SET search_path = public AS $$ SELECT serde_decode(NULL::sec_gauge, doc)::text $$;
GRANT EXECUTE ON FUNCTION sec_definer_decode(text), sec_definer_gauge(text) TO regress_priv_owner;
SET ROLE regress_priv_owner;
SELECT 1 AS step, 'cast' AS call, pg_temp.sec_try($$SELECT ('2'::sec_pos)::text$$) AS result
UNION ALL SELECT 2, 'direct', pg_temp.sec_try($$SELECT serde_decode(NULL::sec_meter, '{"id": 1, "n": 2}')::text$$)
UNION ALL SELECT 3, 'definer', pg_temp.sec_try($$SELECT sec_definer_decode('{"id": 1, "n": 2}')$$)
UNION ALL SELECT 4, 'direct after definer', pg_temp.sec_try($$SELECT serde_decode(NULL::sec_meter, '{"id": 1, "n": 2}')::text$$)
UNION ALL SELECT 5, 'jsonb after definer', pg_temp.sec_try($$SELECT serde_decode(NULL::sec_meter, '{"id": 1, "n": 2}'::jsonb)::text$$)
UNION ALL SELECT 6, 'valid after definer', pg_temp.sec_try($$SELECT serde_valid(NULL::sec_meter, '{"id": 1, "n": -2}')::text$$)
UNION ALL SELECT 7, 'errors after definer', pg_temp.sec_try($$SELECT count(*)::text FROM serde_errors(NULL::sec_meter, '{"id": 1, "n": -2}')$$)
UNION ALL SELECT 8, 'each after definer', pg_temp.sec_try($$SELECT count(*)::text FROM serde_decode_each(NULL::sec_meter, '[{"id": 1, "n": 2}]')$$)
UNION ALL SELECT 9, 'definer again', pg_temp.sec_try($$SELECT sec_definer_decode('{"id": 1, "n": 2}')$$)
UNION ALL SELECT 10, 'null member, definer', pg_temp.sec_try($$SELECT sec_definer_decode('{"id": 1, "n": null}')$$)
UNION ALL SELECT 11, 'default, definer', pg_temp.sec_try($$SELECT sec_definer_gauge('{"id": 1}')$$)
UNION ALL SELECT 12, 'default, direct', pg_temp.sec_try($$SELECT serde_decode(NULL::sec_gauge, '{"id": 1}')::text$$)
UNION ALL SELECT 13, 'default, definer again', pg_temp.sec_try($$SELECT sec_definer_gauge('{"id": 1}')$$)
ORDER BY 1;
RESET ROLE;
-- once granted, the role's own decodes pass the CHECK
GRANT EXECUTE ON FUNCTION sec_positive(int4) TO regress_priv_owner;
SET ROLE regress_priv_owner;
SELECT serde_decode(NULL::sec_meter, '{"id": 1, "n": 2}') AS granted,
       serde_decode(NULL::sec_gauge, '{"id": 1}') AS granted_default,
       serde_valid(NULL::sec_meter, '{"id": 1, "n": -2}') AS check_false;
RESET ROLE;
SELECT serde_unregister('SecGauge');
DROP FUNCTION sec_definer_decode(text), sec_definer_gauge(text);
DROP TYPE sec_meter, sec_gauge;
DROP DOMAIN sec_pos;
DROP FUNCTION sec_positive(int4);
DROP DOMAIN sec_w_acct, sec_w_ids, sec_acct_d;
DROP TYPE sec_acct;
REVOKE ALL ON serde.shapes FROM regress_priv_writer, regress_priv_owner;
REVOKE ALL ON SEQUENCE serde.shape_version FROM regress_priv_writer, regress_priv_owner;
REVOKE ALL ON SCHEMA serde FROM regress_priv_writer, regress_priv_owner;
DROP ROLE regress_priv_owner, regress_priv_writer;

-- ---- clean up ----------------------------------------------------------------------------------------------
SELECT serde_unregister('SecPoint'), serde_unregister('SecColour');
DROP SCHEMA sec_evil CASCADE;
DROP TYPE sec_point, sec_own, sec_colour;
DROP ROLE regress_serde_sec_nobody, regress_serde_sec_writer;
