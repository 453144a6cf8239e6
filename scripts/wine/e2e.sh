#!/bin/sh
# The Windows end to end under Wine, on a FRESH Wine prefix (a temp one,
# made here and removed after; not the cached prefix test.sh uses):
# install from the release zip layout, doctor, write and search, and the
# hooks init wrote fed the payloads the real Claude Code CLI wrote
# (scripts/wine/e2e/main.go says what it checks). .ci/run calls it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ANAMNESIS_WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/anamnesis-wine-fresh.XXXXXX")
export ANAMNESIS_WINEPREFIX
. "$here/env.sh"
trap '"$wineserver" -k </dev/null >/dev/null 2>&1; rm -rf "$ANAMNESIS_WINEPREFIX"' EXIT
"$here/setup.sh"
# Wine's services outlive the program that started them (see test.sh).
"$wineserver" -p 600 </dev/null >/dev/null 2>&1 || true
"$wine64" wineboot </dev/null >/dev/null 2>&1
cd "$root"
ANAMNESIS_WINE64=$wine64 go run ./scripts/wine/e2e
