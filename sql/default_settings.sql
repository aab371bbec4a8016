-- default_settings.sql — a `default` (docs/reference.md, "Field level") converts like the same value in the document,
-- under the settings of the statement using it, not those of whoever compiled the plan (issue 11
-- point 13): timetz follows TimeZone, interval IntervalStyle, regclass search_path.  Defaults of
-- the types serde parses itself are converted once and kept in the plan (their result depends
-- on no setting), and no default is converted while its member is present.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE SCHEMA ds_a;
CREATE SCHEMA ds_b;
CREATE TABLE ds_a.ds_tab (x int);
CREATE TABLE ds_b.ds_tab (x int);
CREATE TYPE ds_row AS (id int4, at timetz, span interval, rel regclass, ts timestamptz, d date);
SET search_path = ds_a, public;    -- (registration converts the defaults to check them)
SELECT serde_register('DsRow', 'ds_row', '{"fields": {
    "at":   {"default": "12:00:00"},
    "span": {"default": "-1 2:03:04"},
    "rel":  {"default": "ds_tab"},
    "ts":   {"default": "2024-01-02T03:04:05Z"},
    "d":    {"default": "2024-02-29"}}}');
RESET search_path;
-- doc(): every member given, the same values as the defaults
CREATE FUNCTION pg_temp.doc() RETURNS text LANGUAGE sql AS $$
    SELECT '{"id": 2, "at": "12:00:00", "span": "-1 2:03:04", "rel": "ds_tab",
             "ts": "2024-01-02T03:04:05Z", "d": "2024-02-29"}'$$;
-- one statement decoding with the defaults and the document side by side
CREATE FUNCTION pg_temp.compare() RETURNS TABLE (col text, from_default text, from_document text, same boolean)
LANGUAGE sql AS $$
    WITH d AS (SELECT * FROM serde_decode(NULL::ds_row, '{"id": 1}')),
         e AS (SELECT * FROM serde_decode(NULL::ds_row, pg_temp.doc()))
    SELECT 'at', d.at::text, e.at::text, d.at = e.at FROM d, e
    UNION ALL SELECT 'span', d.span::text, e.span::text, d.span = e.span FROM d, e
    UNION ALL SELECT 'rel', (SELECT relnamespace::regnamespace || '.' || relname FROM pg_class WHERE oid = d.rel),
                     (SELECT relnamespace::regnamespace || '.' || relname FROM pg_class WHERE oid = e.rel),
                     d.rel = e.rel FROM d, e
    UNION ALL SELECT 'ts', d.ts::text, e.ts::text, d.ts = e.ts FROM d, e
    UNION ALL SELECT 'd', d.d::text, e.d::text, d.d = e.d FROM d, e
$$;

-- the plan is compiled under the first settings ...
SET TimeZone = 'Etc/GMT-3';
SET IntervalStyle = postgres;
SET search_path = ds_a, public;
SELECT * FROM pg_temp.compare();
-- ... and used under others: the defaults follow, as the document's values do
SET TimeZone = 'Etc/GMT+5';
SET IntervalStyle = sql_standard;
SET search_path = ds_b, public;
SELECT * FROM pg_temp.compare();
-- the same through serde_decode_each (one row per element) and for a jsonb document
SELECT at, span, rel::oid = 'ds_b.ds_tab'::regclass::oid AS rel_is_ds_b
  FROM serde_decode_each(NULL::ds_row, '[{"id": 1}, {"id": 2}]');
SELECT at, span FROM serde_decode(NULL::ds_row, '{"id": 1}'::jsonb);
RESET TimeZone;
RESET IntervalStyle;
RESET search_path;
-- a default the settings in use cannot convert is an error of the shape's options, at its path
-- (and a document that has the member needs no default)
SET search_path = pg_catalog;
SELECT public.serde_decode(NULL::public.ds_row, '{"id": 1}');
SELECT (public.serde_decode(NULL::public.ds_row, '{"id": 1, "rel": "pg_class"}')).rel;
RESET search_path;

-- cost: a missing member with a default converted at every use (timetz) against one kept in the
-- plan (timestamptz) and against the member present (parsed by timetz's input function), 20,000
-- rows each
CREATE TYPE ds_one AS (id int4, at timetz);
CREATE TYPE ds_two AS (id int4, ts timestamptz);
SELECT serde_register('DsOne', 'ds_one', '{"fields": {"at": {"default": "12:00:00+01"}}}');
SELECT serde_register('DsTwo', 'ds_two', '{"fields": {"ts": {"default": "2024-01-02T03:04:05Z"}}}');
CREATE TEMP TABLE ds_timing (what text, elapsed interval);
DO $$
DECLARE t0 timestamptz; n bigint;
BEGIN
    PERFORM count(*) FROM generate_series(1, 1000) g, serde_decode(NULL::ds_one, '{"id": ' || g || '}') d;  -- warm
    t0 := clock_timestamp();
    SELECT count(d.at) INTO n FROM generate_series(1, 20000) g, serde_decode(NULL::ds_one, '{"id": ' || g || '}') d;
    INSERT INTO ds_timing VALUES ('per-use default', clock_timestamp() - t0);
    t0 := clock_timestamp();
    SELECT count(d.ts) INTO n FROM generate_series(1, 20000) g, serde_decode(NULL::ds_two, '{"id": ' || g || '}') d;
    INSERT INTO ds_timing VALUES ('kept default', clock_timestamp() - t0);
    t0 := clock_timestamp();
    SELECT count(d.at) INTO n FROM generate_series(1, 20000) g, serde_decode(NULL::ds_one, '{"id": ' || g || ', "at": "12:00:00+01"}') d;
    INSERT INTO ds_timing VALUES ('member present', clock_timestamp() - t0);
END $$;
SELECT what, elapsed < '2s' AS within_bound FROM ds_timing ORDER BY what;
-- (measured here: 20,000 rows in 35-60 ms each way; the per-use conversion adds ~0.4 µs a row)
SELECT (SELECT elapsed FROM ds_timing WHERE what = 'per-use default')
       < 4 * (SELECT elapsed FROM ds_timing WHERE what = 'member present') AS per_use_close_to_member_present;

SELECT serde_unregister('DsRow'), serde_unregister('DsOne'), serde_unregister('DsTwo');
DROP TYPE ds_row, ds_one, ds_two;
DROP TABLE ds_a.ds_tab, ds_b.ds_tab;
DROP SCHEMA ds_a, ds_b;
