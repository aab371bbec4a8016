#!/usr/bin/env bash
# xml_cancel.sh — a query cancel (statement_timeout) in the middle of serde reading a big XML
# document stops it promptly, and PostgreSQL's own libxml2 use in the SAME backend keeps working
# afterwards (issue 13 item 4): xmlparse, xpath, XMLTABLE and a malformed xml value's own error
# give what they gave before serde ran; serde itself works again too.
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them); creates and drops the database
# serde_xml_cancel_test.  SERDE_XML_CANCEL_ELEMS: elements of the document (default 2,000,000,
# about 40 MB); SERDE_CANCEL_LIMIT_MS: allowed latency (default 1000).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_xml_cancel_test
ELEMS=${SERDE_XML_CANCEL_ELEMS:-2000000}
LIMIT_MS=${SERDE_CANCEL_LIMIT_MS:-1000}

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
cleanup() {
    psql_admin -c "SET client_min_messages = warning" \
        -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" \
    -c "CREATE DATABASE $DB"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# the document ends malformed, so that a complete read answers false (no decode involved)
q >/dev/null <<SQL
CREATE EXTENSION serde;
CREATE TYPE xcn AS (a text, v text);
SELECT serde_register('XmlCancel', 'xcn'::regtype, '{"xml": {"root": "r"}, "optional": true}');
CREATE TABLE docs (doc text);
ALTER TABLE docs ALTER doc SET STORAGE EXTERNAL;
INSERT INTO docs SELECT '<r>' || string_agg('<v n="' || g || '">item ' || g || '</v>', E'\n') || '<bad'
  FROM generate_series(1, $ELEMS) g;
SQL
echo "xml_cancel: document of $(q -c "SELECT pg_size_pretty(octet_length(doc)::bigint) FROM docs")"

# PostgreSQL's libxml2 answers, as one line each
PG_CHECKS=$(cat <<'SQL'
SELECT xmlparse(document '<r a="1"><v>x &amp; y</v></r>')::text;
SELECT (xpath('/r/v/text()', '<r><v>1</v><v>2</v></r>'::xml))::text;
SELECT string_agg(n::text || ':' || v, ',' ORDER BY n)
  FROM XMLTABLE('/r/v' PASSING CAST('<r><v>a</v><v>b</v></r>' AS xml) COLUMNS n FOR ORDINALITY, v text PATH '.');
DO $$ BEGIN PERFORM '<r><v>x</r>'::xml; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg error: % %', SQLSTATE, SQLERRM; END $$;
SQL
)
before=$(printf '%s\n' "$PG_CHECKS" | psql -X -q -At -d "$DB" 2>&1)

# the full read: its duration
t0=$(date +%s%N)
full=$(q -c "SELECT serde_valid_xml('XmlCancel', doc) FROM docs")
t1=$(date +%s%N)
dur_ms=$(( (t1 - t0) / 1000000 ))
echo "xml_cancel: full read: $full in ${dur_ms} ms"
[[ $full == f ]] || { echo "xml_cancel: FAILED: the complete read answered '$full', expected f"; exit 1; }

timeout_ms=$(( dur_ms * 3 / 10 ))
(( timeout_ms >= 5 )) || timeout_ms=5
fail=0
for stmt in "SELECT serde_valid_xml('XmlCancel', doc) FROM docs" \
            "SELECT count(*) FROM docs, serde_errors_xml('XmlCancel', doc) e" \
            "SELECT serde_decode_xml('XmlCancel', doc) FROM docs"; do
    # one session: the cancel, then PostgreSQL's xml functions and serde again in that backend
    out=$( { echo "SET statement_timeout = $timeout_ms;"; echo '\timing on';
             echo "$stmt;"; echo "RESET statement_timeout;"; echo '\timing off';
             printf '%s\n' "$PG_CHECKS";
             echo "SELECT serde_valid_xml('XmlCancel', '<r><v>ok</r>');"; } |
           psql -X -q -At -d "$DB" 2>&1 ) || true
    if ! grep -q 'canceling statement due to statement timeout' <<<"$out"; then
        echo "xml_cancel: FAILED: $stmt was not canceled:"; echo "$out" | head -5; fail=1; continue
    fi
    ms=$(grep -oE '^Time: [0-9.]+' <<<"$out" | head -1 | awk '{print int($2)}')
    latency=$(( ms - timeout_ms ))
    after=$(grep -vE '^Time: |canceling statement|^f$|^$' <<<"$out" | sed 's/^psql:<stdin>:[0-9]*: //')
    printf 'xml_cancel: %-66s canceled after %s ms (timeout %s ms, latency %s ms)\n' "$stmt" "$ms" "$timeout_ms" "$latency"
    if (( latency > LIMIT_MS )); then
        echo "xml_cancel: FAILED: latency ${latency} ms over ${LIMIT_MS} ms"; fail=1
    fi
    if [[ $after != "$before" ]]; then
        echo "xml_cancel: FAILED: PostgreSQL's xml functions after the cancel differ:"
        diff <(echo "$before") <(echo "$after") || true
        fail=1
    fi
    if ! grep -qx 'f' <<<"$(tail -1 <<<"$out")"; then
        echo "xml_cancel: FAILED: serde after the cancel: $(tail -1 <<<"$out")"; fail=1
    fi
done
(( fail == 0 )) && echo "xml_cancel: ok (PostgreSQL's xml functions and serde work after each cancel)"
exit $fail
