-- batches.sql — batches: triage and dead letters (docs/reference.md, "Batches and dead letters"):
-- serde_errors_each (every error of every item), serde_decode_each's on_error ('raise' by
-- default, 'skip'), serde_decode_each_report (one row per item) and the dead-letter pattern;
-- a JSON array, NDJSON (blank lines, CRLF) and jsonb; malformed JSON in the middle; rows that
-- stream in the select list.  Items are numbered as their paths name them: an array element by
-- its 0-based index ($[i]), an NDJSON line by its 1-based number (line N: ).  The XML forms
-- (serde_decode_each_xml, ...): the root element's children as items, an S3 listing and RSS,
-- the same items as JSON, dead letters.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;

CREATE DOMAIN bt_qty AS int4 CHECK (VALUE > 0);
CREATE TYPE bt_inv AS (id int8, customer varchar(8), qty bt_qty, due date);
SELECT serde_register('BtInv', 'bt_inv', '{"unknown": "reject"}');

-- ---- serde_errors_each ------------------------------------------------------------------------
-- an array: good, two errors in one item, a domain CHECK, a missing and an unknown member
SELECT * FROM serde_errors_each(NULL::bt_inv, '[
 {"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"},
 {"id": "2", "customer": "much too long", "qty": 2, "due": "2024-05-01"},
 {"id": 3, "customer": "b", "qty": 0, "due": "2024-05-01"},
 {"id": 4, "customer": "c", "due": "2024-05-01", "extra": true}
]');
-- the same as NDJSON: items are lines (blank lines counted, CRLF line ends)
SELECT * FROM serde_errors_each(NULL::bt_inv, E'{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"}\r\n\n'
  '{"id": "2", "customer": "much too long", "qty": 2, "due": "2024-05-01"}\r\n'
  '{"id": 3, "customer": "b", "qty": 0, "due": "2024-05-01"}\n'
  '{"id": 4, "customer": "c", "due": "2024-05-01", "extra": true}\n');
-- jsonb: paths, no offsets
SELECT * FROM serde_errors_each(NULL::bt_inv, '[{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"},
 {"id": "2", "customer": "much too long", "qty": 2, "due": "2024-05-01"},
 {"id": 3, "customer": "b", "qty": 0, "due": "2024-05-01"}]'::jsonb);
-- malformed JSON in the middle of an array: the items before it are still read, then one row for
-- the malformed rest (its item is where the array broke); an NDJSON line is independent
SELECT * FROM serde_errors_each('BtInv', '[{"id": "x", "customer": "a", "qty": 1, "due": "2024-05-01"},
 {"id": 2, "customer": "a", "qty": 1, "due": "2024-05-01"} {"id": 3},
 {"id": "y"}]');
SELECT * FROM serde_errors_each('BtInv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": tru}, {"id": "z"}]');
SELECT * FROM serde_errors_each('BtInv', E'{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}\n{"id": 2, "customer": tru}\n{"id": "z", "customer": "a", "qty": 1, "due": "2024-05-01"}');
SELECT * FROM serde_errors_each('BtInv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"},');
SELECT * FROM serde_errors_each('BtInv', '[1, 2] x');
-- empty and valid batches: no rows; NULL: no rows; serde.max_errors counts per item
SELECT count(*) FROM serde_errors_each('BtInv', '[]');
SELECT count(*) FROM serde_errors_each('BtInv', E'\n\r\n  \n');
SELECT count(*) FROM serde_errors_each('BtInv', '');
SELECT count(*) FROM serde_errors_each('BtInv', '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}]');
SELECT count(*) FROM serde_errors_each('BtInv', NULL::text);
SET serde.max_errors = 1;
SELECT item, path FROM serde_errors_each('BtInv', '[{"id": "a", "qty": "b"}, {"id": "c", "qty": "d"}]');
RESET serde.max_errors;
-- the whole input over serde.max_document_bytes: one row without an item
SET serde.max_document_bytes = 16;
SELECT * FROM serde_errors_each('BtInv', '[{"id": 1}, {"id": 2}, {"id": 3}]');
RESET serde.max_document_bytes;
-- a jsonb document must be an array
SELECT * FROM serde_errors_each('BtInv', '{"id": 1}'::jsonb);

