-- xml_hostile.sql — malformed and hostile XML documents (issue 13 item 4; fixtures/xml/hostile/,
-- outcomes in OUTCOMES.tsv): every entity declaration and DTD attribute default refused (2200M)
-- before any expansion (billion laughs included), nothing read or fetched (xxe_*, parameter
-- entities, external DTDs), malformed input 2200M with line and column in DETAIL, namespace
-- errors refused, the encoding declaration ignored, the depth limit (54001) and the size limit
-- (54000).  serde_valid_xml answers false for each document error.
-- Documents that must decode give OUTCOMES.tsv's row (the one rule engine, engine.c).
-- Documents PostgreSQL itself refuses as text (22021: bad UTF-8, NUL, UTF-16) are left to the
-- core's unit tests (test/unit_xmlread.c) and the fuzz target; big/ files to test/xml_fixtures.sh.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
DROP TYPE IF EXISTS xml_hostile CASCADE;
RESET client_min_messages;
CREATE TYPE xml_hostile AS (a text, v text);
-- as fixtures/sql/xml_shapes.sql registers it
SELECT serde_register('XmlHostile', 'xml_hostile'::regtype, '{
  "xml": {"root": "r"},
  "optional": true,
  "fields": {
    "a": {"xml": "attribute"}
  }
}');
\set SHOW_CONTEXT never
-- dec(shape, doc): serde_decode_xml's row as jsonb, or "ERROR <SQLSTATE>: <message> (<DETAIL>)"
CREATE FUNCTION pg_temp.dec(shape text, doc text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text; det text;
BEGIN
    RETURN to_jsonb(serde_decode_xml(shape, doc))::text;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN 'ERROR ' || st || ': ' || msg || coalesce(' (' || nullif(det, '') || ')', '');
END $f$;


-- unclosed_tag.xml: 2200M (end of input with <r> open)
\set d `cat fixtures/xml/hostile/unclosed_tag.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- unclosed_nested.xml: 2200M (end of input with <r> and <v> open)
\set d `cat fixtures/xml/hostile/unclosed_nested.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- mismatched_tag.xml: 2200M (</w> closes <v>)
\set d `cat fixtures/xml/hostile/mismatched_tag.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- wrong_encoding_decl.xml: ok ({"a": null, "v": "café"})
\set d `cat fixtures/xml/hostile/wrong_encoding_decl.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- utf16_declared_utf8.xml: ok ({"a": null, "v": "ok"})
\set d `cat fixtures/xml/hostile/utf16_declared_utf8.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- control_char.xml: 2200M (U+0001 is not an XML 1.0 character)
\set d `cat fixtures/xml/hostile/control_char.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- charref_control.xml: 2200M (&#1; is not an XML 1.0 character)
\set d `cat fixtures/xml/hostile/charref_control.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- charref_surrogate.xml: 2200M (&#xD800; is a surrogate)
\set d `cat fixtures/xml/hostile/charref_surrogate.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- charref_too_big.xml: 2200M (&#x110000; is beyond Unicode)
\set d `cat fixtures/xml/hostile/charref_too_big.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- trailing_garbage.xml: 2200M (text after the root element)
\set d `cat fixtures/xml/hostile/trailing_garbage.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- two_roots.xml: 2200M (a second root element)
\set d `cat fixtures/xml/hostile/two_roots.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- empty.xml: 2200M (no root element)
\set d `cat fixtures/xml/hostile/empty.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- whitespace_only.xml: 2200M (no root element)
\set d `cat fixtures/xml/hostile/whitespace_only.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- decl_only.xml: 2200M (an XML declaration and no root element)
\set d `cat fixtures/xml/hostile/decl_only.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- decl_not_first.xml: 2200M (the XML declaration after a newline)
\set d `cat fixtures/xml/hostile/decl_not_first.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- xml_pi_inside.xml: 2200M (<?xml …?> inside the root element)
\set d `cat fixtures/xml/hostile/xml_pi_inside.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- unbound_prefix.xml: 2200M (prefix x is not bound (a namespace error: libxml2 reports it at level XML_ERR_ERROR and leaves wellFormed = 1, nsWellFormed = 0; PostgreSQL's xml type accepts the document))
\set d `cat fixtures/xml/hostile/unbound_prefix.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- xml_prefix_rebound.xml: 2200M (the xml prefix bound to another URI (namespace error, as above))
\set d `cat fixtures/xml/hostile/xml_prefix_rebound.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- empty_prefix_binding.xml: 2200M (xmlns:p="" (namespace error, as above))
\set d `cat fixtures/xml/hostile/empty_prefix_binding.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- duplicate_attribute.xml: 2200M (attribute a twice)
\set d `cat fixtures/xml/hostile/duplicate_attribute.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- unquoted_attribute.xml: 2200M (a=1 without quotes)
\set d `cat fixtures/xml/hostile/unquoted_attribute.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- lt_in_attribute.xml: 2200M (< in an attribute value)
\set d `cat fixtures/xml/hostile/lt_in_attribute.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- bare_ampersand.xml: 2200M (& not starting a reference)
\set d `cat fixtures/xml/hostile/bare_ampersand.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- undeclared_entity.xml: 2200M (&nbsp; is not one of the five predefined entities)
\set d `cat fixtures/xml/hostile/undeclared_entity.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- cdata_unterminated.xml: 2200M (<![CDATA[ never closed)
\set d `cat fixtures/xml/hostile/cdata_unterminated.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- comment_double_dash.xml: 2200M (-- inside a comment)
\set d `cat fixtures/xml/hostile/comment_double_dash.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- doctype_after_root.xml: 2200M (<!DOCTYPE after the root element)
\set d `cat fixtures/xml/hostile/doctype_after_root.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- xxe_file.xml: 2200M (entity declaration refused (predefined entities only); /etc/passwd is not read)
\set d `cat fixtures/xml/hostile/xxe_file.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- xxe_network.xml: 2200M (entity declaration refused; no connection to 127.0.0.1:9)
\set d `cat fixtures/xml/hostile/xxe_network.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- xxe_in_attribute.xml: 2200M (entity declaration refused (libxml2 substitutes internal entities in attribute values even without XML_PARSE_NOENT))
\set d `cat fixtures/xml/hostile/xxe_in_attribute.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- parameter_entity.xml: 2200M (parameter entity declaration refused; /etc/passwd is not read)
\set d `cat fixtures/xml/hostile/parameter_entity.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- parameter_entity_internal.xml: 2200M (parameter entity declaration refused)
\set d `cat fixtures/xml/hostile/parameter_entity_internal.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- internal_entity.xml: 2200M (entity declaration refused, even a harmless one (libxml2 delivers an internal entity's text through characters() even without XML_PARSE_NOENT))
\set d `cat fixtures/xml/hostile/internal_entity.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- unused_entity.xml: 2200M (entity declaration refused, even when never referenced)
\set d `cat fixtures/xml/hostile/unused_entity.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- billion_laughs.xml: 2200M (entity declaration refused at the first <!ENTITY, in well under a second)
\set d `cat fixtures/xml/hostile/billion_laughs.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- external_dtd.xml: ok ({"a": null, "v": "ok"} (the external DTD file:///etc/passwd is not loaded))
\set d `cat fixtures/xml/hostile/external_dtd.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- external_dtd_public.xml: ok ({"a": null, "v": "ok"} (RSS 0.91's DOCTYPE; nothing fetched))
\set d `cat fixtures/xml/hostile/external_dtd_public.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- doctype_harmless.xml: ok ({"a": "1", "v": "ok"} (element and attribute declarations without defaults, a comment and a PI in the internal subset))
\set d `cat fixtures/xml/hostile/doctype_harmless.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- doctype_attr_default.xml: 2200M (attribute default in the DTD refused (libxml2 adds it to startElementNs as a defaulted attribute))
\set d `cat fixtures/xml/hostile/doctype_attr_default.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- doctype_fixed_attr.xml: 2200M (#FIXED attribute default refused (as above))
\set d `cat fixtures/xml/hostile/doctype_fixed_attr.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- doctype_xmlns_default.xml: 2200M (xmlns default in the DTD refused (libxml2 would bind the default namespace urn:injected, indistinguishable from a written one))
\set d `cat fixtures/xml/hostile/doctype_xmlns_default.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- predefined_entities.xml: ok ({"a": "\"'<>&", "v": "<&>é☺😀"})
\set d `cat fixtures/xml/hostile/predefined_entities.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- pi_comment_odd_places.xml: ok ({"a": null, "v": "abc"} (comments and PIs before, inside and after the root; v's text split by a comment and a PI is concatenated))
\set d `cat fixtures/xml/hostile/pi_comment_odd_places.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- bom.xml: ok ({"a": null, "v": "ok"} (a UTF-8 BOM before the declaration; PostgreSQL's xmlparse refuses it))
\set d `cat fixtures/xml/hostile/bom.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- bom_no_decl.xml: ok ({"a": null, "v": "ok"})
\set d `cat fixtures/xml/hostile/bom_no_decl.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- whitespace_around_root.xml: ok ({"a": null, "v": "ok"})
\set d `cat fixtures/xml/hostile/whitespace_around_root.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- cdata_games.xml: ok ({"a": null, "v": "a]]>b&"})
\set d `cat fixtures/xml/hostile/cdata_games.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- crlf_lines.xml: ok ({"a": "x y", "v": "line1\nline2\nline3"} (line ends normalised; in an attribute a newline becomes a space))
\set d `cat fixtures/xml/hostile/crlf_lines.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- deep_10.xml: ok ({"a": null, "v": "ok"})
SET serde.max_depth=10;
\set d `cat fixtures/xml/hostile/deep_10.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
RESET serde.max_depth;

-- deep_11.xml: 54001 (11 elements deep, serde.max_depth = 10)
SET serde.max_depth=10;
\set d `cat fixtures/xml/hostile/deep_11.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');
RESET serde.max_depth;

-- deep_257.xml: ok ({"a": null, "v": "ok"})
\set d `cat fixtures/xml/hostile/deep_257.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- deep_258.xml: ok ({"a": null, "v": "ok"} (libxml2's pull parsers, and so PostgreSQL's xml functions, stop at 257 levels; its push parser does not))
\set d `cat fixtures/xml/hostile/deep_258.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- deep_512.xml: ok ({"a": null, "v": "ok"} (the default serde.max_depth, root at depth 1))
\set d `cat fixtures/xml/hostile/deep_512.xml`
SELECT pg_temp.dec('XmlHostile', :'d');

-- deep_513.xml: 54001 (513 elements deep, serde.max_depth = 512)
\set d `cat fixtures/xml/hostile/deep_513.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');

-- the same bytes as xml values (those PostgreSQL accepts): serde_decode / serde_errors on xml
\set d `cat fixtures/xml/hostile/unbound_prefix.xml`
SELECT :'d'::xml IS NOT NULL AS postgres_accepts_it;
SELECT * FROM serde_errors(NULL::xml_hostile, :'d'::xml);
SELECT serde_valid(NULL::xml_hostile, :'d'::xml);
\set d `cat fixtures/xml/hostile/deep_513.xml`
SELECT * FROM serde_errors_xml('XmlHostile', :'d');
-- the size limit, refused before the document is read
SET serde.max_document_bytes = 1000;
\set d `cat fixtures/xml/s3_list_bucket.xml`
SELECT pg_temp.dec('XmlHostile', :'d');
SELECT serde_valid_xml('XmlHostile', :'d');
SELECT * FROM serde_errors_xml('XmlHostile', :'d');
RESET serde.max_document_bytes;
-- billion laughs, timed: refused at the first declaration
\set d `cat fixtures/xml/hostile/billion_laughs.xml`
SELECT clock_timestamp() AS t0 \gset
SELECT serde_valid_xml('XmlHostile', :'d');
SELECT clock_timestamp() - :'t0'::timestamptz < interval '200 ms' AS fast;

