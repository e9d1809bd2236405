#!/usr/bin/env bash
# install.sh VENV EXTRAS: a fresh virtual environment VENV with this project installed
# editable with EXTRAS (e.g. 'train,dev'). The set-up scripts run_main.sh and run_tests.sh
# call it.
#
# It installs with uv (from PyPI) when it can: uv unpacks and compiles in parallel, about
# half of pip's time for the test extras (torch and ray are large). Like pip, it compiles
# every module's bytecode at install: where PYTHONDONTWRITEBYTECODE is set no process
# would ever write it, and each one importing torch would compile it again. uv reads no pip
# configuration, so the sources and constraints pip is configured with (pip.conf and
# PIP_* variables: local wheel folders, extra indexes, a version cap, a CA file) are
# handed to it, and every index's versions count as they do for pip. If uv cannot be had
# or fails, pip installs as before.
set -euo pipefail
venv=$1
extras=$2
python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip)

uv_sources() {
    # One uv option a line, from `pip config list` (files and environment alike).
    local line key value item
    "${pip[@]}" config list 2>/dev/null | while IFS= read -r line; do
        key=${line%%=*}
        value=${line#*=}
        value=${value#\'}
        value=${value%\'}
        for item in $value; do
            case "$key" in
                *.find-links) printf '%s\n' --find-links "$item" ;;
                *.extra-index-url) printf '%s\n' --extra-index-url "$item" ;;
                *.index-url) printf '%s\n' --index-url "$item" ;;
                *.constraint) printf '%s\n' --constraint "$item" ;;
            esac
        done
    done
}

install_with_uv() {
    "${pip[@]}" install --quiet uv || return 1
    local sources=() cert
    mapfile -t sources < <(uv_sources)
    cert=$("${pip[@]}" config get global.cert 2>/dev/null || true)
    if [ -n "$cert" ]; then
        export SSL_CERT_FILE="$cert"
    fi
    "$venv/bin/uv" pip install --quiet --compile-bytecode --python "$venv/bin/python" \
        --index-strategy unsafe-best-match "${sources[@]}" -e ".[$extras]"
}

if ! install_with_uv; then
    echo "uv could not install the project; pip installs it instead" >&2
    "${pip[@]}" install --quiet --upgrade pip
    "${pip[@]}" install --quiet -e ".[$extras]"
fi
