#!/bin/sh
# Prepares the Windows test run under Wine (idempotent; run by test.sh):
# installs Debian's 64-bit Wine and the mingw-w64 C compiler when missing,
# creates the Wine prefix, and puts a stand-in bcryptprimitives.dll (built
# here from processprng.c) into the prefix's system32, where Go's runtime
# loads it from. Debian 12's Wine 8 lacks that DLL, and every Go 1.24+
# Windows binary needs its ProcessPrng.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

need=""
[ -x "$wine64" ] || need="$need wine64"
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need="$need gcc-mingw-w64-x86-64-win32"
if [ -n "$need" ]; then
	sudo=""
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $need
fi

if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "creating the Wine prefix $WINEPREFIX (takes a minute)"
	mkdir -p "$WINEPREFIX"
	"$wine64" wineboot --init >/dev/null 2>&1
	"$wineserver" -w
fi

dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/processprng.c" -nt "$dll" ] || [ "$here/processprng.def" -nt "$dll" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	x86_64-w64-mingw32-gcc -O2 -shared -s -o "$tmp/bcryptprimitives.dll" \
		"$here/processprng.c" "$here/processprng.def" -ladvapi32
	mv -f "$tmp/bcryptprimitives.dll" "$dll"
	echo "installed the ProcessPrng stand-in into $dll"
fi