-- ---- serde_decode_each(..., on_error) -------------------------------------------------------
-- 'raise' (the default) ends the statement at the first bad item; 'skip' leaves bad items out
SELECT * FROM serde_decode_each(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "b", "qty": 0, "due": "2024-05-01"}]');
SELECT * FROM serde_decode_each(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "b", "qty": 0, "due": "2024-05-01"}]', on_error => 'raise');
SELECT * FROM serde_decode_each(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"},
 {"id": 2, "customer": "b", "qty": 0, "due": "2024-05-01"}, {"id": "3"}, null,
 {"id": 5, "customer": "e", "qty": 5, "due": "2024-05-31"}]', on_error => 'skip');
SELECT * FROM serde_decode_each(NULL::bt_inv, E'{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}\r\n'
  '{"id": 2, bad json}\n\n{"id": 3, "customer": "c", "qty": 3, "due": "2024-05-03"}', 'BtInv', 'skip');
SELECT * FROM serde_decode_each(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "b", "qty": 0, "due": "2024-05-01"}]'::jsonb, on_error => 'skip');
-- malformed in the middle of an array: the items before it, nothing after
SELECT id FROM serde_decode_each(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2 "x"}, {"id": 3, "customer": "c", "qty": 3, "due": "2024-05-01"}]', on_error => 'skip');
-- other targets: a scalar, a shape by name with the typed form
SELECT * FROM serde_decode_each(NULL::int4, '[1, "2", 3.5, 4]', on_error => 'skip');
SELECT * FROM serde_decode_each(NULL::int4, E'1\nx\n3', on_error => 'skip');
SELECT count(*) FROM serde_decode_each(NULL::bt_inv, '[]', on_error => 'skip');
SELECT count(*) FROM serde_decode_each(NULL::bt_inv, NULL::text, on_error => 'skip');
-- bad on_error values: 22023, before the document is looked at
CREATE FUNCTION pg_temp.bt_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text; st text; msg text; hint text;
BEGIN
    EXECUTE q INTO r;
    RETURN coalesce(r, '<NULL>');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' HINT: ' || nullif(hint, ''), '');
END $f$;
SELECT q, pg_temp.bt_try(q) AS result FROM (VALUES
    ($$SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, '[]', on_error => 'ignore')$$),
    ($$SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, NULL::text, on_error => 'Skip')$$),
    ($$SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, '[]', on_error => NULL)$$),
    ($$SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, '[]', NULL, 'skip')$$),
    ($$SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, '[]', 'NoSuchShape', 'skip')$$),
    ($$SELECT count(*)::text FROM serde_decode_each('BtInv'::text, '[]', on_error => 'skip')$$),
    -- the size of the whole input is no item's problem: it raises, also under 'skip'
    ($$SET serde.max_document_bytes = 8; SELECT count(*)::text FROM serde_decode_each(NULL::bt_inv, '[{"id": 1}]', on_error => 'skip')$$)
) v(q);
RESET serde.max_document_bytes;

-- ---- rows stream in the select list ---------------------------------------------------------
-- an item is read when its row is asked for: LIMIT stops before the malformed end
SELECT serde_decode_each(NULL::int4, E'1\n2\n3\n{oops') LIMIT 2;
SELECT serde_decode_each(NULL::int4, '[1, 2, 3, {oops') LIMIT 3;
SELECT serde_decode_each(NULL::int4, '[1, 2, 3, {oops') LIMIT 4;
-- two batches on one call site, one after the other (a LATERAL over several documents)
SELECT d.n, e FROM (VALUES (1, '[10, 11]'), (2, E'20\n\n21\n'), (3, '[]'), (4, NULL)) d(n, doc),
       LATERAL serde_decode_each(NULL::int4, d.doc) e ORDER BY 1, 2;
