-- cache.sql — the plan cache of docs/reference.md, "Plan cache": compiled once per backend per shape and reused across
-- statements; every change of issue 2 point 7 is honoured by the next statement (of this backend
-- and of another one, reached with dblink), and nothing else recompiles.
-- Only deltas of serde_cache_stats().compiles and decode results are printed, so that the output
-- does not depend on what ran before.
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- try(query [, with_detail]): the query's single value as text, or its error (with_detail false
-- leaves out a DETAIL that is not stable, such as an OID)
CREATE FUNCTION pg_temp.try(q text, with_detail boolean DEFAULT true) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg
           || CASE WHEN with_detail THEN coalesce(' [' || nullif(det, '') || ']', '') ELSE '' END;
END $f$;
-- compiles(): compiles of this backend since the previous call
CREATE TEMP TABLE ca_seen (who text PRIMARY KEY, compiles bigint);
INSERT INTO ca_seen SELECT 'me', compiles FROM serde_cache_stats();
CREATE FUNCTION pg_temp.compiles() RETURNS bigint LANGUAGE sql AS $f$
    WITH now AS (SELECT compiles FROM serde_cache_stats()),
         old AS (SELECT compiles FROM ca_seen WHERE who = 'me'),
         upd AS (UPDATE ca_seen SET compiles = (SELECT compiles FROM now) WHERE who = 'me')
    SELECT (SELECT compiles FROM now) - (SELECT compiles FROM old)
$f$;
-- the peer: a second backend of the same database
SELECT dblink_connect('ca_peer', 'dbname=' || current_database());
SELECT dblink_exec('ca_peer', 'SET client_min_messages = warning');
-- in the peer: pg_temp.try and pg_temp.compiles as above
SELECT dblink_exec('ca_peer', $peer$
    CREATE FUNCTION pg_temp.try(q text, with_detail boolean) RETURNS text LANGUAGE plpgsql AS $f$
    DECLARE r text; st text; msg text; det text;
    BEGIN
        EXECUTE q INTO r;
        RETURN coalesce(r, '<NULL>');
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
        RETURN 'ERROR ' || st || ': ' || msg
               || CASE WHEN with_detail THEN coalesce(' [' || nullif(det, '') || ']', '') ELSE '' END;
    END $f$;
    CREATE TEMP TABLE ca_seen AS SELECT compiles FROM serde_cache_stats();
    CREATE FUNCTION pg_temp.compiles() RETURNS bigint LANGUAGE sql AS $g$
        WITH now AS (SELECT compiles FROM serde_cache_stats()),
             old AS (SELECT compiles FROM ca_seen),
             upd AS (UPDATE ca_seen SET compiles = (SELECT compiles FROM now))
        SELECT (SELECT compiles FROM now) - (SELECT compiles FROM old)
    $g$;
$peer$);
-- peer(query): the query's single value as text (or its error), run in the peer backend
CREATE FUNCTION pg_temp.peer(q text, with_detail boolean DEFAULT true) RETURNS text LANGUAGE sql AS $f$
    SELECT r FROM dblink('ca_peer', format('SELECT pg_temp.try(%L, %L)', q, with_detail)) AS t(r text)
$f$;
-- remote(conninfo, query): run a query that returns rows in another session
CREATE FUNCTION pg_temp.remote(conn text, q text) RETURNS text LANGUAGE sql AS $f$
    SELECT string_agg(r, ',') FROM dblink(conn, format('SELECT (%s)::text', q)) AS t(r text)
$f$;
-- peer_compiles(): the peer's compiles since the previous call
CREATE FUNCTION pg_temp.peer_compiles() RETURNS bigint LANGUAGE sql AS $f$
    SELECT c FROM dblink('ca_peer', 'SELECT pg_temp.compiles()') AS t(c bigint)
$f$;

CREATE TYPE ca_colour AS ENUM ('red', 'green');
CREATE DOMAIN ca_small AS int4 CHECK (VALUE < 100);
CREATE TYPE ca_point AS (x int4, y int4);
CREATE TYPE ca_item AS (id int4, colour ca_colour, n ca_small, pt ca_point);
SELECT serde_register('CaItem', 'ca_item', '{"optional": true}');
SELECT pg_temp.compiles() IS NOT NULL AS started;

-- ---- 1,000 decodes → 1 compile; the plan is reused by later statements ---------------------------
SELECT count(d.id) AS decoded, sum(d.id) AS id_sum
  FROM generate_series(1, 1000) g,
       LATERAL serde_decode(NULL::ca_item, format('{"id": %s, "colour": "red", "pt": {"x": 1, "y": 2}}', g)) d;
