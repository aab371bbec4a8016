#!/usr/bin/env bash
# test/fuzz/run.sh SECONDS [TARGET...] — run the libFuzzer targets (built by `make fuzz-build`)
# for SECONDS each; `make fuzz` and `make fuzz-smoke` call this.
#
#   1. seeds: the committed test/fuzz/seeds/<kind>/ plus seeds generated into the build directory
#      (fuzz_json: fixtures/json/*.json, fixtures/json/mutated/*.json and, when present,
#      ../shared/data/JSONTestSuite/test_parsing/*; fuzz_options: every options object of
#      fixtures/sql/shapes.sql and sql/*.sql; fuzz_xml: fixtures/xml's documents, mutated and
#      hostile files; fuzz_scalar: the strings and numbers of the
#      fixture documents);
#   2. every saved crash input under test/fuzz/regressions/<target>/ is replayed (a crash found
#      once stays a test);
#   3. each target fuzzes for SECONDS with test/fuzz/json.dict (fuzz_xml: xml.dict), growing its corpus in
#      test/fuzz/build/corpus_<target>/, FUZZ_PARALLEL targets at a time (default: one per core
#      but one, at least 1), each under `nice`.
# Crash inputs land in test/fuzz/build/artifacts/ (the log names the file), logs in
# test/fuzz/build/logs/.  Prints executions, executions per second, corpus size and crashes per
# target (also written to test/fuzz/build/summary.tsv); exits non-zero on any crash, leak,
# timeout or failed regression replay.
#
# Environment: FUZZ_PARALLEL, SERDE_JSONTESTSUITE (directory of test_parsing files),
# FUZZ_ARGS (extra libFuzzer flags).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

SECONDS_EACH=${1:-300}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(fuzz_json fuzz_options fuzz_scalar fuzz_xml)

B=test/fuzz/build
mkdir -p "$B/logs" "$B/artifacts"
cores=$(nproc 2>/dev/null || echo 1)
PAR=${FUZZ_PARALLEL:-$((cores > 1 ? cores - 1 : 1))}
JTS=${SERDE_JSONTESTSUITE:-../shared/data/JSONTestSuite/test_parsing}

kind_of() { echo "${1#fuzz_}"; }

