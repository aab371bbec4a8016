-- batches.sql — the SQLite batch functions (docs/reference.md, "Batches and dead letters"):
-- serde_decode_each (on_error 'raise' / 'skip'), serde_decode_each_report and serde_errors_each
-- over a JSON array and NDJSON (blank lines, CRLF); malformed JSON in the middle; a LIMIT that
-- stops the reading; the dead-letter pattern; pinned messages and result codes.  The XML forms
-- (serde_decode_each_xml, serde_decode_each_report_xml, serde_errors_each_xml) at the end.  Run by
-- test/sqlite.sh: sqlite3 < this file, output compared with expected/batches.out.
.load ./sqlite/serde
.mode list
.headers on
SELECT serde_register('Inv', '{"unknown": "reject", "fields": {"id": {"type": "integer"},
  "customer": {"type": "text"}, "qty": {"type": "integer"}, "due": {"type": "date"}}}');

-- ---- serde_errors_each ------------------------------------------------------------------------
SELECT * FROM serde_errors_each('Inv', '[
 {"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"},
 {"id": "2", "customer": 5, "qty": 2, "due": "2024-05-01"},
 {"id": 3, "customer": "b", "due": "2024-05-01", "extra": true}
]');
SELECT * FROM serde_errors_each('Inv', '{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"}' || char(13, 10, 10) ||
  '{"id": "2", "customer": 5, "qty": 2, "due": "2024-05-01"}' || char(13, 10) ||
  '{"id": 3, bad}' || char(10) ||
  '{"id": 4, "customer": "b", "due": "2024-05-01", "extra": true}');
-- malformed in the middle of an array: the items before it, then one row for the rest
SELECT * FROM serde_errors_each('Inv', '[{"id": "x", "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": tru}, {"id": "z"}]');
SELECT * FROM serde_errors_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"} {"id": 2}]');
SELECT count(*) AS n FROM serde_errors_each('Inv', '[]');
SELECT count(*) AS n FROM serde_errors_each('Inv', '');
SELECT count(*) AS n FROM serde_errors_each('Inv', NULL);
SELECT count(*) AS n FROM serde_errors_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}]');

-- ---- serde_decode_each ----------------------------------------------------------------------------
SELECT * FROM serde_decode_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "b", "qty": 2, "due": "2024-05-02"}]');
SELECT item, value ->> '$.id' AS id FROM serde_decode_each('Inv', '{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}' || char(10, 10) ||
  '{"id": 2, "customer": "b", "qty": 2, "due": "2024-05-02"}' || char(13, 10));
-- the first bad item fails the statement by default ('raise'); 'skip' leaves bad items out
SELECT item FROM serde_decode_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": "2"}]');
SELECT item FROM serde_decode_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": "2"}]', 'raise');
SELECT item, value FROM serde_decode_each('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": "2"},
  {"id": 3, "customer": "c", "qty": 3, "due": "2024-05-03"}, {"id": 4 oops}, {"id": 5, "customer": "e", "qty": 5, "due": "2024-05-05"}]', 'skip');
SELECT item, value ->> '$.id' AS id FROM serde_decode_each('Inv', '{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}' || char(10) ||
  '{"id": 2, oops}' || char(10) || '{"id": 3, "customer": "c", "qty": 3, "due": "2024-05-03"}', 'skip');
SELECT * FROM serde_decode_each('Inv', '[]', 'ignore');
SELECT * FROM serde_decode_each('Inv', '[]', NULL);
SELECT * FROM serde_decode_each(NULL, '[]');
SELECT * FROM serde_decode_each('Nope', '[]');
SELECT * FROM serde_decode_each('Inv');
-- rows are read as they are asked for: LIMIT stops before the malformed end
SELECT item FROM serde_decode_each('Inv', '{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}' || char(10) || '{oops') LIMIT 1;
-- one statement over several documents
CREATE TABLE inbox (batch TEXT, body TEXT);
INSERT INTO inbox VALUES ('b1', '[{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "acme", "qty": "x", "due": "2024-05-01"}]'),
                         ('b2', '{"id": 3, "customer": "beta", "qty": 3, "due": "2024-05-31"}' || char(10) || '{"id": 4, "due": "June"}');
