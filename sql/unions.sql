-- unions.sql — discriminated unions (`tag` + `variants`, docs/reference.md, "Shape level"): the tag selects the
-- variant column that decodes the same object, the other variant columns are NULL; the tag may
-- appear anywhere in the object; a union nested in a list (events[] of mixed kinds); unknown,
-- missing and non-string tags; unknown members under `unknown: reject`; text, json and jsonb
-- documents; serde_valid / serde_errors; registration errors.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- ---- a payment: card or bank transfer ---------------------------------------------------------
CREATE TYPE un_card AS (last4 text, brand text, exp_year int2);
CREATE TYPE un_bank AS (iban text, bic text);
CREATE TYPE un_payment AS (id text, amount int8, card un_card, bank un_bank);
SELECT serde_register('UnPayment', 'un_payment',
    '{"tag": "type", "variants": {"card": "card", "bank_transfer": "bank"},
      "fields": {"bank": {"shape": "UnBank"}}}');
-- a variant column may have a shape of its own (here: bic optional)
SELECT serde_register('UnBank', 'un_bank', '{"fields": {"bic": {"optional": true}}}');
SELECT serde_register('UnPayment', 'un_payment',
    '{"tag": "type", "variants": {"card": "card", "bank_transfer": "bank"},
      "fields": {"bank": {"shape": "UnBank"}}}');

-- the tag first, last, in the middle
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"type": "card", "id": "py_1", "amount": 1250, "last4": "4242", "brand": "visa", "exp_year": 2030}') d;
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"id": "py_2", "amount": 99, "iban": "DE89370400440532013000", "type": "bank_transfer"}') d;
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"id": "py_3", "last4": "0005", "type": "card", "brand": "amex", "exp_year": 2031, "amount": 1}') d;
-- members of the other variant are ignored (unknown: ignore)
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"id": "py_4", "amount": 5, "type": "bank_transfer", "iban": "FR76", "bic": "BNPAFRPP", "last4": "1111"}') d;
-- json and jsonb documents give the same rows
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"id": "py_5", "amount": 7, "last4": "4242", "brand": "visa", "exp_year": 2030, "type": "card"}'::json) d;
SELECT d.* FROM serde_decode(NULL::un_payment,
    '{"id": "py_5", "amount": 7, "last4": "4242", "brand": "visa", "exp_year": 2030, "type": "card"}'::jsonb) d;
-- the record form
SELECT serde_decode('UnPayment', '{"type": "bank_transfer", "id": "py_6", "amount": 0, "iban": "NL91"}');

-- bad documents: unknown tag value, missing tag, tag of the wrong kind, null tag
SELECT serde_decode(NULL::un_payment, '{"id": "py_7", "amount": 1, "type": "cash"}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_7", "amount": 1, "type": "cash"}'::jsonb);
SELECT serde_decode(NULL::un_payment, '{"id": "py_8", "amount": 1, "iban": "DE89"}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_8", "amount": 1, "iban": "DE89"}'::jsonb);
SELECT serde_decode(NULL::un_payment, '{"id": "py_9", "type": 7, "amount": 1}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_9", "type": null, "amount": 1}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_9", "type": "Card", "amount": 1}');
-- a variant's own members are checked like any other
SELECT serde_decode(NULL::un_payment, '{"id": "py_10", "amount": 1, "type": "card", "brand": "visa", "exp_year": 2030}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_10", "amount": 1, "type": "card", "last4": "1", "brand": "visa", "exp_year": 99999}');
SELECT serde_decode(NULL::un_payment, '{"id": "py_10", "amount": 1, "type": "card", "last4": "1", "brand": "visa", "exp_year": 99999}'::jsonb);

-- serde_valid and serde_errors
SELECT serde_valid(NULL::un_payment, '{"id": "a", "amount": 1, "type": "bank_transfer", "iban": "x"}') AS good,
       serde_valid(NULL::un_payment, '{"id": "a", "amount": 1, "type": "wire", "iban": "x"}') AS unknown_tag,
       serde_valid(NULL::un_payment, '{"id": "a", "amount": 1, "iban": "x"}') AS missing_tag,
       serde_valid(NULL::un_payment, '{"id": "a", "amount": 1, "iban": "x"}'::jsonb) AS missing_tag_jsonb;
SELECT * FROM serde_errors(NULL::un_payment, '{"id": 1, "amount": "1", "type": "card", "brand": "visa"}');
SELECT * FROM serde_errors(NULL::un_payment, '{"id": 1, "amount": "1", "type": "card", "brand": "visa"}'::jsonb);
-- after a bad tag the object's other members are not decoded (nothing to decode them into)
SELECT * FROM serde_errors(NULL::un_payment, '{"id": 1, "type": "cheque", "amount": "x"}');

