-- infer_unions.sql — serde_infer's scripts that decode through `one_of` (a member seen as more
-- than one kind of value: string or object, number or string): the script, then every sample
-- decoded with it (docs/reference.md, "From samples to a shape: serde_infer").  Needs the field
-- option `one_of` (issue 20); the script itself is also shown by infer.sql.
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
\pset format unaligned
\pset tuples_only on
SET TimeZone = 'UTC';
CREATE SCHEMA infu;
SET search_path = infu, public;
CREATE FUNCTION pg_temp.infer(docs text[], opts jsonb DEFAULT '{}') RETURNS text
LANGUAGE sql AS $f$ SELECT serde_infer(d, opts ORDER BY i) FROM unnest(docs) WITH ORDINALITY u(d, i) $f$;
CREATE FUNCTION pg_temp.rt(docs text[], opts jsonb DEFAULT '{}') RETURNS SETOF text
LANGUAGE plpgsql AS $f$
DECLARE d text; shape text := coalesce(opts->>'name', 'doc');
BEGIN
    EXECUTE pg_temp.infer(docs, opts);
    FOREACH d IN ARRAY docs LOOP
        RETURN NEXT to_jsonb(serde_decode(shape, d))::text;
    END LOOP;
END $f$;

-- string or object (a webhook's author), number or string, null in every sample (jsonb), mixed
-- array elements (jsonb)
SELECT pg_temp.infer(ARRAY['{"author": "ann", "id": 1, "items": [1, "a"], "gone": null}',
                           '{"author": {"name": "bob", "id": 7}, "id": "x-2", "items": [], "gone": null}'], '{"name": "u_conf"}');
SELECT * FROM pg_temp.rt(ARRAY['{"author": "ann", "id": 1, "items": [1, "a"], "gone": null}',
                               '{"author": {"name": "bob", "id": 7}, "id": "x-2", "items": [], "gone": null}'], '{"name": "u_conf"}');

-- a member absent in one sample and null in another, a number or an object or an array
SELECT pg_temp.infer(ARRAY['{"v": 1}', '{"v": {"a": true}}', '{"v": [2, 3]}', '{"v": null}', '{}'], '{"name": "u_many"}');
SELECT * FROM pg_temp.rt(ARRAY['{"v": 1}', '{"v": {"a": true}}', '{"v": [2, 3]}', '{"v": null}', '{}'], '{"name": "u_many"}');

SELECT count(serde_unregister(name)) > 0 FROM serde.shapes WHERE name LIKE 'u\_%';
SET client_min_messages = warning;
DROP SCHEMA infu CASCADE;