SELECT batch, item, value ->> '$.id' AS id FROM inbox, serde_decode_each('Inv', inbox.body, 'skip') ORDER BY 1, 2;

-- ---- serde_decode_each_report and dead letters --------------------------------------------------
SELECT * FROM serde_decode_each_report('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": "2"}, {"id": 3, "customer": "c", "qty": 3, "due": "2024-05-03"} {"id": 4}]');
CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer TEXT, qty INTEGER, due TEXT);
CREATE TABLE dead_letters (batch TEXT, item INTEGER, code TEXT, path TEXT, message TEXT);
CREATE TEMP TABLE r AS SELECT inbox.batch, e.* FROM inbox, serde_decode_each_report('Inv', inbox.body) e;
INSERT INTO invoices SELECT value ->> '$.id', value ->> '$.customer', value ->> '$.qty', value ->> '$.due' FROM r WHERE ok;
INSERT INTO dead_letters SELECT batch, item, code, path, message FROM r WHERE NOT ok;
SELECT * FROM invoices ORDER BY id;
SELECT * FROM dead_letters ORDER BY batch, item;

-- ---- the XML forms: serde_decode_each_xml, serde_decode_each_report_xml, serde_errors_each_xml --
-- the root element is the batch, each child element one item (numbered from 1, XPath paths from
-- the batch's root); children not named as the shape's xml.root are skipped, as is the root's text
SELECT serde_register('InvX', '{"unknown": "reject", "xml": {"root": "Inv"}, "fields": {"id": {"type": "integer"},
  "customer": {"type": "text"}, "qty": {"type": "integer"}, "due": {"type": "date"}}}');
