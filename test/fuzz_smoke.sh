#!/usr/bin/env bash
# fuzz_smoke.sh — the core's libFuzzer targets (test/fuzz/) for 30 s each, after replaying every
# saved crash input in test/fuzz/regressions/ (make fuzz-smoke).  Built with clang-14 under ASan +
# UBSan; needs no PostgreSQL (the PG* variables scripts/test.sh exports are ignored).  Prints the
# executions per target; exits non-zero on any crash, leak, timeout or failing regression input.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in clang-14 clang++-14; do
    if ! command -v "$tool" >/dev/null; then
        echo "fuzz_smoke: $tool is missing (scripts/deps.sh installs clang-14 and libclang-rt-14-dev)"
        exit 1
    fi
done
make -s -j"$(nproc 2>/dev/null || echo 2)" fuzz-build
exec make -s fuzz-smoke