SELECT pg_temp.compiles() AS compiles_for_1000;
SELECT count(d.id) FROM generate_series(1, 1000) g, LATERAL serde_decode(NULL::ca_item, '{"id": 1}', 'CaItem') d;
SELECT count(*) FROM generate_series(1, 1000) g WHERE serde_valid('CaItem', '{"id": 1}');
SELECT pg_temp.compiles() AS compiles_for_2000_more;
-- the peer compiles once for itself, too
SELECT pg_temp.peer($$SELECT count(d.id) FROM generate_series(1, 1000) g, LATERAL serde_decode(NULL::ca_item, '{"id": 1}') d$$) AS peer_count,
       pg_temp.peer_compiles() AS peer_compiles;
SELECT pg_temp.peer($$SELECT count(*) FROM serde_decode(NULL::ca_item, '{"id": 1}') d$$) AS peer_count,
       pg_temp.peer_compiles() AS peer_compiles;

-- ---- re-registering in another session --------------------------------------------------------------
SELECT pg_temp.remote('dbname=' || current_database(),
    $$SELECT 'registered' FROM serde_register('CaItem', 'ca_item', '{"optional": true, "fields": {"id": {"name": "ID"}}}')$$);
SELECT d.id FROM serde_decode(NULL::ca_item, '{"ID": 7, "id": 8}') d;
SELECT pg_temp.compiles() AS compiles_after_remote_register;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"ID": 7, "id": 8}') d;
SELECT pg_temp.compiles() AS compiles_next_statement;
-- the peer (which cached the old plan) sees it in its next statement as well
SELECT pg_temp.peer($$SELECT d.id FROM serde_decode(NULL::ca_item, '{"ID": 7, "id": 8}') d$$) AS peer_id,
       pg_temp.peer_compiles() AS peer_compiles;

-- ---- a plain UPDATE on serde.shapes, here and in the peer -------------------------------------------
UPDATE serde.shapes SET options = '{"optional": true, "fields": {"id": {"name": "Id"}}}' WHERE name = 'CaItem';
SELECT d.id FROM serde_decode(NULL::ca_item, '{"ID": 7, "Id": 9}') d;
SELECT pg_temp.compiles() AS compiles_after_update;
SELECT pg_temp.peer($$SELECT d.id FROM serde_decode(NULL::ca_item, '{"ID": 7, "Id": 9}') d$$) AS peer_id,
       pg_temp.peer_compiles() AS peer_compiles;
-- an UPDATE made by the peer
SELECT dblink_exec('ca_peer', $$UPDATE serde.shapes SET options = '{"optional": true, "fields": {"id": {"name": "iD"}}}' WHERE name = 'CaItem'$$);
SELECT d.id FROM serde_decode(NULL::ca_item, '{"Id": 9, "iD": 10}') d;
SELECT pg_temp.compiles() AS compiles_after_peer_update;
-- ... and under session_replication_role = replica
SET session_replication_role = replica;
UPDATE serde.shapes SET options = '{"optional": true, "fields": {"id": {"name": "ident"}}}' WHERE name = 'CaItem';
RESET session_replication_role;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"iD": 10, "ident": 11}') d;
SELECT pg_temp.compiles() AS compiles_after_replica_update;
SELECT pg_temp.peer($$SELECT d.id FROM serde_decode(NULL::ca_item, '{"iD": 10, "ident": 11}') d$$) AS peer_id,
       pg_temp.peer_compiles() AS peer_compiles;
SELECT dblink_exec('ca_peer', 'SET session_replication_role = replica');
SELECT dblink_exec('ca_peer', $$UPDATE serde.shapes SET options = '{"optional": true}' WHERE name = 'CaItem'$$);
SELECT dblink_exec('ca_peer', 'RESET session_replication_role');
SELECT d.id FROM serde_decode(NULL::ca_item, '{"ident": 11, "id": 12}') d;
SELECT pg_temp.compiles() AS compiles_after_peer_replica_update;
-- an UPDATE that changes nothing still bumps the version: one recompile, same result
UPDATE serde.shapes SET options = options WHERE name = 'CaItem';
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 12}') d;
SELECT pg_temp.compiles() AS compiles_after_noop_update;

