#!/usr/bin/env bash
# limits_big.sh — documents near PostgreSQL's 1 GB value limit (docs/reference.md, "Settings"; issue 5 point 4): each
# is decoded or refused with a clear error (out of memory 53200, a serde or jsonb limit 54000),
# never an OOM kill or a crash, under a few memory settings.
#
#   bash test/limits_big.sh                        CI variant: 300 MB documents
#   SERDE_BIG_MB=900 bash test/limits_big.sh       near the 1 GB limit (minutes)
#
# It runs in a throwaway cluster of its own (scripts/pgcluster.sh, port SERDE_BIG_PORT, default
# 54348), started under an address-space limit (ulimit -v): a backend that needs more memory than
# that gets a clean "out of memory" error from palloc/malloc instead of the kernel's OOM killer —
# which on a shared machine could hit any process, and in the cluster under test would restart
# every backend.  The memory settings, one cluster start each:
#   roomy   RLIMIT_AS SERDE_BIG_AS_HIGH_MB (default 8192), default work_mem: every decode below
#   tight   RLIMIT_AS SERDE_BIG_AS_LOW_MB (default 2048), work_mem 64kB: the out-of-memory paths
# Documents, built server-side with repeat() into an UNLOGGED table (lz4-compressed on disk):
#   string  {"id": 1, "s": "xxx…"}               one string of SERDE_BIG_MB MB
#   array   [{"id": 1, "s": "abcdefgh"}, …]        SERDE_BIG_MB MB of small objects (~39,000 per MB)
# Decodes: serde_valid(json) and a typed decode of the string (its length checked); serde_decode_each
# (row count checked) and serde_valid(bg_row[]) of the array; serde.max_document_bytes below the
# size; serde_decode of the array into jsonb (jsonb cannot hold it: one container's data is limited
# to 256 MB; serde's jsonb builder sees that coming from a running lower bound of the binary size
# and raises jsonb's own 54000 after reading ~256 MB of binary's worth, where a plain ::jsonb cast
# would first build a tree of ~35x the document).
# An outcome passes if it is the right value or ERROR 53200 / 54000; the server must not restart
# (pg_postmaster_start_time) and its log must show no backend "terminated by signal".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

MB=${SERDE_BIG_MB:-300}
PORT=${SERDE_BIG_PORT:-54348}
AS_HIGH_MB=${SERDE_BIG_AS_HIGH_MB:-8192}
AS_LOW_MB=${SERDE_BIG_AS_LOW_MB:-2048}
DIR=/tmp/serde-pg-$UID-$PORT
if ! [[ $MB =~ ^[0-9]+$ ]] || ((MB < 1 || MB > 1000)); then
    echo "SERDE_BIG_MB must be 1..1000 (a text value is at most 1 GB)" >&2
    exit 2
fi

# the throwaway cluster, never the caller's: pgcluster.sh must not adopt the caller's PGHOST
cluster() { env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE SERDE_PGPORT="$PORT" SERDE_PGDIR="$DIR" \
    bash "$ROOT/scripts/pgcluster.sh" "$@"; }
CRASH=$(mktemp)
cleanup() { cluster stop >/dev/null 2>&1 || true; rm -f "$CRASH"; }
trap cleanup EXIT
cleanup

