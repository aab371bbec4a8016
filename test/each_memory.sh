#!/usr/bin/env bash
# test/each_memory.sh — a CI check of serde_decode_each's memory over a big newline-delimited
# JSON input (issue 4): the backend's peak memory stays within about twice the input plus
# work_mem, and the buffers grown for it are released afterwards.
#
#   bash test/each_memory.sh            # 20 MB of NDJSON (SERDE_EACH_MB=100 for the full size)
#
# Runs against PGHOST/PGPORT/PGUSER in a database of its own (serde_each_memory, dropped
# afterwards).  The input is read server-side with pg_read_file() from a temporary file, so the
# server must run on this machine (otherwise the check is skipped).  Peak memory is the backend's
# VmHWM from /proc/self/status, read in the same fresh backend before and after the decode; the
# bound is generous (3 x input + work_mem + 48 MB) so that allocator noise never flakes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MB=${SERDE_EACH_MB:-20}
DB=serde_each_memory
dir=$(mktemp -d /tmp/serde-each-mem.XXXXXX)
cleanup() {
    rm -rf "$dir"
    PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
}
trap cleanup EXIT
chmod 755 "$dir"
input=$dir/input.ndjson

# ~110-byte lines of one shape, with a timestamp, a numeric, an array and some text
lines=$(python3 - "$input" "$MB" <<'PY'
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
r = random.Random(4)
target, size, n = mb * 1024 * 1024, 0, 0
with open(path, "w") as f:
    while size < target:
        line = ('{"id": %d, "sku": "SKU-%06d", "qty": %d, "price": %d.%02d, "at": "2024-05-%02dT%02d:%02d:00Z", '
                '"tags": ["t%d", "x"], "note": "%s"}\n') % (
            n, r.randint(0, 999999), r.randint(1, 99), r.randint(0, 999), r.randint(0, 99), r.randint(1, 28),
            r.randint(0, 23), r.randint(0, 59), r.randint(0, 9), "lorem ipsum " * r.randint(0, 3))
        if n % 1000 == 7:
            line += "\n"                        # a blank line now and then
        f.write(line)
        size += len(line)
        n += 1
print(n)
PY
)
chmod 644 "$input"
bytes=$(stat -c %s "$input")

PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d $DB >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION serde;
CREATE TYPE mem_item AS (id int8, sku text, qty int4, price numeric(8,2), at timestamptz, tags text[], note text);
SQL

if ! psql -X -q -At -d $DB -c "SELECT length(pg_read_file('$input', 0, 1))" >/dev/null 2>&1; then
    echo "each_memory: SKIP: the server cannot read $input (not on this machine, or no pg_read_file rights)"
    exit 0
fi

# One fresh backend: status before, the decode, status after (kB), memory contexts (bytes).
out=$(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -v file="$input" -d $DB <<'SQL'
CREATE TEMP VIEW st AS SELECT
    (regexp_match(s, 'VmHWM:\s+(\d+) kB'))[1]::bigint AS hwm,
    (regexp_match(s, 'VmRSS:\s+(\d+) kB'))[1]::bigint AS rss
  FROM pg_read_file('/proc/self/status') s;
SELECT 'before', hwm, rss, (SELECT sum(total_bytes) FROM pg_backend_memory_contexts) FROM st;
SELECT 'rows', count(*), sum(qty) FROM serde_decode_each(NULL::mem_item, pg_read_file(:'file'));
SELECT 'after', hwm, rss, (SELECT sum(total_bytes) FROM pg_backend_memory_contexts) FROM st;
SELECT 'work_mem', pg_size_bytes(current_setting('work_mem')) / 1024, 0, 0;
SQL
)
read -r _ hwm0 rss0 ctx0 < <(grep '^before' <<<"$out")
read -r _ rows _ < <(grep '^rows' <<<"$out")
read -r _ hwm1 rss1 ctx1 < <(grep '^after' <<<"$out")
read -r _ wm _ _ < <(grep '^work_mem' <<<"$out")

input_kb=$((bytes / 1024))
peak_kb=$((hwm1 - rss0))
bound_kb=$((3 * input_kb + wm + 48 * 1024))
kept_kb=$((rss1 - rss0))
ratio=$(python3 -c "print('%.2f' % ($peak_kb / $input_kb))")
echo "each_memory: ${bytes} bytes of NDJSON, ${rows} rows (expected ${lines}): peak backend memory +${peak_kb} kB" \
     "(${ratio} x input; bound ${bound_kb} kB), RSS after +${kept_kb} kB, memory contexts ${ctx0} -> ${ctx1} bytes"
fail=0
if [[ $rows != "$lines" ]]; then
    echo "each_memory: FAIL: $rows rows, expected $lines"
    fail=1
fi
if ((peak_kb > bound_kb)); then
    echo "each_memory: FAIL: peak +${peak_kb} kB over the bound ${bound_kb} kB"
    fail=1
fi
if ((kept_kb > 32 * 1024)); then
    echo "each_memory: FAIL: the backend keeps +${kept_kb} kB after the decode (buffers not released)"
    fail=1
fi
if ((ctx1 - ctx0 > 8 * 1024 * 1024)); then
    echo "each_memory: FAIL: memory contexts grew by $((ctx1 - ctx0)) bytes"
    fail=1
fi
exit $fail
