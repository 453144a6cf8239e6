#!/bin/sh
# make e2e: Anamnesis against the real Claude Code CLI.
#
# Installs the pinned @anthropic-ai/claude-code from npm into a cache (once),
# then runs the Go end-to-end test (e2e/, build tag e2e), which drives
# `claude -p` against a scripted Messages API stand-in on loopback with a
# throwaway HOME and CLAUDE_CONFIG_DIR. Extra arguments go to `go test`
# (e.g. -run TestClaudeCode/compact).
#
# ANAMNESIS_E2E_CACHE   where the CLI is cached (default ~/.cache/anamnesis-e2e)
# ANAMNESIS_E2E_CLAUDE  use this claude binary instead of installing one
# ANAMNESIS_E2E_KEEP=1  keep the throwaway HOME, requests and logs for debugging
set -eu

die() { echo "e2e: $*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/../.." && pwd)
# The version the fixtures were recorded with: "2.1.330 (Claude Code)".
version=$(sed -n '1s/^\([0-9][0-9.]*\).*/\1/p' "$root/scripts/e2e/CLAUDE_CODE_VERSION")
[ -n "$version" ] || die "cannot read the pinned version from scripts/e2e/CLAUDE_CODE_VERSION"

if [ -z "${ANAMNESIS_E2E_CLAUDE:-}" ]; then
	cache=${ANAMNESIS_E2E_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/anamnesis-e2e"}
	dir="$cache/claude-code-$version"
	claude="$dir/node_modules/.bin/claude"
	if ! "$claude" --version 2>/dev/null | grep -q "^$version "; then
		command -v npm >/dev/null 2>&1 || die "npm is needed once to install @anthropic-ai/claude-code@$version into $cache"
		echo "e2e: installing @anthropic-ai/claude-code@$version into $dir"
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/.install.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT INT TERM
		npm install --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error \
			"@anthropic-ai/claude-code@$version" >&2 || die "npm install failed"
		"$tmp/node_modules/.bin/claude" --version | grep -q "^$version " ||
			die "the installed claude does not report version $version"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		trap - EXIT INT TERM
	fi
	ANAMNESIS_E2E_CLAUDE=$claude
fi
export ANAMNESIS_E2E_CLAUDE
echo "e2e: $("$ANAMNESIS_E2E_CLAUDE" --version) at $ANAMNESIS_E2E_CLAUDE"

cd "$root"
exec go test -tags e2e -count=1 -timeout 30m -v ./e2e/ "$@"