q() { psql -X -q -At -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

# start (or restart) the cluster under an address-space limit of $1 MB with extra options $2
start_under() {
    (
        ulimit -v $(($1 * 1024))
        SERDE_PG_OPTS="$2" cluster start >/dev/null
    )
}

status=0
fail() { echo "FAIL: $*"; status=1; }

# ---- build the documents (in the roomy setting) -----------------------------------------------------
start_under "$AS_HIGH_MB" "-c work_mem=4MB"
t0=$(date +%s)
N=$((MB * 1024 * 1024 - 20))   # string length, so that the document is MB MiB
K=$((MB * 1024 * 1024 / 27))   # array elements of 27 bytes each
q >/dev/null <<SQL
CREATE EXTENSION serde;
CREATE TYPE bg_doc AS (id int4, s text);
CREATE TYPE bg_row AS (id int4, s text);
CREATE UNLOGGED TABLE bg_docs (kind text PRIMARY KEY, doc text);
DO \$\$ BEGIN
    ALTER TABLE bg_docs ALTER doc SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN NULL;   -- a build without lz4: pglz then
END \$\$;
INSERT INTO bg_docs SELECT 'string', '{"id": 1, "s": "' || repeat('x', $N) || '"}';
INSERT INTO bg_docs SELECT 'array', '[' || repeat('{"id": 1, "s": "abcdefgh"},', $K) || '{"id": 2, "s": "x"}]';
SQL
echo "documents: $(q -c "SELECT string_agg(kind || ' ' || octet_length(doc) || ' bytes', ', ' ORDER BY kind) FROM bg_docs") (built in $(($(date +%s) - t0)) s)"

# run NAME EXPECTED SQL: one statement in a fresh session; prints its outcome and whether it passed
run() {
    local name=$1 expected=$2 sql=$3 out rc=0 t1 secs verdict
    t1=$(date +%s)
    out=$(q -c "SET client_min_messages = warning" -c "$sql" 2>&1) || rc=$?
    secs=$(($(date +%s) - t1))
    out=$(tr '\n' ' ' <<<"$out" | sed 's/ *$//')
    if ((rc == 0)) && [[ $out == "$expected" ]]; then
        verdict=ok
    elif ((rc != 0)) && [[ $out =~ ^ERROR:\ +(out\ of\ memory|.*exceeds\ serde\.max_document_bytes|total\ size\ of\ jsonb) ]]; then
        verdict=refused
    else
        verdict=WRONG
    fi
    printf '  %-8s %-22s %4ss  %-7s %s\n' "$setting" "$name" "$secs" "$verdict" "${out:0:110}"
    if [[ $verdict == WRONG ]]; then
        fail "$setting $name: expected '$expected' or a clean out-of-memory / limit error, got: $out"
    fi
    [[ $verdict != ok ]] || n_ok=$((n_ok + 1))
    [[ $verdict != refused ]] || n_refused=$((n_refused + 1))
}

check_alive() {   # the postmaster started at $1 is still the one running, no backend died
    if [[ $(q -c "SELECT pg_postmaster_start_time()" 2>/dev/null) != "$1" ]]; then
        fail "$setting: the server restarted (a backend crashed or was killed)"
    fi
    if grep -E 'terminated by signal|was terminated|out of memory: Killed|PANIC' "$DIR/server.log" >"$CRASH" 2>/dev/null; then
        fail "$setting: the server log reports dead backends:"
        head -n 5 "$CRASH"
    fi
}

n_ok=0
n_refused=0
S="(SELECT doc FROM bg_docs WHERE kind = 'string')"
A="(SELECT doc FROM bg_docs WHERE kind = 'array')"
printf '  %-8s %-22s %5s  %-7s %s\n' setting decode time verdict outcome
for setting in roomy tight; do
    if [[ $setting == roomy ]]; then
        start_under "$AS_HIGH_MB" "-c work_mem=4MB"
    else
        start_under "$AS_LOW_MB" "-c work_mem=64kB"
    fi
    started=$(q -c "SELECT pg_postmaster_start_time()")
    run valid_string t "SELECT serde_valid(NULL::json, $S)"
    run decode_string "$N" "SELECT length((serde_decode(NULL::bg_doc, $S)).s)"
    run decode_each_array "$((K + 1))" "SELECT count(*) FROM serde_decode_each(NULL::bg_row, $A)"
    run valid_array t "SELECT serde_valid(NULL::bg_row[], $A)"
    run decode_jsonb_array - "SELECT serde_decode(NULL::jsonb, $A) IS NULL"
    # over the limit the document is invalid (a limit the document exceeds is a document error)
    run max_document_bytes f "SET serde.max_document_bytes = $((N - 1)); SELECT serde_valid(NULL::json, $S)"
    check_alive "$started"
done

echo "big documents: ${MB} MB, $n_ok decoded, $n_refused refused cleanly"
((status == 0)) && echo "PASS"
exit $status
