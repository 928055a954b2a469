import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = new URL('../../scripts/setup-vscode-test.sh', import.meta.url).pathname;

/** A fake `apt-get` that reports a held lock `busy` times, then installs fake packages. */
function fakeApt(dir: string, busy: number): void {
  const script = (body: string): string => `#!/usr/bin/env bash\n${body}\n`;
  writeFileSync(join(dir, 'busy'), String(busy));
  writeFileSync(
    join(dir, 'apt-get'),
    script(`echo "$*" >> "${dir}/calls"
left=$(cat "${dir}/busy")
if (( left > 0 )); then echo $((left - 1)) > "${dir}/busy"; echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100; fi
if [[ " $* " == *" install "* ]]; then touch "${dir}/installed"; printf '#!/bin/sh\\n' > "${dir}/chromium"; cp "${dir}/chromium" "${dir}/rg"; chmod +x "${dir}/chromium" "${dir}/rg"; fi
exit 0`),
  );
  writeFileSync(join(dir, 'dpkg'), script(`[[ -f "${dir}/installed" ]]`));
  for (const file of ['apt-get', 'dpkg']) chmodSync(join(dir, file), 0o755);
}

function runSetup(dir: string, env: Record<string, string>): ReturnType<typeof spawnSync> {
  return spawnSync('bash', [SCRIPT, '--apt-only'], { encoding: 'utf8', env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, PO_APT_LOCK_POLL_S: '0', ...env }, timeout: 60_000 });
}

describe('scripts/setup-vscode-test.sh and the apt/dpkg lock', function () {
  let dir: string;
  beforeEach(function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) this.skip(); // the script installs as root or through sudo
    dir = mkdtempSync(join(tmpdir(), 'po-setup-apt-'));
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('waits while another process holds the lock, then installs', () => {
    fakeApt(dir, 3);
    const result = runSetup(dir, { PO_APT_LOCK_TIMEOUT_S: '600' });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(String(result.stdout), /holds the lock; waiting/);
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    assert.ok(calls.length >= 5, calls.join('\n'));
    assert.ok(calls.every((call) => call.includes('DPkg::Lock::Timeout=')), calls.join('\n'));
  });

  it('gives up after the bounded timeout with the lock holder named', () => {
    fakeApt(dir, 1_000_000);
    const result = runSetup(dir, { PO_APT_LOCK_TIMEOUT_S: '0' });
    assert.notEqual(result.status, 0);
    assert.match(String(result.stderr), /Could not get lock[\s\S]*FAILED: apt-get update failed/);
  });
});
