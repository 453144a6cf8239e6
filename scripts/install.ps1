# Installs Anamnesis on Windows (10 or later) and wires it into Claude Code
# with `anamnesis init`: the PowerShell counterpart of install.sh.
#
#   powershell -ExecutionPolicy Bypass -File scripts\install.ps1 [init flags...]
#
# Where the binaries come from: the .exe files next to this script (an
# unpacked release zip), else -Zip <release zip>, else built from this
# checkout with Go (needs Go and git).
#
# -BinDir   install here (default: %LOCALAPPDATA%\Programs\Anamnesis\bin),
#           added to your user PATH
# -SkipInit install the binaries only
# Any other arguments are passed to init (e.g. --remote URL, --no-mcp). On a
# console init asks before changing anything; otherwise it runs with --yes.
param(
	[string]$BinDir = (Join-Path $env:LOCALAPPDATA 'Programs\Anamnesis\bin'),
	[string]$Zip = '',
	[switch]$SkipInit,
	[Parameter(ValueFromRemainingArguments = $true)][string[]]$InitArgs = @()
)
$ErrorActionPreference = 'Stop'
$names = 'anamnesis', 'anamnesis-inject', 'anamnesis-recall', 'anamnesis-capture', 'anamnesis-sync',
	'anamnesis-mcp', 'anamnesis-dashboard'

if ([Environment]::OSVersion.Version.Major -lt 10) {
	throw 'Anamnesis needs Windows 10 or later (its Go runtime does).'
}
New-Item -ItemType Directory -Force -Path $BinDir | Out-Null
$stage = Join-Path $BinDir ('.anamnesis-install.' + [guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $stage | Out-Null
try {
	$here = $PSScriptRoot
	if (Test-Path (Join-Path $here 'anamnesis-inject.exe')) {
		foreach ($n in $names) { Copy-Item (Join-Path $here "$n.exe") $stage }
	} elseif ($Zip -ne '') {
		Expand-Archive -Path $Zip -DestinationPath $stage
		# A release zip may hold its files in one top folder.
		Get-ChildItem -Path $stage -Recurse -Filter 'anamnesis*.exe' | Where-Object { $_.DirectoryName -ne $stage } |
			ForEach-Object { Move-Item $_.FullName $stage -Force }
	} else {
		if (-not (Get-Command go -ErrorAction SilentlyContinue)) { throw 'Go is not installed (https://go.dev/dl/), and no release zip was given (-Zip)' }
		$root = Split-Path $here -Parent
		$version = (git -C $root describe --tags --always --dirty 2>$null)
		if (-not $version) { $version = 'dev' }
		$env:CGO_ENABLED = '0'
		Push-Location $root
		try {
			foreach ($n in $names) {
				Write-Host "building $n"
				& go build -trimpath -ldflags "-s -w -X github.com/anamnesis-dev/anamnesis/pkg/cli.Version=$version" -o (Join-Path $stage "$n.exe") "./cmd/$n"
				if ($LASTEXITCODE -ne 0) { throw "building $n failed; nothing was installed" }
			}
		} finally { Pop-Location }
	}
	foreach ($n in $names) {
		if (-not (Test-Path (Join-Path $stage "$n.exe"))) { throw "$n.exe is missing; nothing was installed" }
	}
	# Move each binary into place only once all are there: a failed step
	# leaves the previous installation untouched.
	foreach ($n in $names) { Move-Item -Force (Join-Path $stage "$n.exe") (Join-Path $BinDir "$n.exe") }
	# anamnesis-model was folded into the dispatcher; an upgrade removes it.
	Remove-Item -Force (Join-Path $BinDir 'anamnesis-model.exe') -ErrorAction SilentlyContinue
} finally {
	Remove-Item -Recurse -Force $stage -ErrorAction SilentlyContinue
}
Write-Host "installed $($names.Count) binaries into $BinDir"

# The user's PATH (not the machine's): new consoles find `anamnesis`.
$userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
if (-not (($userPath -split ';') -contains $BinDir)) {
	$newPath = if ($userPath) { "$userPath;$BinDir" } else { $BinDir }
	[Environment]::SetEnvironmentVariable('Path', $newPath, 'User')
	Write-Host "added $BinDir to your user PATH (open a new console to use it)"
}
$env:Path = "$env:Path;$BinDir"

if ($SkipInit) {
	Write-Host "skipping anamnesis init (-SkipInit); run it yourself: anamnesis init"
	exit 0
}
$anamnesis = Join-Path $BinDir 'anamnesis.exe'
if ([Environment]::UserInteractive -and -not [Console]::IsInputRedirected) {
	& $anamnesis init @InitArgs
} else {
	& $anamnesis init --yes @InitArgs
}
exit $LASTEXITCODE
