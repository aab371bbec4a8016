-- xml_plan.sql — the XML facts of a registered shape (docs/reference.md, "XML names"), as serde_describe shows them:
-- the shape's xml.root and xml.namespace, each field's XML name and kind (element, attribute,
-- text), {uri}local names wherever a name is (name, path, xml_item, xml.root), wrapped lists
-- (xml_item), the namespace inherited by nested composites; and every registration error of
-- these options (22023 with the option's path).  No XML document is decoded here.
-- `result` is "ok" or "ERROR <SQLSTATE>: <message>".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN 'ERROR ' || st || ': ' || msg;
END $f$;
-- reg(target, options): serde_register('XpBad', target, options); 'ok' or the error
CREATE FUNCTION pg_temp.reg(target text, options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$SELECT 'ok' FROM serde_register('XpBad', %L, %L)$q$, target, options))
$f$;
-- fields(shape): one row per field of the shape's root: JSON name, XML kind and name, options
CREATE FUNCTION pg_temp.fields(shape text)
RETURNS TABLE (col text, json_name text, xml_kind text, xml_name text, xml_path jsonb, xml_item text,
               optional boolean, "default" jsonb, nullable boolean)
LANGUAGE sql AS $f$
    SELECT f->>'column', f->>'name', f->'xml'->>'kind', f->'xml'->>'name', f->'xml'->'path',
           f->'xml'->>'item', (f->>'optional')::boolean, f->'default', (f->>'nullable')::boolean
      FROM jsonb_array_elements(serde_describe(shape)->'fields') WITH ORDINALITY AS e(f, i)
     ORDER BY i
$f$;

-- ---- an S3 ListBucketResult ---------------------------------------------------------------------
-- <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/" version="1">
--   <Name>b</Name><IsTruncated>false</IsTruncated><MaxKeys>1000</MaxKeys>
--   <Contents><Key>a.txt</Key><Size>42</Size><Owner><ID>…</ID><DisplayName>…</DisplayName></Owner>…</Contents>…
--   <CommonPrefixes><Prefix>photos/</Prefix></CommonPrefixes>…
--   <TagSet><Tag>x</Tag>…</TagSet>
--   <atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="next" href="…"/>
-- </ListBucketResult>
CREATE TYPE xp_owner AS (id text, display_name text);
CREATE TYPE xp_content AS (key text, last_modified timestamptz, e_tag text, size int8,
                           owner xp_owner, storage_class text);
CREATE TYPE xp_prefix AS (prefix text);
CREATE TYPE xp_listing AS (version text, name text, prefix text, max_keys int4, is_truncated boolean,
                           contents xp_content[], common_prefixes xp_prefix[], tags text[],
                           next_href text, next_rel text, request_id text);
SELECT serde_register('XpListing', 'xp_listing', '{
    "rename": "pascal",
    "optional": true,
    "xml": {"root": "ListBucketResult", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},
    "fields": {
        "version":         {"xml": "attribute", "name": "version", "optional": false, "nullable": false},
        "name":            {"optional": false},
        "max_keys":        {"default": 1000},
        "is_truncated":    {"default": false, "nullable": false},
        "contents":        {"default": []},
        "tags":            {"name": "TagSet", "xml_item": "Tag"},
        "next_href":       {"path": ["{http://www.w3.org/2005/Atom}link", "href"], "xml": "attribute"},
        "next_rel":        {"path": ["{http://www.w3.org/2005/Atom}link", "rel"], "xml": "attribute"},
        "request_id":      {"name": "{urn:example:meta}RequestId"}
    }}');
