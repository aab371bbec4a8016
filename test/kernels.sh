#!/usr/bin/env bash
# kernels.sh — the SIMD kernels of the JSON walker: (1) each kernel object defines no global or
# weak symbol that another kernel object also defines (so the linker cannot hand one kernel's
# AVX code to another: no SIGILL on an older CPU), (2) the core unit tests pass on every kernel
# this CPU can run, forced through SERDE_JSON_KERNEL, and (3) the kernel chosen at load time is
# the one simdjson's runtime dispatch picked (never the fallback where a better one exists).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s test/unit_runner >/dev/null

fail=0
objs=(src/core/json_walk_*.o)
declare -A owner
for o in "${objs[@]}"; do
    while read -r sym; do
        case "$sym" in sd_kernel_*) continue ;; esac
        if [[ -n "${owner[$sym]:-}" ]]; then
            echo "FAIL: $sym is defined in both ${owner[$sym]} and $o"
            fail=1
        fi
        owner[$sym]=$o
    done < <(nm --defined-only "$o" | awk '$2 ~ /^[TWVDBRuiv]$/ {print $3}')
done
[[ $fail == 0 ]] && echo "ok: ${#objs[@]} kernel objects share no global or weak symbol"

active=$(SERDE_PRINT_KERNEL=1 ./test/unit_runner --kernel)
echo "kernel chosen at load time: $active"
if grep -q -w avx512_vbmi2 /proc/cpuinfo && grep -q -w avx512bw /proc/cpuinfo; then want=icelake
elif grep -q -w avx2 /proc/cpuinfo; then want=haswell
elif grep -q -w sse4_2 /proc/cpuinfo; then want=westmere
else want=fallback; fi
if [[ "$active" != "$want" ]]; then
    echo "FAIL: this CPU supports $want but the walker runs $active"
    fail=1
fi

for k in icelake haswell westmere fallback; do
    got=$(SERDE_JSON_KERNEL=$k ./test/unit_runner --kernel)
    if [[ "$got" != "$k" ]]; then
        echo "skip: kernel $k not runnable here (got $got)"
        continue
    fi
    if out=$(SERDE_JSON_KERNEL=$k ./test/unit_runner 2>&1); then
        echo "ok: unit tests on kernel $k: $(tail -1 <<<"$out")"
    else
        echo "FAIL: unit tests on kernel $k"; tail -20 <<<"$out"; fail=1
    fi
done
exit $fail