SELECT n, serde_decode_each(NULL::int4, doc) FROM (VALUES (1, '[10, 11]'), (2, E'20\n21')) d(n, doc);
-- more batches open at once than the backend keeps decoders for; batches cut short by LIMIT
SELECT serde_decode_each(NULL::int4, '[1,2]') a, serde_decode_each(NULL::int4, E'3\n4') b,
       serde_decode_each(NULL::int4, '[5,6]') c, serde_decode_each(NULL::int4, '[7,8]') d,
       serde_decode_each(NULL::int4, '[9,10]') e, serde_decode_each(NULL::int4, '[11,12]') f,
       serde_decode_each(NULL::int4, '[13,14]'::jsonb) g;
SELECT count(*) FROM generate_series(1, 3) g,
       LATERAL (SELECT serde_decode_each(NULL::int4, '[1, 2, 3]') x LIMIT 2) s;

-- ---- serde_decode_each_report and dead letters --------------------------------------------------
SELECT * FROM serde_decode_each_report(NULL::bt_inv, E'{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"}\n'
  '{"id": 2, "customer": "much too long", "qty": 2, "due": "2024-05-01"}\r\n\n'
  '{"id": 3, "customer": "b", "qty": 0, "due": "2024-05-01"}\n'
  '{"id": 4, bad}\n'
  '{"id": 5, "customer": "e", "qty": 5, "due": "2024-05-05"}\n');
SELECT item, ok, (row).id, code, path FROM serde_decode_each_report(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"},
 {"id": 2, "customer": "b", "qty": -1, "due": "2024-05-01"}, {"id": 3, "customer": "c", "qty": 3, "due": "2024-05-03"}
 {"id": 4}]', 'BtInv');
SELECT item, ok, (row).id, code, path FROM serde_decode_each_report(NULL::bt_inv, '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"},
 {"id": 2, "customer": "b", "qty": -1, "due": "2024-05-01"}, {"id": "3"}]'::jsonb);
SELECT * FROM serde_decode_each_report(NULL::int4, '[1, "2", 3]');
SELECT count(*) FROM serde_decode_each_report(NULL::bt_inv, '[]');
SET serde.max_document_bytes = 8;
SELECT * FROM serde_decode_each_report(NULL::int4, '[1, 2, 3]');
RESET serde.max_document_bytes;

-- the dead-letter pattern: one statement loads the good items and routes the bad ones
CREATE TABLE bt_invoices OF bt_inv;
CREATE TABLE bt_dead_letters (batch text, item int, code text, path text, message text,
                              at timestamptz DEFAULT now());
CREATE TABLE bt_inbox (batch text, body text);
INSERT INTO bt_inbox VALUES
  ('b1', '[{"id": 1, "customer": "acme", "qty": 1, "due": "2024-05-01"},
           {"id": 2, "customer": "acme", "qty": 0, "due": "2024-05-01"},
           {"id": 3, "customer": "beta", "qty": 3, "due": "2024-05-31"}]'),
  ('b2', E'{"id": 4, "customer": "gamma", "qty": 4, "due": "2024-06-01"}\n{"id": 5, "due": "June"}\n');
WITH r AS (SELECT b.batch, e.* FROM bt_inbox b, serde_decode_each_report(NULL::bt_inv, b.body) e),
     good AS (INSERT INTO bt_invoices SELECT (row).* FROM r WHERE ok RETURNING 1),
     bad AS (INSERT INTO bt_dead_letters (batch, item, code, path, message)
             SELECT batch, item, code, path, message FROM r WHERE NOT ok RETURNING 1)
SELECT (SELECT count(*) FROM good) AS loaded, (SELECT count(*) FROM bad) AS dead;
SELECT * FROM bt_invoices ORDER BY id;
SELECT batch, item, code, path, message FROM bt_dead_letters ORDER BY batch, item, path;

-- ---- catalog: every batch function is STABLE PARALLEL SAFE ---------------------------------------
SELECT p.oid::regprocedure, p.provolatile, p.proparallel, p.prorows, p.proretset
  FROM pg_proc p WHERE p.proname IN ('serde_decode_each_report', 'serde_errors_each')
 ORDER BY 1::text;

