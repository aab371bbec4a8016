#!/usr/bin/env bash
# sqlite.sh — the SQLite extension (issue 14, docs/reference.md section 7), from its three kinds of clients:
#   0. sqlite/'s file-level call graph (nm over sqlite/build/*.o) has no cycle;
#   1. the sqlite3 shell: test/sqlite/{functions,vtab,cache,hostile,hardening,one_of,xml_authoring,error_locations,inline_objects,infer,formats,authoring,batches}.sql, output (stdout and stderr)
#      compared with test/sqlite/expected/*.out (pinned messages and result codes); and the same
#      scripts under valgrind memcheck (no invalid access, no definite leak; SERDE_SQLITE_VALGRIND=0
#      skips it);
#   2. Python's sqlite3 module (Debian's /usr/bin/python3): test/sqlite/clients.py — changes
#      made by another connection, snapshots, result codes;
#   3. a C program: test/sqlite/client.c — prepared statements, re-execution, sqlite3_interrupt,
#      the catalog statements prepared once per connection and finalized by sqlite3_close;
#      test/sqlite/percall.c — a statement re-executed across every kind of catalog change (the
#      plan found current by PRAGMA schema_version alone when nothing changed);
#   4. threads: test/sqlite/threads.c, N connections decoding while another re-registers, built
#      and run against sqlite/build-tsan/serde.so (everything compiled with -fsanitize=thread);
#      SERDE_SQLITE_TSAN=0 skips it;
#   5. PostgreSQL: test/sqlite/compare_pg.py decodes the realistic fixtures in both hosts and
#      compares value by value (the server of PGHOST/PGPORT as scripts/test.sh exports them, with
#      serde installed; without PGHOST, a throwaway cluster of scripts/pgcluster.sh on port
#      SERDE_SQLITE_PGPORT, default 54538; SERDE_SQLITE_PG=0 skips it).
# Builds `make sqlite` first.  Exit status non-zero if any part failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
make -s sqlite

