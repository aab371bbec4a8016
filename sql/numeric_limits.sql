-- numeric_limits.sql — checks made once, by the core, for every input format, with one SQLSTATE
-- per condition whatever the format (JSON text, jsonb, XML): numeric's storage limits (22003),
-- \u0000 in a value kept as jsonb (22032), a unix timestamp outside 0001..9999 (22008) — the
-- PostgreSQL host repeats none of them (its fast paths decline and the core reports).
-- `r` is the row as jsonb, or "ERROR <SQLSTATE>: <message>".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';

CREATE FUNCTION pg_temp.d(shape text, doc anyelement) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    IF pg_typeof(doc) = 'xml'::regtype THEN
        EXECUTE 'SELECT to_jsonb(serde_decode_xml($1, $2::text))::text' INTO r USING shape, doc;
    ELSE
        EXECUTE 'SELECT to_jsonb(serde_decode($1, $2))::text' INTO r USING shape, doc;
    END IF;
    RETURN r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;

CREATE TYPE pg_temp.nl_row AS (v numeric, t timestamptz);
SELECT 'ok' FROM serde_register('NlRow', 'pg_temp.nl_row'::regtype, '{
  "fields": {"t": {"format": "unix", "optional": true}}}');

-- numeric's storage limits: 22003 from text, jsonb and XML alike
SELECT pg_temp.d('NlRow', '{"v": 1e200000}'::text) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1e-20000}'::text) AS r;
SELECT pg_temp.d('NlRow', '<r><v>1e200000</v></r>'::xml) AS r;
SELECT pg_temp.d('NlRow', '<r><v>1e-20000</v></r>'::xml) AS r;
SELECT code, message FROM serde_errors('NlRow', '{"v": 1e200000}');
SELECT code, message FROM serde_errors_xml('NlRow', '<r><v>1e200000</v></r>');
SELECT serde_valid('NlRow', '{"v": 1e-20000}') AS text_valid,
       serde_valid_xml('NlRow', '<r><v>1e-20000</v></r>') AS xml_valid;
-- (jsonb itself cannot hold such a number: its input function refuses it first)
SELECT pg_temp.d('NlRow', '{"v": 12345678901234567890.5}'::jsonb) AS r;

-- unix timestamps: the jsonb fast path converts by the core's rule; outside 0001..9999 is 22008
SELECT pg_temp.d('NlRow', '{"v": 1, "t": 0}'::jsonb) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1, "t": 253402300799}'::jsonb) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1, "t": 253402300800}'::jsonb) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1, "t": 253402300800}'::text) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1, "t": -62135596801}'::jsonb) AS r;
SELECT pg_temp.d('NlRow', '{"v": 1, "t": -62135596801}'::text) AS r;
SELECT path, code FROM serde_errors('NlRow', '{"v": 1, "t": 253402300800}'::jsonb);

-- \u0000 in a jsonb column: the core's 22032 (never the host's); a jsonb document cannot hold it
CREATE TYPE pg_temp.nl_json AS (j jsonb);
SELECT 'ok' FROM serde_register('NlJson', 'pg_temp.nl_json'::regtype, '{}');
SELECT pg_temp.d('NlJson', '{"j": {"a": "x\u0000y"}}'::text) AS r;
SELECT pg_temp.d('NlJson', '{"j": "\u0000"}'::text) AS r;
SELECT path, code, message FROM serde_errors('NlJson', '{"j": ["ok", "\u0000"]}');
SELECT serde_valid('NlJson', '{"j": "\u0000"}') AS valid;
-- a default cannot hold it: options are jsonb, whose own input refuses it before serde runs
DO $$
BEGIN
    PERFORM serde_register('NlJsonDefault', 'pg_temp.nl_json'::regtype,
                           '{"fields": {"j": {"default": "\u0000"}}}');
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE '% %', SQLSTATE, SQLERRM;
END $$;