-- ---- the XML form: serde_decode_each_xml, serde_decode_each_report_xml, serde_errors_each_xml ----
-- the document's root element is the batch, each child element one item, decoded as
-- serde_decode_xml decodes a document whose root is that element; items are numbered from 1,
-- paths are XPath from the batch's root (/Batch/Inv[3]/qty); children not named as the shape's
-- xml.root are skipped (here <Note>), as is the root's own text
SELECT serde_register('BtInvX', 'bt_inv', '{"unknown": "reject", "xml": {"root": "Inv"}}');
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch>
  <Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
  <Note>not an item</Note> some text
  <Inv><id>2</id><customer>beta</customer><qty>2</qty><due>2024-05-02</due></Inv>
</Batch>', 'BtInvX');
-- doc xml; the record form
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv></Batch>'::xml, 'BtInvX');
SELECT * FROM serde_decode_each_xml('BtInvX', '<Batch><Inv><id>7</id><customer>g</customer><qty>7</qty><due>2024-05-07</due></Inv></Batch>')
  AS t(id int8, customer varchar(8), qty bt_qty, due date);
-- serde_errors_each_xml: good, bad, mixed (two errors in one item, a domain CHECK, an unknown and
-- a missing member), then malformed XML in the middle: the items before it are reported, then
-- one row (2200M, path /, numbered as the item where it broke)
SELECT * FROM serde_errors_each_xml('BtInvX', '<Batch>
 <Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
 <Inv><id>x</id><customer>much too long</customer><qty>2</qty><due>2024-05-02</due></Inv>
 <Inv><id>3</id><customer>c</customer><qty>0</qty><due>2024-05-03</due></Inv>
 <Inv><id>4</id><customer>d</customer><due>2024-05-04</due><extra/></Inv>
 <Inv><id>5</Inv>
 <Inv><id>y</id></Inv>
</Batch>');
SELECT * FROM serde_errors_each_xml(NULL::bt_inv, '<Batch><Inv><id>x</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv></Batch>'::xml, 'BtInvX');
-- malformed between items, after the root, before any item
SELECT * FROM serde_errors_each_xml('BtInvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv a=1/></Batch>');
SELECT * FROM serde_errors_each_xml('BtInvX', '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv></Batch><x/>');
SELECT * FROM serde_errors_each_xml('BtInvX', 'not xml');
-- empty batches and NULL: no rows
SELECT count(*) FROM serde_errors_each_xml('BtInvX', '<Batch/>');
SELECT count(*) FROM serde_decode_each_xml(NULL::bt_inv, '<Batch>  </Batch>', 'BtInvX');
SELECT count(*) FROM serde_decode_each_report_xml(NULL::bt_inv, '<Batch><Note/></Batch>', 'BtInvX');
SELECT count(*) FROM serde_errors_each_xml('BtInvX', NULL::text);
-- on_error: 'raise' (the default) ends the statement at the first bad item, with its line and
-- column; 'skip' leaves bad items out, and the malformed rest
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch>
<Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv>
<Inv><id>2</id><customer>b</customer><qty>0</qty><due>2024-05-01</due></Inv></Batch>', 'BtInvX');
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>z</id></Inv></Batch>', 'BtInvX', on_error => 'raise');
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>2</Inv></Batch>', 'BtInvX');
SELECT * FROM serde_decode_each_xml(NULL::bt_inv, '<Batch>
 <Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv>
 <Inv><id>2</id><customer>b</customer><qty>0</qty><due>2024-05-02</due></Inv>
 <Inv><id>3</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv>
 <Inv><id>x</id></Inv>
 <Inv><id>5</id><customer>e</customer><qty>5</qty><due>2024-05-05</due></Inv>
 <Inv><id>6</id><customer>f</customer><qty>6</qty><due>2024-05-06</Inv>
 <Inv><id>7</id><customer>g</customer><qty>7</qty><due>2024-05-07</due></Inv>
</Batch>', 'BtInvX', 'skip');
SELECT pg_temp.bt_try($$SELECT count(*)::text FROM serde_decode_each_xml(NULL::bt_inv, '<Batch/>', 'BtInvX', 'ignore')$$);
-- rows stream in the select list: LIMIT stops before the malformed end
SELECT serde_decode_each_xml(NULL::int4, '<nums><n>1</n><n>2</n><n>3</n><n>oops</nums>') LIMIT 2;
-- no xml.root: every child element is an item, its path's position counted among the children of
-- its own name (and namespace)
SELECT * FROM serde_decode_each_report_xml(NULL::int4, '<l xmlns:p="urn:p"><a>1</a><b>x</b><a>y</a><p:a>z</p:a><b>2</b></l>');
-- serde_decode_each_report_xml: a domain CHECK (the item read again for its first error), a
-- kind error, the malformed rest
SELECT * FROM serde_decode_each_report_xml(NULL::bt_inv, '<Batch>
<Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
<Inv><id>2</id><customer>b</customer><qty>0</qty><due>2024-05-02</due></Inv>
<Inv><id>x</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv>
<Inv><id>4</id><customer>d</customer><qty>4</qty><due>2024-05-04</due></Inv>
<Inv><id>5</id><qty>5</Inv></Batch>', 'BtInvX');

-- an S3-like listing: the <Contents> children of ListBucketResult are the items, its other
-- children (Name, Prefix, KeyCount, IsTruncated) are skipped; a namespace and pascal names
CREATE TYPE bt_s3_object AS (key text, last_modified timestamptz, etag text, size int8, storage_class text);
SELECT serde_register('BtS3Object', 'bt_s3_object', '{"rename": "pascal",
  "fields": {"etag": {"name": "ETag"}},
  "xml": {"root": "Contents", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"}}');
SELECT * FROM serde_decode_each_xml(NULL::bt_s3_object, '<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix/><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>
  <Contents><Key>a.txt</Key><LastModified>2024-05-01T10:00:00.000Z</LastModified><ETag>"e1"</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>b.txt</Key><LastModified>2024-05-02T10:00:00.000Z</LastModified><ETag>"e2"</ETag><Size>-</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>c.txt</Key><LastModified>2024-05-03T10:00:00.000Z</LastModified><ETag>"e3"</ETag><Size>33</Size><StorageClass>GLACIER</StorageClass></Contents>
</ListBucketResult>', on_error => 'skip');
SELECT * FROM serde_errors_each_xml(NULL::bt_s3_object, '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name>
  <Contents><Key>a.txt</Key><LastModified>2024-05-01T10:00:00.000Z</LastModified><ETag>"e1"</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>b.txt</Key><LastModified>yesterday</LastModified><ETag>"e2"</ETag><Size>-</Size><StorageClass>STANDARD</StorageClass></Contents>
</ListBucketResult>');
-- RSS items: the <item> children of <channel> (title, link, description of the channel skipped)
CREATE TYPE bt_rss_item AS (title text, link text, pub_date text, guid text);
SELECT serde_register('BtRssItem', 'bt_rss_item', '{"xml": {"root": "item"}, "fields": {"pub_date": {"name": "pubDate"}}}');
SELECT * FROM serde_decode_each_report_xml(NULL::bt_rss_item, '<channel>
  <title>News</title><link>https://example.com/</link><description>all of it</description>
  <item><title>One</title><link>https://example.com/1</link><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate><guid>1</guid></item>
  <item><title>Two</title><link>https://example.com/2</link><guid>2</guid></item>
  <item><title><b>Three</b></title><guid>3</guid></item>
</channel>');

-- the same items as a JSON array give the same rows and fail at the same members (XML's kind
-- errors are 2200N where JSON's are 22032: docs/reference.md §4); JSON numbers items from 0
CREATE TEMP TABLE bt_same AS SELECT
 '<Batch><Inv><id>1</id><customer>a</customer><qty>1</qty><due>2024-05-01</due></Inv><Inv><id>2</id><customer>b</customer><qty>0</qty><due>2024-05-02</due></Inv><Inv><id>x</id><customer>c</customer><qty>3</qty><due>2024-05-03</due></Inv><Inv><id>4</id><customer>d</customer><qty>4</qty><due>2024-05-04</due></Inv></Batch>'::text AS x,
 '[{"id": 1, "customer": "a", "qty": 1, "due": "2024-05-01"}, {"id": 2, "customer": "b", "qty": 0, "due": "2024-05-02"}, {"id": "x", "customer": "c", "qty": 3, "due": "2024-05-03"}, {"id": 4, "customer": "d", "qty": 4, "due": "2024-05-04"}]'::text AS j;
SELECT (SELECT array_agg(e ORDER BY e.id) FROM bt_same, serde_decode_each_xml(NULL::bt_inv, x, 'BtInvX', 'skip') e) IS NOT DISTINCT FROM
       (SELECT array_agg(e ORDER BY e.id) FROM bt_same, serde_decode_each(NULL::bt_inv, j, 'BtInv', 'skip') e) AS same_rows,
       (SELECT array_agg(e ORDER BY e.id) FROM bt_same, serde_decode_each_xml(NULL::bt_inv, x, 'BtInvX', 'skip') e) AS xml_rows;
SELECT x.item AS xml_item, j.item AS json_item, x.ok, x.row IS NOT DISTINCT FROM j.row AS same_row,
       x.code IS NOT DISTINCT FROM j.code AS same_code, x.path AS xml_path, j.path AS json_path
  FROM bt_same,
       serde_decode_each_report_xml(NULL::bt_inv, bt_same.x, 'BtInvX') x
  FULL JOIN serde_decode_each_report(NULL::bt_inv, bt_same.j, 'BtInv') j ON j.item = x.item - 1
 ORDER BY x.item;

-- the dead-letter pattern over XML batches
CREATE TABLE bt_invoices_x OF bt_inv;
CREATE TABLE bt_dead_letters_x (batch text, item int, code text, path text, message text);
CREATE TABLE bt_inbox_x (batch text, body xml);
INSERT INTO bt_inbox_x VALUES
  ('x1', '<Batch><Inv><id>1</id><customer>acme</customer><qty>1</qty><due>2024-05-01</due></Inv>
          <Inv><id>2</id><customer>acme</customer><qty>0</qty><due>2024-05-01</due></Inv>
          <Inv><id>3</id><customer>beta</customer><qty>3</qty><due>2024-05-31</due></Inv></Batch>'),
  ('x2', '<Batch><Inv><id>4</id><customer>gamma</customer><qty>4</qty><due>2024-06-01</due></Inv>
          <Inv><id>5</id><due>June</due></Inv></Batch>');
WITH r AS (SELECT b.batch, e.* FROM bt_inbox_x b, serde_decode_each_report_xml(NULL::bt_inv, b.body, 'BtInvX') e),
     good AS (INSERT INTO bt_invoices_x SELECT (row).* FROM r WHERE ok RETURNING 1),
     bad AS (INSERT INTO bt_dead_letters_x (batch, item, code, path, message)
             SELECT batch, item, code, path, message FROM r WHERE NOT ok RETURNING 1)
SELECT (SELECT count(*) FROM good) AS loaded, (SELECT count(*) FROM bad) AS dead;
SELECT * FROM bt_invoices_x ORDER BY id;
SELECT batch, item, code, path, message FROM bt_dead_letters_x ORDER BY batch, item, path;
DROP TABLE bt_invoices_x, bt_dead_letters_x, bt_inbox_x;
-- catalog: STABLE PARALLEL SAFE, as the JSON forms
SELECT p.oid::regprocedure, p.provolatile, p.proparallel, p.prorows, p.proretset
  FROM pg_proc p WHERE p.proname IN ('serde_decode_each_xml', 'serde_decode_each_report_xml', 'serde_errors_each_xml')
 ORDER BY 1::text;
SELECT serde_unregister('BtInvX'), serde_unregister('BtS3Object'), serde_unregister('BtRssItem');
DROP TYPE bt_s3_object, bt_rss_item;

-- clean up
DROP TABLE bt_invoices, bt_dead_letters, bt_inbox;
SELECT serde_unregister('BtInv');
DROP TYPE bt_inv;
DROP DOMAIN bt_qty;
