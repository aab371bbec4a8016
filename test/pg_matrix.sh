#!/usr/bin/env bash
# pg_matrix.sh — the same source tree on PostgreSQL 17 and 18 (scripts/test.sh runs 15 itself):
# for each major version (SERDE_PG_MATRIX, default "17 18"), scripts/pgversions.sh fetches the
# headers and the server (cached under SERDE_PGV_CACHE), builds this checkout against those headers
# (-Werror: warning-free) and installs it into a private copy of the server; then
#   symbols       every symbol serde.so leaves undefined and unversioned (PostgreSQL's own) is
#                 defined by that server's postgres binary or a library serde.so names: headers a
#                 minor version newer than the server must not make serde reference what the
#                 server lacks (src/pg/compat.h)
#   installcheck  the whole pg_regress suite (make installcheck in the build copy), against a
#                 throwaway cluster of that server
#   scripts       SERDE_PG_MATRIX_SCRIPTS (default test/upgrade.sh test/property.sh) against it:
#                 1.0 -> ALTER EXTENSION serde UPDATE with shapes and decoding kept (upgrade.sh's
#                 dump step needs a pg_dump as new as the server; the system's is 15: skipped),
#                 text/json/jsonb/bytea agreeing on random shapes and documents
# Prints regression.diffs on failure; the last line is "matrix: …".  Ports SERDE_PGV_PORT_17/18.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
VERSIONS=${SERDE_PG_MATRIX:-17 18}
# the test scripts that run against the server as they are (others start their own 15 cluster,
# need pg_dump as new as the server, or pin timings of a quiet machine)
SCRIPTS=${SERDE_PG_MATRIX_SCRIPTS:-test/upgrade.sh test/property.sh}

status=0
summary=()
fail() { echo "FAIL: $*"; status=1; }

check_symbols() {   # check_symbols MAJOR: serde.so's undefined symbols all defined somewhere
    local v=$1 I so pg
    I=$(dirname "$(bash scripts/pgversions.sh pg_config "$v")")/..
    so=$I/server/lib/postgresql/serde.so
    pg=$I/server/bin/postgres
    local defined undefined missing lib
    defined=$(mktemp)
    nm -D --defined-only "$pg" | awk '{print $NF}' >"$defined"
    # the libraries serde.so itself names, as the server's process resolves them
    for lib in $(LD_LIBRARY_PATH=$I/syslib ldd "$so" | awk '/=> \// {print $3}'); do
        nm -D --defined-only "$lib" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' >>"$defined"
    done
    undefined=$(nm -D --undefined-only "$so" | awk '$1 == "U" && $2 !~ /@/ {print $2}' | sort -u)
    missing=$(comm -23 <(echo "$undefined") <(sort -u "$defined"))
    rm -f "$defined"
    if [[ -n $missing ]]; then
        fail "PostgreSQL $v: serde.so needs symbols the server lacks: $(echo $missing)"
        return 1
    fi
    echo "PostgreSQL $v: all $(echo "$undefined" | wc -l) unversioned symbols serde.so needs are defined"
}

run_installcheck() {   # run_installcheck MAJOR: pg_regress in the build copy, against its cluster
    local v=$1 I
    I=$(dirname "$(bash scripts/pgversions.sh pg_config "$v")")/..
    (
        eval "$(bash scripts/pgversions.sh env "$v")"
        cd "$I/build"
        rm -rf results regression.diffs regression.out
        mkdir -p results
        if ((EUID == 0)); then chmod 0777 results; fi
        if make -s installcheck PG_CONFIG="$I/bin/pg_config" PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER="$PGUSER"; then
            exit 0
        fi
        if [[ -f regression.diffs ]]; then
            echo "---- PostgreSQL $v: regression.diffs (first 200 lines of $(wc -l <regression.diffs)) ----"
            head -n 200 regression.diffs
        fi
        exit 1
    )
}

for v in $VERSIONS; do
    echo "==== PostgreSQL $v"
    start=$(date +%s)
    if ! bash scripts/pgversions.sh install "$v"; then
        fail "PostgreSQL $v: fetching or building failed"
        summary+=("$v: build FAIL")
        continue
    fi
    res="$v: build ok"
    check_symbols "$v" && res+=", symbols ok" || res+=", symbols FAIL"
    bash scripts/pgversions.sh stop "$v" >/dev/null 2>&1 || true
    if ! bash scripts/pgversions.sh start "$v"; then
        fail "PostgreSQL $v: the server did not start"
        summary+=("$res, server FAIL")
        continue
    fi
    (eval "$(bash scripts/pgversions.sh env "$v")"; psql -X -At -c "SELECT 'server: ' || version()")
    if run_installcheck "$v"; then res+=", installcheck ok"; else fail "PostgreSQL $v: installcheck"; res+=", installcheck FAIL"; fi
    for t in $SCRIPTS; do
        n=$(basename "$t" .sh)
        echo "---- PostgreSQL $v: $t"
        if (eval "$(bash scripts/pgversions.sh env "$v")"; bash "$t"); then res+=", $n ok"; else fail "PostgreSQL $v: $t"; res+=", $n FAIL"; fi
    done
    bash scripts/pgversions.sh stop "$v" >/dev/null 2>&1 || true
    summary+=("$res ($(($(date +%s) - start)) s)")
done

echo
for s in "${summary[@]}"; do echo "matrix: $s"; done
((status == 0)) && echo "PASS"
exit $status
