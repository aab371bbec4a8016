-- xml_authoring.sql — the XML authoring options from the sqlite3 shell (docs/reference.md, "XML
-- names"): the xml.ns prefix map, xml.namespaces, the shape-level attributes list, xml_choice
-- lists of a union's variants, xml: "presence" booleans, a repeated scalar element (22030) next to
-- a list (collected), the JSON side of the same descriptors, and their registration errors.  Run
-- as test/sqlite.sh runs the others: output compared with expected/xml_authoring.out.
.load ./sqlite/serde
.mode list
.headers off
-- a podcast feed: itunes: names through the map, attributes listed once
SELECT serde_register('PaEnclosure', '{"attributes": ["url", "length"], "fields": {"url": {"type": "text"}, "length": {"type": "integer"}}}');
SELECT serde_register('PaItem', '{"xml": {"ns": {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd"}},
  "fields": {"title": {"type": "text"}, "duration": {"type": "integer", "name": "itunes:duration"},
             "enclosure": {"type": {"shape": "PaEnclosure"}},
             "blocked": {"type": "boolean", "name": "itunes:block", "xml": "presence"}}}');
SELECT serde_register('PaFeed', '{"xml": {"root": "rss", "ns": {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd", "atom": "http://www.w3.org/2005/Atom"}},
  "attributes": ["version"],
  "fields": {"version": {"type": "text"}, "author": {"type": "text", "path": ["channel", "itunes:author"]},
             "self": {"type": "text", "path": ["channel", "atom:link", "href"], "xml": "attribute"},
             "items": {"type": {"list": {"shape": "PaItem"}}, "path": ["channel", "item"]}}}');
SELECT serde_decode_xml('PaFeed', '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<itunes:author>Ada</itunes:author><atom:link href="https://radio.example.com/feed.xml" rel="self"/>
<item><title>One</title><itunes:duration>1804</itunes:duration><enclosure url="https://radio.example.com/1.mp3" length="28901234"/></item>
<item><title>Two</title><itunes:duration>95</itunes:duration><enclosure url="https://radio.example.com/2.mp3" length="1520000"/><itunes:block>Yes</itunes:block></item>
</channel></rss>');
SELECT serde_decode_xml('PaItem', '<item xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"><title>t</title><it:duration>x</it:duration><enclosure url="u" length="1"/></item>');
SELECT serde_decode('PaItem', '{"title": "t", "itunes:duration": 5, "enclosure": {"url": "u", "length": 1}}');
SELECT json_extract(serde_describe('PaItem'), '$.fields[1].xml', '$.fields[3].xml');
-- S3 ListObjectVersions: one ordered list over Version and DeleteMarker
SELECT serde_register('SvVersion', '{"rename": "pascal", "fields": {"key": {"type": "text"}, "size": {"type": "integer"}}}');
SELECT serde_register('SvMarker', '{"rename": "pascal", "fields": {"key": {"type": "text"}}}');
SELECT serde_register('SvEntry', '{"rename": "pascal", "unknown": "reject", "tag": "kind", "variants": {"Version": "version", "DeleteMarker": "delete_marker"},
  "fields": {"kind": {"type": "text"}, "version": {"type": {"shape": "SvVersion"}}, "delete_marker": {"type": {"shape": "SvMarker"}}}}');
SELECT serde_register('SvList', '{"xml": {"root": "ListVersionsResult", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"}, "rename": "pascal",
  "fields": {"name": {"type": "text"}, "entries": {"type": {"list": {"shape": "SvEntry"}}, "xml_choice": ["Version", "DeleteMarker"]}}}');
SELECT serde_decode_xml('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Version><Key>a</Key><Size>3</Size></Version><DeleteMarker><Key>b</Key></DeleteMarker><Version><Key>b</Key><Size>5</Size></Version></ListVersionsResult>');
SELECT serde_decode('SvList', '{"Name": "b", "Entries": [{"Kind": "Version", "Key": "a", "Size": 3}, {"Kind": "DeleteMarker", "Key": "b"}]}');
SELECT path, code FROM serde_errors_xml('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><DeleteMarker><Key>b</Key></DeleteMarker><Version><Key>a</Key><Size>3</Size></Version><Version><Key>a</Key><Size>x</Size></Version><DeleteMarker><Size>1</Size></DeleteMarker></ListVersionsResult>');
SELECT serde_valid_xml('SvList', '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name></ListVersionsResult>');
-- one shape, two namespaces
SELECT serde_register('SbObject', '{"rename": "pascal", "unknown": "reject", "fields": {"key": {"type": "text"}}}');
SELECT serde_register('SbList', '{"xml": {"root": "ListBucketResult", "namespaces": ["http://s3.amazonaws.com/doc/2006-03-01/", "http://doc.s3.amazonaws.com/2006-03-01"]},
  "rename": "pascal", "unknown": "reject", "fields": {"name": {"type": "text"}, "contents": {"type": {"list": {"shape": "SbObject"}}}}}');
SELECT serde_decode_xml('SbList', '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Contents><Key>a</Key></Contents></ListBucketResult>');
SELECT serde_decode_xml('SbList', '<ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01"><Name>b</Name><Contents><Key>a</Key></Contents></ListBucketResult>');
SELECT serde_decode_xml('SbList', '<ListBucketResult xmlns="urn:other"><Name>b</Name></ListBucketResult>');
SELECT json_extract(serde_describe('SbList'), '$.xml.namespaces');
-- presence: <skipped/>; JSON: a boolean, absent false
SELECT serde_register('JuCase', '{"attributes": ["name"], "fields": {"name": {"type": "text"}, "skipped": {"type": "boolean", "xml": "presence"}}}');
SELECT serde_decode_xml('JuCase', '<testcase name="a"/>'), serde_decode_xml('JuCase', '<testcase name="b"><skipped/></testcase>'), serde_decode_xml('JuCase', '<testcase name="c"><skipped message="m">why</skipped></testcase>');
SELECT serde_decode('JuCase', '{"name": "a"}'), serde_decode('JuCase', '{"name": "b", "skipped": true}');
SELECT path, code FROM serde_errors_xml('JuCase', '<testcase name="a"><skipped/><skipped/></testcase>');
-- a repeated scalar element: 22030 at the second; a list collects
SELECT serde_register('XaDup', '{"optional": true, "fields": {"a": {"type": "integer"}, "b": {"type": {"list": "integer"}}}}');
SELECT serde_decode_xml('XaDup', '<r><a>1</a><a>2</a></r>');
SELECT serde_decode_xml('XaDup', '<r><b>1</b><a>5</a><b>2</b></r>');
-- registration errors
SELECT serde_register('Bad', '{"xml": {"ns": {"p": "urn:x"}}, "fields": {"a": {"type": "text", "name": "q:a"}}}');
SELECT serde_register('Bad', '{"xml": {"ns": {"xmlns": "urn:x"}}, "fields": {"a": {"type": "text"}}}');
SELECT serde_register('Bad', '{"xml": {"namespace": "urn:x", "namespaces": ["urn:y"]}, "fields": {"a": {"type": "text"}}}');
SELECT serde_register('Bad', '{"xml": {"namespaces": ["urn:x", 1]}, "fields": {"a": {"type": "text"}}}');
SELECT serde_register('Bad', '{"attributes": ["a", "b"], "fields": {"a": {"type": "text"}}}');
SELECT serde_register('Bad', '{"attributes": ["a"], "fields": {"a": {"type": "text", "xml": "text"}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"list": {"shape": "SbObject"}}, "xml_choice": ["Contents"]}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": {"list": {"shape": "SvEntry"}}, "xml_choice": ["Version", "Deleted"]}}}');
SELECT serde_register('Bad', '{"fields": {"a": {"type": "integer", "xml": "presence"}}}');
-- an element present with no character data: its xml "text" member is '' for a text field
SELECT serde_register('SxTxt', '{"fields": {"type": {"type": "text", "xml": "attribute", "optional": true}, "body": {"type": "text", "xml": "text"}}}');
SELECT serde_decode_xml('SxTxt', '<subtitle type="html"></subtitle>');
SELECT serde_decode_xml('SxTxt', '<skipped/>');
SELECT serde_register('SxNum', '{"fields": {"unit": {"type": "text", "xml": "attribute"}, "amount": {"type": "integer", "xml": "text", "optional": true}}}');
SELECT serde_decode_xml('SxNum', '<total unit="EUR"/>');
