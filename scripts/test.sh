#!/usr/bin/env bash
# scripts/test.sh — run every test; what CI runs (.ci/run).
#
#   bash scripts/test.sh
#
# Stages, in order (a failing stage does not stop the later ones):
#   deps          scripts/deps.sh (installs missing Debian packages; needs root then)
#   build         make -j2
#   unit          make unit        core unit tests
#   unit-asan     make unit-asan   the same under ASan + UBSan
#   install       make install
#   cluster       throwaway PostgreSQL 15 cluster (scripts/pgcluster.sh), unless PGHOST is set
#   installcheck  make installcheck (pg_regress over sql/*.sql); prints regression.diffs on failure
#   test/NAME.sh  every extra test script, run with the PG* variables exported; non-zero = failure
# The cluster is stopped on exit (unless SERDE_KEEP=1). The last line is "N passed, N failed";
# the exit status is non-zero if any stage failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

names=()
results=()
times=()
failed=0
passed=0

# run_stage NAME COMMAND...: run one stage, record PASS/FAIL, never abort the script.
run_stage() {
    local name=$1
    shift
    local start rc=0
    start=$(date +%s)
    if declare -F "$1" >/dev/null; then
        printf '\n==== [%s] ====\n\n' "$name"
    else
        printf '\n==== [%s] %s ====\n\n' "$name" "$*"
    fi
    # errexit is off inside an `if` condition, so stage functions check their own commands.
    if "$@"; then rc=0; else rc=$?; fi
    record "$name" "$rc" "$(($(date +%s) - start))"
}

record() {
    local name=$1 rc=$2 secs=${3:-0}
    names+=("$name")
    times+=("$secs")
    if ((rc == 0)); then
        results+=(PASS)
        passed=$((passed + 1))
        printf '\n---- [%s] PASS (%ss)\n' "$name" "$secs"
    else
        results+=("FAIL")
        failed=$((failed + 1))
        printf '\n---- [%s] FAIL (exit %s, %ss)\n' "$name" "$rc" "$secs"
    fi
}

# A stage that cannot run because an earlier one failed counts as failed.
skip_stage() {
    printf '\n==== [%s] skipped: %s ====\n' "$1" "$2"
    record "$1" 1 0
}

# ---- the stages ------------------------------------------------------------------------------------
own_cluster=0
cluster_ok=0

stage_cluster() {
    if [[ -n ${PGHOST:-} ]]; then
        echo "PGHOST is set ($PGHOST): using that server"
    else
        own_cluster=1
    fi
    bash scripts/pgcluster.sh start || return 1
    local envs
    envs=$(bash scripts/pgcluster.sh env) || return 1
    eval "$envs"
    psql -X -At -d "${PGDATABASE:-postgres}" -c "SELECT 'server: ' || version()" || return 1
    cluster_ok=1
}

stage_installcheck() {
    # pg_regress runs here as the invoking user (the client); only the server runs as postgres.
    # Start from a clean, writable output directory (also writable by the server, in case a
    # test writes files into results/ from the server side).
    rm -rf results regression.diffs regression.out || return 1
    mkdir -p results || return 1
    if ((EUID == 0)); then chmod 0777 results; fi

    local args=()
    local v
    for v in PGHOST PGPORT PGUSER; do
        if [[ -n ${!v:-} ]]; then args+=("$v=${!v}"); fi
    done
    if make installcheck "${args[@]}"; then
        return 0
    fi
    if [[ -f regression.diffs ]]; then
        echo
        echo "---- regression.diffs (first 300 lines of $(wc -l <regression.diffs)) ----"
        head -n 300 regression.diffs
    fi
    return 1
}

cleanup() {
    if ((own_cluster)); then
        if [[ ${SERDE_KEEP:-0} == 1 ]]; then
            echo "test: SERDE_KEEP=1: cluster left running (bash scripts/pgcluster.sh stop)"
        else
            bash scripts/pgcluster.sh stop || true
        fi
    fi
}
trap cleanup EXIT

run_stage deps bash scripts/deps.sh
run_stage build make -j2
run_stage unit make unit
run_stage unit-asan make unit-asan
run_stage install make install

# The server (as postgres, when we are root) may read files from the repository, e.g. fixtures.
if ((EUID == 0)) && id -u postgres >/dev/null 2>&1 &&
    ! runuser -u postgres -- test -r "$ROOT/Makefile"; then
    echo "test: warning: user postgres cannot read $ROOT; server-side file reads will fail" >&2
fi

run_stage cluster stage_cluster

extra_tests=()
for t in test/*.sh; do
    [[ -f $t ]] && extra_tests+=("$t")
done

if ((cluster_ok)); then
    run_stage installcheck stage_installcheck
    for t in "${extra_tests[@]}"; do
        run_stage "$t" bash "$t"
    done
else
    skip_stage installcheck "no PostgreSQL server"
    for t in "${extra_tests[@]}"; do
        skip_stage "$t" "no PostgreSQL server"
    done
fi

# Stop the cluster now, so that nothing is printed after the summary.
cleanup
own_cluster=0

# ---- summary ---------------------------------------------------------------------------------------
printf '\n==== summary ====\n\n'
for i in "${!names[@]}"; do
    printf '  %-4s  %-28s %5ss\n' "${results[$i]}" "${names[$i]}" "${times[$i]}"
done
echo
echo "$passed passed, $failed failed"
((failed == 0))
