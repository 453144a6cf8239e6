#!/bin/sh
# make e2e: the dashboard in a real browser.
#
# Installs Debian's chromium when none is found (apt-get, as root), after
# asking on a terminal, or without asking when ANAMNESIS_E2E_INSTALL=1 (CI);
# then runs the Go browser test (pkg/dashboard, build tag e2e): a store of a
# few hundred notes with git history from two machines, driven through
# headless Chromium over the DevTools protocol (chromedp). Extra arguments go
# to `go test`.
#
# CHROMIUM                 use this browser binary
# DASHBOARD_SCREENSHOTS=D  also write the README screenshots (light and dark) into D
#                          (scripts/e2e/dashboard.sh with DASHBOARD_SCREENSHOTS=docs/screenshots
#                          refreshes the committed ones)
set -eu

die() { echo "e2e: $*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/../.." && pwd)

find_chromium() {
	for c in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
		[ -n "$c" ] || continue
		if command -v "$c" >/dev/null 2>&1; then
			command -v "$c"
			return 0
		fi
	done
	return 1
}

if ! chromium=$(find_chromium); then
	command -v apt-get >/dev/null 2>&1 || die "no chromium on PATH and no apt-get to install it; set CHROMIUM=/path/to/chromium"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	# A system package is installed only when asked for: on a terminal the
	# user answers, elsewhere ANAMNESIS_E2E_INSTALL=1 says yes (.ci/run).
	what="${sudo:+sudo }apt-get install chromium fonts-dejavu-core (system packages, as root)"
	if [ "${ANAMNESIS_E2E_INSTALL:-}" != 1 ]; then
		if [ -t 0 ]; then
			printf 'e2e: no chromium found; the dashboard test needs one. Run %s now? [y/N] ' "$what" >&2
			read -r answer || answer=
			case $answer in
			y | Y | yes) ;;
			*) die "not installing; install chromium yourself, or set CHROMIUM=/path/to/chromium" ;;
			esac
		else
			die "no chromium found; the dashboard test needs one. Install it ($what), set CHROMIUM=/path/to/chromium, or set ANAMNESIS_E2E_INSTALL=1 to let make e2e install it"
		fi
	fi
	echo "e2e: installing chromium with apt-get" >&2
	$sudo apt-get update -qq >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2 ||
		die "apt-get install chromium failed"
	chromium=$(find_chromium) || die "chromium still not found after installing it"
fi
echo "e2e: $("$chromium" --version 2>/dev/null || echo "$chromium")" >&2

if [ -n "${DASHBOARD_SCREENSHOTS:-}" ]; then
	mkdir -p "$DASHBOARD_SCREENSHOTS"
	DASHBOARD_SCREENSHOTS=$(cd "$DASHBOARD_SCREENSHOTS" && pwd)
	export DASHBOARD_SCREENSHOTS
fi
cd "$root"
CHROMIUM=$chromium exec go test -tags e2e -count=1 -run 'TestE2E' "$@" ./pkg/dashboard
