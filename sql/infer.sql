-- infer.sql — serde_infer (docs/reference.md, "From samples to a shape: serde_infer"): the script
-- inferred from samples, one test per detection (optional, nullable, number kinds, booleans,
-- timestamps in their formats, dates, uuids, maps, arrays of objects merged, tagged unions,
-- conflicting kinds, recursion, names), the options and their errors, limits and determinism.
-- Every script that needs nothing beyond main is run and its samples decoded back (run_rt).
-- Decoding through `one_of` is in infer_unions.sql.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
\pset format unaligned
\pset tuples_only on
SET TimeZone = 'UTC';
CREATE SCHEMA inf;
SET search_path = inf, public;

-- infer(docs, options): the script
CREATE FUNCTION pg_temp.infer(docs text[], opts jsonb DEFAULT '{}') RETURNS text
LANGUAGE sql AS $f$ SELECT serde_infer(d, opts ORDER BY i) FROM unnest(docs) WITH ORDINALITY u(d, i) $f$;
-- rt(docs, options): runs the script, then each sample decoded with it, as jsonb
CREATE FUNCTION pg_temp.rt(docs text[], opts jsonb DEFAULT '{}') RETURNS SETOF text
LANGUAGE plpgsql AS $f$
DECLARE d text; shape text := coalesce(opts->>'schema' || '.', '') || coalesce(opts->>'name', 'doc');
BEGIN
    EXECUTE pg_temp.infer(docs, opts);
    FOREACH d IN ARRAY docs LOOP
        IF ltrim(d) LIKE '<%' THEN
            RETURN NEXT to_jsonb(serde_decode_xml(shape, d))::text;
        ELSE
            RETURN NEXT to_jsonb(serde_decode(shape, d))::text;
        END IF;
    END LOOP;
END $f$;
-- err(docs, options): serde_infer's error as "<SQLSTATE>: <message>"
CREATE FUNCTION pg_temp.err(docs text[], opts jsonb DEFAULT '{}') RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE st text; msg text;
BEGIN
    PERFORM pg_temp.infer(docs, opts);
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN st || ': ' || msg;
END $f$;

-- optional members (absent in some samples) and nullable ones (null in some)
SELECT pg_temp.infer(ARRAY['{"id": 1, "note": "a", "code": null}', '{"id": 2, "code": "x"}'], '{"name": "t_opt"}');
SELECT * FROM pg_temp.rt(ARRAY['{"id": 1, "note": "a", "code": null}', '{"id": 2, "code": "x"}'], '{"name": "t_opt"}');

-- numbers: int4, int8, numeric (exact digits, also integers beyond int8), float8 (exponents)
SELECT pg_temp.infer(ARRAY['{"small": 1, "big": 3000000000, "price": 12.50, "huge": 123456789012345678901234, "ratio": 1e-3, "mixed": 1}',
                           '{"small": -7, "big": 1, "price": 3, "huge": 1, "ratio": 2.5, "mixed": 1.25}'], '{"name": "t_num"}');
SELECT * FROM pg_temp.rt(ARRAY['{"small": 1, "big": 3000000000, "price": 12.50, "huge": 123456789012345678901234, "ratio": 1e-3, "mixed": 1}',
                               '{"small": -7, "big": 1, "price": 3, "huge": 1, "ratio": 2.5, "mixed": 1.25}'], '{"name": "t_num"}');

-- booleans, dates, uuids
SELECT * FROM pg_temp.rt(ARRAY['{"ok": true, "day": "2024-02-29", "ref": "7C1E2F0A-3B9D-4E51-A0C8-000000000001"}',
                               '{"ok": false, "day": "2024-03-01", "ref": "7c1e2f0a-3b9d-4e51-a0c8-000000000002"}'], '{"name": "t_misc"}');
SELECT pg_temp.infer(ARRAY['{"ok": true, "day": "2024-02-29", "ref": "7C1E2F0A-3B9D-4E51-A0C8-000000000001"}'], '{"name": "t_misc2"}');

-- timestamps: RFC 3339 with offsets (timestamptz), without (timestamp), RFC 2822, unix seconds
-- and milliseconds only for a time-like name with every value in 2000..2100
SELECT pg_temp.infer(ARRAY['{"at": "2024-06-30T10:00:00Z", "local": "2024-06-30 10:00:00", "mail": "Tue, 10 Jun 2003 04:00:00 GMT", "created_at": 1700000000, "updatedAt": 1700000000123, "count": 1700000000, "time": 12}',
                           '{"at": "2024-06-30T12:00:00.5+02:00", "local": "2024-07-01T00:00:00", "mail": "Wed, 25 Nov 2026 00:56:00 -0500", "created_at": 1700000001, "updatedAt": 1700000000999, "count": 1, "time": 13}'], '{"name": "t_ts"}');