TMP=$(mktemp -d)
own_cluster=0
cleanup() {
    if ((own_cluster)); then
        env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE SERDE_PGPORT="${SERDE_SQLITE_PGPORT:-54538}" \
            bash "$ROOT/scripts/pgcluster.sh" stop >/dev/null 2>&1 || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
fail=0

# ---- 0. sqlite/'s files call each other without circles -----------------------------------------
# (nm over the adapter's objects: an edge a -> b when a.o needs a symbol, function or data, that
# b.o defines; the graph must have no cycle)
if /usr/bin/python3 - sqlite/build >"$TMP/graph.out" 2>&1 <<'PY'
import os, subprocess, sys
d = sys.argv[1]
objs = sorted(f[:-2] for f in os.listdir(d) if f.endswith(".o") and not f.startswith("core_")
              and os.path.exists(os.path.join(d, "..", f[:-2] + ".c")))
defs, uses = {}, {}
for o in objs:
    out = subprocess.run(["nm", os.path.join(d, o + ".o")], capture_output=True, text=True, check=True).stdout
    uses[o] = {l.split()[-1] for l in out.splitlines() if l.split()[0] == "U"}
    for l in out.splitlines():
        f = l.split()
        if len(f) == 3 and f[1] in "TDBR":
            defs[f[2]] = o
edges = {o: sorted({defs[u] for u in uses[o] if u in defs and defs[u] != o}) for o in objs}
for o in objs:
    print(f"  {o} -> {' '.join(edges[o])}")
state = {}
def visit(o, path):
    if state.get(o) == 1:
        sys.exit("cycle: " + " -> ".join(path[path.index(o):] + [o]))
    if state.get(o) == 2:
        return
    state[o] = 1
    for n in edges[o]:
        visit(n, path + [o])
    state[o] = 2
for o in objs:
    visit(o, [])
PY
then
    echo "ok: sqlite/ call graph (nm) has no cycle"
else
    echo "FAIL: sqlite/ call graph (nm) has a cycle"; cat "$TMP/graph.out"; fail=1
fi

# ---- 1. the sqlite3 shell ------------------------------------------------------------------
for t in functions vtab cache hostile hardening one_of xml_authoring error_locations inline_objects infer formats authoring batches; do
    db=$TMP/$t.db
    sed "s#DBFILE#$db#" "test/sqlite/$t.sql" | sqlite3 "$db" >"$TMP/$t.out" 2>&1 || true
    if diff -u "test/sqlite/expected/$t.out" "$TMP/$t.out" >"$TMP/$t.diff"; then
        echo "ok: sqlite3 shell: $t.sql"
    else
        echo "FAIL: sqlite3 shell: $t.sql"; head -60 "$TMP/$t.diff"; fail=1
    fi
done

# ---- 1b. the same under valgrind memcheck: no invalid access, no definite leak -------------------
if [[ ${SERDE_SQLITE_VALGRIND:-1} == 1 ]] && command -v valgrind >/dev/null; then
    vg_fail=0
    for t in functions vtab cache hostile hardening one_of xml_authoring error_locations inline_objects infer formats authoring batches; do
        db=$TMP/vg_$t.db
        sed "s#DBFILE#$db#" "test/sqlite/$t.sql" |
            valgrind -q --leak-check=full --errors-for-leak-kinds=definite sqlite3 "$db" >/dev/null 2>"$TMP/vg_$t.log" || true
        if grep -q '^==[0-9]*==' "$TMP/vg_$t.log"; then
            echo "FAIL: valgrind: $t.sql"; grep '^==[0-9]*==' "$TMP/vg_$t.log" | head -40; vg_fail=1; fail=1
        fi
    done
    ((vg_fail)) || echo "ok: valgrind memcheck: functions.sql, vtab.sql, cache.sql, hostile.sql, hardening.sql, error_locations.sql, inline_objects.sql clean"
fi

# ---- 2. Python -----------------------------------------------------------------------------
if /usr/bin/python3 test/sqlite/clients.py ./sqlite/serde >"$TMP/py.out" 2>&1; then
    echo "ok: python3 sqlite3 module: $(tail -1 "$TMP/py.out")"
else
    echo "FAIL: python3 sqlite3 module"; cat "$TMP/py.out"; fail=1
fi

# ---- 3. C ----------------------------------------------------------------------------------
if gcc -std=gnu11 -O1 -Wall -Wextra -Werror -o "$TMP/client" test/sqlite/client.c -lsqlite3 -lpthread &&
    "$TMP/client" ./sqlite/serde >"$TMP/c.out" 2>&1; then
    echo "ok: C client: $(tail -1 "$TMP/c.out")"
else
    echo "FAIL: C client"; cat "$TMP/c.out" 2>/dev/null || true; fail=1
fi
if gcc -std=gnu11 -O1 -Wall -Wextra -Werror -o "$TMP/percall" test/sqlite/percall.c -lsqlite3 &&
    "$TMP/percall" ./sqlite/serde >"$TMP/pc.out" 2>&1; then
    echo "ok: C, a statement re-executed across catalog changes: $(tail -1 "$TMP/pc.out")"
else
    echo "FAIL: C, a statement re-executed across catalog changes"; grep -v '^ok' "$TMP/pc.out" 2>/dev/null || true; fail=1
fi

# ---- 4. threads under ThreadSanitizer ------------------------------------------------------
if [[ ${SERDE_SQLITE_TSAN:-1} == 1 ]]; then
    if make -s sqlite-tsan && gcc -std=gnu11 -O1 -g -fsanitize=thread -Wall -Wextra -Werror \
        -o "$TMP/threads" test/sqlite/threads.c -lsqlite3 -lpthread &&
        TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$TMP/threads" ./sqlite/build-tsan/serde >"$TMP/t.out" 2>&1; then
        echo "ok: threads (TSan): $(tail -1 "$TMP/t.out")"
    else
        echo "FAIL: threads (TSan)"; tail -60 "$TMP/t.out" 2>/dev/null || true; fail=1
    fi
fi

# ---- 5. the same values as PostgreSQL ------------------------------------------------------
if [[ ${SERDE_SQLITE_PG:-1} == 1 ]]; then
    if [[ -z ${PGHOST:-} ]]; then
        port=${SERDE_SQLITE_PGPORT:-54538}
        own_cluster=1
        env -u PGPORT SERDE_PGPORT="$port" bash scripts/pgcluster.sh start >/dev/null
        eval "$(SERDE_PGPORT="$port" bash scripts/pgcluster.sh env)"
    fi
    if /usr/bin/python3 test/sqlite/compare_pg.py ./sqlite/serde >"$TMP/pg.out" 2>&1; then
        echo "ok: fixtures equal in SQLite and PostgreSQL: $(tail -1 "$TMP/pg.out")"
    else
        echo "FAIL: fixtures in SQLite and PostgreSQL"; tail -60 "$TMP/pg.out"; fail=1
    fi
fi
exit $fail
