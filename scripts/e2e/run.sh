#!/bin/sh
# make e2e: every end-to-end driver in scripts/e2e (real Claude Code CLI, real
# MCP clients, headless Chromium), one after another; the first failure stops.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
for script in "$dir"/*.sh; do
	[ "$(basename "$script")" = run.sh ] && continue
	echo "=== e2e: $(basename "$script")"
	sh "$script"
done
echo "=== e2e: all passed"
