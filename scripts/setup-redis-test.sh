#!/usr/bin/env bash
# Installs redis-server (Debian package) for the multi-instance tests in test/server/redis.test.ts,
# the way setup-vscode-test.sh installs Chromium. Idempotent: nothing to do when redis-server is on PATH.
# The tests start their own redis-server on a free loopback port; nothing is started or enabled here.
# Usage: bash scripts/setup-redis-test.sh      Env: PO_SKIP_APT=1 (never call apt-get).
set -euo pipefail

say() { printf '[setup-redis-test] %s\n' "$*"; }
have() { command -v redis-server >/dev/null 2>&1 || [[ -x /usr/bin/redis-server ]]; }
# Not fatal: the Redis tests then skip with a message saying why.
give_up() {
  say "cannot install redis-server: $*; the Redis tests will be skipped"
  exit 0
}

if have; then
  say "redis-server present: $(redis-server --version 2>/dev/null | head -1)"
  exit 0
fi
[[ "${PO_SKIP_APT:-0}" == "1" ]] && give_up "PO_SKIP_APT=1"
command -v apt-get >/dev/null 2>&1 || give_up "apt-get not found"
SUDO=()
if [[ "$(id -u)" != "0" ]]; then
  command -v sudo >/dev/null 2>&1 || give_up "need root or sudo for apt-get"
  SUDO=(sudo -n)
fi

# One apt-get at a time on this machine (parallel test runs, or the VS Code setup).
install() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 && return 0
  say "apt-get update"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
}
say "apt-get install redis-server"
for attempt in 1 2 3; do
  install && break
  say "attempt $attempt failed (apt lock held or a mirror hiccup); retrying in 10 s"
  sleep 10
done
have || give_up "apt-get install redis-server failed"
# Debian's package may start a system service on 6379; the tests never use it (they start their own).
say "installed: $(redis-server --version | head -1)"
