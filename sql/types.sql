-- types.sql — every column type of docs/reference.md, "Types", one list of good and bad values each.
-- Each row of a list is one document; `result` is the decoded value as text, or
-- "ERROR <SQLSTATE>: <message> [<DETAIL>]" — the full message with its path.
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set VERBOSITY default
\set SHOW_CONTEXT never

-- try(query): the query's single value as text ('<NULL>' for NULL), or the error it raised
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;
-- dec(type, doc [, shape]): the typed LATERAL form on one text document
CREATE FUNCTION pg_temp.dec(typ text, doc text, shape text DEFAULT NULL) RETURNS text
LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L%s) decoded', typ, doc,
                              coalesce(', ' || quote_literal(shape), '')))
$f$;

-- ---- text, varchar(n), char(n) -------------------------------------------------------------
CREATE TYPE ty_text AS (t text, v varchar(3), c char(3));
SELECT serde_register('TyText', 'ty_text', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_text', doc) AS result FROM (VALUES
    ('{"t": "plain"}'),
    ('{"t": ""}'),
    ('{"t": "tab\tnew\nline \"q\" \\ \/"}'),
    ('{"t": "\u00e9\u4e2d\ud83d\ude00"}'),
    ('{"t": "ü中😀"}'),
    ('{"t": null}'),
    ('{"t": 1}'),
    ('{"t": true}'),
    ('{"t": ["a"]}'),
    ('{"t": {"a": 1}}'),
    ('{"t": "\ud800"}'),
    ('{"t": "\udc00x"}'),
    ('{"t": "a\u0000b"}'),
    ('{"t": "bad \x escape"}'),
    ('{"v": "abc"}'),
    ('{"v": "äöü"}'),
    ('{"v": "😀😀😀"}'),
    ('{"v": "abcd"}'),
    ('{"v": "äöüß"}'),
    ('{"v": "ab "}'),
    ('{"v": "abc "}'),
    ('{"c": "ab"}'),
    ('{"c": "äöü"}'),
    ('{"c": "abcd"}'),
    ('{"c": "abc "}'),
    ('{"c": 1}')
) v(doc);
SELECT octet_length(d.t) AS bytes, length(d.t) AS chars
  FROM serde_decode(NULL::ty_text, '{"t": "\u00e9\u4e2d\ud83d\ude00"}') d;

-- ---- int2, int4, int8 ------------------------------------------------------------------------
CREATE TYPE ty_int AS (i2 int2, i4 int4, i8 int8);
SELECT serde_register('TyInt', 'ty_int', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_int', doc) AS result FROM (VALUES
    ('{"i2": 32767}'),
    ('{"i2": -32768}'),
    ('{"i2": 32768}'),
    ('{"i2": -32769}'),
    ('{"i4": 2147483647}'),
    ('{"i4": -2147483648}'),
    ('{"i4": 2147483648}'),
    ('{"i4": -2147483649}'),
    ('{"i8": 9223372036854775807}'),
    ('{"i8": -9223372036854775808}'),
    ('{"i8": 9223372036854775808}'),
    ('{"i8": -9223372036854775809}'),
    ('{"i8": 123456789012345678901234}'),
    ('{"i4": 0}'),
    ('{"i4": -0}'),
    ('{"i4": 1.0}'),
    ('{"i4": 1e2}'),
    ('{"i4": 1E2}'),
    ('{"i4": 1.5}'),
    ('{"i4": "1"}'),
    ('{"i4": true}'),
    ('{"i4": null}'),
    ('{"i4": 01}'),
    ('{"i4": +1}'),
    ('{"i4": .5}'),
    ('{"i4": 1.}'),
    ('{"i4": 0x10}'),
    ('{"i4": NaN}'),
    ('{"i4": Infinity}')
) v(doc);

-- coerce: numeric strings and integral numbers, never a fraction
CREATE TYPE ty_int_coerce AS (i2 int2, i4 int4, i8 int8);
SELECT serde_register('TyIntCoerce', 'ty_int_coerce', '{"optional": true, "coerce": true}');
SELECT doc, pg_temp.dec('ty_int_coerce', doc) AS result FROM (VALUES
    ('{"i4": "1"}'),
    ('{"i4": "-42"}'),
    ('{"i4": 1.0}'),
    ('{"i4": 1e2}'),
    ('{"i4": "1e2"}'),
    ('{"i4": 2.50e1}'),
    ('{"i4": 1.5}'),
    ('{"i4": "1.5"}'),
    ('{"i4": "abc"}'),
    ('{"i4": ""}'),
    ('{"i4": " 1"}'),
    ('{"i4": "2147483648"}'),
    ('{"i2": 3.2768e4}'),
    ('{"i8": "9223372036854775807"}'),
    ('{"i4": true}')
) v(doc);

