#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, on a machine that cannot download VS Code itself:
#   - Debian packages: chromium (the browser Playwright drives), ripgrep (code-server's search binary),
#     libkrb5-dev (headers for code-server's `kerberos` addon);
#   - code-server (VS Code server + workbench, from the npm registry) into a project-local cache folder,
#     with the workarounds from docs/testing.md (no GitHub downloads, root, native addons built here).
# Idempotent: a marker file records what was installed; a matching marker means nothing to do.
# Usage: bash scripts/setup-vscode-test.sh [--force] [--apt-only]
# Env:   PO_VSCODE_TEST_DIR (default <repo>/.vscode-test), PO_SKIP_APT=1 (never call apt-get),
#        PO_APT_LOCK_TIMEOUT_S (default 600: how long to wait for another apt/dpkg to release its lock),
#        PO_APT_LOCK_POLL_S (default 10: pause between two tries while the lock is held).
set -euo pipefail

CODE_SERVER_VERSION=4.100.3 # VS Code 1.100.3; the last code-server that runs on Node 20
APT_PACKAGES=(chromium ripgrep libkrb5-dev)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${PO_VSCODE_TEST_DIR:-$ROOT/.vscode-test}/code-server"
MARKER="$CACHE_DIR/.installed"
FORCE=0
APT_ONLY=0
for arg in "$@"; do
  [[ "$arg" == "--force" ]] && FORCE=1
  [[ "$arg" == "--apt-only" ]] && APT_ONLY=1
done

START=$SECONDS
say() { printf '[setup-vscode-test %3ds] %s\n' "$((SECONDS - START))" "$*"; }
die() {
  printf '\n[setup-vscode-test] FAILED: %s\n' "$*" >&2
  printf '[setup-vscode-test] See docs/testing.md ("Installing"). Re-run: bash scripts/setup-vscode-test.sh --force\n' >&2
  exit 1
}
trap 'die "command failed (exit $?) at line $LINENO: $BASH_COMMAND"' ERR
# Network steps get a second chance after a short pause (a registry or mirror hiccup).
retry() {
  "$@" && return 0
  say "retrying in 5 s: $*"
  sleep 5
  "$@"
}

# The marker names everything the native addons depend on: code-server version, Node ABI, platform.
NODE_ID="$(node -p 'process.versions.node.split(".")[0] + "-abi" + process.versions.modules + "-" + process.platform + "-" + process.arch')"
WANT="code-server@$CODE_SERVER_VERSION node$NODE_ID setup-v1"

# ---------------------------------------------------------------- Debian packages
missing_apt() {
  local p out=()
  command -v chromium >/dev/null 2>&1 || out+=(chromium)
  command -v rg >/dev/null 2>&1 || out+=(ripgrep)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || out+=(libkrb5-dev)
  echo "${out[@]:-}"
}

# apt-get that waits, bounded, while another apt or dpkg (an unattended upgrade, a parallel CI step)
# holds a lock, instead of failing at once. DPkg::Lock::Timeout covers dpkg's lock; the loop covers
# the package lists' lock of `apt-get update` too.
apt_get() {
  local deadline=$((SECONDS + ${PO_APT_LOCK_TIMEOUT_S:-600})) out status
  while :; do
    status=0
    out="$("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=${PO_APT_LOCK_POLL_S:-10}" "$@" 2>&1)" || status=$?
    if ((status == 0)); then printf '%s' "$out"; return 0; fi
    if grep -qiE 'could not get lock|unable to acquire|is another process using it' <<<"$out" && ((SECONDS < deadline)); then
      say "another apt/dpkg holds the lock; waiting (up to ${PO_APT_LOCK_TIMEOUT_S:-600} s)"
      sleep "${PO_APT_LOCK_POLL_S:-10}"
      continue
    fi
    printf '%s\n' "$out" >&2
    return "$status"
  done
}

MISSING="$(missing_apt)"
if [[ -z "$MISSING" ]]; then
  say "Debian packages present: ${APT_PACKAGES[*]}"
elif [[ "${PO_SKIP_APT:-0}" == "1" ]]; then
  die "missing Debian packages ($MISSING) and PO_SKIP_APT=1; install them: apt-get install ${APT_PACKAGES[*]}"
