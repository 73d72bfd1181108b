#!/usr/bin/env bash
# Make sure Debian's headless Chromium is installed, for the web pages' browser tests (Playwright for Python
# drives it at /usr/bin/chromium; Playwright's own browser download is not used). Idempotent; run as root on
# Debian/Ubuntu. Prints the browser's path as its last line.
set -euo pipefail

find_browser() {
    local path
    for path in "${GAMEHALL_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
        if [[ -n "${path}" && -x "${path}" ]]; then
            echo "${path}"
            return 0
        fi
    done
    return 1
}

if browser="$(find_browser)"; then
    echo "Chromium already present" >&2
else
    if [[ "$(id -u)" -ne 0 ]]; then
        echo "Chromium is not installed and this script is not running as root: run it with sudo" >&2
        exit 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "Chromium is not installed and apt-get is unavailable: install Chromium by hand" >&2
        exit 1
    fi
    echo "installing Chromium with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends chromium fonts-dejavu-core
    if ! browser="$(find_browser)"; then
        echo "apt-get installed chromium but /usr/bin/chromium is still not found" >&2
        exit 1
    fi
fi
"${browser}" --version >&2
echo "${browser}"