-- ---- float4, float8 --------------------------------------------------------------------------
CREATE TYPE ty_float AS (f4 float4, f8 float8);
SELECT serde_register('TyFloat', 'ty_float', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_float', doc) AS result FROM (VALUES
    ('{"f8": 1.5}'),
    ('{"f8": -0.0}'),
    ('{"f8": 42}'),
    ('{"f8": 1e308}'),
    ('{"f8": 1.7976931348623157e308}'),
    ('{"f8": 5e-324}'),
    ('{"f8": 0.1}'),
    ('{"f8": 1e400}'),
    ('{"f8": -1e400}'),
    ('{"f8": 123456789012345678901234567890}'),
    ('{"f8": "1.5"}'),
    ('{"f8": false}'),
    ('{"f4": 3.25}'),
    ('{"f4": 3.4e38}'),
    ('{"f4": 1e39}'),
    ('{"f4": -1e39}'),
    ('{"f4": "1"}')
) v(doc);
SELECT serde_register('TyFloatCoerce', 'ty_float', '{"optional": true, "coerce": true}');
SELECT doc, pg_temp.dec('ty_float', doc, 'TyFloatCoerce') AS result FROM (VALUES
    ('{"f8": "1.5"}'),
    ('{"f8": "-2e3"}'),
    ('{"f8": "x"}'),
    ('{"f8": "NaN"}'),
    ('{"f8": "1e400"}')
) v(doc);

-- ---- numeric(p,s): exact, from the literal digits, no rounding ---------------------------------
CREATE TYPE ty_num AS (n numeric, n82 numeric(8,2), n50 numeric(5,0), n3m1 numeric(3,-1), nb numeric(3,5));
SELECT serde_register('TyNum', 'ty_num', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_num', doc) AS result FROM (VALUES
    ('{"n": 0.1}'),
    ('{"n": 123456789012345678901234567890.123456789012345678901234567890}'),
    ('{"n": 0.1000000000000000055511151231257827}'),
    ('{"n": -0}'),
    ('{"n": 1e2}'),
    ('{"n": 1.5E-3}'),
    ('{"n": 1e-20}'),
    ('{"n": "1.5"}'),
    ('{"n": true}'),
    ('{"n82": 3.5}'),
    ('{"n82": 3.50}'),
    ('{"n82": 3.500000}'),
    ('{"n82": 123456.78}'),
    ('{"n82": -123456.78}'),
    ('{"n82": 1234567.8}'),
    ('{"n82": 1.234}'),
    ('{"n82": 1.005}'),
    ('{"n82": 0.001e1}'),
    ('{"n82": 1e-3}'),
    ('{"n82": 1.23e2}'),
    ('{"n82": 1e6}'),
    ('{"n50": 12345}'),
    ('{"n50": 123456}'),
    ('{"n50": 1.0}'),
    ('{"n50": 1.5}'),
    ('{"n3m1": 1230}'),
    ('{"n3m1": 1234}'),
    ('{"nb": 0.00123}'),
    ('{"nb": 0.00012}'),
    ('{"nb": 0.001234}')
) v(doc);
SELECT serde_register('TyNumCoerce', 'ty_num', '{"optional": true, "coerce": true}');
SELECT doc, pg_temp.dec('ty_num', doc, 'TyNumCoerce') AS result FROM (VALUES
    ('{"n82": "12.34"}'),
    ('{"n82": "12.345"}'),
    ('{"n": "1e2"}'),
    ('{"n": "NaN"}'),
    ('{"n": "0x1"}'),
    ('{"n": " 1"}')
) v(doc);

-- ---- boolean ---------------------------------------------------------------------------------
CREATE TYPE ty_bool AS (b boolean);
SELECT serde_register('TyBool', 'ty_bool', '{"optional": true}');
SELECT serde_register('TyBoolCoerce', 'ty_bool', '{"optional": true, "coerce": true}');
SELECT doc, pg_temp.dec('ty_bool', doc, 'TyBool') AS strict,
            pg_temp.dec('ty_bool', doc, 'TyBoolCoerce') AS coerce FROM (VALUES
    ('{"b": true}'),
    ('{"b": false}'),
    ('{"b": null}'),
    ('{"b": "true"}'),
    ('{"b": "false"}'),
    ('{"b": "TRUE"}'),
    ('{"b": "yes"}'),
    ('{"b": 1}'),
    ('{"b": 0}'),
    ('{"b": True}')
) v(doc);

