#!/usr/bin/env bash
# cancel.sh — statement_timeout and query cancel (pg_cancel_backend) stop long serde decodes
# promptly (docs/reference.md, "Settings"): the time from the timeout (or the cancel request) to the error must stay
# under 1 s, for serde_decode_each over a JSON array, NDJSON and jsonb (typed and by shape name),
# and for serde_decode, serde_valid and serde_errors over the same big array.
#
# Uses PGHOST/PGPORT/PGUSER (as scripts/test.sh exports them); creates and drops the database
# serde_cancel_test.  Settings (environment):
#   SERDE_CANCEL_ROWS      elements of the test array (default 300000, about 30 MB of JSON)
#   SERDE_CANCEL_ALL=1     also fail on slow whole-document modes (decode_array, valid, errors)
#   SERDE_CANCEL_LIMIT_MS  allowed latency in ms (default 1000)
# Each statement is first run to completion (its duration D), then stopped at 20 %, 50 % and 80 %
# of D, once by statement_timeout and once by pg_cancel_backend from another session.  Latency:
# for the timeout, psql's elapsed time minus the timeout; for the cancel, from the server's clock
# when pg_cancel_backend returned to the client seeing the error.  A measurement over the limit is
# repeated once (the machine may be busy) and fails only if the repeat is over the limit too.
#
# Known bug (reported): serde_decode, serde_valid and serde_errors convert the decoded tape into
# Datums without CHECK_FOR_INTERRUPTS (src/pg/tape_to_datum.c), so a cancel that arrives during that
# phase waits for the whole conversion — seconds for a big array.  serde_decode_each converts row
# by row and checks for interrupts after each row.  Until that is fixed, the whole-document modes
# are measured and printed but only asserted with SERDE_CANCEL_ALL=1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB=serde_cancel_test
ROWS=${SERDE_CANCEL_ROWS:-300000}
ALL=${SERDE_CANCEL_ALL:-0}
LIMIT_MS=${SERDE_CANCEL_LIMIT_MS:-1000}
TMP=$(mktemp -d)

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "${PGDATABASE:-postgres}" "$@"; }
cleanup() {
    rm -rf "$TMP"
    psql_admin -c "SET client_min_messages = warning" \
        -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" \
    -c "CREATE DATABASE $DB"
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

start_time=$(q -c "SELECT pg_postmaster_start_time()")

# documents stored uncompressed (STORAGE EXTERNAL), so detoasting is a plain copy
q >/dev/null <<SQL
CREATE EXTENSION serde;
CREATE TYPE cn_row AS (id int8, name text, amount numeric(12,2), at timestamptz, tags text[]);
SELECT serde_register('CnRow', 'cn_row');
CREATE TABLE cn_docs (kind text PRIMARY KEY, doc text, jdoc jsonb);
ALTER TABLE cn_docs ALTER doc SET STORAGE EXTERNAL, ALTER jdoc SET STORAGE EXTERNAL;
CREATE TEMP TABLE elems AS
SELECT format('{"id": %s, "name": "item %s", "amount": %s.25, "at": "2024-06-01T10:00:00Z", "tags": ["a", "b"]}',
              g, g, g % 100000) AS e
  FROM generate_series(1, $ROWS) g;
INSERT INTO cn_docs (kind, doc) SELECT 'array', '[' || string_agg(e, ',') || ']' FROM elems;
INSERT INTO cn_docs (kind, doc) SELECT 'ndjson', string_agg(e, E'\n') FROM elems;
INSERT INTO cn_docs (kind, jdoc) SELECT 'jsonb', doc::jsonb FROM cn_docs WHERE kind = 'array';
SQL
echo "documents: $(q -c "SELECT string_agg(kind || ' ' || pg_size_pretty(coalesce(octet_length(doc), pg_column_size(jdoc))::bigint), ', ' ORDER BY kind) FROM cn_docs") ($ROWS elements)"

# mode -> statement (each runs for seconds on $ROWS elements)
declare -A SQL=(
    [each_array]="SELECT count(*) FROM cn_docs, serde_decode_each(NULL::cn_row, doc) WHERE kind = 'array'"
    [each_ndjson]="SELECT count(*) FROM cn_docs, serde_decode_each(NULL::cn_row, doc) WHERE kind = 'ndjson'"
    [each_jsonb]="SELECT count(*) FROM cn_docs, serde_decode_each(NULL::cn_row, jdoc) WHERE kind = 'jsonb'"
    [each_shape]="SELECT count(*) FROM cn_docs, serde_decode_each('CnRow', doc) AS t(id int8, name text, amount numeric, at timestamptz, tags text[]) WHERE kind = 'array'"
    [decode_array]="SELECT cardinality(serde_decode(NULL::cn_row[], doc)) FROM cn_docs WHERE kind = 'array'"
    [valid]="SELECT serde_valid(NULL::cn_row[], doc) FROM cn_docs WHERE kind = 'array'"
    [errors]="SELECT count(*) FROM cn_docs, serde_errors(NULL::cn_row[], doc) WHERE kind = 'array'"
)
MODES=(each_array each_ndjson each_jsonb each_shape decode_array valid errors)
declare -A ASSERTED=([each_array]=1 [each_ndjson]=1 [each_jsonb]=1 [each_shape]=1
                     [decode_array]=$ALL [valid]=$ALL [errors]=$ALL)

# timed TIMEOUT_MS SQL -> "<elapsed ms> <ok|canceled|error: …>", elapsed as psql's \timing shows it
timed() {
    local out ms st
    out=$(printf '%s\n' "SET statement_timeout = $1;" '\timing on' "$2;" |
        psql -X -q -At -d "$DB" 2>&1) || true
    ms=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out" | tail -n 1)
    if grep -q 'canceling statement due to statement timeout' <<<"$out"; then
        st=canceled
    elif grep -q 'ERROR' <<<"$out"; then
        st="error: $(grep ERROR <<<"$out" | head -n 1)"
    else
        st=ok
    fi
    echo "${ms:-0} $st"
}

# cancelled DELAY_MS SQL -> "<latency ms> <canceled|finished-before-cancel|error: …>": runs the
# statement in the background, cancels it DELAY_MS after it became active, and measures from the
# server's clock when pg_cancel_backend returned to the client seeing the error (one machine, one clock)
cancelled() {
    local app="serde_cancel_$$_$RANDOM" bg t_cancel t_end out st=ok
    (
        printf '%s\n' "SET application_name = '$app';" "$2;" |
            psql -X -q -At -d "$DB" >"$TMP/a.out" 2>&1 || true
        date +%s.%N >"$TMP/a.end"
    ) &
    bg=$!
    t_cancel=$(q <<SQL
DO \$\$ BEGIN
  FOR i IN 1..500 LOOP
    EXIT WHEN EXISTS (SELECT FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active');
    PERFORM pg_sleep(0.01);
    PERFORM pg_stat_clear_snapshot();   -- else pg_stat_activity stays as first read
  END LOOP;
END \$\$;
SELECT pg_sleep($1 / 1000.0);
SELECT extract(epoch FROM clock_timestamp())
  FROM pg_stat_activity a, LATERAL pg_cancel_backend(a.pid) c
 WHERE a.application_name = '$app' AND a.state = 'active' AND c;
SQL
    )
    t_cancel=$(tr -d '[:space:]' <<<"$t_cancel")
    wait "$bg" || true
    t_end=$(<"$TMP/a.end")
    out=$(<"$TMP/a.out")
    if [[ -z $t_cancel ]]; then
        echo "0 finished-before-cancel"
        return
    fi
    if grep -q 'canceling statement due to user request' <<<"$out"; then
        st=canceled
    elif grep -q ERROR <<<"$out"; then
        st="error: $(grep ERROR <<<"$out" | head -n 1)"
    fi
    awk -v a="$t_cancel" -v b="$t_end" -v s="$st" 'BEGIN { printf "%.1f %s\n", (b - a) * 1000, s }'
}

status=0
measured=0
declare -A worst worst_raw   # per mode: worst of the kept measurements / of every attempt
printf '%-13s %-8s %8s %9s %10s  %s\n' mode kind at_ms elapsed latency_ms outcome
for m in "${MODES[@]}"; do
    read -r full st < <(timed 0 "${SQL[$m]}")
    if [[ $st != ok ]]; then
        echo "FAIL: $m: the statement itself failed: $st"
        status=1
        continue
    fi
    printf '%-13s %-8s %8s %9s %10s  %s\n' "$m" full - "$full" - completes
    worst[$m]=0
    worst_raw[$m]=0
    for frac in 20 50 80; do
        t=$(awk -v f="$full" -v p="$frac" 'BEGIN { printf "%d", f * p / 100 }')
        ((t >= 10)) || t=10
        for kind in timeout cancel; do
            for attempt in 1 2; do
                if [[ $kind == timeout ]]; then
                    read -r el st < <(timed "$t" "${SQL[$m]}")
                    lat=$(awk -v e="$el" -v t="$t" 'BEGIN { printf "%.1f", e - t }')
                    if [[ $st == ok ]]; then st=finished-before-cancel; fi
                else
                    read -r lat st < <(cancelled "$t" "${SQL[$m]}")
                    el=-
                fi
                printf '%-13s %-8s %8s %9s %10s  %s%s\n' "$m" "$kind" "$t" "$el" "$lat" "$st" \
                    "$( ((attempt > 1)) && echo ' (repeat)')"
                if [[ $st == finished-before-cancel ]]; then
                    break   # the machine was faster this time: nothing to measure
                fi
                if [[ $st != canceled ]]; then
                    echo "FAIL: $m $kind at $t ms: expected the statement to be canceled, got: $st"
                    status=1
                    break
                fi
                over=$(awk -v l="$lat" -v L="$LIMIT_MS" 'BEGIN { print (l >= L) ? 1 : 0 }')
                worst_raw[$m]=$(awk -v a="${worst_raw[$m]}" -v b="$lat" 'BEGIN { print (b > a) ? b : a }')
                if ((over == 0)); then
                    ((ASSERTED[$m])) && measured=$((measured + 1))
                    worst[$m]=$(awk -v a="${worst[$m]}" -v b="$lat" 'BEGIN { print (b > a) ? b : a }')
                    break
                fi
                if ((attempt == 2)); then
                    ((ASSERTED[$m])) && measured=$((measured + 1))
                    worst[$m]=$(awk -v a="${worst[$m]}" -v b="$lat" 'BEGIN { print (b > a) ? b : a }')
                    if ((ASSERTED[$m])); then
                        echo "FAIL: $m $kind at $t ms: $lat ms from the $kind to the error (limit $LIMIT_MS ms)"
                        status=1
                    else
                        echo "KNOWN BUG: $m $kind at $t ms: $lat ms from the $kind to the error (not asserted)"
                    fi
                fi
            done
        done
    done
done

echo
for m in "${MODES[@]}"; do
    if [[ -n ${worst[$m]:-} ]]; then
        printf 'worst latency %-13s %8s ms, before repeats %8s ms (limit %s ms%s)\n' "$m" "${worst[$m]}" \
            "${worst_raw[$m]}" "$LIMIT_MS" \
            "$( ((ASSERTED[$m])) || echo ', not asserted')"
    fi
done
if [[ $(q -c "SELECT pg_postmaster_start_time()") != "$start_time" ]]; then
    echo "FAIL: the server restarted"
    status=1
fi
if ((measured == 0)); then
    echo "FAIL: nothing was measured (every statement finished before its timeout)"
    status=1
fi
if ((status == 0)); then
    echo "PASS: $measured asserted timeouts and cancels each stopped the decode within $LIMIT_MS ms"
fi
exit $status
