#!/bin/sh
# Builds every Anamnesis binary, installs them into one directory and wires
# Anamnesis into Claude Code with `anamnesis init`.
#
#   ./scripts/install.sh [init flags...]
#
# PREFIX   install under $PREFIX/bin (default: ~/.local, so ~/.local/bin)
# BINDIR   install exactly here instead (default: $PREFIX/bin)
# ANAMNESIS_GIT_REMOTE   a git remote to sync notes through (init reads it);
#          without it, and without a remote configured earlier, the store is
#          local only. A remote can be added later: anamnesis init --remote URL
# ANAMNESIS_SKIP_INIT=1  install the binaries only
#
# On a terminal, init asks before changing anything; otherwise it runs with
# --yes. Any arguments are passed to init (e.g. --remote URL, --no-mcp).
set -eu

die() { echo "install.sh: $*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
command -v go >/dev/null 2>&1 || die "Go is not installed (https://go.dev/dl/); it is the only build requirement besides git"
command -v git >/dev/null 2>&1 || die "git is not installed; notes are synced with git"

PREFIX=${PREFIX:-"$HOME/.local"}
BINDIR=${BINDIR:-"$PREFIX/bin"}
mkdir -p "$BINDIR" || die "cannot create $BINDIR"
BINDIR=$(cd "$BINDIR" && pwd)

# .exe on Windows (Git Bash, MSYS2, Cygwin): init looks for anamnesis-inject.exe.
exe=$(go env GOEXE)

version=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)
ldflags="-s -w -X github.com/anamnesis-dev/anamnesis/pkg/cli.Version=$version"

# Build into a scratch directory next to the target, then move each binary
# into place: a failed build leaves the previous installation untouched, and
# a rename never leaves a half-written executable that a running Claude Code
# hook could pick up.
stage=$(mktemp -d "$BINDIR/.anamnesis-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

cd "$root"
built=""
for dir in cmd/anamnesis*/; do
	name=$(basename "$dir")
	[ -f "$dir/main.go" ] || continue
	echo "building $name"
	# cmd/anamnesis-mcp is its own module; go.work makes ./cmd/... resolve
	# from the root for every binary.
	# No -trimpath (release archives have it; a binary built here stays
	# here): with the same flags as `make test` (CGO_ENABLED=0), every
	# package compiled here is reused by the tests from Go's build cache,
	# SQLite's translated C above all. Only the two binaries with a PGO
	# profile (default.pgo) compile their dependencies a second time.
	CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$stage/$name$exe" "./$dir" ||
		die "building $name failed; nothing was installed"
	built="$built $name"
done
[ -n "$built" ] || die "no binaries found under $root/cmd"
for name in $built; do
	mv -f "$stage/$name$exe" "$BINDIR/$name$exe"
done
rm -rf "$stage"
trap - EXIT INT TERM
# anamnesis-model was folded into the dispatcher; an upgrade removes it.
rm -f "$BINDIR/anamnesis-model$exe"
echo "installed$built into $BINDIR"

# The PATH warning comes last, after init's output, where it is seen: the
# next command init suggests (`anamnesis doctor`) fails until it is heeded.
path_warning() {
	case ":$PATH:" in
	*":$BINDIR:"*) return 0 ;;
	esac
	{
		echo
		echo "WARNING: $BINDIR is not on your PATH, so \`anamnesis\` is not found yet."
		echo "  Add it (e.g. in ~/.profile, ~/.bashrc or ~/.zshrc), then open a new shell:"
		echo "    export PATH=\"$BINDIR:\$PATH\""
		echo "  Until then, run it by its full path: $BINDIR/anamnesis doctor"
	} >&2
}

if [ "${ANAMNESIS_SKIP_INIT:-}" = 1 ]; then
	echo "skipping anamnesis init (ANAMNESIS_SKIP_INIT=1); run it yourself: $BINDIR/anamnesis init"
	path_warning
	exit 0
fi
status=0
if [ -t 0 ]; then
	"$BINDIR/anamnesis$exe" init "$@" || status=$?
else
	"$BINDIR/anamnesis$exe" init --yes "$@" || status=$?
fi
path_warning
exit "$status"
