# Sourced by setup.sh, exec and test.sh: where the Wine prefix lives and how
# Wine is called. Only 64-bit Wine is used (Debian's wine64 package; no i386).
WINEPREFIX=${ANAMNESIS_WINEPREFIX:-"${XDG_CACHE_HOME:-$HOME/.cache}/anamnesis-wine"}
# Quiet Wine's own diagnostics; no Mono or Gecko installer prompts.
WINEDEBUG=${WINEDEBUG:--all}
WINEDLLOVERRIDES="mscoree,mshtml="
export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES
wine64=/usr/lib/wine/wine64
wineserver=/usr/lib/wine/wineserver64
[ -x "$wineserver" ] || wineserver=/usr/lib/wine/wineserver
