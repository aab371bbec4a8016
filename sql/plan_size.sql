-- plan_size.sql — plans stay small and compiles stay stoppable (docs/reference.md, "Settings", "Plan cache"): a type reached
-- many times shares one plan node (4^10 paths through ten nested composites compile into a few
-- dozen nodes), sharing keeps every rule and error path of the place it is used at (inherited
-- policies, `shape`, `map`, `format`), serde.max_plan_bytes bounds what a plan may still grow to
-- (54000, naming the shape), and statement_timeout stops a long compile without caching it.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- try(q): the first column of q's first row, or "ERROR <sqlstate>: <message> [<hint>]"; also
-- catches a cancel (query_canceled is not among OTHERS)
CREATE FUNCTION pg_temp.ps_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; hint text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS OR query_canceled THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(hint, '') || ']', '');
END $f$;
-- the same, with how long it took
CREATE FUNCTION pg_temp.ps_timed(q text, OUT result text, OUT elapsed interval) LANGUAGE plpgsql AS $f$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    result := pg_temp.ps_try(q);
    elapsed := clock_timestamp() - t0;
END $f$;

-- ---- shared nodes ------------------------------------------------------------------------------------
-- ps_e<i> has four columns of ps_e<i-1>: 4^10 ≈ 1,000,000 paths down to the integers of ps_e0
-- (PostgreSQL's own CREATE TYPE walks them all: deeper nesting is slow to create, not to compile).
-- Each step compiles once; before, the plan was a tree of every path (2 GB for ps_e10).
CREATE TYPE ps_e0 AS (a int4, b int4, c int4, d int4);
DO $$ BEGIN
    FOR i IN 1..10 LOOP
        EXECUTE format('CREATE TYPE ps_e%s AS (a ps_e%s, b ps_e%s, c ps_e%s, d ps_e%s)', i, i - 1, i - 1, i - 1, i - 1);
    END LOOP;
END $$;
SELECT bytes AS bytes_before FROM serde_cache_stats() \gset
SELECT result, elapsed < '1s' AS fast FROM pg_temp.ps_timed($$SELECT serde_valid(NULL::ps_e10, '{}')::text$$);
SELECT plans >= 1 AS cached, bytes - :bytes_before < 1000000 AS under_1mb FROM serde_cache_stats();
-- ps_d<i> has two columns of ps_d<i-1>, 16 levels deep (65,536 paths), and arrays of it
CREATE TYPE ps_d0 AS (v int4);
DO $$ BEGIN
    FOR i IN 1..16 LOOP
        EXECUTE format('CREATE TYPE ps_d%s AS (l ps_d%s, r ps_d%s[])', i, i - 1, i - 1);
    END LOOP;
END $$;
SELECT bytes AS bytes_before FROM serde_cache_stats() \gset
SELECT result, elapsed < '1s' AS fast FROM pg_temp.ps_timed($$SELECT serde_valid(NULL::ps_d16, '{"l": null, "r": []}')::text$$);
SELECT bytes - :bytes_before < 1000000 AS under_1mb FROM serde_cache_stats();
-- serde_register compiles the same plan (and keeps nothing); serde_describe's text stays bounded
SELECT result, elapsed < '1s' AS fast
  FROM pg_temp.ps_timed($$SELECT serde_register('PsE10', 'ps_e10', '{"optional": true}')::text$$);
SELECT result, elapsed < '2s' AS fast
  FROM pg_temp.ps_timed($$SELECT (length(serde_describe('PsE10')::text) < 4000000)::text$$);
SELECT serde_describe('PsE10') -> 'fields' -> 0 -> 'fields' -> 0 -> 'fields' -> 0 ->> 'type' AS nested_type;
-- a shared node decodes at every place it is reached, with that place's path
SELECT serde_register('PsE2', 'ps_e2', '{"optional": true}');
SELECT d.a, d.b, d.c FROM serde_decode(NULL::ps_e2, '{"a": {"a": {"a": 1, "b": 2, "c": 3, "d": 4}}, "b": {"c": {"d": 5}}}', 'PsE2') d;
SELECT path, code, message, byte_offset
  FROM serde_errors(NULL::ps_e2, '{"a": {"b": {"a": "x"}}, "c": {"d": {"b": true}}, "d": {"d": {"d": 1.5}}}', 'PsE2');
SELECT path, code, message
  FROM serde_errors(NULL::ps_e2, '{"a": {"b": {"a": "x"}}, "c": {"d": {"b": true}}, "d": {"d": {"d": 1.5}}}'::jsonb, 'PsE2');

-- ---- a node is shared only where everything that makes it is the same --------------------------------
-- ps_in is reached in three ways in one plan: as its type's one shape PsIn (by type in PsOut's x and
-- z, by name in its y) inheriting PsOut's camel and optional (one node for the three), as PsIn under
-- ps_top's defaults (q.y, q.z: no shape given, the type's), and inline (q.x: the type's columns)
CREATE TYPE ps_in AS (a_b int4, c_d int4);
CREATE TYPE ps_out AS (x ps_in, y ps_in, z ps_in);
CREATE TYPE ps_top AS (p ps_out, q ps_out);
SELECT serde_register('PsIn', 'ps_in', '{"unknown": "reject"}'),
       serde_register('PsOut', 'ps_out', '{"rename": "camel", "optional": true, "fields": {"y": {"shape": "PsIn"}}}'),
       serde_register('PsTop', 'ps_top', '{"fields": {"p": {"shape": "PsOut"}, "q": {"fields": {"x": {"fields": {}}}}}}');
SELECT to_jsonb(d) AS decoded
  FROM serde_decode(NULL::ps_top, '{"p": {"x": {"aB": 1}, "y": {"aB": 2, "cD": 3}, "z": {}},
                                    "q": {"x": {"a_b": 4, "c_d": 5, "zz": 0}, "y": {"a_b": 6, "c_d": 7}, "z": {"a_b": 8, "c_d": 9}}}', 'PsTop') d;
SELECT path, code, message
  FROM serde_errors(NULL::ps_top, '{"p": {"x": {"a_b": 1}, "y": {"aB": 2, "cD": 3, "zz": 0}},
                                    "q": {"x": {"aB": 4, "c_d": 5}, "y": {"a_b": 6, "c_d": 7, "zz": 1}, "z": {"a_b": 8, "c_d": 9}}}', 'PsTop');
-- the same array type as a map and as a list; the same timestamp array in two formats
CREATE TYPE ps_kv AS (key text, value int4);
CREATE TYPE ps_maps AS (m ps_kv[], l ps_kv[], t1 timestamptz[], t2 timestamptz[]);
SELECT serde_register('PsMaps', 'ps_maps', '{"fields": {"m": {"map": true}, "t1": {"format": "unix"}}}');
SET TimeZone = 'UTC';
SELECT d.m, d.l, d.t1, d.t2
  FROM serde_decode(NULL::ps_maps, '{"m": {"a": 1}, "l": [{"key": "b", "value": 2}], "t1": [0], "t2": ["2024-01-01T00:00:00Z"]}') d;
RESET TimeZone;
SELECT path, code, message
  FROM serde_errors(NULL::ps_maps, '{"m": [{"key": "b", "value": 2}], "l": {"a": 1}, "t1": ["2024-01-01T00:00:00Z"], "t2": [0]}');

-- ---- serde.max_plan_bytes --------------------------------------------------------------------------
-- what still grows with a shape: every variant of a union gets the object's members plus its own, so
-- 600 variants of 600 columns each make a plan of over 100 MB.  Past the limit (default 64 MB): 54000
-- naming the shape, at serde_register and at first use; nothing is cached.
DO $$ BEGIN
    EXECUTE 'CREATE TYPE ps_var AS (' || (SELECT string_agg(format('f%s int4', g), ', ') FROM generate_series(1, 600) g) || ')';
    EXECUTE 'CREATE TYPE ps_union AS (kind text, ' || (SELECT string_agg(format('v%s ps_var', g), ', ') FROM generate_series(1, 600) g) || ')';
END $$;
SELECT format('{"tag": "kind", "variants": {%s}}', string_agg(format('"t%s": "v%s"', g, g), ', ')) AS union_opts
  FROM generate_series(1, 600) g \gset
SELECT plans AS plans_before FROM serde_cache_stats() \gset
SELECT pg_temp.ps_try(format('SELECT serde_register(%L, %L, %L)::text', 'PsUnion', 'ps_union', :'union_opts')) AS register;
SET serde.max_plan_bytes = '1GB';
SELECT serde_register('PsUnion', 'ps_union', :'union_opts');
RESET serde.max_plan_bytes;
SELECT pg_temp.ps_try($$SELECT serde_valid(NULL::ps_union, '{"kind": "t1"}', 'PsUnion')::text$$) AS first_use;
SELECT plans - :plans_before AS new_plans FROM serde_cache_stats();
-- the limit applies when a plan is compiled: a small one fits in 64 kB, ps_var's 600 columns do not
SET serde.max_plan_bytes = '64kB';
SELECT pg_temp.ps_try($$SELECT serde_valid(NULL::ps_e0, '{}')::text$$) AS small_fits,
       pg_temp.ps_try($$SELECT serde_valid(NULL::ps_var, '{}')::text$$) AS over_64kb;
RESET serde.max_plan_bytes;

-- ---- statement_timeout during a compile ------------------------------------------------------------
-- allowed to grow, PsUnion compiles for most of a second; a 100 ms timeout stops it promptly, the
-- half-built plan is dropped (not cached), and the next call compiles again
SET serde.max_plan_bytes = '1GB';
SELECT plans AS plans_before, compiles AS compiles_before FROM serde_cache_stats() \gset
SET statement_timeout = '100ms';
SELECT result, elapsed < '500ms' AS prompt
  FROM pg_temp.ps_timed($$SELECT serde_valid(NULL::ps_union, '{"kind": "t1"}', 'PsUnion')::text$$);
RESET statement_timeout;
SELECT plans - :plans_before AS new_plans FROM serde_cache_stats();
SET statement_timeout = '100ms';
SELECT result, elapsed < '500ms' AS prompt
  FROM pg_temp.ps_timed(format('SELECT serde_register(%L, %L, %L)::text', 'PsUnion', 'ps_union', :'union_opts'));
RESET statement_timeout;
RESET serde.max_plan_bytes;

SELECT serde_unregister(s) FROM unnest(ARRAY['PsE10', 'PsE2', 'PsIn', 'PsOut', 'PsTop', 'PsMaps', 'PsUnion']) s;
DROP TYPE ps_union, ps_var, ps_maps, ps_kv, ps_top, ps_out, ps_in;
DO $$ BEGIN
    FOR i IN REVERSE 10..0 LOOP EXECUTE format('DROP TYPE ps_e%s', i); END LOOP;
    FOR i IN REVERSE 16..0 LOOP EXECUTE format('DROP TYPE ps_d%s', i); END LOOP;
END $$;
