#!/bin/sh
# make e2e (part): anamnesis-mcp against the official TypeScript MCP client.
#
# Installs the pinned @modelcontextprotocol/sdk from npm into a cache (once),
# builds anamnesis-mcp, and runs scripts/e2e/mcp-sdk.cjs, which connects with
# StdioClientTransport, checks the six tools and their annotations, runs
# write -> search -> get -> list -> status -> sync (through a bare git remote),
# checks bad arguments come back as tool errors, and has ten clients on ten
# server processes write and search one home at once, then counts the notes.
#
# ANAMNESIS_E2E_CACHE    where the SDK is cached (default ~/.cache/anamnesis-e2e)
# ANAMNESIS_E2E_MCP_BIN  use this anamnesis-mcp instead of building one
# ANAMNESIS_E2E_KEEP=1   keep the throwaway homes for debugging
set -eu

die() { echo "mcp-e2e: $*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n '1s/^\([0-9][0-9.]*\).*/\1/p' "$root/scripts/e2e/MCP_SDK_VERSION")
[ -n "$version" ] || die "cannot read the pinned version from scripts/e2e/MCP_SDK_VERSION"
command -v node >/dev/null 2>&1 || die "node is needed (the official MCP client is the npm package @modelcontextprotocol/sdk)"
command -v git >/dev/null 2>&1 || die "git is needed"

cache=${ANAMNESIS_E2E_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/anamnesis-e2e"}
sdk="$cache/mcp-sdk-$version"
installed() {
	node -e 'const p=require(process.argv[1]); if (p.version !== process.argv[2]) process.exit(1)' \
		"$sdk/node_modules/@modelcontextprotocol/sdk/package.json" "$version" 2>/dev/null
}
if ! installed; then
	command -v npm >/dev/null 2>&1 || die "npm is needed once to install @modelcontextprotocol/sdk@$version into $cache"
	echo "mcp-e2e: installing @modelcontextprotocol/sdk@$version into $sdk"
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.install.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	npm install --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error \
		"@modelcontextprotocol/sdk@$version" >&2 || die "npm install failed"
	rm -rf "$sdk"
	mv "$tmp" "$sdk"
	trap - EXIT INT TERM
	installed || die "the installed SDK does not report version $version"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/anamnesis-mcp-e2e.XXXXXX")
if [ "${ANAMNESIS_E2E_KEEP:-}" = 1 ]; then
	echo "mcp-e2e: keeping $work"
else
	trap 'rm -rf "$work"' EXIT INT TERM
fi
bin=${ANAMNESIS_E2E_MCP_BIN:-}
if [ -z "$bin" ]; then
	bin="$work/anamnesis-mcp"
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/anamnesis-mcp) || die "go build ./cmd/anamnesis-mcp failed"
fi
echo "mcp-e2e: @modelcontextprotocol/sdk@$version, server $bin"
node "$root/scripts/e2e/mcp-sdk.cjs" "$sdk" "$bin" "$work"
