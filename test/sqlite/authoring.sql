-- authoring.sql — issue 20 from the sqlite3 shell (docs/reference.md, "Nested composites and
-- inheritance", "Inline nested options", field-level "coerce"): rename / unknown / coerce /
-- optional flow down through {"shape": ...} references and a referenced shape overrides only what
-- it sets; field-level coerce on a scalar and on a shape's field; inline options on a field whose
-- type is {"shape": ...} (they replace that shape's options for the field) and their errors with
-- their paths; serde_describe's "from"; the same for XML.  Run as test/sqlite.sh runs the others:
-- sqlite3 :memory: < this file, output compared with expected/authoring.out.
.load ./sqlite/serde
.mode list
.headers off
-- ---- inheritance through shape references ------------------------------------------------------
SELECT serde_register('Leaf', '{"rename": "kebab", "fields": {"leaf_value": {"type": "integer"}, "leaf_name": {"type": "text"}}}');
SELECT serde_register('Mid', '{"fields": {"mid_leaf": {"type": {"shape": "Leaf"}}, "mid_leaves": {"type": {"list": {"shape": "Leaf"}}}}}');
SELECT serde_register('Top', '{"rename": "camel", "unknown": "reject", "coerce": true, "optional": true,
  "fields": {"id": {"type": "integer"}, "top_mid": {"type": {"shape": "Mid"}}}}');
-- Mid inherits all four; Leaf overrides rename (kebab) and inherits unknown, coerce, optional
SELECT serde_decode('Top', '{"id": "1", "topMid": {"midLeaf": {"leaf-value": "2"}, "midLeaves": [{"leaf-name": "n"}]}}');
SELECT serde_decode('Top', '{"topMid": {"midLeaf": {"leaf-value": 2, "zz": 0}}}');
SELECT serde_decode('Top', '{"topMid": {"midLeaf": {"leafValue": 2}}}');
-- used alone, Leaf has its own settings only
SELECT serde_decode('Leaf', '{"leaf-value": "2", "leaf-name": "n"}');
SELECT serde_decode('Leaf', '{"leaf-value": 2}');
-- "rename": "none" undoes an inherited rename
SELECT serde_register('Plain', '{"rename": "none", "fields": {"leaf_value": {"type": "integer"}}}');
SELECT serde_register('CamelTop', '{"rename": "camel", "fields": {"top_leaf": {"type": {"shape": "Plain"}}}}');
SELECT serde_decode('CamelTop', '{"topLeaf": {"leaf_value": 1}}');
-- where each policy comes from
SELECT json_extract(serde_describe('Top'), '$.from');
SELECT json_extract(serde_describe('Top'), '$.fields[1].from');
SELECT json_extract(serde_describe('Top'), '$.fields[1].fields[0].from');
-- ---- field-level coerce -------------------------------------------------------------------------
SELECT serde_register('Fc', '{"optional": true, "fields": {"a": {"type": "integer", "coerce": true},
  "b": {"type": "integer"}, "leaf": {"type": {"shape": "Leaf"}, "coerce": true}}}');
SELECT serde_decode('Fc', '{"a": "1", "leaf": {"leaf-value": "2", "leaf-name": "n"}}');
SELECT serde_decode('Fc', '{"b": "1"}');
SELECT serde_register('FcOff', '{"coerce": true, "optional": true, "fields": {"a": {"type": "integer", "coerce": false},
  "b": {"type": "integer"}}}');
SELECT serde_decode('FcOff', '{"b": "1"}');
SELECT serde_decode('FcOff', '{"a": "1"}');
SELECT json_extract(serde_describe('Fc'), '$.fields[0].coerce', '$.fields[2].from');
-- ---- inline options on a field whose type is {"shape": ...} ----------------------------------------
SELECT serde_register('Inl', '{"rename": "camel", "fields": {"leaf": {"type": {"shape": "Leaf"},
  "fields": {"leaf_value": {"coerce": true}, "leaf_name": {"optional": true}}},
  "mid": {"type": {"shape": "Mid"}, "optional": true, "fields": {"mid_leaves": {"fields": {"leaf_value": {"name": "v"}}}}}}}');
-- Leaf's own kebab is not used for Inl.leaf: the inline options replace it (camel inherited)
SELECT serde_decode('Inl', '{"leaf": {"leafValue": "7"}}');
SELECT serde_decode('Inl', '{"leaf": {"leaf-value": 7}}');
SELECT serde_decode('Inl', '{"leaf": {"leafValue": 1}, "mid": {"midLeaf": {"leaf-value": 2, "leaf-name": "x"}, "midLeaves": [{"v": 3, "leafName": "y"}]}}');
SELECT json_extract(serde_describe('Inl'), '$.fields[0].from', '$.fields[1].fields[1].element.from');
-- errors at the real option paths
SELECT serde_register('Bad', '{"fields": {"leaf": {"type": {"shape": "Leaf"}, "fields": {"nope": {}}}}}');
SELECT serde_register('Bad', '{"fields": {"leaf": {"type": {"shape": "Leaf"}, "fields": {"leaf_value": {"coerce": "yes"}}}}}');
SELECT serde_register('Bad', '{"fields": {"mid": {"type": {"shape": "Mid"}, "fields": {"mid_leaf": {"fields": {"leaf_value": {"strnig": 1}}}}}}}');
SELECT serde_register('Bad', '{"fields": {"n": {"type": "integer", "fields": {}}}}');
SELECT serde_register('Bad', '{"fields": {"leaf": {"type": {"shape": "Leaf"}, "rename": "snake"}}}');
SELECT serde_register('Bad', '{"fields": {"leaf": {"type": {"shape": "Leaf"}, "xml": {"root": "x"}}}}');
SELECT count(*) FROM serde_shapes WHERE name = 'Bad';
-- ---- XML: the same rules -------------------------------------------------------------------------
SELECT serde_decode_xml('Top', '<t><id>1</id><topMid><midLeaf><leaf-value>2.0</leaf-value></midLeaf></topMid></t>');
SELECT serde_decode_xml('Top', '<t><topMid><midLeaf><zz/></midLeaf></topMid></t>');
SELECT serde_decode_xml('Fc', '<r><a>1.0</a><leaf><leaf-value>2.0</leaf-value></leaf></r>');
SELECT serde_decode_xml('Fc', '<r><b>1.0</b></r>');
SELECT serde_decode_xml('Inl', '<r><leaf><leafValue>7.0</leafValue></leaf></r>');
