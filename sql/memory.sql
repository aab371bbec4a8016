-- memory.sql — per-row memory does not stay in a cached plan (issue 11 item 8): a domain CHECK
-- that raises leaves its per-row memory in the plan's expression context; before the fix it stayed
-- there until some CHECK succeeded (3,000 failing decodes kept 300 MB in serde_cache_stats().bytes).
-- Every failing decode is caught in its own BEGIN/EXCEPTION block; the plan's bytes are asserted
-- under a bound (each failing CHECK allocates 60 kB, ~60 MB in all before the fix).
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- raises for a value that starts with "abc", after the CHECK built a 60 kB string for it
CREATE FUNCTION mem_boom(v text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF left(v, 3) = 'abc' THEN
        RAISE EXCEPTION 'mem_boom: % characters', length(v) USING ERRCODE = 'P0001';
    END IF;
    RETURN true;
END $$;
CREATE DOMAIN mem_big AS text CHECK (mem_boom(repeat(VALUE, 20000)));
CREATE TYPE mem_row AS (a mem_big, b int);
SELECT serde_register('MemRow', 'mem_row');

-- the raised error propagates with the path (its SQLSTATE P0001 is what the loop below catches)
SELECT serde_decode(NULL::mem_row, '{"a": "abc", "b": 1}');
SELECT serde_decode(NULL::mem_row, '{"a": "xyz", "b": 1}');
-- the plan's bytes after one good decode
CREATE TEMP TABLE mem_base AS SELECT bytes FROM serde_cache_stats();

-- 1,000 failing decodes through each entry point (typed, shape, valid, errors; text and jsonb)
DO $$
DECLARE caught int := 0;
BEGIN
    FOR i IN 1..1000 LOOP
        BEGIN
            CASE i % 6
                WHEN 0 THEN PERFORM serde_decode(NULL::mem_row, '{"a": "abc", "b": 1}');
                WHEN 1 THEN PERFORM serde_decode('MemRow', '{"a": "abc", "b": 1}');
                WHEN 2 THEN PERFORM serde_valid(NULL::mem_row, '{"a": "abc", "b": 1}');
                WHEN 3 THEN PERFORM * FROM serde_errors(NULL::mem_row, '{"a": "abc", "b": 1}');
                WHEN 4 THEN PERFORM serde_decode(NULL::mem_row, '{"a": "abc", "b": 1}'::jsonb);
                ELSE PERFORM * FROM serde_decode_each(NULL::mem_row, '[{"a": "abc", "b": 1}]');
            END CASE;
        EXCEPTION WHEN raise_exception THEN
            caught := caught + 1;
        END;
    END LOOP;
    RAISE NOTICE 'caught %', caught;
END $$;
-- the plans hold no more than they did (give or take allocator blocks), not ~60 MB
SELECT s.bytes - b.bytes < 512 * 1024 AS flat, s.bytes < 2 * 1024 * 1024 AS small
  FROM serde_cache_stats() s, mem_base b;
-- and a good decode still works
SELECT * FROM serde_decode(NULL::mem_row, '{"a": "xyz", "b": 2}');

-- clean up
SELECT serde_unregister('MemRow');
DROP TYPE mem_row;
DROP DOMAIN mem_big;
DROP FUNCTION mem_boom(text);