-- ---- the next statement of the same transaction, and a rolled-back change ------------------------
BEGIN;
SELECT serde_register('CaItem', 'ca_item', '{"optional": true, "fields": {"id": {"name": "tx"}}}');
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "tx": 2}') d;
SELECT pg_temp.peer($$SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "tx": 2}') d$$) AS peer_before_commit;
ROLLBACK;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "tx": 2}') d;
SELECT pg_temp.compiles() AS compiles_in_and_after_rollback;
BEGIN;
UPDATE serde.shapes SET options = '{"optional": true, "fields": {"id": {"name": "sp"}}}' WHERE name = 'CaItem';
SAVEPOINT s1;
UPDATE serde.shapes SET options = '{"optional": true, "fields": {"id": {"name": "sp2"}}}' WHERE name = 'CaItem';
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "sp": 2, "sp2": 3}') d;
ROLLBACK TO SAVEPOINT s1;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "sp": 2, "sp2": 3}') d;
ROLLBACK;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "sp": 2, "sp2": 3}') d;
SELECT pg_temp.compiles() AS compiles_in_and_after_savepoints;
-- a change rolled back by the peer is never seen
SELECT dblink_exec('ca_peer', 'BEGIN');
SELECT pg_temp.remote('ca_peer', $$SELECT 'registered' FROM serde_register('CaItem', 'ca_item', '{"fields": {"id": {"name": "never"}}}')$$);
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "never": 2}') d;
SELECT dblink_exec('ca_peer', 'ROLLBACK');
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "never": 2}') d;
SELECT pg_temp.compiles() AS compiles_after_peer_rollback;

-- ---- DELETE: the shape is gone for the next statement ----------------------------------------------
SELECT serde_register('CaGone', 'ca_point');
SELECT d.x FROM serde_decode(NULL::ca_point, '{"x": 1, "y": 2}', 'CaGone') d;
SELECT pg_temp.peer($$SELECT d.x FROM serde_decode(NULL::ca_point, '{"x": 1, "y": 2}', 'CaGone') d$$) AS peer_x;
DELETE FROM serde.shapes WHERE name = 'CaGone';
SELECT pg_temp.try($$SELECT d.x FROM serde_decode(NULL::ca_point, '{"x": 1, "y": 2}', 'CaGone') d$$) AS after_delete;
SELECT pg_temp.peer($$SELECT d.x FROM serde_decode(NULL::ca_point, '{"x": 1, "y": 2}', 'CaGone') d$$) AS peer_after_delete;
-- the typed two-argument form falls back to the default options once the only shape is gone
SELECT serde_register('CaOnly', 'ca_point', '{"rename": "upper"}');
SELECT d.x FROM serde_decode(NULL::ca_point, '{"X": 3, "Y": 4}') d;
SET session_replication_role = replica;
DELETE FROM serde.shapes WHERE name = 'CaOnly';
RESET session_replication_role;
SELECT pg_temp.try($$SELECT d.x FROM serde_decode(NULL::ca_point, '{"X": 3, "Y": 4}') d$$) AS default_options;
SELECT d.x FROM serde_decode(NULL::ca_point, '{"x": 5, "y": 6}') d;

-- ---- ALTER TYPE … ADD ATTRIBUTE on the target and on a nested type ---------------------------------
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2}, "extra": "e"}') d;
SELECT pg_temp.peer($$SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "extra": "e"}') d$$) AS peer_row;
SELECT pg_temp.compiles() >= 0 AS reset_counter, pg_temp.peer_compiles() >= 0 AS reset_peer_counter;
ALTER TYPE ca_item ADD ATTRIBUTE extra text;
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2}, "extra": "e"}') d;
SELECT d.extra FROM serde_decode(NULL::ca_item, '{"id": 1, "extra": "e"}') d;
SELECT pg_temp.compiles() AS compiles_after_add_attribute;
SELECT pg_temp.peer($$SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "extra": "e"}') d$$) AS peer_row,
       pg_temp.peer_compiles() AS peer_compiles;
