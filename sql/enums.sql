-- enums.sql — enum columns (docs/reference.md, "Types"): a string equal to a label.  Labels are found by a
-- binary search over an index built once per plan, so a 10,000-label enum decodes as fast as a
-- small one; every label decodes to itself whatever its byte order against the enum's sort
-- order; the error lists the labels, whole ones only, then "... (N labels)".
SET client_min_messages = warning;   -- quiet whether or not an earlier test created it
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;
\set SHOW_CONTEXT never

-- 10,000 labels whose sort order (creation order) is unrelated to their byte order, with
-- prefixes of one another and non-ASCII bytes among them
SELECT format('CREATE TYPE en_big AS ENUM (%s)',
              string_agg(quote_literal(l), ', ' ORDER BY i)) AS ddl
  FROM (SELECT i, CASE WHEN i % 10 = 0 THEN 'é' || left(md5(i::text), 8)
                       WHEN i % 10 = 1 THEN left(md5((i + 1)::text), 6)   -- a prefix of the next
                       ELSE left(md5(i::text), 12) END AS l
          FROM generate_series(1, 10000) i) s \gset
:ddl;
SELECT count(*) AS labels FROM pg_enum WHERE enumtypid = 'en_big'::regtype;
CREATE TEMP TABLE en_labels AS SELECT enumlabel AS l, enumsortorder AS o FROM pg_enum
 WHERE enumtypid = 'en_big'::regtype;
-- every label decodes to itself, from text and from jsonb
SELECT count(*) AS decoded,
       count(*) FILTER (WHERE serde_decode(NULL::en_big, to_json(l)::text) IS DISTINCT FROM l::en_big) AS wrong_text,
       count(*) FILTER (WHERE serde_decode(NULL::en_big, to_jsonb(l)) IS DISTINCT FROM l::en_big) AS wrong_jsonb
  FROM en_labels;
-- near misses are unknown: a prefix of a label, a label with one more byte, other case
SELECT count(*) FILTER (WHERE serde_valid(NULL::en_big, to_json(left(l, -1))::text)
                        AND NOT EXISTS (SELECT 1 FROM en_labels x WHERE x.l = left(en_labels.l, -1))) AS prefix_accepted,
       count(*) FILTER (WHERE serde_valid(NULL::en_big, to_json(l || '0')::text)
                        AND NOT EXISTS (SELECT 1 FROM en_labels x WHERE x.l = en_labels.l || '0')) AS longer_accepted,
       count(*) FILTER (WHERE serde_valid(NULL::en_big, to_json(upper(l))::text) AND upper(l) <> l
                        AND NOT EXISTS (SELECT 1 FROM en_labels x WHERE x.l = upper(en_labels.l))) AS upper_accepted
  FROM en_labels;

-- 200,000 decodes over the 10,000-label enum: well under 2 s (a linear scan took 6 s)
CREATE TEMP TABLE en_docs AS
    SELECT to_json(l)::text AS doc FROM en_labels, generate_series(1, 20) g;
SELECT count(*) AS docs FROM en_docs;
SELECT clock_timestamp() AS en_t0 \gset
SELECT count(d) AS decoded FROM en_docs, LATERAL serde_decode(NULL::en_big, doc) d;
SELECT clock_timestamp() - :'en_t0'::timestamptz < interval '2 s' AS under_2s;

-- the error lists whole labels in sort order, then how many there are
\set VERBOSITY default
SELECT serde_decode(NULL::en_big, '"no such label"');
SELECT code, right(message, 40) AS message_ends, octet_length(message) < 384 AS bounded FROM serde_errors(NULL::en_big, '"zzz"');
CREATE TYPE en_small AS ENUM ('red', 'green', 'blue');
SELECT serde_decode(NULL::en_small, '"Red"');
SELECT serde_decode(NULL::en_small[], '["blue", "green", "red", "re", "redd"]');
-- labels added later are found (the index is rebuilt with the plan)
ALTER TYPE en_small ADD VALUE 'amber' BEFORE 'red';
SELECT serde_decode(NULL::en_small[], '["amber", "red", "blue"]');
ALTER TYPE en_small RENAME VALUE 'green' TO 'zz_green';
SELECT serde_decode(NULL::en_small, '"zz_green"'), serde_valid(NULL::en_small, '"green"') AS old_name_valid;

DROP TABLE en_docs, en_labels;
DROP TYPE en_big, en_small;
