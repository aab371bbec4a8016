#!/usr/bin/env bash
# scripts/valgrind-check.sh — the pg_regress suite against a PostgreSQL 15 server running under
# valgrind memcheck (`make valgrind-check`; on demand, slow: tens of minutes).
#
#   1. make install (the extension must be installed where the server finds it);
#   2. a throwaway cluster in $SERDE_VG_DIR (default /tmp/serde-valgrind-$UID), port
#      $SERDE_VG_PORT (default 54339), Unix socket only; the server binary is a wrapper script
#      (bin/postgres) that execs valgrind on the real postgres, so every backend (a fork of the
#      postmaster) runs under memcheck; settings as PostgreSQL's own valgrind buildfarm animal
#      (skink): --leak-check=no --track-origins=yes --error-exitcode=128 --trace-children=yes
#      --gen-suppressions=all, with test/valgrind.supp for known PostgreSQL/libc noise;
#   3. pg_regress over sql/*.sql against it (what make installcheck runs; output in the
#      cluster directory);
#   4. stop, then read the valgrind logs (one per process, vg/<pid>.log): every error record
#      is counted; a record with a frame in serde code (src/core, src/pg or serde.so) fails the
#      check, and so does a failed pg_regress run or a server crash.
# The cluster directory (valgrind logs, server log, pg_regress output) is kept for inspection and removed at
# the start of the next run.  Prints a summary and exits non-zero on failure.
#
# Environment: SERDE_VG_DIR, SERDE_VG_PORT, VALGRIND_OPTS (extra valgrind flags),
# PG_CONFIG.  As root, the server runs as the `postgres` user (as scripts/pgcluster.sh does).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

PORT=${SERDE_VG_PORT:-54339}
DIR=${SERDE_VG_DIR:-/tmp/serde-valgrind-$UID}
SUPP=$ROOT/test/valgrind.supp
if [[ -n ${PG_CONFIG:-} ]]; then
    BIN=$("$PG_CONFIG" --bindir)
else
    BIN=/usr/lib/postgresql/15/bin
fi

die() { echo "valgrind-check: $*" >&2; exit 2; }

