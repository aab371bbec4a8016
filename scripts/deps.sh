#!/usr/bin/env bash
# scripts/deps.sh — install the Debian 12 packages serde needs to build and test.
# Idempotent and quiet: when every package is already installed it prints nothing and does
# nothing (no apt-get update). Otherwise it runs `apt-get update` once and installs only the
# missing packages. Installing needs root.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive

# dblink (loaded by `make installcheck`) ships inside postgresql-15 on Debian 12, so
# postgresql-contrib is not needed.
PACKAGES=(
    build-essential g++ make pkg-config
    postgresql-15 postgresql-server-dev-15 postgresql-client-15
    libsimdjson-dev libxml2-dev
    libsqlite3-dev sqlite3
    clang-14 libclang-rt-14-dev
    python3
)

# Prints the packages of "$@" that are not installed (one dpkg-query call for all of them).
not_installed() {
    local -A ok=()
    local name status
    while read -r name status; do
        if [[ $status == installed ]]; then ok[$name]=1; fi
    done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null || true)
    for name in "$@"; do
        [[ -n ${ok[$name]:-} ]] || printf '%s\n' "$name"
    done
}

mapfile -t missing < <(not_installed "${PACKAGES[@]}")

if ((${#missing[@]} == 0)); then
    exit 0
fi

if ((EUID != 0)); then
    echo "deps: missing packages and not running as root; run as root or install them:" >&2
    echo "      apt-get install ${missing[*]}" >&2
    exit 1
fi

echo "deps: installing ${missing[*]}" >&2
log=$(mktemp /tmp/serde-deps.XXXXXX)
trap 'rm -f "$log"' EXIT

apt_get() {
    if ! apt-get -q -y -o DPkg::Lock::Timeout=300 "$@" >>"$log" 2>&1; then
        echo "deps: apt-get $1 failed:" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
}

apt_get update
apt_get install --no-install-recommends "${missing[@]}"

# Check again: nothing may pass silently.
mapfile -t still < <(not_installed "${missing[@]}")
if ((${#still[@]} > 0)); then
    echo "deps: still not installed: ${still[*]}" >&2
    exit 1
fi
echo "deps: done" >&2
