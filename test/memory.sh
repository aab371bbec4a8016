#!/usr/bin/env bash
# memory.sh — 200,000 decodes of the Stripe invoice fixture in ONE backend leave its memory flat:
# both the total of pg_backend_memory_contexts and the backend's resident size (VmRSS; simdjson
# and libxml allocate with malloc, outside memory contexts).
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them) and must run on the server's machine
# (it reads /proc/<backend pid>/status; RssAnon, the private part of VmRSS, is printed as well:
# VmRSS also counts the shared buffers the backend has touched).  Creates and drops the database serde_memory_test.
#
# Phases, each in the same backend, each batch = one statement over a table of 20,000 documents:
#   decode     10 × 20,000 typed decodes of fixtures/json/stripe_invoice.json   (the acceptance test)
#   valid      5 × 20,000 serde_valid of a mutated copy (the soft-error path)
#   raise      5 × 2,000 decodes of that copy that raise, each caught by PL/pgSQL (the error path)
# A phase passes when, from its 3rd batch to its last, the contexts grew by less than 1 MB and
# VmRSS by less than 4 MB.  Exit status non-zero if any phase fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_memory_test
ROWS=${SERDE_MEMORY_ROWS:-20000}
CTX_LIMIT=$((1024 * 1024))        # bytes
RSS_LIMIT=$((4 * 1024))           # kB

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap 'psql_admin -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT

# setup: extension, fixture types and shapes, the document tables
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" >/dev/null <<EOF
CREATE EXTENSION serde;
\i fixtures/sql/types.sql
\i fixtures/sql/shapes.sql
\set doc \`cat fixtures/json/stripe_invoice.json\`
\set bad \`cat fixtures/json/mutated/stripe_invoice.wrong_type.json\`
CREATE TABLE mem_docs (id int, body text);
ALTER TABLE mem_docs ALTER body SET STORAGE EXTERNAL;
INSERT INTO mem_docs SELECT g, :'doc' FROM generate_series(1, $ROWS) g;
CREATE TABLE mem_bad (id int, body text);
INSERT INTO mem_bad SELECT g, :'bad' FROM generate_series(1, $ROWS) g;
ANALYZE mem_docs, mem_bad;
EOF

# the run: one psql session, one backend; after each batch it prints one line
#   <phase> <batch> <decodes> <context bytes> <VmRSS kB> <RssAnon kB>
measure() {   # the psql lines that print the line of batch $2 of phase $1
    printf '%s\n' "\\set phase $1" "\\set batch $2" \
        'SELECT sum(total_bytes) AS ctx FROM pg_backend_memory_contexts \gset' \
        "\\set rss \`awk '/^VmRSS/ {r = \$2} /^RssAnon/ {a = \$2} END {print r, a}' /proc/:pid/status\`" \
        '\echo :phase :batch :decoded :ctx :rss'
}
script=$(
    cat <<'EOF'
SELECT pg_backend_pid() AS pid \gset
CREATE FUNCTION pg_temp.raise_batch(n int) RETURNS int LANGUAGE plpgsql AS $f$
DECLARE caught int := 0; b text;
BEGIN
    FOR b IN SELECT body FROM mem_bad LIMIT n LOOP
        BEGIN
            PERFORM serde_decode(NULL::stripe_invoice, b);
        EXCEPTION WHEN invalid_json_text THEN
            caught := caught + 1;
        END;
    END LOOP;
    RETURN caught;
END $f$;
EOF
    for b in 1 2 3 4 5 6 7 8 9 10; do
        echo 'SELECT count(d.id) AS decoded FROM mem_docs m, LATERAL serde_decode(NULL::stripe_invoice, m.body) d \gset'
        measure decode $b
    done
    for b in 1 2 3 4 5; do
        echo 'SELECT count(*) FILTER (WHERE NOT serde_valid(NULL::stripe_invoice, m.body)) AS decoded FROM mem_bad m \gset'
        measure valid $b
    done
    for b in 1 2 3 4 5; do
        echo 'SELECT pg_temp.raise_batch(2000) AS decoded \gset'
        measure raise $b
    done
    echo "SELECT 'stats', plans, compiles, hits, bytes FROM serde_cache_stats();"
)
out=$(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -d "$DB" <<<"$script")

status=0
printf '%-7s %5s %9s %14s %12s %12s\n' phase batch decodes context_bytes vmrss_kb rssanon_kb
echo "$out" | awk '$1 != "stats" { printf "%-7s %5s %9s %14s %12s %12s\n", $1, $2, $3, $4, $5, $6 }'
echo "$out" | awk '$1 == "stats" { printf "plan cache: plans %s, compiles %s, hits %s, bytes %s\n", $2, $3, $4, $5 }'

for phase in decode valid raise; do
    read -r n total first_ctx last_ctx first_rss last_rss < <(echo "$out" | awk -v p="$phase" '
        $1 == p { n++; total += $3; if ($2 == 3) { fc = $4; fr = $5 } lc = $4; lr = $5 }
        END { print n, total, fc, lc, fr, lr }')
    ctx_growth=$((last_ctx - first_ctx))
    rss_growth=$((last_rss - first_rss))
    verdict=PASS
    if ((ctx_growth >= CTX_LIMIT || rss_growth >= RSS_LIMIT)); then
        verdict=FAIL
        status=1
    fi
    printf '%s: %s: %d batches, %d decodes; from batch 3 to %d: contexts %+d bytes (limit %d), VmRSS %+d kB (limit %d)\n' \
        "$verdict" "$phase" "$n" "$total" "$n" "$ctx_growth" "$CTX_LIMIT" "$rss_growth" "$RSS_LIMIT"
done

# the acceptance test proper: 200,000 decodes that all produced a row
decoded=$(echo "$out" | awk '$1 == "decode" { s += $3 } END { print s + 0 }')
if ((decoded != 10 * ROWS)); then
    echo "FAIL: decode: $decoded rows decoded, expected $((10 * ROWS))"
    status=1
fi
exit $status