SELECT * FROM pg_temp.rt(ARRAY['{"at": "2024-06-30T10:00:00Z", "local": "2024-06-30 10:00:00", "mail": "Tue, 10 Jun 2003 04:00:00 GMT", "created_at": 1700000000, "updatedAt": 1700000000123, "count": 1700000000, "time": 12}',
                               '{"at": "2024-06-30T12:00:00.5+02:00", "local": "2024-07-01T00:00:00", "mail": "Wed, 25 Nov 2026 00:56:00 -0500", "created_at": 1700000001, "updatedAt": 1700000000999, "count": 1, "time": 13}'], '{"name": "t_ts"}');
-- a mix of forms is text
SELECT pg_temp.infer(ARRAY['{"at": "2024-06-30T10:00:00Z"}', '{"at": "2024-06-30"}', '{"at": "soon"}'], '{"name": "t_ts2"}');

-- maps: objects whose keys are data (dates, numbers, uuids), one value type
SELECT pg_temp.infer(ARRAY['{"rates": {"2024-01-01": 1.1, "2024-01-02": 1.25}, "by_id": {"17": {"qty": 1}, "42": {"qty": 2, "sku": "a"}}}'], '{"name": "t_map"}');
SELECT * FROM pg_temp.rt(ARRAY['{"rates": {"2024-01-01": 1.1, "2024-01-02": 1.25}, "by_id": {"17": {"qty": 1}, "42": {"qty": 2, "sku": "a"}}}'], '{"name": "t_map"}');

-- arrays of objects merged member-wise (a member missing in some elements is optional; "sku"
-- is no tag: no value of it was seen twice)
SELECT pg_temp.infer(ARRAY['{"lines": [{"sku": "a", "qty": 1}, {"sku": "b", "note": "gift"}]}', '{"lines": []}'], '{"name": "t_arr"}');
SELECT * FROM pg_temp.rt(ARRAY['{"lines": [{"sku": "a", "qty": 1}, {"sku": "b", "note": "gift"}]}', '{"lines": []}'], '{"name": "t_arr"}');

-- objects that give equal types share one (t_dup_sender for sender and owner, not for bot)
SELECT pg_temp.infer(ARRAY['{"sender": {"id": 1, "login": "a"}, "owner": {"id": 2, "login": "b"}, "bot": {"id": 3, "login": null}}'], '{"name": "t_dup"}');
SELECT * FROM pg_temp.rt(ARRAY['{"sender": {"id": 1, "login": "a"}, "owner": {"id": 2, "login": "b"}, "bot": {"id": 3, "login": null}}'], '{"name": "t_dup"}');

-- tagged unions: a member with few string values that select disjoint member sets
SELECT pg_temp.infer(ARRAY['{"id": 1, "method": "card", "last4": "4242", "brand": "visa"}',
                           '{"id": 2, "method": "bank", "iban": "DE89"}',
                           '{"id": 3, "method": "card", "last4": "0005"}'], '{"name": "t_pay"}');
SELECT * FROM pg_temp.rt(ARRAY['{"id": 1, "method": "card", "last4": "4242", "brand": "visa"}',
                               '{"id": 2, "method": "bank", "iban": "DE89"}',
                               '{"id": 3, "method": "card", "last4": "0005"}'], '{"name": "t_pay"}');
-- a variant and a member of it with the same name: type names stay unique (doc_dispute_2)
SELECT pg_temp.infer(ARRAY['{"id": "evt_1", "type": "payment", "created": 1719741600, "customer": {"id": "cus_1"}}',
                           '{"id": "evt_2", "type": "dispute", "created": 1719745200, "dispute": {"reason": "fraudulent"}}',
                           '{"id": "evt_3", "type": "payment", "created": 1719748800, "customer": {"id": "cus_2"}}'], '{"name": "t_evt"}');
SELECT * FROM pg_temp.rt(ARRAY['{"id": "evt_1", "type": "payment", "created": 1719741600, "customer": {"id": "cus_1"}}',
                               '{"id": "evt_2", "type": "dispute", "created": 1719745200, "dispute": {"reason": "fraudulent"}}',
                               '{"id": "evt_3", "type": "payment", "created": 1719748800, "customer": {"id": "cus_2"}}'], '{"name": "t_evt"}');
-- not a union: the member sets overlap
SELECT pg_temp.infer(ARRAY['{"kind": "a", "x": 1, "y": 1}', '{"kind": "b", "x": 2}', '{"kind": "c", "y": 3}'], '{"name": "t_nu"}');

