-- xml_authoring.sql — XML authoring options (docs/reference.md, "XML names" and "Decoding XML"):
-- the `xml.ns` prefix map (`prefix:local` wherever a name is written), `xml.namespaces` (one
-- shape, several accepted namespaces), the shape-level `attributes` list, `xml_choice` (one
-- ordered list over several element names of a union's variants), `xml: "presence"` booleans,
-- and what a repeated scalar element is (22030) next to a list (collected); each in
-- serde_decode_xml, serde_valid_xml and serde_errors_xml, the JSON side of the same shapes, and
-- every registration error with its option path.
-- `r` is the row as jsonb, or "ERROR <SQLSTATE>: <message> (<DETAIL>)".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';

CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; det text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' (' || nullif(det, '') || ')', '');
END $f$;
-- x(shape, doc): an XML document decoded; j(shape, doc): a JSON one
CREATE FUNCTION pg_temp.x(shape text, doc text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT to_jsonb(serde_decode_xml(%L, %L))::text', shape, doc))
$f$;
CREATE FUNCTION pg_temp.j(shape text, doc text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format('SELECT to_jsonb(serde_decode(%L, %L::text))::text', shape, doc))
$f$;
-- reg(target, options): serde_register('XaBad', target, options); 'ok' or the error
CREATE FUNCTION pg_temp.reg(target text, options text) RETURNS text LANGUAGE sql AS $f$
    SELECT pg_temp.try(format($q$SELECT 'ok' FROM serde_register('XaBad', %L, %L)$q$, target, options))
$f$;

-- ---- a podcast RSS feed: itunes: and atom: names through the prefix map ---------------------
CREATE TYPE pa_enclosure AS (url text, length int8, type text);
CREATE TYPE pa_image AS (href text);
CREATE TYPE pa_item AS (title text, duration int4, episode int4, enclosure pa_enclosure,
                        pub_date timestamptz, blocked boolean);
CREATE TYPE pa_channel AS (title text, link text, author text, explicit boolean, image pa_image,
                           category text, self_href text, items pa_item[]);
CREATE TYPE pa_feed AS (version text, channel pa_channel);
-- the shape-level attributes list: every column an attribute, no per-field "xml"
SELECT 'ok' FROM serde_register('PaEnclosure', 'pa_enclosure'::regtype, '{"attributes": ["url", "length", "type"]}');
SELECT 'ok' FROM serde_register('PaImage', 'pa_image'::regtype, '{"attributes": ["href"]}');
SELECT 'ok' FROM serde_register('PaItem', 'pa_item'::regtype, '{
  "xml": {"ns": {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd"}},
  "fields": {"duration": {"name": "itunes:duration"}, "episode": {"name": "itunes:episode", "optional": true},
             "enclosure": {"shape": "PaEnclosure"},
             "pub_date": {"name": "pubDate", "format": "rfc2822"},
             "blocked": {"name": "itunes:block", "xml": "presence"}}}');
SELECT 'ok' FROM serde_register('PaChannel', 'pa_channel'::regtype, '{
  "xml": {"ns": {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd", "atom": "http://www.w3.org/2005/Atom"}},
  "fields": {"author": {"name": "itunes:author"}, "explicit": {"name": "itunes:explicit"},
             "image": {"name": "itunes:image", "shape": "PaImage"},
             "category": {"path": ["itunes:category", "text"], "xml": "attribute"},
             "self_href": {"path": ["atom:link", "href"], "xml": "attribute"},
             "items": {"name": "item", "shape": "PaItem"}}}');
SELECT 'ok' FROM serde_register('PaFeed', 'pa_feed'::regtype, '{
  "xml": {"root": "rss"}, "attributes": ["version"], "fields": {"channel": {"shape": "PaChannel"}}}');

CREATE TEMP TABLE feed (doc text);
INSERT INTO feed VALUES (E'<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Serde Radio</title>
    <link>https://radio.example.com/</link>
    <atom:link href="https://radio.example.com/feed.xml" rel="self" type="application/rss+xml"/>
    <itunes:author>Ada Lovelace</itunes:author>
    <itunes:explicit>false</itunes:explicit>
    <itunes:image href="https://radio.example.com/cover.jpg"/>
    <itunes:category text="Technology"/>
    <item>
      <title>Episode 1: Shapes</title>
      <itunes:duration>1804</itunes:duration>
      <itunes:episode>1</itunes:episode>
      <enclosure url="https://radio.example.com/1.mp3" length="28901234" type="audio/mpeg"/>
      <pubDate>Tue, 10 Nov 2026 10:00:00 GMT</pubDate>
    </item>
    <item>
      <title>Episode 2: Bonus</title>
      <itunes:duration>95</itunes:duration>
      <itunes:block>Yes</itunes:block>
      <enclosure url="https://radio.example.com/2.mp3" length="1520000" type="audio/mpeg"/>
      <pubDate>Wed, 11 Nov 2026 08:30:00 +0100</pubDate>
    </item>
  </channel>
</rss>');
SELECT jsonb_pretty(to_jsonb(d)) FROM feed, LATERAL serde_decode_xml(NULL::pa_feed, doc) d;
SELECT serde_valid_xml('PaFeed', doc) FROM feed;
-- the same names in another prefix of the document: matched by namespace, paths use the document's
SELECT pg_temp.x('PaItem', '<item xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"><title>t</title><it:duration>x</it:duration><enclosure url="u" length="1" type="a"/><pubDate>Tue, 10 Nov 2026 10:00:00 GMT</pubDate><it:block/></item>') AS r;
SELECT pg_temp.x('PaItem', '<item xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"><title>t</title><it:duration>7</it:duration><enclosure url="u" length="1" type="a"/><pubDate>Tue, 10 Nov 2026 10:00:00 GMT</pubDate><it:block/></item>') AS r;
-- an element without the namespace is not the itunes: one (missing)
SELECT path, code, message FROM serde_errors_xml('PaChannel', '<channel><title>t</title><link>l</link><author>x</author><itunes:explicit xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">maybe</itunes:explicit></channel>');
-- JSON uses the names as written
SELECT pg_temp.j('PaItem', '{"title": "t", "itunes:duration": 5, "enclosure": {"url": "u", "length": 1, "type": "a"}, "pubDate": "Tue, 10 Nov 2026 10:00:00 GMT", "itunes:block": true}') AS r;
SELECT f->>'column' AS col, f->'xml' AS xml FROM jsonb_array_elements(serde_describe('PaChannel')->'fields') f;
-- a referenced shape's own map overrides a prefix of the shape above it
CREATE TYPE pa_inner AS (a text);
CREATE TYPE pa_outer AS (a text, inner_ pa_inner);
SELECT 'ok' FROM serde_register('PaInner', 'pa_inner'::regtype, '{"xml": {"ns": {"p": "urn:inner"}}, "fields": {"a": {"name": "p:a"}}}');
SELECT 'ok' FROM serde_register('PaOuter', 'pa_outer'::regtype, '{"xml": {"ns": {"p": "urn:outer"}}, "fields": {"a": {"name": "p:a"}, "inner_": {"name": "p:inner", "shape": "PaInner"}}}');
SELECT pg_temp.x('PaOuter', '<r xmlns:o="urn:outer" xmlns:i="urn:inner"><o:a>1</o:a><o:inner><i:a>2</i:a></o:inner></r>') AS r;
SELECT pg_temp.x('PaOuter', '<r xmlns:o="urn:outer"><o:a>1</o:a><o:inner><o:a>2</o:a></o:inner></r>') AS r;
SELECT serde_describe('PaOuter')->'fields'->1->'xml' AS inner_xml;
-- a recursive shape with a prefix map (through a json column) compiles once
CREATE TYPE pa_tree AS (name text, kids json);
SELECT 'ok' FROM serde_register('PaTree', 'pa_tree'::regtype, '{"xml": {"ns": {"p": "urn:p"}}, "fields": {"name": {"name": "p:name"}, "kids": {"shape": "PaTree"}}}');
SELECT pg_temp.j('PaTree', '{"p:name": "a", "kids": [{"p:name": "b", "kids": []}]}') AS r;
-- "xml" needs no entry: xml:lang is the XML namespace's
CREATE TYPE pa_lang AS (lang text, t text);
SELECT 'ok' FROM serde_register('PaLang', 'pa_lang'::regtype, '{"fields": {"lang": {"name": "xml:lang", "xml": "attribute"}, "t": {"xml": "text"}}}');
SELECT pg_temp.x('PaLang', '<r xml:lang="en">hi</r>') AS r;

-- ---- S3 ListObjectVersions: Version and DeleteMarker in one ordered list (xml_choice) ---------
CREATE TYPE sv_owner AS (id text, display_name text);
CREATE TYPE sv_version AS (key text, version_id text, is_latest boolean, last_modified timestamptz,
                           e_tag text, size int8, storage_class text, owner sv_owner);
CREATE TYPE sv_marker AS (key text, version_id text, is_latest boolean, last_modified timestamptz,
                          owner sv_owner);
CREATE TYPE sv_entry AS (kind text, version sv_version, delete_marker sv_marker);
CREATE TYPE sv_list AS (name text, prefix text, max_keys int4, is_truncated boolean, entries sv_entry[]);
SELECT 'ok' FROM serde_register('SvOwner', 'sv_owner'::regtype, '{"rename": "pascal", "fields": {"id": {"name": "ID"}}}');
SELECT 'ok' FROM serde_register('SvVersion', 'sv_version'::regtype, '{"rename": "pascal", "fields": {"e_tag": {"name": "ETag"}, "owner": {"shape": "SvOwner"}}}');
SELECT 'ok' FROM serde_register('SvMarker', 'sv_marker'::regtype, '{"rename": "pascal", "fields": {"owner": {"shape": "SvOwner"}}}');
SELECT 'ok' FROM serde_register('SvEntry', 'sv_entry'::regtype, '{"rename": "pascal", "unknown": "reject",
  "tag": "kind", "variants": {"Version": "version", "DeleteMarker": "delete_marker"},
  "fields": {"version": {"shape": "SvVersion"}, "delete_marker": {"shape": "SvMarker"}}}');
SELECT 'ok' FROM serde_register('SvList', 'sv_list'::regtype, '{
  "xml": {"root": "ListVersionsResult", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},
  "rename": "pascal", "unknown": "reject",
  "fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", "DeleteMarker"]}}}');
CREATE TEMP TABLE versions (doc text);
INSERT INTO versions VALUES (E'<?xml version="1.0" encoding="UTF-8"?>
<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name>
  <Prefix>my</Prefix>
  <Version>
    <Key>my-image.jpg</Key><VersionId>3/L4kqtJl40Nr8X8gdRQBpUMLUo</VersionId><IsLatest>true</IsLatest>
    <LastModified>2009-10-12T17:50:30.000Z</LastModified><ETag>"fba9dede5f27731c9771645a39863328"</ETag>
    <Size>434234</Size><StorageClass>STANDARD</StorageClass>
    <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID><DisplayName>mtd@amazon.com</DisplayName></Owner>
  </Version>
  <DeleteMarker>
    <Key>my-second-image.jpg</Key><VersionId>03jpff543dhffds434rfdsFDN943fdsFkdmqnh892</VersionId><IsLatest>true</IsLatest>
    <LastModified>2009-11-12T17:50:30.000Z</LastModified>
    <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID><DisplayName>mtd@amazon.com</DisplayName></Owner>
  </DeleteMarker>
  <MaxKeys>5</MaxKeys>
  <Version>
    <Key>my-second-image.jpg</Key><VersionId>QUpfdndhfd8438MNFDN93jdnJFkdmqnh893</VersionId><IsLatest>false</IsLatest>
    <LastModified>2009-10-10T17:50:30.000Z</LastModified><ETag>"9b2cf535f27731c974343645a3985328"</ETag>
    <Size>166434</Size><StorageClass>STANDARD</StorageClass>
    <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID><DisplayName>mtd@amazon.com</DisplayName></Owner>
  </Version>
  <IsTruncated>false</IsTruncated>
</ListVersionsResult>');
SELECT d.name, d.prefix, d.max_keys, d.is_truncated FROM versions, LATERAL serde_decode_xml(NULL::sv_list, doc) d;
SELECT e.kind, coalesce((e.version).key, (e.delete_marker).key) AS key,
       coalesce((e.version).last_modified, (e.delete_marker).last_modified) AS last_modified,
       (e.version).size, ((e.version).owner).display_name AS version_owner,
       ((e.delete_marker).owner).display_name AS marker_owner
  FROM versions, LATERAL serde_decode_xml(NULL::sv_list, doc) d, unnest(d.entries) WITH ORDINALITY AS e
 ORDER BY ordinality;
-- the same column in JSON: an ordinary list of tagged objects
SELECT pg_temp.j('SvList', '{"Name": "b", "Prefix": "", "MaxKeys": 2, "IsTruncated": false, "Entries": [
  {"Kind": "DeleteMarker", "Key": "a", "VersionId": "v2", "IsLatest": true, "LastModified": "2009-11-12T17:50:30Z", "Owner": {"ID": "o", "DisplayName": "d"}},
  {"Kind": "Version", "Key": "a", "VersionId": "v1", "IsLatest": false, "LastModified": "2009-10-12T17:50:30Z", "ETag": "e", "Size": 3, "StorageClass": "STANDARD", "Owner": {"ID": "o", "DisplayName": "d"}}]}') AS r;
-- none: []; XML and JSON give the same row
SELECT pg_temp.x('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/><MaxKeys>0</MaxKeys><IsTruncated>false</IsTruncated></ListVersionsResult>') AS r;
SELECT pg_temp.j('SvList', '{"Name": "b", "Prefix": "", "MaxKeys": 0, "IsTruncated": false, "Entries": []}') AS r;
-- errors inside: XPath positions count the elements of each name
SELECT path, code, message FROM serde_errors_xml('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated>
<Version><Key>a</Key><VersionId>1</VersionId><IsLatest>true</IsLatest><LastModified>2009-10-12T17:50:30Z</LastModified><ETag>e</ETag><Size>1</Size><StorageClass>S</StorageClass><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner></Version>
<DeleteMarker><Key>a</Key><VersionId>2</VersionId><IsLatest>maybe</IsLatest><LastModified>2009-10-12T17:50:30Z</LastModified><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner></DeleteMarker>
<Version><Key>b</Key><VersionId>3</VersionId><IsLatest>true</IsLatest><LastModified>2009-10-12T17:50:30Z</LastModified><ETag>e</ETag><Size>12x</Size><StorageClass>S</StorageClass><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner></Version>
<DeleteMarker><Key>c</Key><VersionId>4</VersionId><IsLatest>true</IsLatest><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner><Size>1</Size></DeleteMarker>
</ListVersionsResult>');
SELECT pg_temp.x('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated><DeleteMarker><Key>a</Key><VersionId>2</VersionId><IsLatest>x</IsLatest><LastModified>2009-10-12T17:50:30Z</LastModified><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner></DeleteMarker></ListVersionsResult>') AS r;
SELECT serde_valid_xml('SvList', doc) AS valid FROM versions;
-- a tag member inside a choice element is no member (the element's name is the tag)
SELECT pg_temp.x('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated><DeleteMarker><Kind>Version</Kind><Key>a</Key><VersionId>2</VersionId><IsLatest>true</IsLatest><LastModified>2009-10-12T17:50:30Z</LastModified><Owner><ID>o</ID><DisplayName>d</DisplayName></Owner></DeleteMarker></ListVersionsResult>') AS r;
SELECT serde_describe('SvList')->'fields'->4->'xml' AS entries_xml;
-- errors PostgreSQL finds (a domain CHECK) are at the same XPath
CREATE DOMAIN xc_count AS int4 CHECK (VALUE >= 0);
CREATE TYPE xc_a AS (v xc_count);
CREATE TYPE xc_b AS (v xc_count, w text);
CREATE TYPE xc_u AS (kind text, a xc_a, b xc_b);
CREATE TYPE xc_list AS (items xc_u[]);
SELECT 'ok' FROM serde_register('XcU', 'xc_u'::regtype, '{"tag": "kind", "variants": {"A": "a", "B": "b"}, "optional": true}');
SELECT 'ok' FROM serde_register('XcList', 'xc_list'::regtype, '{"fields": {"items": {"shape": "XcU", "xml_choice": ["A", "B"]}}}');
SELECT pg_temp.x('XcList', '<r><A><v>1</v></A><B><v>2</v><w>x</w></B><A><v>-3</v></A></r>') AS r;
SELECT path, code, message FROM serde_errors_xml('XcList', '<r><B><v>-1</v></B><A><v>1</v></A><B><v>2</v></B><A><v>-3</v></A><B><v>-4</v></B></r>');
SELECT pg_temp.x('XcList', '<r><A><v>1</v></A><B><v>2</v><w>x</w></B><A/></r>') AS r;

-- ---- one shape, two namespaces: S3 and an S3-compatible service (Google Cloud Storage's XML API) -
CREATE TYPE sb_object AS (key text, size int8);
CREATE TYPE sb_list AS (name text, contents sb_object[]);
SELECT 'ok' FROM serde_register('SbObject', 'sb_object'::regtype, '{"rename": "pascal", "unknown": "reject"}');
SELECT 'ok' FROM serde_register('SbList', 'sb_list'::regtype, '{
  "xml": {"root": "ListBucketResult", "namespaces": ["http://s3.amazonaws.com/doc/2006-03-01/", "http://doc.s3.amazonaws.com/2006-03-01"]},
  "rename": "pascal", "unknown": "reject", "fields": {"contents": {"shape": "SbObject"}}}');
SELECT pg_temp.x('SbList', '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Contents><Key>a</Key><Size>1</Size></Contents><Contents><Key>b</Key><Size>2</Size></Contents></ListBucketResult>') AS r;
SELECT pg_temp.x('SbList', '<ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01"><Name>b</Name><Contents><Key>a</Key><Size>1</Size></Contents><Contents><Key>b</Key><Size>2</Size></Contents></ListBucketResult>') AS r;
-- a prefix of the document: its paths keep it
SELECT path, code, message FROM serde_errors_xml('SbList', '<s3:ListBucketResult xmlns:s3="http://doc.s3.amazonaws.com/2006-03-01"><s3:Name>b</s3:Name><s3:Contents><s3:Key>a</s3:Key><s3:Size>x</s3:Size></s3:Contents></s3:ListBucketResult>');
SELECT path, code, message FROM serde_errors_xml('SbList', '<s3:ListBucketResult xmlns:s3="http://doc.s3.amazonaws.com/2006-03-01"><s3:Contents><s3:Key>a</s3:Key></s3:Contents></s3:ListBucketResult>');
-- a third namespace is another root; mixing them inside is the document's business (each is accepted)
SELECT pg_temp.x('SbList', '<ListBucketResult xmlns="urn:other"><Name>b</Name></ListBucketResult>') AS r;
SELECT pg_temp.x('SbList', '<ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01"><Name>b</Name><Contents xmlns="urn:other"><Key>a</Key></Contents></ListBucketResult>') AS r;
SELECT serde_valid_xml('SbList', '<ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01"><Name>b</Name></ListBucketResult>') AS valid;
SELECT serde_describe('SbList')->'xml' AS xml;

-- ---- presence booleans: JUnit XML <skipped/> ----------------------------------------------------
CREATE TYPE ju_case AS (name text, classname text, time float8, skipped boolean, failure text);
CREATE TYPE ju_suite AS (name text, tests int4, cases ju_case[]);
SELECT 'ok' FROM serde_register('JuCase', 'ju_case'::regtype, '{
  "attributes": ["name", "classname", "time"],
  "fields": {"skipped": {"xml": "presence"}, "failure": {"path": ["failure", "message"], "xml": "attribute", "optional": true}}}');
SELECT 'ok' FROM serde_register('JuSuite', 'ju_suite'::regtype, '{
  "xml": {"root": "testsuite"}, "attributes": ["name", "tests"], "fields": {"cases": {"name": "testcase", "shape": "JuCase"}}}');
SELECT jsonb_pretty(to_jsonb(serde_decode_xml('JuSuite', '<testsuite name="serde" tests="4">
  <testcase name="decodes" classname="t.A" time="0.01"/>
  <testcase name="later" classname="t.A" time="0"><skipped/></testcase>
  <testcase name="flaky" classname="t.B" time="0.5"><skipped message="quarantined">see #12</skipped></testcase>
  <testcase name="breaks" classname="t.B" time="1.25"><failure message="expected 1, got 2" type="AssertionError">trace</failure></testcase>
</testsuite>')));
SELECT pg_temp.x('JuCase', '<testcase name="n" classname="c" time="1"><skipped xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></testcase>') AS r;
SELECT path, code, message FROM serde_errors_xml('JuCase', '<testcase name="n" classname="c" time="1"><skipped/><skipped/></testcase>');
-- JSON: an ordinary boolean; absent is false
SELECT pg_temp.j('JuCase', '{"name": "n", "classname": "c", "time": 1, "skipped": true}') AS r;
SELECT pg_temp.j('JuCase', '{"name": "n", "classname": "c", "time": 1}') AS r;
SELECT pg_temp.j('JuCase', '{"name": "n", "classname": "c", "time": 1, "skipped": null}') AS r;
SELECT to_jsonb(serde_decode('JuCase', '{"name": "n", "classname": "c", "time": 1}'::jsonb)) AS from_jsonb;
SELECT pg_temp.j('JuCase', '{"name": "n", "classname": "c", "time": 1, "skipped": "yes"}') AS r;
SELECT f->>'column' AS col, f->'xml' AS xml, f->'optional' AS optional FROM jsonb_array_elements(serde_describe('JuCase')->'fields') f;

-- ---- a repeated scalar element: 22030 at the second, as JSON's duplicate member; a list collects -
CREATE TYPE xa_dup AS (a int4, b int4[]);
SELECT 'ok' FROM serde_register('XaDup', 'xa_dup'::regtype, '{"optional": true}');
SELECT pg_temp.x('XaDup', E'<r>\n<a>1</a>\n<a>2</a></r>') AS r;
SELECT path, code, message FROM serde_errors_xml('XaDup', '<r><a>1</a><b>1</b><a>2</a><b>2</b><a>x</a></r>');
SELECT pg_temp.x('XaDup', '<r><b>1</b><a>5</a><b>2</b><b>3</b></r>') AS r;
SELECT pg_temp.j('XaDup', '{"a": 1, "a": 2}') AS r;

-- ---- registration errors (22023 at the option's path) ---------------------------------------------
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": "urn:x"}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": 1}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"a:b": "urn:x"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"xmlns": "urn:x"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": ""}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": "urn:{x}"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": "urn:x"}}, "fields": {"href": {"name": "q:href"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"fields": {"href": {"name": "q:href", "xml": "attribute"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": "urn:x"}}, "fields": {"href": {"path": ["p:a", "q:b"]}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"ns": {"p": "urn:x"}, "root": "q:r"}}') AS result;
SELECT pg_temp.reg('sb_list', '{"xml": {"ns": {"p": "urn:x"}}, "fields": {"contents": {"xml_item": "q:i"}}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespaces": "urn:x"}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespaces": []}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespaces": ["urn:x", 1]}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespaces": ["urn:x", "urn:x"]}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespaces": ["urn:x", "urn:}"]}}') AS result;
SELECT pg_temp.reg('pa_image', '{"xml": {"namespace": "urn:x", "namespaces": ["urn:y"]}}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": "url"}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["url", 1]}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["url", "nope"]}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["url", "url"]}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["type"], "fields": {"type": {"xml": "element"}}}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["type"], "fields": {"type": {"xml": "attribute", "name": "kind"}}}') AS result;
SELECT pg_temp.reg('sb_list', '{"attributes": ["contents"]}') AS result;
SELECT pg_temp.reg('pa_enclosure', '{"attributes": ["url"], "fields": {"url": {"name": "a b"}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"xml_choice": "Version"}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"name": {"xml_choice": ["Version"]}}}') AS result;
SELECT pg_temp.reg('sb_list', '{"fields": {"contents": {"xml_choice": ["Key"]}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", 2]}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", "Deleted"]}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", "Version"]}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": []}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version"], "xml_item": "V"}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", "x:DeleteMarker"]}}}') AS result;
SELECT pg_temp.reg('sv_list', '{"rename": "pascal", "fields": {"entries": {"shape": "SvEntry", "xml_choice": ["Version", "DeleteMarker"]}, "name": {"name": "Version"}}}') AS result;
SELECT pg_temp.reg('pa_item', '{"fields": {"title": {"xml": "presence"}}}') AS result;
SELECT pg_temp.reg('pa_item', '{"fields": {"blocked": {"xml": "presence", "default": false}}}') AS result;
SELECT pg_temp.reg('pa_item', '{"fields": {"blocked": {"xml": "presense"}}}') AS result;
