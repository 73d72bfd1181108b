#!/usr/bin/env bash
# Make sure the PostgreSQL server binaries (initdb, pg_ctl, postgres) are installed, for the
# integration tests that start a throwaway server. Idempotent; run as root on Debian/Ubuntu.
# Prints the binary folder (e.g. /usr/lib/postgresql/15/bin) as its last line.
set -euo pipefail

find_bindir() {
    local dir
    if [[ -n "${GAMEHALL_PG_BIN:-}" && -x "${GAMEHALL_PG_BIN}/initdb" && -x "${GAMEHALL_PG_BIN}/pg_ctl" ]]; then
        echo "${GAMEHALL_PG_BIN}"
        return 0
    fi
    # Newest version first.
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -V -r); do
        if [[ -x "${dir}/initdb" && -x "${dir}/pg_ctl" ]]; then
            echo "${dir}"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return 0
    fi
    return 1
}

if bindir="$(find_bindir)"; then
    echo "PostgreSQL binaries already present" >&2
else
    if [[ "$(id -u)" -ne 0 ]]; then
        echo "PostgreSQL is not installed and this script is not running as root: run it with sudo" >&2
        exit 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "PostgreSQL is not installed and apt-get is unavailable: install the PostgreSQL server by hand" >&2
        exit 1
    fi
    echo "installing PostgreSQL with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends postgresql
    # The Debian package starts a cluster of its own; the tests do not need it.
    if command -v pg_ctlcluster >/dev/null 2>&1; then
        for version_dir in /etc/postgresql/*/main; do
            [[ -d "${version_dir}" ]] || continue
            version="$(basename "$(dirname "${version_dir}")")"
            pg_ctlcluster "${version}" main stop >/dev/null 2>&1 || true
        done
    fi
    if ! bindir="$(find_bindir)"; then
        echo "apt-get installed postgresql but initdb/pg_ctl are still not found" >&2
        exit 1
    fi
fi

if ! id postgres >/dev/null 2>&1; then
    echo "warning: there is no 'postgres' user; tests running as root need one to run the server" >&2
fi
"${bindir}/pg_ctl" --version >&2
echo "${bindir}"
