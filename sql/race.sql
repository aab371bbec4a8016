-- race.sql — a commit becomes visible to other sessions a moment before its invalidation
-- messages are sent (CommitTransaction: ProcArrayEndTransaction, then AtEOXact_Inval).  A
-- statement that starts in that gap and can already see a new shape version must decode with
-- it, not with the plan cached for the old one: the statement's snapshot knows how many
-- transactions had completed, and a plan checked against fewer re-reads its shape versions.
-- serde.debug_commit_delay (superuser, for tests) holds the peer's commit in the gap for 5 s;
-- every decode below runs inside it (peer_busy = 1 shows the peer had not finished committing).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE TYPE race_t AS (v int);
CREATE TYPE race_u AS (v int);
CREATE TYPE race_in AS (v int);
CREATE TYPE race_out AS (sub race_in);
SELECT serde_register('RaceT', 'race_t', '{"fields": {"v": {"name": "m1"}}}');
SELECT serde_register('RaceIn', 'race_in', '{"fields": {"v": {"name": "m1"}}}');
SELECT serde_register('RaceOut', 'race_out', '{"fields": {"sub": {"shape": "RaceIn"}}}');

-- peer_commit(sql, probe): the peer runs sql (autocommit) with its commit held in the gap;
-- returns once probe (a boolean query) is true here, i.e. the commit is visible
SELECT dblink_connect('race_peer', 'dbname=' || current_database());
SELECT dblink_exec('race_peer', 'SET serde.debug_commit_delay = 5000');
CREATE FUNCTION pg_temp.peer_commit(q text, probe text) RETURNS boolean LANGUAGE plpgsql AS $f$
DECLARE ok boolean;
BEGIN
    PERFORM dblink_send_query('race_peer', q);
    FOR i IN 1..1000 LOOP
        EXECUTE probe INTO ok;
        IF ok THEN RETURN true; END IF;
        PERFORM pg_sleep(0.005);
    END LOOP;
    RETURN false;
END $f$;
-- peer_done(): the peer's result once it has finished (and the connection freed for the next)
CREATE FUNCTION pg_temp.peer_done() RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text;
BEGIN
    SELECT string_agg(coalesce(x, '<void>'), ',') INTO r FROM dblink_get_result('race_peer') AS t(x text);
    PERFORM * FROM dblink_get_result('race_peer') AS t(x text);
    RETURN r;
END $f$;
CREATE FUNCTION pg_temp.lim_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || regexp_replace(msg, '[0-9]+', 'n', 'g');
END $f$;
-- the plans of this backend, compiled for the first versions
PREPARE dec_t(text) AS SELECT v FROM serde_decode(NULL::race_t, $1);
SELECT v FROM serde_decode(NULL::race_t, '{"m1": 1, "m2": 2}');
EXECUTE dec_t('{"m1": 1, "m2": 2}');
SELECT v FROM serde_decode(NULL::race_u, '{"v": 1, "m2": 2}');
SELECT (d.sub).v FROM serde_decode(NULL::race_out, '{"sub": {"m1": 1, "m2": 2}}') d;

-- 1. a shape re-registered: new call sites and a prepared statement's call site
SELECT pg_temp.peer_commit($$SELECT serde_register('RaceT', 'race_t', '{"fields": {"v": {"name": "m2"}}}')$$,
    $$SELECT options @> '{"fields": {"v": {"name": "m2"}}}' FROM serde.shapes WHERE name = 'RaceT'$$);
SELECT v FROM serde_decode(NULL::race_t, '{"m1": 1, "m2": 2}');
SELECT v FROM serde_decode(NULL::race_t, '{"m1": 1, "m2": 2}', 'RaceT');
SELECT d.v FROM serde_decode('RaceT', '{"m1": 1, "m2": 2}'::text) AS d(v int);
EXECUTE dec_t('{"m1": 1, "m2": 2}');
SELECT dblink_is_busy('race_peer') AS peer_busy;
SELECT pg_temp.peer_done();

-- 2. the first shape registered for a type that was decoded with default options
SELECT pg_temp.peer_commit($$SELECT serde_register('RaceU', 'race_u', '{"fields": {"v": {"name": "m2"}}}')$$,
    $$SELECT EXISTS (SELECT FROM serde.shapes WHERE name = 'RaceU')$$);
SELECT v FROM serde_decode(NULL::race_u, '{"v": 1, "m2": 2}');
SELECT dblink_is_busy('race_peer') AS peer_busy;
SELECT pg_temp.peer_done();