-- conflicting kinds: one_of for a member (string or object; number or string), jsonb for mixed
-- array elements and for values seen only as null; never a script that rejects a sample
SELECT pg_temp.infer(ARRAY['{"author": "ann", "id": 1, "items": [1, "a"], "gone": null}',
                           '{"author": {"name": "bob", "id": 7}, "id": "x-2", "items": [], "gone": null}'], '{"name": "t_conf"}');

-- recursive structures: the nested repetition of a member is a jsonb column
SELECT pg_temp.infer(ARRAY['{"name": "root", "children": [{"name": "a", "children": [{"name": "b", "children": []}]}]}'], '{"name": "t_tree"}');
SELECT * FROM pg_temp.rt(ARRAY['{"name": "root", "children": [{"name": "a", "children": [{"name": "b", "children": []}]}]}'], '{"name": "t_tree"}');

-- names: one style for a level becomes rename, others get name; reserved words are quoted;
-- names that collide get a suffix; keys that are no SQL name become one; a member named "" has
-- no column (serde maps no such name) and keeps strict off for its object
SELECT pg_temp.infer(ARRAY['{"userName": "a", "createdBy": "b", "user": {"FirstName": "x", "LastName": "y"}, "order": 1, "select": true}'], '{"name": "t_names"}');
SELECT * FROM pg_temp.rt(ARRAY['{"userName": "a", "createdBy": "b", "user": {"FirstName": "x", "LastName": "y"}, "order": 1, "select": true}'], '{"name": "t_names"}');
SELECT pg_temp.infer(ARRAY['{"a-b": 1, "a_b": 2, "ABC": 3, "x.y": 4, "": 5, "_id": 6, "HTTPStatus": 7}'], '{"name": "t_names2"}');
SELECT * FROM pg_temp.rt(ARRAY['{"a-b": 1, "a_b": 2, "ABC": 3, "x.y": 4, "": 5, "_id": 6, "HTTPStatus": 7}'], '{"name": "t_names2", "strict": true}');

-- a top-level array: the shape of its elements (for serde_decode_each)
SELECT pg_temp.infer(ARRAY['[{"a": 1}, {"a": 2, "b": "x"}]'], '{"name": "t_top"}');

-- options: name, prefix, schema, enums, strict, max_samples
CREATE SCHEMA inf_s;
SELECT pg_temp.infer(ARRAY['{"status": "open", "user": {"id": 1}}', '{"status": "closed", "user": {"id": 2}}', '{"status": "open", "user": {"id": 3}}'],
                     '{"name": "ticket", "prefix": "tk_", "schema": "inf_s", "enums": true, "strict": true}');
SELECT * FROM pg_temp.rt(ARRAY['{"status": "open", "user": {"id": 1}}', '{"status": "closed", "user": {"id": 2}}', '{"status": "open", "user": {"id": 3}}'],
                         '{"name": "ticket", "prefix": "tk_", "schema": "inf_s", "enums": true, "strict": true}');
SELECT pg_temp.infer(ARRAY['{"a": 1}', '{"a": 2}', '{"a": 3, "b": 1}'], '{"name": "t_max", "max_samples": 2}');
-- no prefix: a type is never named like a built-in type (date_2, not date)
SELECT pg_temp.infer(ARRAY['{"a": 1, "date": {"day": "2024-01-01"}}'], '{"name": "t_empty_prefix", "prefix": ""}');

-- bad options: 22023 with the option's path
SELECT pg_temp.err(ARRAY['{}'], '{"nmae": "x"}');
SELECT pg_temp.err(ARRAY['{}'], '{"name": 1}');
SELECT pg_temp.err(ARRAY['{}'], '{"name": "Bad Name"}');
SELECT pg_temp.err(ARRAY['{}'], '{"prefix": "9x"}');
SELECT pg_temp.err(ARRAY['{}'], '{"schema": ""}');
SELECT pg_temp.err(ARRAY['{}'], '{"max_samples": 0}');
SELECT pg_temp.err(ARRAY['{}'], '{"max_samples": 1.5}');
SELECT pg_temp.err(ARRAY['{}'], '{"enums": "yes"}');
SELECT pg_temp.err(ARRAY['{}'], '{"strict": null}');
SELECT pg_temp.err(ARRAY['{}'], '[]');