# ---- 1. generated seeds ------------------------------------------------------------------------
gen_seeds() {
    local t=$1 dir=$B/seeds_$1
    rm -rf "$dir"
    mkdir -p "$dir"
    case $t in
        fuzz_json)
            cp fixtures/json/*.json "$dir"/ 2>/dev/null
            for f in fixtures/json/mutated/*.json; do cp "$f" "$dir/mutated.$(basename "$f")"; done
            if [[ -d $JTS ]]; then
                for f in "$JTS"/*; do cp "$f" "$dir/jts.$(basename "$f")"; done
            else
                echo "fuzz: no JSONTestSuite at $JTS (set SERDE_JSONTESTSUITE); fixtures only"
            fi
            ;;
        fuzz_options)
            # the third argument of every serde_register(...) call: a single-quoted SQL literal
            python3 - "$dir" fixtures/sql/shapes.sql sql/*.sql <<'EOF'
import re, sys, hashlib, os
out = sys.argv[1]
n = 0
for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"serde_register\s*\(\s*'(?:[^']|'')*'\s*,\s*'(?:[^']|'')*'(?:::regtype)?\s*,\s*'((?:[^']|'')*)'", text):
        opts = m.group(1).replace("''", "'")
        name = hashlib.sha1(opts.encode()).hexdigest()[:16]
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(opts)
        n += 1
print(f"fuzz: {n} options objects extracted from fixtures/sql/shapes.sql and sql/*.sql")
EOF
            ;;
        fuzz_xml)
            # the XML fixtures: documents, mutated copies, the hostile corpus (small files)
            for f in fixtures/xml/*.xml fixtures/xml/mutated/*.xml fixtures/xml/hostile/*.xml; do
                [[ -f $f ]] && cp "$f" "$dir/$(basename "$(dirname "$f")").$(basename "$f")"
            done
            ;;
        fuzz_scalar)
            python3 - "$dir" fixtures/json/*.json <<'EOF'
import json, sys, os
out = sys.argv[1]
seen = set()
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, str) and len(v) <= 64:
        seen.add(v)
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        seen.add(json.dumps(v))
for p in sys.argv[2:]:
    try:
        walk(json.load(open(p, encoding="utf-8")))
    except Exception:
        pass
for i, s in enumerate(sorted(seen)[:600]):
    with open(os.path.join(out, "fx%04d" % i), "w", encoding="utf-8") as f:
        f.write(s)
EOF
            ;;
    esac
}

fail=0

# ---- 2. regressions ----------------------------------------------------------------------------
replay() {
    local t=$1 dir=test/fuzz/regressions/$1 files=()
    [[ -d $dir ]] || return 0
    mapfile -t files < <(find "$dir" -type f ! -name '*.md' | sort)
    ((${#files[@]})) || return 0
    if "$B/$t" -runs=1 "${files[@]}" >"$B/logs/$t.regressions.log" 2>&1; then
        echo "fuzz: $t: ${#files[@]} regression input(s) replayed: ok"
    else
        echo "fuzz: $t: REGRESSION input crashes (log: $B/logs/$t.regressions.log):"
        grep -E '^Running: |ERROR: |invariant violated|SUMMARY' "$B/logs/$t.regressions.log" | head -20
        fail=1
    fi
}

# ---- 3. fuzzing --------------------------------------------------------------------------------
run_one() {
    local t=$1 kind log
    kind=$(kind_of "$t")
    log=$B/logs/$t.log
    mkdir -p "$B/corpus_$t"
    local dict=test/fuzz/json.dict
    [[ $t == fuzz_xml ]] && dict=test/fuzz/xml.dict
    # shellcheck disable=SC2086
    nice -n 10 "$B/$t" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
        -dict="$dict" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
        -artifact_prefix="$B/artifacts/$t-" ${FUZZ_ARGS:-} \
        "$B/corpus_$t" "test/fuzz/seeds/$kind" "$B/seeds_$t" >"$log" 2>&1
    echo $? >"$B/logs/$t.rc"
}

for t in "${TARGETS[@]}"; do
    if [[ ! -x $B/$t ]]; then
        echo "fuzz: $B/$t is not built (make fuzz-build)"
        exit 1
    fi
done

for t in "${TARGETS[@]}"; do
    gen_seeds "$t"
    replay "$t"
done

echo "fuzz: ${#TARGETS[@]} target(s), ${SECONDS_EACH}s each, $PAR at a time"
running=0
for t in "${TARGETS[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if ((running >= PAR)); then
        wait -n
        running=$((running - 1))
    fi
done
wait

printf '\n%-14s %8s %12s %10s %8s %8s  %s\n' target seconds executions exec/s corpus crashes status
printf 'target\tseconds\texecutions\texec_per_sec\tcorpus\tcrashes\tstatus\n' >"$B/summary.tsv"
for t in "${TARGETS[@]}"; do
    log=$B/logs/$t.log
    rc=$(cat "$B/logs/$t.rc" 2>/dev/null || echo 1)
    execs=$(grep -o 'stat::number_of_executed_units:[[:space:]]*[0-9]*' "$log" | tail -1 | awk '{print $2}')
    eps=$(grep -o 'stat::average_exec_per_sec:[[:space:]]*[0-9]*' "$log" | tail -1 | awk '{print $2}')
    if [[ -z $execs ]]; then
        # a crash ends the run before the final stats: take the last status line
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    corpus=$(find "$B/corpus_$t" -type f | wc -l)
    crashes=$(grep -c 'Test unit written to' "$log")
    status=ok
    if [[ $rc != 0 ]]; then
        status="FAILED (exit $rc; log $log)"
        fail=1
    fi
    printf '%-14s %8s %12s %10s %8s %8s  %s\n' "$t" "$SECONDS_EACH" "${execs:-?}" "${eps:-?}" \
        "$corpus" "$crashes" "$status"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$SECONDS_EACH" "${execs:-}" "${eps:-}" "$corpus" \
        "$crashes" "$status" >>"$B/summary.tsv"
done

for t in "${TARGETS[@]}"; do
    log=$B/logs/$t.log
    if grep -q 'Test unit written to' "$log"; then
        echo
        echo "---- $t: crash ----"
        grep -E 'invariant violated|^     |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY|Test unit written to' "$log" | head -20
        grep -E '^    #[0-9]+ ' "$log" | head -15
    fi
done
exit $fail