-- 3. a shape that another one refers to (the nested plan embeds it)
SELECT pg_temp.peer_commit($$SELECT serde_register('RaceIn', 'race_in', '{"fields": {"v": {"name": "m2"}}}')$$,
    $$SELECT options @> '{"fields": {"v": {"name": "m2"}}}' FROM serde.shapes WHERE name = 'RaceIn'$$);
SELECT (d.sub).v FROM serde_decode(NULL::race_out, '{"sub": {"m1": 1, "m2": 2}}') d;
SELECT serde_valid(NULL::race_out, '{"sub": {"m2": 2}}');
SELECT dblink_is_busy('race_peer') AS peer_busy;
SELECT pg_temp.peer_done();

-- 4. a shape unregistered: the typed form falls back to the default options
SELECT pg_temp.peer_commit($$SELECT serde_unregister('RaceU')::text$$,
    $$SELECT NOT EXISTS (SELECT FROM serde.shapes WHERE name = 'RaceU')$$);
SELECT v FROM serde_decode(NULL::race_u, '{"v": 1, "m2": 2}');
SELECT v FROM serde_decode(NULL::race_u, '{"v": 1}', 'RaceU');
SELECT dblink_is_busy('race_peer') AS peer_busy;
SELECT pg_temp.peer_done();

-- 6. a type dropped and created again under its name, with a shape registered for the new one:
-- a statement parsed in the gap still names the old type (this backend's syscache has not heard
-- of the drop), and must not decode it with the old type's default options
CREATE TYPE race_v AS (v int);
SELECT v FROM serde_decode(NULL::race_v, '{"v": 1, "m2": 2}');
SELECT pg_temp.peer_commit($$BEGIN; DROP TYPE race_v; CREATE TYPE race_v AS (v int);
    SELECT serde_register('RaceV', 'race_v', '{"fields": {"v": {"name": "m2"}}}'); COMMIT$$,
    $$SELECT EXISTS (SELECT FROM serde.shapes WHERE name = 'RaceV')$$);
SELECT pg_temp.lim_try($$SELECT v::text FROM serde_decode(NULL::race_v, '{"v": 1, "m2": 2}')$$);
SELECT dblink_is_busy('race_peer') AS peer_busy;
SELECT pg_temp.peer_done();
SELECT v FROM serde_decode(NULL::race_v, '{"v": 1, "m2": 2}');
SELECT serde_unregister('RaceV');
DROP TYPE race_v;

-- 5. a type dropped while another session builds a plan that uses it: PostgreSQL does not lock
-- types against their users, so the build's catalog lookups fail — 42704, not an internal error
CREATE TYPE race_gone AS (v int);
SELECT serde_register('RaceGone', 'race_gone');
SELECT dblink_exec('race_peer', 'SET serde.debug_commit_delay = 0');
SELECT dblink_exec('race_peer', 'SET serde.debug_build_delay = 60000');
SELECT dblink_send_query('race_peer', $$SELECT serde_decode(NULL::race_gone, '{"v": 1}')::text$$);
DO $$ BEGIN
    FOR i IN 1..2000 LOOP
        EXIT WHEN EXISTS (SELECT FROM pg_stat_activity WHERE wait_event = 'PgSleep'
                             AND query LIKE 'SELECT serde_decode(NULL::race_gone%');
        PERFORM pg_sleep(0.005);
    END LOOP;
END $$;
DROP TYPE race_gone;
SELECT pg_reload_conf();   -- ends the peer's delay (serde.debug_build_delay waits for a reload)
CREATE FUNCTION pg_temp.peer_error() RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    BEGIN
        SELECT string_agg(x, ',') INTO r FROM dblink_get_result('race_peer') AS t(x text);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
        r := 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(regexp_replace(det, '[0-9]+', 'n', 'g'), '') || ']', '');
    END;
    PERFORM * FROM dblink_get_result('race_peer') AS t(x text);
    RETURN r;
END $f$;
SELECT pg_temp.peer_error();
SELECT dblink_exec('race_peer', 'RESET serde.debug_build_delay');
SELECT serde_unregister('RaceGone');

-- once the invalidations have arrived, nothing changes
SELECT v FROM serde_decode(NULL::race_t, '{"m1": 1, "m2": 2}');
SELECT (d.sub).v FROM serde_decode(NULL::race_out, '{"sub": {"m1": 1, "m2": 2}}') d;
SELECT dblink_disconnect('race_peer');
SELECT serde_unregister(s) FROM unnest(ARRAY['RaceT', 'RaceOut', 'RaceIn']) s;
DROP TYPE race_out, race_in, race_t, race_u;