SELECT * FROM serde_decode_each_xml('InvX', '<Batch>
  <Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
  <Note>not an item</Note> some text
  <Inv><id>2</id><customer>beta</customer><qty>2</qty><due>2024-05-02</due></Inv>
</Batch>');
-- every error of every item; malformed XML in the middle: the items before it, then one row
SELECT * FROM serde_errors_each_xml('InvX', '<Batch>
 <Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
 <Inv><id>x</id><customer>5</customer><qty>2</qty><due>2024-05-02</due></Inv>
 <Inv><id>4</id><customer>d</customer><due>2024-05-04</due><extra/></Inv>
 <Inv><id>5</Inv>
 <Inv><id>y</id></Inv>
</Batch>');
SELECT * FROM serde_errors_each_xml('InvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv></Batch><x/>');
SELECT * FROM serde_errors_each_xml('InvX', 'not xml');
-- empty batches, NULL: no rows
SELECT count(*) AS n FROM serde_errors_each_xml('InvX', '<Batch/>');
SELECT count(*) AS n FROM serde_decode_each_xml('InvX', '<Batch>  </Batch>');
SELECT count(*) AS n FROM serde_decode_each_report_xml('InvX', '<Batch><Note/></Batch>');
SELECT count(*) AS n FROM serde_decode_each_xml('InvX', NULL);
-- 'raise' (the default) fails the statement at the first bad item; 'skip' leaves bad items out
SELECT item FROM serde_decode_each_xml('InvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>z</id></Inv></Batch>');
SELECT item FROM serde_decode_each_xml('InvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>2</Inv></Batch>', 'raise');
SELECT item, value FROM serde_decode_each_xml('InvX', '<Batch>
 <Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv>
 <Inv><id>x</id></Inv>
 <Inv><id>3</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv>
 <Inv><id>6</id><customer>f</customer><qty>6</qty><due>2024-05-06</Inv>
 <Inv><id>7</id><customer>g</customer><qty>7</qty><due>2024-05-07</due></Inv>
</Batch>', 'skip');
SELECT * FROM serde_decode_each_xml('InvX', '<Batch/>', 'ignore');
SELECT * FROM serde_decode_each_xml('InvX');
-- LIMIT stops before the malformed end
SELECT item FROM serde_decode_each_xml('InvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><oops</Batch>') LIMIT 1;
-- one row per item
SELECT * FROM serde_decode_each_report_xml('InvX', '<Batch>
<Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
<Inv><id>x</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv>
<Inv><id>4</id><customer>d</customer><qty>4</qty><due>2024-05-04</due></Inv>
<Inv><id>5</id><qty>5</Inv></Batch>');
-- an S3-like listing (its <Contents> children; Name, KeyCount... skipped) and RSS items
SELECT serde_register('S3Object', '{"rename": "pascal", "xml": {"root": "Contents", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},
  "fields": {"key": {"type": "text"}, "last_modified": {"type": "timestamp"}, "etag": {"type": "text", "name": "ETag"},
  "size": {"type": "integer"}, "storage_class": {"type": "text"}}}');
SELECT * FROM serde_decode_each_report_xml('S3Object', '<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix/><KeyCount>3</KeyCount><IsTruncated>false</IsTruncated>
  <Contents><Key>a.txt</Key><LastModified>2024-05-01T10:00:00.000Z</LastModified><ETag>"e1"</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>b.txt</Key><LastModified>2024-05-02T10:00:00.000Z</LastModified><ETag>"e2"</ETag><Size>-</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>c.txt</Key><LastModified>2024-05-03T10:00:00.000Z</LastModified><ETag>"e3"</ETag><Size>33</Size><StorageClass>GLACIER</StorageClass></Contents>
</ListBucketResult>');
SELECT serde_register('RssItem', '{"xml": {"root": "item"}, "fields": {"title": {"type": "text"}, "link": {"type": "text"},
  "pub_date": {"type": "text", "name": "pubDate"}, "guid": {"type": "text"}}}');
SELECT * FROM serde_errors_each_xml('RssItem', '<channel>
  <title>News</title><link>https://example.com/</link>
  <item><title>One</title><link>https://example.com/1</link><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate><guid>1</guid></item>
  <item><title>Two</title><link>https://example.com/2</link><guid>2</guid></item>
  <item><title><b>Three</b></title><link>https://example.com/3</link><pubDate>x</pubDate><guid>3</guid></item>
</channel>');
-- the same items as a JSON array give the same rows (JSON numbers items from 0)
SELECT x.item AS xml_item, j.item AS json_item, x.ok, x.value IS j.value AS same_value, x.path AS xml_path, j.path AS json_path
  FROM serde_decode_each_report_xml('InvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>x</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv><Inv><id>4</id><customer>d</customer><qty>4</qty><due>2024-05-04</due></Inv></Batch>') x
  JOIN serde_decode_each_report('Inv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": "x", "customer": "c", "qty": 3, "due": "2024-05-03"}, {"id": 4, "customer": "d", "qty": 4, "due": "2024-05-04"}]') j
    ON j.item = x.item - 1
 ORDER BY x.item;
-- dead letters from XML batches
CREATE TABLE inbox_x (batch TEXT, body TEXT);
INSERT INTO inbox_x VALUES ('x1', '<Batch><Inv><id>11</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>12</id><customer>acme</customer><qty>x</qty><due>2024-05-01</due></Inv></Batch>'),
                           ('x2', '<Batch><Inv><id>13</id><customer>beta</customer><qty>3</qty><due>2024-05-31</due></Inv><Inv><id>14</id><due>June</due></Inv></Batch>');
CREATE TEMP TABLE rx AS SELECT inbox_x.batch, e.* FROM inbox_x, serde_decode_each_report_xml('InvX', inbox_x.body) e;
INSERT INTO invoices SELECT value ->> '$.id', value ->> '$.customer', value ->> '$.qty', value ->> '$.due' FROM rx WHERE ok;
INSERT INTO dead_letters SELECT batch, item, code, path, message FROM rx WHERE NOT ok;
SELECT * FROM invoices WHERE id > 10 ORDER BY id;
SELECT * FROM dead_letters WHERE batch LIKE 'x%' ORDER BY batch, item;
