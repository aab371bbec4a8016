-- batches.sql — the SQLite batch functions (docs/reference.md, "Batches and dead letters"):
-- serde_decode_each (on_error 'raise' / 'skip'), serde_decode_each_report and serde_errors_each
-- over a JSON array and NDJSON (blank lines, CRLF); malformed JSON in the middle; a LIMIT that
-- stops the reading; the dead-letter pattern; pinned messages and result codes.  Run by
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
