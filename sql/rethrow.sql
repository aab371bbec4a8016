-- rethrow.sql — errors raised inside other types' input functions are re-thrown with the value's
-- path prefixed; the re-thrown error must not point into memory freed while it propagates
-- (a use-after-free found by `make valgrind-check`: a bad `default` for an inet column, caught
-- by a PL/pgSQL EXCEPTION block, which copies the error again).
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
CREATE TYPE rt_addr AS (ip inet, n int4);
DO $$
BEGIN
    PERFORM serde_register('RtAddr', 'rt_addr', '{"fields": {"ip": {"default": "not an address"}}}');
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'caught % %', SQLSTATE, SQLERRM;
END $$;
SELECT serde_register('RtAddr', 'rt_addr', '{}');
DO $$
DECLARE r rt_addr;
BEGIN
    SELECT * INTO r FROM serde_decode(NULL::rt_addr, '{"ip": "300.1.1.1", "n": 1}');
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'caught % %', SQLSTATE, SQLERRM;
END $$;
-- the session is still healthy
SELECT d.* FROM serde_decode(NULL::rt_addr, '{"ip": "10.0.0.1", "n": 2}') d;
SELECT serde_unregister('RtAddr');
DROP TYPE rt_addr;
