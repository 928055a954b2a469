#!/usr/bin/env node
// The standard runner, for machines that CAN download VS Code (not this one: see docs/testing.md).
// Same suites, same contract as scripts/test-vscode.mjs: `npm run build` first, then
//   node scripts/vscode-test/run-electron.mjs      (npm run test:electron)
// downloads VS Code (VSCODE_TEST_VERSION, default 1.100.3 = what code-server 4.100.3 bundles) into
// .vscode-test/, starts the project's HTTP service on 127.0.0.1, and runs dist/test/extension/index.js
// with PO_TEST_RESULTS / PO_TEST_WORKSPACE / PO_TEST_SERVER_URL / PO_TEST_API_KEY in the extension
// host's environment. Prints `vscode: N passed, N failed, N skipped`.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { serveUnavailable, startHttpService } from './http-service.mjs';
import { onShutdown, shutdown } from './processes.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITES = join(REPO, 'dist', 'test', 'extension', 'index.js');
const counts = { passed: 0, failed: 0, skipped: 0 };
let code = 0;

try {
  if (!existsSync(SUITES)) throw new Error(`${SUITES} not built (npm run build)`);
  const runDir = mkdtempSync(join(tmpdir(), 'po-vscode-electron-'));
  onShutdown(() => rmSync(runDir, { recursive: true, force: true }));
  const workspace = join(runDir, 'workspace');
  cpSync(join(REPO, 'scripts', 'vscode-test', 'workspace'), workspace, { recursive: true });
  const resultsFile = join(runDir, 'results.json');
  const env = { PO_TEST_RESULTS: resultsFile, PO_TEST_WORKSPACE: workspace };
  const unavailable = serveUnavailable(REPO);
  if (unavailable) console.log(`HTTP service not started: ${unavailable}`);
  else {
    const service = await startHttpService({ repo: REPO, runDir });
    onShutdown(() => service.stop());
    Object.assign(env, { PO_TEST_SERVER_URL: service.url, PO_TEST_API_KEY: service.apiKey });
  }
  const exit = await runTests({
    version: process.env.VSCODE_TEST_VERSION || '1.100.3',
    extensionDevelopmentPath: REPO,
    extensionTestsPath: SUITES,
    extensionTestsEnv: env,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(runDir, 'user-data')],
  }).catch((error) => {
    console.error(`@vscode/test-electron: ${error?.message ?? error}`);
    return 1;
  });
  if (existsSync(resultsFile)) Object.assign(counts, JSON.parse(readFileSync(resultsFile, 'utf8')));
  else counts.failed += 1;
  if (exit !== 0 && counts.failed === 0) counts.failed += 1;
} catch (error) {
  console.error(`run-electron: ${error?.message ?? error}`);
  counts.failed += 1;
}
await shutdown();
if (counts.failed > 0) code = 1;
console.log(`vscode: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(code);
