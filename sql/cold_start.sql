-- cold_start.sql — the first call in a fresh backend (\c before each case): the library is
-- loaded and the plan built by the statement that fails, so error messages that name types
-- (enum labels, domains, varchar lengths, nested composites, a schema outside search_path) must
-- come out exactly as in a warm backend.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE SCHEMA cs_hidden;
CREATE TYPE cs_hidden.cs_colour AS ENUM ('red', 'green', 'blue');
CREATE DOMAIN cs_hidden.cs_cents AS int8 CHECK (VALUE >= 0);
CREATE DOMAIN cs_code AS varchar(3) NOT NULL;
CREATE TYPE cs_item AS (sku cs_code, colour cs_hidden.cs_colour, price cs_hidden.cs_cents);
CREATE TYPE cs_order AS (id varchar(4), items cs_item[], main cs_item, note text);
SELECT serde_register('CsOrder', 'cs_order', '{"optional": true}');

CREATE FUNCTION cs_try(doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    SELECT d::text INTO r FROM serde_decode(NULL::cs_order, doc) d;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;

-- each case first thing in a fresh backend
\c
SELECT cs_try('{"items": [{"sku": "ab", "colour": "red", "price": 1}, {"sku": "cd", "colour": "mauve"}]}');
\c
SELECT cs_try('{"main": {"sku": "ab", "price": -5}}');
\c
SELECT cs_try('{"main": {"sku": null}}');
\c
SELECT cs_try('{"main": {"sku": "abcd"}}');
\c
SELECT cs_try('{"id": "12345"}');
\c
SELECT cs_try('{"note": "a\u0000b"}');
\c
SELECT * FROM serde_errors(NULL::cs_order, '{"items": [{"colour": "pink", "price": -1, "sku": "toolong"}]}');
\c
SELECT cs_try('{"id": "o1", "items": [{"sku": "ab", "colour": "blue", "price": 7}], "main": null}');
SELECT compiles FROM serde_cache_stats();
\c
SELECT serde_describe('CsOrder') -> 'fields' -> 1;
-- the same errors again in the (now warm) backend
SELECT cs_try('{"items": [{"sku": "ab", "colour": "red", "price": 1}, {"sku": "cd", "colour": "mauve"}]}');
SELECT cs_try('{"main": {"sku": "ab", "price": -5}}');

SELECT serde_unregister('CsOrder');
DROP FUNCTION cs_try(text);
DROP TYPE cs_order, cs_item;
DROP DOMAIN cs_code;
SET client_min_messages = warning;
DROP SCHEMA cs_hidden CASCADE;
RESET client_min_messages;
