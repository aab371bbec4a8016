#!/usr/bin/env bash
# xml_memory.sh — the XML paths of the memory test (issue 13 item 8): serde reading XML in ONE
# backend leaves its memory flat — the total of pg_backend_memory_contexts and VmRSS (libxml2
# allocates with malloc, outside memory contexts: a parser context, a dictionary or a document
# left behind per call shows up there).
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them) and must run on the server's machine
# (it reads /proc/<backend pid>/status).  Creates and drops the database serde_xml_memory_test.
# Phases, each batch one statement over SERDE_XML_MEMORY_ROWS (default 20,000) documents:
#   read       serde_valid_xml of the S3 listing fixture (read through; until the XML walker exists
#              a well-formed document is answered with 0A000, so the fixture gets a malformed tail
#              and the read ends false at its last byte)
#   refuse     serde_valid_xml of the billion-laughs fixture (refused at its first <!ENTITY)
#   raise      serde_decode_xml of the malformed listing, each 2200M caught by PL/pgSQL (2,000)
# A phase passes when, from its 3rd batch to its last, the contexts grew by less than 1 MB and
# VmRSS by less than 4 MB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_xml_memory_test
ROWS=${SERDE_XML_MEMORY_ROWS:-20000}
CTX_LIMIT=$((1024 * 1024))        # bytes
RSS_LIMIT=$((4 * 1024))           # kB

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap 'psql_admin -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d "$DB" >/dev/null <<EOF
CREATE EXTENSION serde;
CREATE TYPE xm_row AS (a text, v text);
SELECT serde_register('XmRow', 'xm_row'::regtype, '{"xml": {"root": "ListBucketResult"}, "optional": true}');
\set doc \`cat fixtures/xml/s3_list_bucket.xml\`
\set laughs \`cat fixtures/xml/hostile/billion_laughs.xml\`
CREATE TABLE xm_docs (id int, body text, laughs text);
ALTER TABLE xm_docs ALTER body SET STORAGE EXTERNAL;
INSERT INTO xm_docs SELECT g, :'doc' || '<tail', :'laughs' FROM generate_series(1, $ROWS) g;
ANALYZE xm_docs;
EOF

measure() {
    printf '%s\n' "\\set phase $1" "\\set batch $2" \
        'SELECT sum(total_bytes) AS ctx FROM pg_backend_memory_contexts \gset' \
        "\\set rss \`awk '/^VmRSS/ {print \$2}' /proc/:pid/status\`" \
        '\echo :phase :batch :ctx :rss'
}
script=$(
    cat <<'EOF'
SELECT pg_backend_pid() AS pid \gset
CREATE FUNCTION pg_temp.raise_batch(n int) RETURNS int LANGUAGE plpgsql AS $f$
DECLARE caught int := 0; b text;
BEGIN
    FOR b IN SELECT body FROM xm_docs LIMIT n LOOP
        BEGIN
            PERFORM serde_decode_xml('XmRow', b);
        EXCEPTION WHEN invalid_xml_document THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END $f$;
EOF
    for b in 1 2 3 4 5 6; do
        echo "SELECT count(*) FILTER (WHERE NOT serde_valid_xml('XmRow', body)) AS n FROM xm_docs \\gset"
        measure read "$b"
    done
    for b in 1 2 3 4 5; do
        echo "SELECT count(*) FILTER (WHERE NOT serde_valid_xml('XmRow', laughs)) AS n FROM xm_docs \\gset"
        measure refuse "$b"
    done
    for b in 1 2 3 4 5; do
        echo "SELECT pg_temp.raise_batch(2000) AS n \\gset"
        measure raise "$b"
    done
)
out=$(printf '%s\n' "$script" | psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
echo "$out" | awk '{printf "xml_memory: %-6s batch %s: contexts %d bytes, VmRSS %d kB\n", $1, $2, $3, $4}'

fail=0
for phase in read refuse raise; do
    read -r c3 r3 <<<"$(echo "$out" | awk -v p=$phase '$1 == p && $2 == 3 {print $3, $4}')"
    read -r cl rl <<<"$(echo "$out" | awk -v p=$phase '$1 == p {c = $3; r = $4} END {print c, r}')"
    dc=$((cl - c3)) dr=$((rl - r3))
    if ((dc >= CTX_LIMIT || dr >= RSS_LIMIT)); then
        echo "xml_memory: FAILED: $phase grew by $dc bytes of contexts and $dr kB of VmRSS after batch 3"
        fail=1
    else
        echo "xml_memory: $phase: flat (contexts $dc bytes, VmRSS $dr kB after batch 3)"
    fi
done
exit $fail
