#!/usr/bin/env bash
# errors_memory.sh — serde_errors' memory follows the violations it reports, never
# serde.max_errors (issue 11 item 6: with a large cap, every possible violation cost ~900 bytes up
# front; a 4 MB document with 1,000,000 errors peaked at 1.27 GB).
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them) and must run on the server's machine:
# it reads the peak resident size (VmHWM) of a fresh backend from /proc/<pid>/status.
# Creates and drops the database serde_errors_memory_test.
#
# With serde.max_errors at its maximum (2147483647), in a fresh backend each time:
#   few     a 1.6 MB document (200,000 elements) with 3 violations: peak growth < 32 MB (the
#           document's own cost: its copies, the value tape)
#   many    a document of the same shape with 200,000 violations: peak growth beyond few's
#           < 200 bytes per violation reported (before the fix: ~1.2 kB each, 900 bytes for the
#           error array alone)
# text and jsonb documents.  Exit status non-zero if a bound is exceeded.
# SERDE_ERRORS_MEMORY_DB overrides the database name.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=${SERDE_ERRORS_MEMORY_DB:-serde_errors_memory_test}
N=200000
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap 'psql_admin -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d "$DB" >/dev/null <<EOF
CREATE EXTENSION serde;
CREATE TABLE em_docs (name text PRIMARY KEY, body text);
INSERT INTO em_docs SELECT 'few', '[' || string_agg(CASE WHEN g IN (7, 70000, 150000) THEN '"x"' ELSE '1234567' END, ',') || ']'
  FROM generate_series(1, $N) g;
INSERT INTO em_docs SELECT 'many', '[' || string_agg('"x"', ',') || ']' FROM generate_series(1, $N) g;
EOF

fail=0
# run <doc> <cast>: prints "<rows> <VmHWM growth in kB>" for one serde_errors call in a new backend
run() {
    psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" <<EOF
SET serde.max_errors = 2147483647;
SELECT pg_backend_pid() AS pid \gset
SELECT body$2 AS doc FROM em_docs WHERE name = '$1' \gset
SELECT count(*) AS warm FROM serde_errors(NULL::int4[], '["x"]'$2) \gset
\set before \`awk '/^VmHWM/ {print \$2}' /proc/:pid/status\`
SELECT count(*) AS rows FROM serde_errors(NULL::int4[], :'doc'$2) \gset
\set after \`awk '/^VmHWM/ {print \$2}' /proc/:pid/status\`
SELECT :rows, :after - :before;
EOF
}
check() {   # <label> <rows expected> <doc> <cast> <max kB> [<kB to subtract>]: sets $grown
    local rows ok=yes
    read -r rows grown < <(run "$3" "$4" | tr '|' ' ')
    [ "$rows" = "$2" ] || ok=no
    [ $((grown - ${6:-0})) -lt "$5" ] || ok=no
    echo "errors_memory: $1: $rows rows, peak +$grown kB (bound ${6:+$6 + }$5 kB): $ok"
    [ $ok = yes ] || fail=1
}
for cast in "" "::jsonb"; do
    check "few${cast:-, text}" 3 few "$cast" $((32 * 1024))
    check "many${cast:-, text}" $N many "$cast" $((N * 200 / 1024)) "$grown"
done
exit $fail