-- ---- a union nested in a list: events[] of mixed kinds, unknown: reject -----------------------
CREATE TYPE un_click AS (x int4, y int4);
CREATE TYPE un_purchase AS (sku text, cents int8);
CREATE TYPE un_event AS (id text, at timestamptz, kind text, click un_click, purchase un_purchase);
CREATE TYPE un_feed AS (source text, events un_event[]);
-- the tag may also be a column of its own (kind)
SELECT serde_register('UnEvent', 'un_event',
    '{"tag": "kind", "variants": {"click": "click", "purchase": "purchase"}, "unknown": "reject"}');
SELECT serde_register('UnFeed', 'un_feed', '{"fields": {"events": {"shape": "UnEvent"}}}');

SELECT d.source, e.*
  FROM serde_decode(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": 20},
        {"kind": "purchase", "sku": "A-1", "cents": 1999, "id": "e2", "at": "2024-05-01T10:01:00Z"},
        {"id": "e3", "kind": "click", "at": "2024-05-01T10:02:00+02:00", "y": 1, "x": 2}]}') d,
       unnest(d.events) e;
SELECT e.id, e.kind, e.click, e.purchase
  FROM serde_decode(NULL::un_feed, '{"source": "app", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": 20},
        {"kind": "purchase", "sku": "A-1", "cents": 1999, "id": "e2", "at": "2024-05-01T10:01:00Z"}]}'::jsonb) d,
       unnest(d.events) e;
-- errors name the element
SELECT serde_decode(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": 20},
        {"id": "e2", "at": "2024-05-01T10:01:00Z", "kind": "refund", "sku": "A-1"}]}');
-- under unknown: reject, a member of another variant is unknown
SELECT serde_decode(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": 20, "sku": "A-1"}]}');
SELECT serde_decode(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": 20, "sku": "A-1"}]}'::jsonb);
-- every violation, in document order
SELECT path, code, message FROM serde_errors(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": "20"},
        {"id": "e2", "at": "2024-05-01T10:01:00Z", "kind": "refund"},
        {"id": "e3", "at": "2024-05-01"},
        {"id": "e4", "at": "2024-05-01T10:01:00Z", "kind": "purchase", "sku": "b", "cents": 1, "x": 3}]}');
SELECT path, code, message FROM serde_errors(NULL::un_feed, '{"source": "web", "events": [
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 10, "y": "20"},
        {"id": "e2", "at": "2024-05-01T10:01:00Z", "kind": "refund"},
        {"id": "e3", "at": "2024-05-01"},
        {"id": "e4", "at": "2024-05-01T10:01:00Z", "kind": "purchase", "sku": "b", "cents": 1, "x": 3}]}'::jsonb);

-- one event per row
SELECT e.id, e.kind, e.click, e.purchase FROM serde_decode_each(NULL::un_event, '[
        {"id": "e1", "at": "2024-05-01T10:00:00Z", "kind": "click", "x": 1, "y": 2},
        {"id": "e2", "at": "2024-05-01T10:00:01Z", "kind": "purchase", "sku": "Z", "cents": 5}]') e;

-- ---- registration errors -------------------------------------------------------------------------
SELECT serde_register('UnBad', 'un_event', '{"tag": "kind"}');
SELECT serde_register('UnBad', 'un_event', '{"variants": {"click": "click"}}');
SELECT serde_register('UnBad', 'un_event', '{"tag": "", "variants": {"click": "click"}}');
SELECT serde_register('UnBad', 'un_event', '{"tag": "kind", "variants": {}}');
SELECT serde_register('UnBad', 'un_event', '{"tag": "kind", "variants": {"click": "id"}}');
SELECT serde_register('UnBad', 'un_event', '{"tag": "kind", "variants": {"click": "nope"}}');
SELECT serde_register('UnBad', 'un_event', '{"tag": "kind", "variants": {"click": 1}}');
SELECT serde_register('UnBad', 'un_click', '{"tag": "kind", "variants": {"click": "x"}}');
SELECT count(*) FROM serde.shapes WHERE name = 'UnBad';

-- ---- clean up --------------------------------------------------------------------------------------
SELECT serde_unregister('UnFeed'), serde_unregister('UnEvent'), serde_unregister('UnPayment'),
       serde_unregister('UnBank');
DROP TYPE un_feed, un_event, un_click, un_purchase, un_payment, un_card, un_bank;