ALTER TYPE ca_point ADD ATTRIBUTE z int4;
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2, "z": 3}}') d;
SELECT pg_temp.compiles() AS compiles_after_nested_add_attribute;
SELECT pg_temp.peer($$SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2, "z": 3}}') d$$) AS peer_row;
-- other changes of a type's columns: rename, retype, drop
ALTER TYPE ca_point RENAME ATTRIBUTE z TO depth;
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2, "z": 3, "depth": 4}}') d;
ALTER TYPE ca_point ALTER ATTRIBUTE depth TYPE numeric(3,1);
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2, "depth": 4.5}}') d;
ALTER TYPE ca_point DROP ATTRIBUTE depth;
ALTER TYPE ca_item DROP ATTRIBUTE extra;
SELECT d::text FROM serde_decode(NULL::ca_item, '{"id": 1, "pt": {"x": 1, "y": 2, "depth": 4.5}, "extra": "e"}') d;
-- a shape whose options name a column that was dropped no longer compiles
SELECT serde_register('CaPointY', 'ca_point', '{"fields": {"y": {"name": "why"}}}');
ALTER TYPE ca_point DROP ATTRIBUTE y;
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ca_point, '{"x": 1}', 'CaPointY') d$$) AS option_on_dropped_column;
SELECT serde_unregister('CaPointY');
ALTER TYPE ca_point ADD ATTRIBUTE y int4;

-- ---- ALTER TYPE … ADD VALUE on an enum ---------------------------------------------------------------
SELECT pg_temp.try($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "blue"}') d$$) AS before_add_value;
SELECT pg_temp.peer($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "blue"}') d$$) AS peer_before;
ALTER TYPE ca_colour ADD VALUE 'blue';
SELECT d.colour FROM serde_decode(NULL::ca_item, '{"colour": "blue"}') d;
SELECT pg_temp.peer($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "blue"}') d$$) AS peer_after;
ALTER TYPE ca_colour RENAME VALUE 'green' TO 'verde';
SELECT pg_temp.try($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "green"}') d$$) AS renamed_away,
       pg_temp.try($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "verde"}') d$$) AS renamed_to;
-- inside a transaction block a value added there cannot be used before COMMIT (as with enum_in)
BEGIN;
ALTER TYPE ca_colour ADD VALUE 'black';
SELECT pg_temp.try($$SELECT 'black'::ca_colour::text$$) AS enum_in;
SELECT pg_temp.try($$SELECT d.colour::text FROM serde_decode(NULL::ca_item, '{"colour": "black"}') d$$) AS serde;
COMMIT;
SELECT d.colour FROM serde_decode(NULL::ca_item, '{"colour": "black"}') d;

-- ---- a changed domain constraint ------------------------------------------------------------------
SELECT d.n FROM serde_decode(NULL::ca_item, '{"n": 50}') d;
SELECT pg_temp.peer($$SELECT d.n::text FROM serde_decode(NULL::ca_item, '{"n": 50}') d$$) AS peer_n;
ALTER DOMAIN ca_small ADD CONSTRAINT ca_small_lt_10 CHECK (VALUE < 10);
SELECT pg_temp.try($$SELECT d.n::text FROM serde_decode(NULL::ca_item, '{"n": 50}') d$$) AS after_add_constraint;
SELECT pg_temp.peer($$SELECT d.n::text FROM serde_decode(NULL::ca_item, '{"n": 50}') d$$) AS peer_after_add_constraint;
ALTER DOMAIN ca_small DROP CONSTRAINT ca_small_lt_10;
SELECT d.n FROM serde_decode(NULL::ca_item, '{"n": 50}') d;
ALTER DOMAIN ca_small SET NOT NULL;
SELECT pg_temp.try($$SELECT d.n::text FROM serde_decode(NULL::ca_item, '{"n": null}') d$$) AS after_set_not_null;
ALTER DOMAIN ca_small DROP NOT NULL;
SELECT d.n IS NULL AS n_is_null FROM serde_decode(NULL::ca_item, '{"n": null}') d;

-- ---- a dropped target type: 42704 -------------------------------------------------------------------
CREATE TYPE ca_doomed AS (a int4);
SELECT serde_register('CaDoomed', 'ca_doomed');
SELECT serde_decode('CaDoomed', '{"a": 1}');
SELECT pg_temp.peer($$SELECT serde_decode('CaDoomed', '{"a": 1}')::text$$) AS peer_before_drop;
DROP TYPE ca_doomed;
SELECT pg_temp.try($$SELECT serde_decode('CaDoomed', '{"a": 1}')::text$$, false) AS after_drop;
SELECT pg_temp.peer($$SELECT serde_decode('CaDoomed', '{"a": 1}')::text$$, false) AS peer_after_drop;
SELECT pg_temp.try($$SELECT serde_describe('CaDoomed')::text$$, false) AS describe_after_drop;
SELECT pg_temp.try($$SELECT serde_valid('CaDoomed', '{"a": 1}')::text$$, false) AS valid_after_drop;
SELECT serde_unregister('CaDoomed');
-- a dropped nested type (CASCADE removes the column that used it)
CREATE TYPE ca_inner AS (v int4);
CREATE TYPE ca_outer AS (id int4, inner_v ca_inner);
SELECT serde_register('CaOuter', 'ca_outer', '{"optional": true}');
SELECT serde_decode('CaOuter', '{"id": 1, "inner_v": {"v": 2}}');
DROP TYPE ca_inner CASCADE;
SELECT serde_decode('CaOuter', '{"id": 1, "inner_v": {"v": 2}}');
-- the record form still fits a column definition list (the type now has a dropped column)
SELECT pg_temp.try($$SELECT o.id::text FROM serde_decode('CaOuter', '{"id": 1}') AS o(id int4)$$) AS coldef_after_drop;

