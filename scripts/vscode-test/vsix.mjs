// Packages the CURRENT build (dist/ as `npm run build` left it) into a .vsix inside the run folder,
// without touching dist/: the package's files are staged in a temp folder (what .vscodeignore lets
// through) and `vsce package` runs there. Used to install the extension the way a user gets it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildExtensionReadme } from '../extension-readme.mjs';

// What the .vsix carries (the whitelist in .vscodeignore), when present; README.md is the extension page's.
const FILES = ['package.json', '.vscodeignore', 'CHANGELOG.md', 'LICENSE', 'LICENSE.md', 'LICENSE.txt'];

export function extensionId(repo) {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  return `${manifest.publisher}.${manifest.name}`.toLowerCase();
}

/** Returns the path of the .vsix; throws with vsce's output when packaging fails. */
export function packageVsix({ repo, runDir }) {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const stage = join(runDir, 'vsix-stage');
  mkdirSync(stage, { recursive: true });
  const files = [...FILES, manifest.main, manifest.browser, manifest.icon].filter(Boolean).map((f) => f.replace(/^\.\//, ''));
  for (const file of files) {
    const from = join(repo, file);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    cpSync(from, join(stage, file));
  }
  writeFileSync(join(stage, 'README.md'), buildExtensionReadme());
  const vsix = join(runDir, `${manifest.name}-test.vsix`);
  const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!existsSync(vsce)) throw new Error('@vscode/vsce is not installed (npm ci)');
  const result = spawnSync(process.execPath, [vsce, 'package', '--readme-path', 'README.md', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', vsix], {
    cwd: stage,
    encoding: 'utf8',
    timeout: 120000,
  });
  if (result.status !== 0 || !existsSync(vsix)) {
    throw new Error(`vsce package failed (exit ${result.status ?? result.signal}): ${`${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-6).join(' | ')}`);
  }
  return vsix;
}