-- bad samples: malformed (22P02, 2200M), not objects, JSON after XML, limits as for decoding
SELECT pg_temp.err(ARRAY['{"a": 1}', '{"a": }']);
SELECT pg_temp.err(ARRAY['<a><b></a>']);
SELECT pg_temp.err(ARRAY['[1, 2]']);
SELECT pg_temp.err(ARRAY['{"a": 1}', '"text"']);
SELECT pg_temp.err(ARRAY['{"a": 1}', '<a/>']);
SELECT pg_temp.err(ARRAY['<a/>', '<b/>']);
SET serde.max_depth = 3;
SELECT pg_temp.err(ARRAY['{"a": {"b": {"c": {}}}}']);
SELECT pg_temp.err(ARRAY['<a><b><c><d/></c></b></a>']);
RESET serde.max_depth;
SET serde.max_document_bytes = 10;
SELECT pg_temp.err(ARRAY['{"a": "0123456789"}']);
RESET serde.max_document_bytes;

-- NULL documents are skipped; no document gives NULL
SELECT serde_infer(d) IS NULL FROM (VALUES (NULL::text)) v(d);
SELECT serde_infer(d) IS NULL FROM (VALUES ('{"a": 1}'::text)) v(d) WHERE false;
SELECT serde_infer(d) FROM (VALUES (NULL::jsonb), ('{"a": 1}')) v(d);

-- json, jsonb (jsonb's key order) and xml inputs; one document is the aggregate over one row
SELECT serde_infer('{"zz": 1, "a": 2}'::json);
SELECT serde_infer('{"zz": 1, "a": 2}'::jsonb);
SELECT serde_infer('<r a="1"><b>x</b></r>'::xml);

-- determinism: the same samples give the same script, byte for byte
SELECT pg_temp.infer(ARRAY['{"b": 1, "a": {"y": [1], "x": "2024-01-01"}}', '{"c": true, "a": {"x": "2024-01-02"}}'])
     = pg_temp.infer(ARRAY['{"b": 1, "a": {"y": [1], "x": "2024-01-01"}}', '{"c": true, "a": {"x": "2024-01-02"}}']);

-- XML: attributes vs elements, repeated elements as lists, wrappers (xml_item), namespaces
-- ({uri}local outside the shape's namespace), text content beside attributes, the root element
SELECT pg_temp.infer(ARRAY[
'<order xmlns="urn:o" xmlns:x="urn:x" id="7"><Customer>ann</Customer><Line sku="a"><Qty>1</Qty></Line><Line sku="b"><Qty>2</Qty></Line><Tags><Tag>new</Tag><Tag>gift</Tag></Tags><x:Note lang="en">fragile</x:Note><Total currency="EUR">12.50</Total><Paid>true</Paid><At>2024-06-30T10:00:00Z</At></order>',
'<order xmlns="urn:o" xmlns:x="urn:x" id="8"><Customer>bob</Customer><Line sku="c"><Qty>5</Qty></Line><Line sku="d"><Qty>1</Qty></Line><Tags><Tag>a</Tag><Tag>b</Tag></Tags><Total currency="USD">3</Total><Paid>false</Paid><At>2024-07-01T00:00:00+02:00</At></order>'], '{"name": "t_xml"}');
SELECT * FROM pg_temp.rt(ARRAY[
'<order xmlns="urn:o" xmlns:x="urn:x" id="7"><Customer>ann</Customer><Line sku="a"><Qty>1</Qty></Line><Line sku="b"><Qty>2</Qty></Line><Tags><Tag>new</Tag><Tag>gift</Tag></Tags><x:Note lang="en">fragile</x:Note><Total currency="EUR">12.50</Total><Paid>true</Paid><At>2024-06-30T10:00:00Z</At></order>',
'<order xmlns="urn:o" xmlns:x="urn:x" id="8"><Customer>bob</Customer><Line sku="c"><Qty>5</Qty></Line><Line sku="d"><Qty>1</Qty></Line><Tags><Tag>a</Tag><Tag>b</Tag></Tags><Total currency="USD">3</Total><Paid>false</Paid><At>2024-07-01T00:00:00+02:00</At></order>'], '{"name": "t_xml"}');
-- an element sometimes with attributes, sometimes text only; an element in no namespace
SELECT * FROM pg_temp.rt(ARRAY['<r><v unit="cm">12</v><w xmlns="">1</w></r>', '<r><v>13</v><w xmlns="">2</w></r>'], '{"name": "t_xml2"}');
SELECT pg_temp.infer(ARRAY['<r><v unit="cm">12</v><w xmlns="">1</w></r>', '<r><v>13</v><w xmlns="">2</w></r>'], '{"name": "t_xml2"}');

-- clean up
SELECT count(serde_unregister(name)) > 0 FROM serde.shapes WHERE name LIKE 't\_%' OR name LIKE 'inf_s.%' OR name = 'ticket';
SET client_min_messages = warning;
DROP SCHEMA inf CASCADE;
DROP SCHEMA inf_s CASCADE;