-- ---- nothing else recompiles ---------------------------------------------------------------------------
SELECT count(*) FROM serde_decode(NULL::ca_item, '{"id": 1}') d WHERE serde_valid('CaOuter', '{"id": 1}');
SELECT pg_temp.peer($$SELECT count(*)::text FROM serde_decode(NULL::ca_item, '{"id": 1}') d$$) AS peer_warm;
SELECT pg_temp.compiles() >= 0 AS reset_counter, pg_temp.peer_compiles() >= 0 AS reset_peer_counter;
ANALYZE serde.shapes;
VACUUM serde.shapes;
GRANT SELECT ON serde.shapes TO PUBLIC;
REVOKE SELECT ON serde.shapes FROM PUBLIC;
CREATE TYPE ca_unrelated AS (q int4);
CREATE TYPE ca_unrelated_enum AS ENUM ('a');
ALTER TYPE ca_unrelated_enum ADD VALUE 'b';
CREATE DOMAIN ca_unrelated_domain AS int4 CHECK (VALUE > 0);
ALTER DOMAIN ca_unrelated_domain ADD CONSTRAINT c2 CHECK (VALUE < 5);
DROP TYPE ca_unrelated, ca_unrelated_enum;
DROP DOMAIN ca_unrelated_domain;
CREATE TABLE ca_unrelated_table (a int);
DROP TABLE ca_unrelated_table;
SELECT serde_register('CaOther', 'int4');
SELECT serde_unregister('CaOther');
SELECT count(*) FROM serde_decode(NULL::ca_item, '{"id": 1}') d WHERE serde_valid('CaOuter', '{"id": 1}');
SELECT pg_temp.compiles() AS compiles_after_unrelated_changes;
SELECT pg_temp.peer($$SELECT count(*)::text FROM serde_decode(NULL::ca_item, '{"id": 1}') d$$) AS peer_count,
       pg_temp.peer_compiles() AS peer_compiles_after_unrelated_changes;
-- a REPEATABLE READ transaction compiles nothing by itself ...
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM generate_series(1, 100) g, LATERAL serde_decode(NULL::ca_item, '{"id": 1}') d;
SELECT count(*) FROM generate_series(1, 100) g WHERE serde_decode('CaOuter', '{"id": 1}') IS NOT NULL;
COMMIT;
SELECT count(*) FROM serde_decode(NULL::ca_item, '{"id": 1}') d;
SELECT pg_temp.compiles() AS compiles_repeatable_read;
-- ... and never caches an old version: a change committed meanwhile is used by the next statement
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "rr": 2}') d;
SELECT pg_temp.remote('ca_peer', $$SELECT 'registered' FROM serde_register('CaItem', 'ca_item', '{"optional": true, "fields": {"id": {"name": "rr"}}}')$$);
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "rr": 2}') d;
SELECT count(*) AS rows_in_snapshot FROM serde.shapes WHERE name = 'CaItem' AND options::text LIKE '%rr%';
COMMIT;
SELECT d.id FROM serde_decode(NULL::ca_item, '{"id": 1, "rr": 2}') d;
SELECT pg_temp.compiles() AS compiles_for_one_change;

-- ---- clean up ------------------------------------------------------------------------------------------
SELECT dblink_disconnect('ca_peer');
SELECT serde_unregister('CaItem'), serde_unregister('CaOuter');
DROP TYPE ca_item, ca_outer, ca_point, ca_colour;
DROP DOMAIN ca_small;
DROP TABLE ca_seen;
DROP FUNCTION pg_temp.peer_compiles(), pg_temp.peer(text, boolean), pg_temp.remote(text, text), pg_temp.compiles(),
              pg_temp.try(text, boolean);
