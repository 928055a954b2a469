/**
 * A temporary project that installs the packed tarball the way a user would (`npm ci` of a lock naming it),
 * offline: the lock lists this repository's production dependencies with their integrity, so npm takes
 * them from the cache that `npm ci` filled here and never asks the registry.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

type LockEntry = { name?: string; version: string; dev?: boolean; [field: string]: unknown };

const REGISTRY = 'https://registry.npmjs.org';

/** Our package-lock.json rewritten for a project whose only dependency is the tarball. */
export function consumerLock(repoLock: { packages: Record<string, LockEntry> }, tarball: string) {
  const self = repoLock.packages['']!;
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: { 'prompt-optimizer': spec } },
    'node_modules/prompt-optimizer': { version: self.version, resolved: spec, dependencies: self.dependencies, bin: self.bin, engines: self.engines },
  };
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev) continue;
    // Our lock leaves out `resolved`; npm needs it to skip the registry's metadata, then finds the tarball by integrity.
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[path] = { resolved: `${REGISTRY}/${name}/-/${basename(name)}-${entry.version}.tgz`, ...entry };
  }
  return { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

export interface Consumer {
  dir: string;
  /** npm's output when the offline install failed (e.g. ENOTCACHED), else null. */
  installError: string | null;
}

/** `npm pack`s `root` (its dist/ must be built) and installs the tarball into a fresh project. */
export function installPackedTarball(root: string): Consumer {
  const dir = mkdtempSync(join(tmpdir(), 'po-consumer-'));
  const pack = npm(['pack', '--pack-destination', dir, '--json'], root);
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const tarball = `./${(JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename}`;
  const lock = consumerLock(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')), tarball);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { 'prompt-optimizer': `file:${tarball}` } }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 1));
  const install = npm(['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
  return { dir, installError: install.status === 0 ? null : `${install.stdout}${install.stderr}` };
}

function npm(args: string[], cwd: string) {
  return spawnSync('npm', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
}
