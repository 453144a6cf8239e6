#!/bin/sh
# Cross-check of mcpbench with hyperfine: anamnesis-mcp started with
# initialize, notifications/initialized and tools/list piped on stdin; it
# answers both requests and exits at end of input. Prints hyperfine's table
# and the median (SPEC 9 budget: 50 ms).
#
#   scripts/bench/mcp-hyperfine.sh [HOME_DIR] [RUNS]
#
# HOME_DIR defaults to a fresh empty home (start-up does not open the store,
# so its size does not matter; mcpbench uses a generated 10k store).
# hyperfine: apt-get install hyperfine.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v hyperfine >/dev/null 2>&1 || { echo "mcp-hyperfine: hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/anamnesis-mcp-hf.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
home=${1:-"$work/home"}
runs=${2:-300}
mkdir -p "$home"
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$work/anamnesis-mcp" ./cmd/anamnesis-mcp)
cat >"$work/requests.jsonl" <<'REQ'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hyperfine","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
REQ
n=$(ANAMNESIS_HOME="$home" "$work/anamnesis-mcp" <"$work/requests.jsonl" | grep -c '"id":[12],"result"')
[ "$n" = 2 ] || { echo "mcp-hyperfine: expected 2 answers, got $n" >&2; exit 1; }
ANAMNESIS_HOME="$home" ANAMNESIS_MACHINE_ID=bench hyperfine --warmup 20 --runs "$runs" --export-json "$work/result.json" \
	"$work/anamnesis-mcp < $work/requests.jsonl > /dev/null"
median=$(sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$work/result.json" | head -1)
awk -v m="$median" 'BEGIN { printf "anamnesis-mcp start + initialize + tools/list: median %.1f ms (budget 50 ms)\n", m * 1000 }'