else
  SUDO=()
  if [[ "$(id -u)" != "0" ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to apt-get install: $MISSING"
    SUDO=(sudo -n)
  fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install by hand: $MISSING (chromium, ripgrep, Kerberos headers)"
  say "apt-get update (missing: $MISSING)"
  retry apt_get update -qq || die "apt-get update failed"
  say "apt-get install ${APT_PACKAGES[*]}"
  retry apt_get install -y -qq "${APT_PACKAGES[@]}" >/dev/null \
    || die "apt-get install ${APT_PACKAGES[*]} failed"
  MISSING="$(missing_apt)"
  [[ -z "$MISSING" ]] || die "still missing after apt-get install: $MISSING"
  say "Debian packages installed"
fi
[[ $APT_ONLY == 1 ]] && exit 0

# ---------------------------------------------------------------- code-server
# One install at a time (two test runs in the same tree); the second one then finds the marker.
mkdir -p "$(dirname "$CACHE_DIR")"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$(dirname "$CACHE_DIR")/.setup.lock"
  flock -w 900 9 || die "another setup-vscode-test.sh still holds $(dirname "$CACHE_DIR")/.setup.lock"
fi
if [[ $FORCE == 0 && -f "$MARKER" && "$(cat "$MARKER")" == "$WANT" \
      && -f "$CACHE_DIR/node_modules/code-server/out/node/entry.js" ]]; then
  say "code-server already installed ($WANT) in ${CACHE_DIR#"$ROOT"/}"
  exit 0
fi

say "installing $WANT into $CACHE_DIR (takes ~2-3 minutes)"
rm -rf "$CACHE_DIR"
mkdir -p "$CACHE_DIR"
cd "$CACHE_DIR"
printf '{ "name": "vscode-test-code-server", "private": true }\n' > package.json

# code-server's postinstall refuses root without unsafe-perm; node-pty runs `npx node-gyp`, which the
# machine's npm config (`yes = false`) cancels unless npm_config_yes=true.
export npm_config_unsafe_perm=true npm_config_yes=true npm_config_audit=false npm_config_fund=false \
       npm_config_update_notifier=false npm_config_loglevel=error
export JOBS=max # node-gyp: compile the native addons on every core
NPM=(npm --no-audit --no-fund)

say "npm install code-server@$CODE_SERVER_VERSION --ignore-scripts"
retry "${NPM[@]}" install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION" \
  || die "npm install code-server@$CODE_SERVER_VERSION failed (npm registry reachable?)"
CS="$CACHE_DIR/node_modules/code-server"
[[ -f "$CS/out/node/entry.js" ]] || die "code-server package has no out/node/entry.js"

# --ignore-scripts skipped the outer native addon.
say "npm rebuild argon2"
"${NPM[@]}" rebuild argon2 || die "building argon2 failed"

# What code-server's postinstall.sh does, minus the GitHub download of ripgrep.
VS="$CS/lib/vscode"
cd "$VS"
say "lib/vscode: npm install --omit=dev --ignore-scripts"
retry "${NPM[@]}" install --omit=dev --ignore-scripts || die "npm install in lib/vscode failed"

# @vscode/ripgrep's postinstall downloads rg from GitHub; it exits early once bin/ exists.
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg

say "lib/vscode: npm rebuild (native addons: kerberos, node-pty, spdlog, ...)"
"${NPM[@]}" rebuild || die "npm rebuild in lib/vscode failed (native addon build; libkrb5-dev, g++, python3 present?)"

ln -sfn node_modules node_modules.asar
[[ -f bin/remote-cli/code-linux.sh ]] && ln -sfn code-linux.sh bin/remote-cli/code-server
[[ -f bin/helpers/browser-linux.sh ]] && ln -sfn browser-linux.sh bin/helpers/browser.sh

say "lib/vscode/extensions: npm install --omit=dev"
(cd extensions && retry "${NPM[@]}" install --omit=dev) || die "npm install in lib/vscode/extensions failed"

# Smoke check: the server entry loads and reports its version.
say "checking: code-server --version"
VERSION_OUT="$(cd "$CACHE_DIR" && XDG_CONFIG_HOME="$CACHE_DIR/.xdg" XDG_DATA_HOME="$CACHE_DIR/.xdg" \
  XDG_CACHE_HOME="$CACHE_DIR/.xdg" node "$CS/out/node/entry.js" --version 2>&1)" \
  || die "code-server --version failed: $VERSION_OUT"
rm -rf "$CACHE_DIR/.xdg"
say "code-server --version: $(echo "$VERSION_OUT" | grep -m1 -F "$CODE_SERVER_VERSION" || echo "$VERSION_OUT" | tail -1)"
[[ "$VERSION_OUT" == *"$CODE_SERVER_VERSION"* ]] || die "unexpected code-server version: $VERSION_OUT"

echo "$WANT" > "$MARKER"
say "done: $WANT"