-- ---- timestamptz and timestamp: RFC 3339, independent of DateStyle and TimeZone -------------
SET DateStyle = 'SQL, DMY';
SET TimeZone = 'Pacific/Chatham';
SET IntervalStyle = 'postgres_verbose';
CREATE TYPE ty_ts AS (tz timestamptz, ts timestamp);
SELECT serde_register('TyTs', 'ty_ts', '{"optional": true}');
-- the decoded instants, printed in UTC ISO so that they read the same under any setting
SELECT doc, pg_temp.try(format($q$SELECT coalesce(to_char(d.tz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '-')
                                         || ' | ' || coalesce(to_char(d.ts, 'YYYY-MM-DD HH24:MI:SS.US'), '-')
                                  FROM serde_decode(NULL::ty_ts, %L) d$q$, doc)) AS "utc | timestamp"
  FROM (VALUES
    ('{"tz": "2024-01-02T03:04:05Z"}'),
    ('{"tz": "2024-01-02t03:04:05z"}'),
    ('{"tz": "2024-01-02 03:04:05Z"}'),
    ('{"tz": "2024-01-02T03:04:05+05:30"}'),
    ('{"tz": "2024-01-02T03:04:05-08:00"}'),
    ('{"tz": "2024-01-02T03:04:05-00:00"}'),
    ('{"tz": "2024-01-02T03:04:05.5Z"}'),
    ('{"tz": "2024-01-02T03:04:05.123456Z"}'),
    ('{"tz": "2024-01-02T03:04:05.1234564Z"}'),
    ('{"tz": "2024-01-02T03:04:05.1234565Z"}'),
    ('{"tz": "2024-12-31T23:59:59.9999995Z"}'),
    ('{"tz": "2024-02-29T00:00:00Z"}'),
    ('{"tz": "1969-12-31T23:59:59Z"}'),
    ('{"tz": "0001-01-01T00:00:00Z"}'),
    ('{"tz": "9999-12-31T23:59:59Z"}'),
    ('{"tz": "2024-01-02T03:04:05"}'),
    ('{"tz": "2024-01-02"}'),
    ('{"tz": "2024-01-02T03:04Z"}'),
    ('{"tz": "2024-01-02T03:04:05+0530"}'),
    ('{"tz": "2024-01-02T03:04:05 UTC"}'),
    ('{"tz": "2024-01-02T03:04:05.Z"}'),
    ('{"tz": "2024-1-2T03:04:05Z"}'),
    ('{"tz": "02/01/2024 03:04:05+00"}'),
    ('{"tz": "Jan 2 2024 03:04:05Z"}'),
    ('{"tz": "now"}'),
    ('{"tz": "infinity"}'),
    ('{"tz": "2023-02-29T00:00:00Z"}'),
    ('{"tz": "2024-02-30T00:00:00Z"}'),
    ('{"tz": "2024-13-01T00:00:00Z"}'),
    ('{"tz": "2024-01-02T24:00:01Z"}'),
    ('{"tz": "2024-01-02T03:60:00Z"}'),
    ('{"tz": "2024-01-02T03:04:05+24:00"}'),
    ('{"tz": 1700000000}'),
    ('{"ts": "2024-01-02T03:04:05"}'),
    ('{"ts": "2024-01-02 03:04:05.000001"}'),
    ('{"ts": "2024-01-02T03:04:05+02:00"}'),
    ('{"ts": "2024-01-02T03:04:05Z"}'),
    ('{"ts": "2024-02-30T03:04:05"}'),
    ('{"ts": "2024-01-02"}')
) v(doc);
-- a leap second rolls into the next minute, and fractions round, exactly as PostgreSQL's own
-- input does: each column against the cast of the same text (timetz goes through its input
-- function).  23:59:60 with a fraction would pass 24:00:00 and is refused, as by the cast.
CREATE TYPE ty_clock AS (tz timestamptz, ts timestamp, t time, ttz timetz);
CREATE FUNCTION pg_temp.clock_doc(v text) RETURNS text LANGUAGE sql AS $f$
    SELECT json_build_object('tz', v, 'ts', left(v, -6), 't', substr(v, 12, length(v) - 17),
                             'ttz', substr(v, 12))::text
$f$;
CREATE FUNCTION pg_temp.clock_show(tz timestamptz, ts timestamp, t time, ttz timetz) RETURNS text
LANGUAGE sql AS $f$
    SELECT concat_ws(' | ', to_char(tz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'),
                     to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US'), t, ttz)
$f$;
SELECT v, pg_temp.try(format($q$SELECT pg_temp.clock_show(d.tz, d.ts, d.t, d.ttz)
                                  FROM serde_decode(NULL::ty_clock, pg_temp.clock_doc(%L)) d$q$, v)) AS "serde: utc | timestamp | time | timetz",
       pg_temp.try(format($q$SELECT pg_temp.clock_show(%1$L::timestamptz, left(%1$L, -6)::timestamp,
                                                      substr(%1$L, 12, length(%1$L) - 17)::time, substr(%1$L, 12)::timetz)$q$, v)) AS "the casts"
  FROM (VALUES
    ('2016-12-31T23:59:60+00:00'),
    ('2016-12-31T23:59:60.0000005+00:00'),
    ('2016-12-31T12:30:60.25+01:00'),
    ('2016-12-31T23:59:60.5+00:00'),
    ('2016-12-31T23:59:60.000001+00:00'),
    ('2016-12-31T23:59:61+00:00'),
    ('2024-01-02T03:04:05.1234565+00:00'),
    ('2024-01-02T03:04:05.0000025+00:00'),
    ('2024-01-02T03:04:05.0000035+00:00'),
    ('2024-01-02T03:04:59.99999950+00:00')
) v(v);
-- 20,000 values, most of them exact ties at the 7th fraction digit (and 9 and 16 digits),
-- from text and from jsonb: not one differs from the cast
SELECT count(*) AS "values",
       count(*) FILTER (WHERE d.tz IS DISTINCT FROM v::timestamptz OR d.ts IS DISTINCT FROM left(v, -6)::timestamp
                              OR d.t IS DISTINCT FROM substr(v, 12, length(v) - 17)::time
                              OR d.ttz IS DISTINCT FROM substr(v, 12)::timetz) AS differ_text,
       count(*) FILTER (WHERE j.tz IS DISTINCT FROM v::timestamptz OR j.ts IS DISTINCT FROM left(v, -6)::timestamp
                              OR j.t IS DISTINCT FROM substr(v, 12, length(v) - 17)::time
                              OR j.ttz IS DISTINCT FROM substr(v, 12)::timetz) AS differ_jsonb
  FROM (SELECT format('%s-%s-%sT%s:%s:%s.%s%s', 1900 + i % 200, lpad((1 + i % 12)::text, 2, '0'),
                      lpad((1 + i % 28)::text, 2, '0'), lpad((i % 24)::text, 2, '0'),
                      lpad((i * 7 % 60)::text, 2, '0'), lpad((i * 13 % 60)::text, 2, '0'),
                      CASE i % 4 WHEN 0 THEN lpad((i * 7919 % 1000000)::text, 6, '0') || '5'
                                 WHEN 1 THEN lpad((i * 104729 % 1000000)::text, 6, '0') || '500'
                                 WHEN 2 THEN lpad((i * 15485863 % 1000000000)::text, 9, '0')
                                 ELSE lpad((i * 31 % 100000)::text, 6, '0') || '5000000000' END,
                      CASE WHEN i % 3 = 0 THEN '+00:00' ELSE '-03:30' END) AS v
          FROM generate_series(1::int8, 20000) i) g,
       LATERAL serde_decode(NULL::ty_clock, pg_temp.clock_doc(v)) d,
       LATERAL serde_decode(NULL::ty_clock, pg_temp.clock_doc(v)::jsonb) j;
DROP FUNCTION pg_temp.clock_doc(text), pg_temp.clock_show(timestamptz, timestamp, time, timetz);
DROP TYPE ty_clock;
-- as the session shows them: the odd settings change the display, never the parsing
SELECT d.tz, d.ts, d.tz = '2024-01-02 03:04:05+00'::timestamptz AS same_instant
  FROM serde_decode(NULL::ty_ts, '{"tz": "2024-01-02T03:04:05Z", "ts": "2024-01-02T03:04:05"}') d;

-- format unix / unix_ms
CREATE TYPE ty_epoch AS (s timestamptz, ms timestamptz, ts timestamp);
SELECT serde_register('TyEpoch', 'ty_epoch', '{"optional": true, "fields": {
    "s": {"format": "unix"}, "ms": {"format": "unix_ms"}, "ts": {"format": "unix"}}}');
SELECT doc, pg_temp.try(format($q$SELECT coalesce(to_char(d.s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '-')
                                         || ' | ' || coalesce(to_char(d.ms AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), '-')
                                         || ' | ' || coalesce(to_char(d.ts, 'YYYY-MM-DD HH24:MI:SS.US'), '-')
                                  FROM serde_decode(NULL::ty_epoch, %L) d$q$, doc)) AS "s | ms | ts"
  FROM (VALUES
    ('{"s": 1700000000}'),
    ('{"s": 0}'),
    ('{"s": -1}'),
    ('{"s": 1700000000.5}'),
    ('{"s": 1700000000.0000005}'),
    ('{"s": 1.7e9}'),
    ('{"s": -1.5}'),
    ('{"s": 253402300799}'),
    ('{"s": 253402300800}'),
    ('{"s": -62135596800}'),
    ('{"s": -62135596801}'),
    ('{"s": "1700000000"}'),
    ('{"s": "2024-01-02T03:04:05Z"}'),
    ('{"s": 1e20}'),
    ('{"s": 1e400}'),
    ('{"ms": 1700000000123}'),
    ('{"ms": 1700000000123.5}'),
    ('{"ms": -1}'),
    ('{"ms": 1e20}'),
    ('{"ts": 1700000000}'),
    ('{"s": null, "ms": null}')
) v(doc);

-- ---- date, time ------------------------------------------------------------------------------
CREATE TYPE ty_dt AS (d date, t time);
SELECT serde_register('TyDt', 'ty_dt', '{"optional": true}');
SELECT doc, pg_temp.try(format($q$SELECT coalesce(to_char(d.d, 'YYYY-MM-DD'), '-') || ' | ' || coalesce(d.t::text, '-')
                                  FROM serde_decode(NULL::ty_dt, %L) d$q$, doc)) AS "date | time"
  FROM (VALUES
    ('{"d": "2024-02-29"}'),
    ('{"d": "0001-01-01"}'),
    ('{"d": "2023-02-29"}'),
    ('{"d": "2024-04-31"}'),
    ('{"d": "2024-00-10"}'),
    ('{"d": "2024-1-2"}'),
    ('{"d": "20240102"}'),
    ('{"d": "02/01/2024"}'),
    ('{"d": "2024-01-02T00:00:00Z"}'),
    ('{"d": "today"}'),
    ('{"d": 20240102}'),
    ('{"t": "12:34:56"}'),
    ('{"t": "00:00:00"}'),
    ('{"t": "23:59:59.999999"}'),
    ('{"t": "12:34:56.1234567"}'),
    ('{"t": "12:34"}'),
    ('{"t": "12:34:56Z"}'),
    ('{"t": "25:00:00"}'),
    ('{"t": "12:61:00"}'),
    ('{"t": "noon"}'),
    ('{"t": 1234}')
) v(doc);
RESET DateStyle;
RESET TimeZone;
RESET IntervalStyle;

-- ---- uuid ------------------------------------------------------------------------------------
CREATE TYPE ty_uuid AS (u uuid);
SELECT serde_register('TyUuid', 'ty_uuid', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_uuid', doc) AS result FROM (VALUES
    ('{"u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}'),
    ('{"u": "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"}'),
    ('{"u": "00000000-0000-0000-0000-000000000000"}'),
    ('{"u": "a0eebc999c0b4ef8bb6d6bb9bd380a11"}'),
    ('{"u": "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"}'),
    ('{"u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1"}'),
    ('{"u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111"}'),
    ('{"u": "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}'),
    ('{"u": 1}')
) v(doc);

-- ---- bytea: base64 (default), base64url, hex -------------------------------------------------
CREATE TYPE ty_bytes AS (b64 bytea, url bytea, hex bytea);
SELECT serde_register('TyBytes', 'ty_bytes', '{"optional": true, "fields": {
    "url": {"format": "base64url"}, "hex": {"format": "hex"}}}');
SELECT doc, pg_temp.dec('ty_bytes', doc) AS result FROM (VALUES
    ('{"b64": "aGVsbG8="}'),
    ('{"b64": ""}'),
    ('{"b64": "+/+/"}'),
    ('{"b64": "AAECAw=="}'),
    ('{"b64": "aGVsbG8"}'),
    ('{"b64": "aGVs bG8="}'),
    ('{"b64": "-_-_"}'),
    ('{"b64": "aGVsbG8=="}'),
    ('{"b64": "a"}'),
    ('{"b64": 12}'),
    ('{"url": "-_-_"}'),
    ('{"url": "aGVsbG8"}'),
    ('{"url": "+/+/"}'),
    ('{"hex": "DEADbeef"}'),
    ('{"hex": ""}'),
    ('{"hex": "\\xdeadbeef"}'),
    ('{"hex": "abc"}'),
    ('{"hex": "zz"}')
) v(doc);

-- ---- enums: a string equal to a label; the error lists the labels ------------------------------
CREATE TYPE ty_colour AS ENUM ('red', 'green', 'light blue');
CREATE TYPE ty_enum AS (c ty_colour, cs ty_colour[]);
SELECT serde_register('TyEnum', 'ty_enum', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_enum', doc) AS result FROM (VALUES
    ('{"c": "red"}'),
    ('{"c": "light blue"}'),
    ('{"cs": ["green", "red", "green"]}'),
    ('{"c": "Red"}'),
    ('{"c": "blue"}'),
    ('{"c": ""}'),
    ('{"c": 1}'),
    ('{"cs": ["red", "purple"]}')
) v(doc);

-- ---- json, jsonb: any value, copied as is, validated -------------------------------------------
CREATE TYPE ty_json AS (j json, jb jsonb);
SELECT serde_register('TyJson', 'ty_json', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_json', doc) AS result FROM (VALUES
    ('{"j": {"b": 1,  "a": [true, null, 1.50]}, "jb": {"b": 1,  "a": [true, null, 1.50]}}'),
    ('{"j": "str", "jb": "str"}'),
    ('{"j": 12345678901234567890.5, "jb": 12345678901234567890.5}'),
    ('{"j": 1e2, "jb": 1e2}'),
    ('{"j": {"k": 1, "k": 2}, "jb": {"k": 1, "k": 2}}'),
    ('{"j": "\u00e9\n", "jb": "\u00e9\n"}'),
    ('{"j": null, "jb": null}'),
    ('{"j": [], "jb": {}}'),
    ('{"j": [1, 2}'),
    ('{"jb": {"a": tru}}'),
    ('{"jb": "\u0000"}')
) v(doc);
-- json null and SQL NULL are different things
SELECT d.j IS NULL AS j_sql_null, d.jb IS NULL AS jb_sql_null
  FROM serde_decode(NULL::ty_json, '{"j": null, "jb": null}') d;

-- ---- arrays: each element as T, element errors carry [i] ---------------------------------------
CREATE TYPE ty_arr AS (ints int4[], texts text[], nums numeric(4,1)[], bools boolean[]);
SELECT serde_register('TyArr', 'ty_arr', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_arr', doc) AS result FROM (VALUES
    ('{"ints": [1, 2, 3]}'),
    ('{"ints": []}'),
    ('{"ints": [1, null, 3]}'),
    ('{"texts": ["a", "b c", "", null, "\"q\""]}'),
    ('{"nums": [1.5, -2, 999.9]}'),
    ('{"bools": [true, false]}'),
    ('{"ints": [1, 2, "3"]}'),
    ('{"ints": [1, 2.5]}'),
    ('{"ints": [0, 0, 0, 2147483648]}'),
    ('{"ints": [[1, 2], [3, 4]]}'),
    ('{"nums": [1.25]}'),
    ('{"texts": ["a", 1]}'),
    ('{"ints": 1}'),
    ('{"ints": {"0": 1}}'),
    ('{"ints": "[1,2]"}')
) v(doc);

-- ---- nested composites, arrays of composites ------------------------------------------------
CREATE TYPE ty_point AS (x int4, y int4);
CREATE TYPE ty_seg AS (a ty_point, b ty_point, label text);
CREATE TYPE ty_path AS (name text, segs ty_seg[], origin ty_point);
SELECT serde_register('TyPath', 'ty_path', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_path', doc) AS result FROM (VALUES
    ('{"name": "p", "origin": {"x": 0, "y": 0}, "segs": [{"a": {"x": 1, "y": 2}, "b": {"x": 3, "y": 4}, "label": "s0"}]}'),
    ('{"segs": []}'),
    ('{"origin": null, "segs": [null, {}]}'),
    ('{"origin": {"x": 1}}'),
    ('{"origin": {"x": 1, "y": "2"}}'),
    ('{"origin": [1, 2]}'),
    ('{"origin": "(1,2)"}'),
    ('{"segs": [{}, {"a": {"x": 1, "y": 2}, "b": {"x": 3, "y": 4.5}}]}'),
    ('{"segs": [{}, {}, {"a": {"x": 1, "y": 2, "z": 3}, "b": {"y": 1}}]}'),
    ('{"segs": {"a": {}}}')
) v(doc);
-- the nested row, typed: columns reachable without (…).*
SELECT d.name, (d.segs[1]).label, ((d.segs[1]).b).y, (d.origin).x
  FROM serde_decode(NULL::ty_path, '{"name": "p", "origin": {"x": 7, "y": 8},
       "segs": [{"a": {"x": 1, "y": 2}, "b": {"x": 3, "y": 4}, "label": "s0"}]}') d;

-- ---- domains: the base type, then the domain's constraints, with the path ----------------------
CREATE DOMAIN ty_posint AS int4 CHECK (VALUE > 0);
CREATE DOMAIN ty_code AS varchar(4) NOT NULL CHECK (VALUE ~ '^[A-Z]+$');
CREATE DOMAIN ty_small_posint AS ty_posint CHECK (VALUE < 100);
CREATE DOMAIN ty_nn_text AS text NOT NULL;
CREATE TYPE ty_dom AS (p ty_posint, c ty_code, s ty_small_posint, ps ty_posint[]);
SELECT serde_register('TyDom', 'ty_dom', '{"optional": true, "fields": {"c": {"default": "X"}}}');
SELECT doc, pg_temp.dec('ty_dom', doc) AS result FROM (VALUES
    ('{"p": 5, "c": "ABC", "s": 99, "ps": [1, 2]}'),
    ('{}'),
    ('{"p": 0}'),
    ('{"p": -1}'),
    ('{"p": 1.5}'),
    ('{"p": 2147483648}'),
    ('{"p": null}'),
    ('{"c": "abc"}'),
    ('{"c": "ABCDE"}'),
    ('{"c": null}'),
    ('{"c": 1}'),
    ('{"s": 100}'),
    ('{"s": 0}'),
    ('{"ps": [1, 0]}')
) v(doc);
-- a NOT NULL domain field that is missing (no default) and optional
CREATE TYPE ty_dom2 AS (n ty_nn_text, m text);
SELECT serde_register('TyDom2', 'ty_dom2', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_dom2', doc) AS result FROM (VALUES
    ('{"n": "x"}'),
    ('{"n": null}'),
    ('{"m": "only m"}')
) v(doc);
-- CHECK violations are soft for serde_valid (false), like serde's own checks
SELECT serde_valid(NULL::ty_dom, '{"p": 0}') AS check_false,
       serde_valid(NULL::ty_dom, '{"c": null}') AS not_null,
       serde_valid(NULL::ty_dom, '{"p": 3}') AS good;

-- a CHECK expression that raises: the error propagates (also from serde_valid) with its own
-- SQLSTATE, prefixed with shape and path; domains over composites check the whole row
CREATE DOMAIN ty_div AS int4 CHECK (100 / VALUE > 0);
CREATE DOMAIN ty_pos_point AS ty_point CHECK ((VALUE).x > 0);
CREATE TYPE ty_dom3 AS (d ty_div, p ty_pos_point, ps ty_pos_point[]);
SELECT doc, pg_temp.dec('ty_dom3', doc) AS result FROM (VALUES
    ('{"d": 5, "p": {"x": 1, "y": 2}, "ps": [{"x": 1, "y": 1}]}'),
    ('{"d": 0, "p": {"x": 1, "y": 2}, "ps": []}'),
    ('{"d": 500, "p": {"x": 1, "y": 2}, "ps": []}'),
    ('{"d": 5, "p": {"x": 0, "y": 2}, "ps": []}'),
    ('{"d": 5, "p": {"x": 1, "y": 2}, "ps": [{"x": 1, "y": 1}, {"x": -1, "y": 1}]}'),
    ('{"d": 5, "p": {"x": 1, "y": "2"}, "ps": []}')
) v(doc);
SELECT pg_temp.try($$SELECT serde_valid(NULL::ty_dom3, '{"d": 0, "p": {"x": 1, "y": 2}, "ps": []}')::text$$) AS valid_raising_check,
       serde_valid(NULL::ty_dom3, '{"d": 5, "p": {"x": 0, "y": 2}, "ps": []}') AS valid_false_check;

-- ---- any other type, through its input function ----------------------------------------------
-- errors are prefixed with "<shape>: <path>: " and keep the input function's SQLSTATE
SET lc_monetary = 'C';
CREATE TYPE ty_other AS (ip inet, iv interval, m money, r int4range, p point, bits bit(4), x xml);
SELECT serde_register('TyOther', 'ty_other', '{"optional": true}');
SELECT doc, pg_temp.dec('ty_other', doc) AS result FROM (VALUES
    ('{"ip": "192.168.0.1/24"}'),
    ('{"ip": "::1"}'),
    ('{"ip": "not an address"}'),
    ('{"ip": 10}'),
    ('{"iv": "1 day 02:00:00"}'),
    ('{"iv": "P1DT2H"}'),
    ('{"iv": "forever"}'),
    ('{"m": "12.34"}'),
    ('{"m": "twelve"}'),
    ('{"m": 12.34}'),
    ('{"r": "[1,5)"}'),
    ('{"r": "[5,1)"}'),
    ('{"p": "(1,2)"}'),
    ('{"bits": "1010"}'),
    ('{"bits": "10101"}'),
    ('{"x": "<a/>"}')
) v(doc);
-- soft errors stop at other types' input functions: serde_valid still raises for them
SELECT pg_temp.try($$SELECT serde_valid(NULL::ty_other, '{"ip": "nope"}')$$) AS valid_inet;
SELECT serde_valid(NULL::ty_other, '{"ip": 1}') AS valid_kind;
RESET lc_monetary;

-- ---- non-composite targets -------------------------------------------------------------------
SELECT doc, pg_temp.dec('int4[]', doc) AS "int4[]" FROM (VALUES
    ('[1, 2]'), ('[]'), ('[1, null]'), ('[1, "2"]'), ('{"a": 1}'), ('null'), ('1')
) v(doc);
SELECT doc, pg_temp.dec('int8', doc) AS int8 FROM (VALUES
    ('42'), ('-9223372036854775808'), ('4.2'), ('"42"'), ('null'), (' 42 ')
) v(doc);
-- json: a pure validator (the document comes back unchanged)
SELECT doc, pg_temp.dec('json', doc) AS json FROM (VALUES
    ('{"b": 1,  "a": [1, 2]}'),
    ('[]'),
    ('"s"'),
    ('null'),
    ('{"a": 1,}'),
    ('[1, 2}'),
    ('{"a": 1} x')
) v(doc);
SELECT doc, pg_temp.dec('jsonb', doc) AS jsonb FROM (VALUES
    ('{"b": 1,  "a": [1, 2]}'),
    ('{"k": 1, "k": 2}'),
    ('[1, 2')
) v(doc);
SELECT doc, pg_temp.dec('ty_posint', doc) AS domain FROM (VALUES ('7'), ('0'), ('"7"')) v(doc);
SELECT doc, pg_temp.dec('ty_colour', doc) AS enum FROM (VALUES ('"green"'), ('"blue"'), ('0')) v(doc);
SELECT doc, pg_temp.dec('ty_point[]', doc) AS "composite[]" FROM (VALUES
    ('[{"x": 1, "y": 2}, {"x": 3, "y": 4}]'), ('[{"x": 1, "y": 2}, {"x": 3}]')
) v(doc);
SELECT doc, pg_temp.dec('inet', doc) AS inet FROM (VALUES ('"10.1.2.3"'), ('"10.1.2"')) v(doc);
SELECT doc, pg_temp.dec('boolean', doc) AS boolean FROM (VALUES ('true'), ('"true"')) v(doc);
-- a domain keeps its base type's typmod (a bare NULL::numeric(4,2) argument would lose it)
CREATE DOMAIN ty_num42 AS numeric(4,2);
SELECT doc, pg_temp.dec('ty_num42', doc) AS "numeric(4,2) domain" FROM (VALUES ('12.34'), ('12.345'), ('123.4')) v(doc);
-- a text target needs the three-argument form
SELECT serde_register('TyTextRoot', 'text');
SELECT d FROM serde_decode(NULL::text, '"plain text"', 'TyTextRoot') d;
SELECT pg_temp.dec('text', '1', 'TyTextRoot') AS not_a_string;

-- ---- document types: text, json, jsonb, bytea (UTF-8 bytes) -----------------------------------
CREATE TABLE ty_inbox (id int, body_text text, body_json json, body_jsonb jsonb, body_bytea bytea);
INSERT INTO ty_inbox
SELECT id, body, body::json, body::jsonb, convert_to(body, 'UTF8')
  FROM (VALUES (1, '{"name": "ä", "origin": {"x": 1, "y": 2}, "segs": []}'),
               (2, '{"name": "b", "segs": [{"label": "x", "a": {"x": 1, "y": 2}}]}')) v(id, body);
SELECT i.id, t.name AS text_name, j.name AS json_name, jb.name AS jsonb_name, b.name AS bytea_name,
       t::text = j::text AND j::text = jb::text AND jb::text = b::text AS all_equal
  FROM ty_inbox i,
       LATERAL serde_decode(NULL::ty_path, i.body_text) t,
       LATERAL serde_decode(NULL::ty_path, i.body_json) j,
       LATERAL serde_decode(NULL::ty_path, i.body_jsonb) jb,
       LATERAL serde_decode(NULL::ty_path, i.body_bytea) b
 ORDER BY i.id;
-- the same error through each document type (jsonb: no byte offset)
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ty_point, '{"x": 1, "y": "2"}'::text) d$$) AS text_doc;
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ty_point, '{"x": 1, "y": "2"}'::json) d$$) AS json_doc;
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ty_point, '{"x": 1, "y": "2"}'::jsonb) d$$) AS jsonb_doc;
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ty_point, convert_to('{"x": 1, "y": "2"}', 'UTF8')) d$$) AS bytea_doc;
-- bytea must be UTF-8
SELECT pg_temp.try($$SELECT d::text FROM serde_decode(NULL::ty_text, '\x7b2274223a2022ff227d'::bytea) d$$) AS bad_utf8;
-- the record form, for display
SELECT serde_decode('TyPath', body_text) FROM ty_inbox ORDER BY id;
SELECT r.name, r.origin FROM ty_inbox, LATERAL serde_decode('TyPath', body_jsonb) AS r(name text, segs ty_seg[], origin ty_point)
 ORDER BY id;

