#!/usr/bin/env bash
# test/each_stream.sh — serde_decode_each streams (issue 22, docs/reference.md "Batches and dead
# letters"): over a big NDJSON input and a big JSON array of ~1 KB elements, the backend's memory
# beyond the input itself stays under a fixed bound (64 MB) whatever the input's size, rows come
# before the input is read to its end (a select-list call under LIMIT stops early), and a cancel
# or statement_timeout stops a decode within 100 ms.
#
#   bash test/each_stream.sh                 # 128 MB inputs (SERDE_STREAM_MB=1000 for ~1 GB)
#
# What is measured: one fresh backend reads /proc/self/status (VmRSS, VmHWM) before and after
#   SELECT count(*), sum(...) FROM serde_decode_each(NULL::t, pg_read_file(<file>))
# "growth" = VmHWM after - VmRSS before: the peak resident memory the statement added, which
# includes the input itself (pg_read_file's text datum, S bytes, detoasted by nothing: it is built
# in memory).  "serde's own" = growth - S: what the decode added beyond the input; asserted
# < SERDE_STREAM_BOUND_MB (64).  The old materialising code copied a JSON array whole (+S, plus
# simdjson's index of it) and fails this bound for the array; see bench/RESULTS.md for numbers.
# Uses PGHOST/PGPORT/PGUSER; the server must run on this machine (pg_read_file of a temp file,
# else SKIP); creates and drops database serde_each_stream.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MB=${SERDE_STREAM_MB:-128}
BOUND_MB=${SERDE_STREAM_BOUND_MB:-64}
CANCEL_MS=${SERDE_STREAM_CANCEL_MS:-100}
DB=serde_each_stream
dir=$(mktemp -d /tmp/serde-each-stream.XXXXXX)
cleanup() {
    rm -rf "$dir"
    PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
chmod 755 "$dir"

# ~1 KB elements: NDJSON (with a blank line and a CRLF now and then) and the same as a JSON array
python3 - "$dir" "$MB" <<'PY'
import sys
d, mb = sys.argv[1], int(sys.argv[2])
target = mb * 1024 * 1024
note = "x" * 900
n = size = 0
with open(d + "/in.ndjson", "w", newline="") as f, open(d + "/in.json", "w", newline="") as a:
    a.write("[")
    while size < target:
        e = '{"id": %d, "sku": "SKU-%06d", "qty": %d, "price": %d.%02d, "at": "2024-05-%02dT10:00:00Z", "tags": ["a", "b"], "note": "%s"}' % (
            n, n % 999999, 1 + n % 97, n % 1000, n % 100, 1 + n % 28, note)
        sep = "\r\n" if n % 1000 == 3 else "\n"
        f.write(e + sep + ("\n" if n % 1000 == 7 else ""))
        a.write(("," if n else "") + e + "\n")
        size += len(e) + 2
        n += 1
    a.write("]")
open(d + "/rows", "w").write(str(n))
PY
chmod 644 "$dir"/in.*
rows=$(cat "$dir/rows")

PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d $DB >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION serde;
CREATE TYPE st_item AS (id int8, sku text, qty int4, price numeric(8,2), at timestamptz, tags text[], note text);
SQL
if ! psql -X -q -At -d $DB -c "SELECT length(pg_read_file('$dir/in.json', 0, 1))" >/dev/null 2>&1; then
    echo "each_stream: SKIP: the server cannot read $dir (not on this machine, or no pg_read_file rights)"
    exit 0
fi

fail=0
# measure <label> <file> <query using :'file'>: prints "<label> rows growth_kB own_kB"
measure() {
    local label=$1 file=$2 query=$3 out hwm0 rss0 hwm1 n bytes
    out=$(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -v file="$file" -d $DB <<SQL
CREATE TEMP VIEW st AS SELECT
    (regexp_match(s, 'VmHWM:\s+(\d+) kB'))[1]::bigint AS hwm,
    (regexp_match(s, 'VmRSS:\s+(\d+) kB'))[1]::bigint AS rss
  FROM pg_read_file('/proc/self/status') s;
SELECT 'before', hwm, rss FROM st;
$query;
SELECT 'after', hwm, rss FROM st;
SQL
) || { echo "each_stream: FAIL: $label: $out"; fail=1; return; }
    read -r _ hwm0 rss0 < <(grep '^before' <<<"$out")
    read -r _ hwm1 _ < <(grep '^after' <<<"$out")
    n=$(grep -v '^before\|^after' <<<"$out" | head -1 | cut -d' ' -f1)
    bytes=$(stat -c %s "$file")
    local growth=$((hwm1 - rss0)) own=$((hwm1 - rss0 - bytes / 1024))
    echo "each_stream: $label: $bytes bytes, $n rows: backend peak +$((growth / 1024)) MB, beyond the input +$((own / 1024)) MB (bound $BOUND_MB MB)"
    if [[ $n != "$rows" ]]; then echo "each_stream: FAIL: $label: $n rows, expected $rows"; fail=1; fi
    if ((own > BOUND_MB * 1024)); then echo "each_stream: FAIL: $label: +$((own / 1024)) MB beyond the input"; fail=1; fi
}
measure ndjson "$dir/in.ndjson" "SELECT count(*), sum(qty) FROM serde_decode_each(NULL::st_item, pg_read_file(:'file'))"
measure array "$dir/in.json" "SELECT count(*), sum(qty) FROM serde_decode_each(NULL::st_item, pg_read_file(:'file'))"
if [[ ${SERDE_STREAM_ONLY_MEMORY:-0} == 1 ]]; then exit $fail; fi

# Rows stream: in the select list under LIMIT, the rows come before the input is read to its end
# (a malformed last line is never reached; the whole-input decode of old raised its error).
printf '{"id": 1, bad json\n' >> "$dir/in.ndjson"
out=$(psql -X -q -At -v ON_ERROR_STOP=1 -v file="$dir/in.ndjson" -d $DB 2>&1 <<'SQL'
SELECT count(*) FROM (SELECT serde_decode_each(NULL::st_item, pg_read_file(:'file')) LIMIT 5) s;
SQL
) || true
if [[ $out == 5 ]]; then
    echo "each_stream: streaming: 5 rows under LIMIT 5 before the malformed last line"
else
    echo "each_stream: FAIL: streaming: expected 5 rows under LIMIT 5, got: $out"
    fail=1
fi

# Cancel and statement_timeout stop a decode within CANCEL_MS: a 40 MB document stored
# uncompressed in a table (its detoasting is a plain copy of a few ms), decoded for seconds.
psql -X -q -v ON_ERROR_STOP=1 -d $DB >/dev/null <<'SQL'
CREATE TABLE st_docs (kind text, doc text);
ALTER TABLE st_docs ALTER doc SET STORAGE EXTERNAL;
INSERT INTO st_docs SELECT 'ndjson', string_agg(format('{"id": %s, "sku": "S", "qty": 1, "price": 1.5, "at": "2024-05-01T10:00:00Z", "tags": ["a"], "note": "%s"}', g, repeat('y', 300)), E'\n') FROM generate_series(1, 100000) g;
INSERT INTO st_docs SELECT 'array', '[' || replace(doc, E'\n', ',') || ']' FROM st_docs WHERE kind = 'ndjson';
SQL
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
for kind in ndjson array; do
    q="SELECT count(*) FROM st_docs, serde_decode_each(NULL::st_item, doc) WHERE kind = '$kind'"
    full=$(printf '%s\n' '\timing on' "$q;" | psql -X -q -At -d $DB | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    for try in 1 2; do
        t=$(python3 -c "print(max(50, int($full * 0.5)))")
        el=$(printf '%s\n' "SET statement_timeout = $t;" '\timing on' "$q;" | psql -X -q -At -d $DB 2>&1 |
            sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
        lat_t=$(python3 -c "print(int(float('$el') - $t))")
        psql -X -q -At -d $DB -c "SET application_name = 'each_stream_victim'; $q" >/dev/null 2>&1 &
        pid=$!
        sleep "$(python3 -c "print($full * 0.5 / 1000)")"
        psql -X -q -At -d $DB -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'each_stream_victim' AND state = 'active'" >/dev/null
        c0=$(now_ms)
        wait $pid || true
        lat_c=$(( $(now_ms) - c0 ))
        if ((lat_t <= CANCEL_MS && lat_c <= CANCEL_MS)) || ((try == 2)); then break; fi
        echo "each_stream: $kind: slow stop (timeout $lat_t ms, cancel $lat_c ms): trying again (a busy machine?)"
    done
    echo "each_stream: $kind: full decode $full ms; statement_timeout stopped it $lat_t ms late, pg_cancel_backend in $lat_c ms (bound $CANCEL_MS ms)"
    if ((lat_t > CANCEL_MS || lat_c > CANCEL_MS)); then echo "each_stream: FAIL: $kind: stop slower than $CANCEL_MS ms"; fail=1; fi
done
exit $fail
