-- paths.sql — the `path` field option (docs/reference.md, "Field level") when a parent on the path is present but null:
-- the values below it are null (NULL; not their default, which is for a missing member), and a
-- field that is not nullable gets 23502 at its own path (not 2203A at the parent).  A missing
-- parent stays 2203A at the first missing name; a scalar parent stays 22032.  Text and jsonb
-- input, serde_decode / serde_valid / serde_errors / serde_decode_each.
-- `result` is the decoded row as text, or "ERROR <SQLSTATE>: <message> [<DETAIL>]".
SET client_min_messages = warning;   -- no NOTICE whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' [' || nullif(det, '') || ']', '');
END $f$;
-- dec(type, doc, shape) / decb(type, doc, shape): the typed form on a text / jsonb document
CREATE FUNCTION pg_temp.dec(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L::text, %L) decoded', typ, doc, shape))
$f$;
CREATE FUNCTION pg_temp.decb(typ text, doc text, shape text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT decoded::text FROM serde_decode(NULL::%s, %L::jsonb, %L) decoded', typ, doc, shape))
$f$;

-- A GitHub push: "head_commit" is null when the branch was deleted.  sha and author are required
-- (a missing member is an error), msg has a default, email is optional; all are nullable.
CREATE TYPE pa_push AS (ref text, sha text, msg text, author text, email text);
SELECT serde_register('PaPush', 'pa_push', '{"unknown": "reject", "fields": {
    "sha": {"path": ["head_commit", "id"]},
    "msg": {"path": ["head_commit", "message"], "default": "(none)"},
    "author": {"path": ["head_commit", "author", "name"]},
    "email": {"path": ["head_commit", "author", "email"], "optional": true}}}');
SELECT doc, pg_temp.dec('pa_push', doc, 'PaPush') AS text_result,
       pg_temp.decb('pa_push', doc, 'PaPush') AS jsonb_result FROM (VALUES
    ('{"ref": "r", "head_commit": {"id": "a", "message": "m", "author": {"name": "n", "email": "e"}}}'),
    -- a null parent: every field below it is NULL, msg too (not its default)
    ('{"ref": "r", "head_commit": null}'),
    -- depth 3, null at depth 2: author and email NULL; msg missing, so its default
    ('{"ref": "r", "head_commit": {"id": "a", "author": null}}'),
    ('{"ref": "r", "head_commit": {"id": null, "message": null, "author": {"name": null}}}'),
    -- a missing parent is a missing member at the first missing name
    ('{"ref": "r"}'),
    ('{"ref": "r", "head_commit": {"id": "a"}}'),
    -- a parent that is a scalar or an array
    ('{"ref": "r", "head_commit": "abc"}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": 7}}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": []}}'),
    -- unknown: reject still judges the members around and inside
    ('{"ref": "r", "head_commit": null, "x": 1}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": null, "zz": 1}}')
) v(doc);

-- Fields that are not nullable (nullable: false, or a NOT NULL domain, also when optional): under a
-- null parent each gets 23502 at its own path.
CREATE DOMAIN pa_count AS int4 NOT NULL;
CREATE TYPE pa_strict AS (ref text, sha text, author text, email text, n pa_count);
SELECT serde_register('PaStrict', 'pa_strict', '{"fields": {
    "sha": {"path": ["head_commit", "id"], "nullable": false},
    "author": {"path": ["head_commit", "author", "name"], "nullable": false},
    "email": {"path": ["head_commit", "author", "email"], "optional": true},
    "n": {"path": ["head_commit", "stats", "n"], "optional": true}}}');
SELECT doc, pg_temp.dec('pa_strict', doc, 'PaStrict') AS text_result,
       pg_temp.decb('pa_strict', doc, 'PaStrict') AS jsonb_result FROM (VALUES
    ('{"ref": "r", "head_commit": {"id": "a", "author": {"name": "n"}, "stats": {"n": 1}}}'),
    ('{"ref": "r", "head_commit": null}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": null, "stats": {"n": 1}}}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": {"name": "n"}, "stats": null}}'),
    ('{"ref": "r", "head_commit": {"id": "a", "author": {"name": null}, "stats": {"n": 1}}}'),
    -- a missing parent of a required field is still 2203A at the parent
    ('{"ref": "r", "head_commit": {"id": "a", "stats": {"n": 1}}}')
) v(doc);

-- serde_errors: every field below the null parent, each at its own path, at the null's offset
SELECT * FROM serde_errors(NULL::pa_strict, '{"ref": "r", "head_commit": null}', 'PaStrict');
SELECT * FROM serde_errors(NULL::pa_strict, '{"ref": "r", "head_commit": null}'::jsonb, 'PaStrict');
SELECT * FROM serde_errors(NULL::pa_strict,
    '{"head_commit": {"id": "a", "author": null, "stats": null}, "ref": 1}', 'PaStrict');
SELECT * FROM serde_errors(NULL::pa_push, '{"ref": "r", "head_commit": null}', 'PaPush');
SELECT * FROM serde_errors(NULL::pa_push, '{"ref": "r", "head_commit": null}'::jsonb, 'PaPush');

-- serde_valid
SELECT serde_valid(NULL::pa_push, '{"ref": "r", "head_commit": null}', 'PaPush') AS push_text,
       serde_valid(NULL::pa_push, '{"ref": "r", "head_commit": null}'::jsonb, 'PaPush') AS push_jsonb,
       serde_valid(NULL::pa_strict, '{"ref": "r", "head_commit": null}', 'PaStrict') AS strict_text,
       serde_valid(NULL::pa_strict, '{"ref": "r", "head_commit": null}'::jsonb, 'PaStrict') AS strict_jsonb;

-- serde_decode_each: a JSON array, NDJSON and a jsonb array of pushes, one for a deleted branch
SELECT * FROM serde_decode_each(NULL::pa_push, '[{"ref": "a", "head_commit": {"id": "1", "author": {"name": "x"}}},
    {"ref": "b", "head_commit": null}]', 'PaPush');
SELECT * FROM serde_decode_each(NULL::pa_push, '{"ref": "a", "head_commit": {"id": "1", "author": {"name": "x"}}}
{"ref": "b", "head_commit": null}', 'PaPush');
SELECT * FROM serde_decode_each(NULL::pa_push, '[{"ref": "a", "head_commit": {"id": "1", "author": {"name": "x"}}},
    {"ref": "b", "head_commit": null}]'::jsonb, 'PaPush');
SELECT pg_temp.try($q$SELECT count(*)::text FROM serde_decode_each(NULL::pa_strict,
    '[{"ref": "a", "head_commit": {"id": "1", "author": {"name": "x"}, "stats": {"n": 1}}}, {"ref": "b", "head_commit": null}]', 'PaStrict')$q$) AS each_text,
       pg_temp.try($q$SELECT count(*)::text FROM serde_decode_each(NULL::pa_strict,
    '[{"ref": "a", "head_commit": {"id": "1", "author": {"name": "x"}, "stats": {"n": 1}}}, {"ref": "b", "head_commit": null}]'::jsonb, 'PaStrict')$q$) AS each_jsonb;

-- the record form (serde_decode(shape, doc))
SELECT * FROM serde_decode('PaPush', '{"ref": "r", "head_commit": null}') AS t(ref text, sha text, msg text, author text, email text);