CREATE FUNCTION pg_temp.dec_num(lit text, tm text) RETURNS numeric LANGUAGE plpgsql AS $f$
DECLARE r numeric;
BEGIN
  EXECUTE format('SELECT serde_decode(NULL::numeric%s, %L)', tm, lit) INTO r;
  RETURN r;
END $f$;
CREATE FUNCTION pg_temp.cast_num(lit text, tm text) RETURNS numeric LANGUAGE plpgsql AS $f$
DECLARE r numeric;
BEGIN
  EXECUTE format('SELECT %L::numeric%s', lit, tm) INTO r;
  RETURN r;
END $f$;
-- ---- exact numerics parsed once (issue 12 item 8) ----------------------------------------------
-- Plain literals of up to 18 digits are parsed by the core alone and built from their digits;
-- the rest (exponents, longer literals) go through numeric_in.  Each must be byte-identical to
-- PostgreSQL's own cast under the same typmod: value, display scale, weight, sign (-0 is 0).
SELECT lit, tm, serde_text,
       serde_bytes = cast_bytes AS same_bytes
  FROM (VALUES ('0', ''), ('-0', ''), ('-0.00', ''), ('0.000', ''), ('1.50', ''), ('-7', ''),
               ('100.10', ''), ('0.000000000000000001', ''), ('0.0000000000000000001', ''),
               ('123456789012345678', ''), ('1234567890123456789', ''), ('-0.123456789012345678', ''),
               ('1e2', ''), ('1.5E-3', ''), ('-0e5', ''), ('9999.5', ''),
               ('1.5', '(5,2)'), ('1.50', '(5,1)'), ('-0.00', '(5,2)'), ('123.45', '(5,2)'),
               ('99999', '(5,0)'), ('0.0001', '(2,5)'), ('12300', '(3,-2)'), ('1e2', '(5,2)'),
               ('0.5', '(30,20)'), ('12345678901234567.5', '(20,1)'), ('-1', '(1,0)'))
         AS v(lit, tm),
       LATERAL (SELECT x::text AS serde_text, numeric_send(x) AS serde_bytes
                  FROM pg_temp.dec_num(lit, tm) x) s,
       LATERAL (SELECT numeric_send(y) AS cast_bytes
                  FROM pg_temp.cast_num(lit, tm) y) c;