command -v valgrind >/dev/null || die "valgrind is not installed (apt-get install valgrind)"
[[ -x $BIN/postgres ]] || die "no postgres in $BIN (set PG_CONFIG)"
[[ $DIR == /* ]] || die "SERDE_VG_DIR must be absolute"

as_owner() {
    if ((EUID == 0)); then
        (cd "$DIR" && runuser -u postgres -- "$@")
    else
        (cd "$DIR" && "$@")
    fi
}

# ---- 1. install ------------------------------------------------------------------------------
make -s install >/dev/null || die "make install failed"

# ---- 2. the cluster --------------------------------------------------------------------------
if [[ -f $DIR/data/postmaster.pid ]]; then
    as_owner "$BIN/pg_ctl" stop -D "$DIR/data" -m immediate -w -t 120 >/dev/null 2>&1 || true
fi
if [[ -e $DIR ]]; then
    [[ -f $DIR/.serde-valgrind ]] || die "$DIR exists and was not made by this script"
    rm -rf -- "$DIR"
fi
mkdir -p "$DIR/bin" "$DIR/vg"
: >"$DIR/.serde-valgrind"
cat >"$DIR/bin/postgres" <<EOF
#!/bin/sh
# postgres under valgrind memcheck (made by scripts/valgrind-check.sh)
exec valgrind --quiet --tool=memcheck --leak-check=no --track-origins=yes --read-var-info=yes \\
    --gen-suppressions=all --suppressions=$SUPP --error-exitcode=128 --trace-children=yes \\
    --fullpath-after= --num-callers=30 --log-file=$DIR/vg/%p.log ${VALGRIND_OPTS:-} \\
    $BIN/postgres "\$@"
EOF
chmod 755 "$DIR/bin/postgres"
if ((EUID == 0)); then
    chown -R postgres:postgres "$DIR"
    runuser -u postgres -- test -r "$SUPP" || die "user postgres cannot read $SUPP"
fi
chmod 755 "$DIR"

locale_opt=(--no-locale)
if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale_opt=(--locale=C.UTF-8); fi
as_owner "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 "${locale_opt[@]}" \
    --no-sync --no-instructions >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log"; die "initdb failed"; }

opts="-p $PORT -k $DIR -c listen_addresses='' -c fsync=off -c shared_buffers=32MB"
opts+=" -c max_connections=20 -c autovacuum=off -c jit=off -c max_prepared_transactions=0"
opts+=" -c log_min_messages=warning -c statement_timeout=0"
start=$(date +%s)
echo "valgrind-check: starting postgres under valgrind (port $PORT, $DIR)"
if ! as_owner env PGHOST="$DIR" PGPORT="$PORT" PGUSER=postgres \
        "$BIN/pg_ctl" start -D "$DIR/data" -p "$DIR/bin/postgres" -l "$DIR/server.log" \
        -w -t 600 -o "$opts" >/dev/null 2>&1; then
    tail -n 30 "$DIR/server.log"
    die "server did not start under valgrind"
fi

# ---- 3. the regression suite -------------------------------------------------------------------
# pg_regress directly (what `make installcheck` runs), with its output in $DIR so that a
# concurrent `make installcheck` in this tree is not disturbed; from the repository root
# (tests read fixtures/ through psql).  SERDE_VG_TESTS limits the run to some tests.
PGXS_DIR=$(dirname "$("${PG_CONFIG:-pg_config}" --pgxs)")
REGRESS=$PGXS_DIR/../test/regress/pg_regress
[[ -x $REGRESS ]] || die "no pg_regress at $REGRESS"
if [[ -n ${SERDE_VG_TESTS:-} ]]; then
    read -r -a tests <<<"$SERDE_VG_TESTS"
else
    tests=()
    for f in sql/*.sql; do tests+=("$(basename "$f" .sql)"); done
fi
mkdir -p "$DIR/regress/results"
chmod -R 0777 "$DIR/regress"
regress_rc=0
"$REGRESS" --inputdir=. --outputdir="$DIR/regress" --bindir="$BIN" --load-extension=dblink \
    --host="$DIR" --port="$PORT" --user=postgres --dbname=contrib_regression "${tests[@]}" \
    >"$DIR/installcheck.log" 2>&1 || regress_rc=$?
grep -E '^(not )?ok|^test |FAILED|failed|passed' "$DIR/installcheck.log" | tail -40

# ---- 4. stop and read the logs ----------------------------------------------------------------
as_owner "$BIN/pg_ctl" stop -D "$DIR/data" -m fast -w -t 600 >/dev/null 2>&1 ||
    as_owner "$BIN/pg_ctl" stop -D "$DIR/data" -m immediate -w -t 120 >/dev/null 2>&1 || true
secs=$(($(date +%s) - start))

crashes=$(grep -cE 'terminated by signal|was terminated by exception|exited with exit code 128' "$DIR/server.log")

# Split the logs into error records (a line "==PID== <what>" up to the blank "==PID== " line),
# count them, and print those with a frame in serde code.
python3 - "$DIR/vg" "$DIR/serde-errors.txt" <<'EOF'
import glob, os, re, sys
vgdir, out = sys.argv[1], sys.argv[2]
total = 0
serde = []
kinds = {}
for path in sorted(glob.glob(os.path.join(vgdir, "*.log"))):
    rec = []
    supp = False
    lines = open(path, errors="replace").read().splitlines()
    records = []
    for line in lines:
        m = re.match(r"==\d+== ?(.*)$", line)
        if m is None:
            # suppression blocks printed by --gen-suppressions=all belong to the record before
            if records and line.strip():
                records[-1].append(line)
            continue
        body = m.group(1)
        if body == "":
            if rec:
                records.append(rec)
            rec = []
            continue
        rec.append(body)
    if rec:
        records.append(rec)
    for r in records:
        head = r[0]
        if not any(x.strip().startswith(("at 0x", "by 0x")) for x in r):
            continue  # a header or a note, not an error
        total += 1
        kinds[head] = kinds.get(head, 0) + 1
        frames = [x for x in r if x.strip().startswith(("at 0x", "by 0x"))]
        if any(re.search(r"/src/(core|pg)/|serde\.so", f) for f in frames):
            serde.append((os.path.basename(path), r))
with open(out, "w") as f:
    for name, r in serde:
        f.write("---- %s\n%s\n\n" % (name, "\n".join(r)))
print("valgrind-check: %d valgrind error record(s) in %d process log(s); %d in serde code"
      % (total, len(glob.glob(os.path.join(vgdir, "*.log"))), len(serde)))
for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:10]:
    print("    %5d  %s" % (n, k))
sys.exit(1 if serde else 0)
EOF
vg_rc=$?

echo "valgrind-check: pg_regress exit $regress_rc; server crashes $crashes; ${secs}s; logs in $DIR/vg"
fail=0
if ((vg_rc != 0)); then
    echo "valgrind-check: FAIL: errors in serde code (first records below; all in $DIR/serde-errors.txt)"
    head -n 80 "$DIR/serde-errors.txt"
    fail=1
fi
if ((regress_rc != 0)); then
    echo "valgrind-check: FAIL: pg_regress failed under valgrind (see $DIR/regress/regression.diffs)"
    head -n 60 "$DIR/regress/regression.diffs" 2>/dev/null
    fail=1
fi
if ((crashes != 0)); then
    echo "valgrind-check: FAIL: $crashes server process(es) died (see $DIR/server.log)"
    grep -E 'terminated by signal|exit code 128' "$DIR/server.log" | head
    fail=1
fi
((fail == 0)) && echo "valgrind-check: PASS"
exit $fail