-- the shape level: the root element and the default namespace
SELECT serde_describe('XpListing') -> 'xml' AS shape_xml;
-- every field: its JSON name, its XML kind and name (in Clark notation: {uri}local), and options
SELECT * FROM pg_temp.fields('XpListing');
-- Contents: repeated elements of a composite without its own shape: its elements, and those of the
-- Owner nested in it, are in the namespace of the element holding them (here the shape's)
SELECT jsonb_pretty((serde_describe('XpListing') -> 'fields' -> 5) - 'element') AS contents_field,
       jsonb_pretty((serde_describe('XpListing') -> 'fields' -> 5 -> 'element') - 'fields') AS contents_element;
SELECT f->>'column' AS col, f->'xml'->>'name' AS xml_name
  FROM jsonb_array_elements(serde_describe('XpListing') -> 'fields' -> 5 -> 'element' -> 'fields') f;
SELECT serde_describe('XpListing') -> 'fields' -> 5 -> 'element' -> 'fields' -> 4 -> 'xml_namespace' AS owner_namespace,
       jsonb_path_query_array(serde_describe('XpListing') -> 'fields' -> 5 -> 'element' -> 'fields' -> 4,
                              '$.fields[*].xml.name') AS owner_names;

-- ---- a shape used by another: its own namespace, else the one of the element holding it -----------
-- (from here on xp_owner has a shape: a nested xp_owner without "shape" uses it)
SELECT serde_register('XpOwner', 'xp_owner', '{"rename": "pascal", "fields": {"id": {"name": "ID"}}}');
CREATE TYPE xp_feed AS (id text, author xp_owner, contributor xp_owner, body text, lang text);
SELECT serde_register('XpFeed', 'xp_feed', '{
    "xml": {"root": "{http://www.w3.org/2005/Atom}feed", "namespace": "http://www.w3.org/2005/Atom"},
    "fields": {
        "author":      {"shape": "XpOwner"},
        "contributor": {"shape": "XpOwner", "name": "{urn:other}contributor"},
        "body":        {"xml": "text"},
        "lang":        {"name": "{http://www.w3.org/XML/1998/namespace}lang", "xml": "attribute"}
    }}');
SELECT serde_describe('XpFeed') -> 'xml' AS shape_xml;
SELECT * FROM pg_temp.fields('XpFeed');
SELECT f->>'column' AS col, f->'xml' AS xml, f->'xml_namespace' AS namespace_below,
       jsonb_path_query_array(f, '$.fields[*].xml.name') AS names_below
  FROM jsonb_array_elements(serde_describe('XpFeed') -> 'fields') f WHERE f->>'type' = 'xp_owner';
-- a shape that names its own namespace keeps it wherever it is used
SELECT serde_register('XpOwnerNs', 'xp_owner', '{"xml": {"namespace": "urn:owner"}}');
-- (xp_owner has two shapes now: a nested xp_owner must name one)
SELECT serde_register('XpFeed2', 'xp_feed', '{"xml": {"namespace": "urn:feed"},
    "fields": {"author": {"shape": "XpOwnerNs"}, "contributor": {"shape": "XpOwner"}}}');
SELECT serde_describe('XpFeed2') -> 'fields' -> 1 ->> 'name' AS json_name,
       serde_describe('XpFeed2') -> 'fields' -> 1 -> 'xml' ->> 'name' AS xml_name,
       serde_describe('XpFeed2') -> 'fields' -> 1 -> 'xml_namespace' AS namespace_below,
       jsonb_path_query_array(serde_describe('XpFeed2') -> 'fields' -> 1, '$.fields[*].xml.name') AS names_below;
SELECT serde_unregister('XpFeed2') AND serde_unregister('XpOwnerNs') AS unregistered;

-- ---- JSON is unaffected: names are JSON member names as written --------------------------------
SELECT d.* FROM serde_decode(NULL::xp_listing, '{"version": "1", "Name": "b",
    "{http://www.w3.org/2005/Atom}link": {"href": "h", "rel": "next"}, "{urn:example:meta}RequestId": "r"}', 'XpListing') d;
-- a name only JSON can have (no XML name) is fine in a shape without xml options
CREATE TYPE xp_json AS (ref text, "odd key" int4);
SELECT serde_register('XpJson', 'xp_json', '{"fields": {"ref": {"name": "$ref"}}}');
SELECT f->>'column' AS col, f->>'name' AS json_name, f->'xml' AS xml
  FROM jsonb_array_elements(serde_describe('XpJson')->'fields') f;

-- ---- registration errors: 22023 with the option's path ---------------------------------------
CREATE TYPE xp_kv AS (key text, value int4);
CREATE TYPE xp_row AS (a int4, b text, c text, l int4[], o xp_owner, m xp_kv[], j jsonb);
SELECT o AS options, pg_temp.reg('xp_row', o) AS result FROM (VALUES
    -- {uri}local syntax, wherever a name is
    ('{"fields": {"a": {"name": "{urn:x"}}}'),
    ('{"fields": {"a": {"name": "{urn:x}"}}}'),
    ('{"fields": {"a": {"name": "{u{v}a"}}}'),
    ('{"fields": {"a": {"name": "{urn:x}p:a"}}}'),
    ('{"fields": {"a": {"name": "{urn:x}1a"}}}'),
    ('{"fields": {"a": {"name": "{urn:x}a b"}}}'),
    ('{"fields": {"a": {"path": ["{urn:x}P", "{bad"]}}}'),
    ('{"fields": {"l": {"xml_item": "{urn:x"}}}'),
    ('{"fields": {"l": {"xml_item": ""}}}'),
    ('{"xml": {"root": "{x"}}'),
    ('{"xml": {"root": "s3:ListBucketResult"}}'),
    ('{"xml": {"root": 1}}'),
    -- namespaces
    ('{"xml": {"namespace": 1}}'),
    ('{"xml": {"namespace": "urn:{x}"}}'),
    ('{"xml": {"nspace": "urn:x"}}'),
    -- in a shape with xml, or on a field with an xml option, every name must be an XML name
    ('{"xml": {}, "fields": {"a": {"name": "atom:link"}}}'),
    ('{"fields": {"a": {"name": "atom:link", "xml": "element"}}}'),
    ('{"fields": {"a": {"name": "atom:link"}}}'),
    -- kinds on columns they do not fit
    ('{"fields": {"a": {"xml": "attr"}}}'),
    ('{"fields": {"o": {"xml": "attribute"}}}'),
    ('{"fields": {"l": {"xml": "attribute"}}}'),
    ('{"fields": {"o": {"xml": "text"}}}'),
    ('{"fields": {"b": {"xml": "text", "path": ["x", "b"]}}}'),
    ('{"fields": {"b": {"xml": "text"}, "c": {"xml": "text"}}}'),
    ('{"fields": {"a": {"xml_item": "x"}}}'),
    ('{"fields": {"j": {"xml_item": "x"}}}'),
    ('{"fields": {"m": {"map": true, "xml_item": "x"}}}'),
    -- two fields on one XML name (as two on one JSON member)
    ('{"xml": {"namespace": "urn:d"}, "fields": {"b": {"name": "{urn:d}x"}, "c": {"name": "x"}}}'),
    ('{"fields": {"b": {"name": "{}x", "xml": "attribute"}, "c": {"name": "x", "xml": "attribute"}}}'),
    ('{"xml": {"namespace": "urn:d"}, "fields": {"b": {"path": ["{urn:d}P", "x"]}, "c": {"path": ["P", "y"]}}}'),
    ('{"fields": {"b": {"name": "x"}, "c": {"name": "x"}}}'),
    -- fine: an attribute and an element of one name, a path ending in an attribute
    ('{"fields": {"b": {"name": "{}x", "xml": "attribute"}, "c": {"name": "x"}}}'),
    ('{"fields": {"b": {"path": ["P", "x"]}, "c": {"path": ["P", "{}x"], "xml": "attribute"}}}')
) v(o);
-- a column whose name is no XML name, in a shape with xml
CREATE TYPE xp_odd AS ("odd key" int4);
SELECT pg_temp.reg('xp_odd', '{"xml": {"root": "R"}}') AS no_name,
       pg_temp.reg('xp_odd', '{"xml": {"root": "R"}, "fields": {"odd key": {"name": "oddKey"}}}') AS named;
-- the rows above that were "ok" registered XpBad; the errors left nothing behind
SELECT serde_unregister('XpBad') AS had_ok_rows;
-- the same checks through a plain INSERT into the catalog
SELECT pg_temp.try($$INSERT INTO serde.shapes (name, target, options)
                     VALUES ('XpBad', 'xp_row', '{"fields": {"o": {"xml": "attribute"}}}') RETURNING 'ok'$$) AS via_insert;
SELECT count(*) AS bad_registered FROM serde.shapes WHERE name = 'XpBad';

-- ---- clean up ---------------------------------------------------------------------------------------
SELECT serde_unregister(s) FROM unnest(ARRAY['XpOwner', 'XpListing', 'XpFeed', 'XpJson']) s;
DROP TYPE xp_listing, xp_content, xp_prefix, xp_feed, xp_json, xp_row, xp_kv, xp_odd, xp_owner;