-- numeric_in's own limits stay serde's range errors
SELECT pg_temp.try($$SELECT serde_decode(NULL::numeric, '1e-16384')::text$$) AS beyond_dscale;
SELECT pg_temp.try($$SELECT serde_decode(NULL::numeric(5,2), '1000.0')::text$$) AS overflow_plain;
SELECT pg_temp.try($$SELECT serde_decode(NULL::numeric(5,1), '1.55')::text$$) AS too_many_places;
DROP FUNCTION pg_temp.dec_num(text, text), pg_temp.cast_num(text, text);

-- ---- clean up ----------------------------------------------------------------------------------
SELECT count(*) FILTER (WHERE serde_unregister(name)) AS unregistered
  FROM (VALUES ('TyText'), ('TyInt'), ('TyIntCoerce'), ('TyFloat'), ('TyFloatCoerce'), ('TyNum'),
               ('TyNumCoerce'), ('TyBool'), ('TyBoolCoerce'), ('TyTs'), ('TyEpoch'), ('TyDt'),
               ('TyUuid'), ('TyBytes'), ('TyEnum'), ('TyJson'), ('TyArr'), ('TyPath'), ('TyDom'),
               ('TyDom2'), ('TyOther'), ('TyTextRoot')) v(name);
DROP TABLE ty_inbox;
DROP TYPE ty_dom3;
DROP DOMAIN ty_pos_point, ty_div;
DROP TYPE ty_text, ty_int, ty_int_coerce, ty_float, ty_num, ty_bool, ty_ts, ty_epoch, ty_dt, ty_uuid,
          ty_bytes, ty_enum, ty_colour, ty_json, ty_arr, ty_path, ty_seg, ty_point, ty_dom, ty_dom2,
          ty_other;
DROP DOMAIN ty_small_posint, ty_posint, ty_code, ty_nn_text, ty_num42;
DROP FUNCTION pg_temp.dec(text, text, text), pg_temp.try(text);
