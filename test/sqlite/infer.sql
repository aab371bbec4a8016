-- infer.sql — serde_infer in SQLite (docs/reference.md, "From samples to a shape: serde_infer"):
-- the aggregate over documents returns {"Name": descriptor, …}, referenced shapes first, so that
-- registering them in order (json_each keeps the order) decodes every sample; options and their
-- errors; malformed samples and limits.  Run by test/sqlite.sh.
.load ./sqlite/serde
.mode list
.headers off
CREATE TABLE hooks(id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO hooks(body) VALUES
 ('{"id": 1, "type": "invoice.paid", "createdAt": "2024-06-30T10:00:00Z", "amount": 12.50, "paid": true, "customer": {"id": "c1", "email": "a@x"}, "lines": [{"sku": "a", "qty": 1}], "meta": {"2024-01-01": 1, "2024-01-02": 2}}'),
 ('{"id": 2, "type": "invoice.voided", "createdAt": "2024-07-01T00:00:00+02:00", "amount": 3, "paid": false, "customer": {"id": "c2"}, "lines": [], "note": null, "meta": {}}'),
 ('{"id": 3000000000, "type": "invoice.paid", "createdAt": "2024-07-02T00:00:00Z", "amount": 1e2, "paid": true, "customer": {"id": "c3", "email": "b@x"}, "lines": [{"sku": "b", "note": "x"}], "meta": {"2024-01-03": 3}}');
SELECT serde_infer(body) FROM hooks;
SELECT serde_infer(body, '{"name": "hook", "prefix": "hook_", "strict": true, "enums": true}') FROM hooks;
-- register in order, then decode every sample
SELECT count(serde_register(key, value) IS NULL) FROM json_each((SELECT serde_infer(body, '{"name": "wh"}') FROM hooks));
SELECT serde_decode('wh', body) FROM hooks ORDER BY id;
-- a tagged union, a recursive member (json), XML with attributes, lists, wrappers, namespaces
SELECT serde_infer(d) FROM (SELECT '{"method": "card", "last4": "4242"}' AS d UNION ALL SELECT '{"method": "bank", "iban": "DE"}' UNION ALL SELECT '{"method": "card", "last4": "1"}');
SELECT serde_infer('{"name": "a", "children": [{"name": "b", "children": []}]}');
SELECT serde_infer('<o xmlns="urn:o" id="7"><Line sku="a"/><Line sku="b"/><Tags><Tag>x</Tag><Tag>y</Tag></Tags><Total currency="EUR">1.5</Total></o>');
SELECT count(serde_register(key, value) IS NULL) FROM json_each((SELECT serde_infer('<o xmlns="urn:o" id="7"><Line sku="a"/><Line sku="b"/><Tags><Tag>x</Tag><Tag>y</Tag></Tags><Total currency="EUR">1.5</Total></o>', '{"name": "x"}')));
SELECT serde_decode_xml('x', '<o xmlns="urn:o" id="7"><Line sku="a"/><Line sku="b"/><Tags><Tag>x</Tag><Tag>y</Tag></Tags><Total currency="EUR">1.5</Total></o>');
-- NULLs and no rows
SELECT serde_infer(NULL) IS NULL;
SELECT serde_infer(body) IS NULL FROM hooks WHERE 0;
-- errors: options (22023 with the path), malformed samples, not objects, limits
SELECT serde_infer('{}', '{"nmae": 1}');
SELECT serde_infer('{}', '{"max_samples": 0}');
SELECT serde_infer('{}', '[]');
SELECT serde_infer('{"a": }');
SELECT serde_infer('<a><b></a>');
SELECT serde_infer('[1]');
SELECT serde_infer(d) FROM (SELECT '{"a": 1}' AS d UNION ALL SELECT '<a/>');
SELECT serde_infer('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[');
