#!/usr/bin/env node
// The extension's tests in a REAL VS Code, on a machine that cannot download VS Code:
// code-server (npm) + Debian's Chromium driven by playwright-core. See docs/testing.md.
//
//   1. scripts/setup-vscode-test.sh (cached: seconds when already installed)
//   2. the project's HTTP service on 127.0.0.1 (for the remote-engine suite), when `serve` exists
//   3. phase "suites": code-server + workbench with payload extensionDevelopmentPath = repo root,
//      extensionTestsPath = dist/test/extension/index.js; the mocha suites run in the real extension
//      host and write PO_TEST_RESULTS; the exit code arrives through codeAutomationExit
//   4. phase "ui": a fresh code-server + workbench with the extension only; test/ui/ clicks through
//      the workbench and saves screenshots
//   5. phase "ui-web": the same click-through with the current build packaged as a .vsix, installed,
//      and run in the browser's web-worker extension host (the `browser` entry)
// Expects `npm run build` to have run (npm test and `npm run test:vscode` do it first).
// Ends with the line `vscode: N passed, N failed, N skipped`; exits non-zero on any failure.
//
// Options: --skip-ui, --skip-web, --ui-only, --update-screenshots (copy screenshots into media/), --keep (keep the
// temp run folder). Env: PO_VSCODE_TEST_TIMEOUT_S (suites, default 300), PO_VSCODE_TEST_UI_TIMEOUT_S
// (default 120), PO_VSCODE_TEST_EXTENSION / PO_VSCODE_TEST_SUITES (other extension / suites bundle),
// PO_VSCODE_TEST_DIR (cache folder, default .vscode-test), PO_UPDATE_SCREENSHOTS=1.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { launchBrowser, openWorkbench, saveWorkbenchLogs, CHROMIUM } from './vscode-test/browser.mjs';
import { startCodeServer } from './vscode-test/code-server.mjs';
import { serveUnavailable, startHttpService } from './vscode-test/http-service.mjs';
import { onShutdown, shutdown } from './vscode-test/processes.mjs';
import { extensionId, packageVsix } from './vscode-test/vsix.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = new Set(process.argv.slice(2));
const KNOWN_OPTIONS = ['--skip-ui', '--skip-web', '--ui-only', '--keep', '--update-screenshots'];
for (const option of argv) {
  if (!KNOWN_OPTIONS.includes(option)) {
    console.error(`test-vscode: unknown option ${option} (known: ${KNOWN_OPTIONS.join(' ')})`);
    process.exit(2);
  }
}
const SKIP_UI = argv.has('--skip-ui');
const SKIP_WEB = argv.has('--skip-web');
const UI_ONLY = argv.has('--ui-only');
const KEEP = argv.has('--keep');
const UPDATE_SCREENSHOTS = argv.has('--update-screenshots') || process.env.PO_UPDATE_SCREENSHOTS === '1';
const SUITES_TIMEOUT_MS = Number(process.env.PO_VSCODE_TEST_TIMEOUT_S || 300) * 1000;
const UI_TIMEOUT_MS = Number(process.env.PO_VSCODE_TEST_UI_TIMEOUT_S || 120) * 1000;
const CACHE_ROOT = resolve(process.env.PO_VSCODE_TEST_DIR || join(REPO, '.vscode-test'));
const CACHE_DIR = join(CACHE_ROOT, 'code-server');
const SCREENSHOTS_DIR = join(CACHE_ROOT, 'screenshots');
const EXTENSION_PATH = resolve(process.env.PO_VSCODE_TEST_EXTENSION || REPO);
const SUITES_PATH = resolve(process.env.PO_VSCODE_TEST_SUITES || join(REPO, 'dist', 'test', 'extension', 'index.js'));
const UI_TEST = join(REPO, 'test', 'ui', 'optimize-click-through.mjs');
const FIXTURES = join(REPO, 'scripts', 'vscode-test', 'workspace');

// Workbench chatter that reaches codeAutomationLog along with the tests' output (kept in test-output.log).
const WORKBENCH_NOISE = [
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket \(renderer-/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /open-vsx\.org/, // no extension gallery on a closed network
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const notes = []; // printed in the summary
const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const say = (message) => console.log(`[vscode-test ${secs(Date.now() - t0).padStart(6)}] ${message}`);

function count(kind, n, why) {
  totals[kind] += n;
  if (why) notes.push(`${kind.toUpperCase()}: ${why}`);
}

function printTail(file, lines = 60) {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8').trimEnd().split('\n');
  console.log(`----- last ${Math.min(lines, text.length)} lines of ${file}`);
  console.log(text.slice(-lines).join('\n'));
  console.log('-----');
}

function findFiles(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${secs(ms)}`)), ms))),
  ]);
}

/**
 * Resolves (as a failed outcome) when code-server's log says the extension host exited and no
 * codeAutomationExit followed within 15 s: a crashed extension host fails fast instead of at the timeout.
 */
function extensionHostExited(logFile) {
  let timer;
  let graceTimer;
  const promise = new Promise((resolve) => {
    timer = setInterval(() => {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      const exited = /Extension Host Process exited with code: (\S+), signal: (\S+)\./.exec(log);
      if (!exited || graceTimer) return;
      graceTimer = setTimeout(() => resolve({ code: null, logs: [], timeout: `the extension host exited (code ${exited[1]}, signal ${exited[2]}) without reporting` }), 15000);
    }, 500);
  });
  return { promise, cancel: () => (clearInterval(timer), clearTimeout(graceTimer)) };
}

function freshWorkspace(runDir, name) {
  const folder = join(runDir, name);
  cpSync(FIXTURES, folder, { recursive: true });
  return folder;
}

// ------------------------------------------------------------------------------------------ checks
function setup() {
  say(`setup: bash scripts/setup-vscode-test.sh (cache ${relative(REPO, CACHE_DIR) || CACHE_DIR})`);
  const result = spawnSync('bash', [join(REPO, 'scripts', 'setup-vscode-test.sh')], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PO_VSCODE_TEST_DIR: CACHE_ROOT },
  });
  if (result.status !== 0) throw new Error(`scripts/setup-vscode-test.sh failed (exit ${result.status ?? result.signal})`);
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
}

/** null when the extension under test is built; otherwise why it is not. */
function extensionMissing() {
  const manifestFile = join(EXTENSION_PATH, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (!manifest.main) return `${relative(REPO, manifestFile) || manifestFile} has no "main" (extension entry) yet`;
  const main = resolve(EXTENSION_PATH, manifest.main);
  if (!existsSync(main) && !existsSync(`${main}.js`)) return `extension entry ${relative(REPO, main)} not built (run npm run build)`;
  return null;
}

// ------------------------------------------------------------------------------------------ phases
async function runSuites(runDir, browser, service) {
  const workspace = freshWorkspace(runDir, 'workspace-suites');
  const resultsFile = join(runDir, 'suites-results.json');
  const env = { PO_TEST_RESULTS: resultsFile, PO_TEST_WORKSPACE: workspace };
  if (service) Object.assign(env, { PO_TEST_SERVER_URL: service.url, PO_TEST_API_KEY: service.apiKey });
  const server = await startCodeServer({ cacheDir: CACHE_DIR, runDir: join(runDir, 'suites'), folder: workspace, env, name: 'code-server-suites' });
  say(`suites: code-server ${server.base} ready in ${secs(server.readyMs)} (log ${server.logFile})`);
  const consoleLog = join(runDir, 'suites', 'browser-console.log');
  const outputLog = join(runDir, 'suites', 'test-output.log');
  const url = server.workbenchUrl({ extensionDevelopmentPath: EXTENSION_PATH, extensionTestsPath: SUITES_PATH });
  const started = Date.now();
  const { page, exit } = await openWorkbench(browser, url, {
    consoleLog,
    onLog: (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      try {
        appendFileSync(outputLog, `[${type}] ${text}\n`);
      } catch {} // a late line after the run folder is gone
      if (WORKBENCH_NOISE.some((pattern) => pattern.test(text))) return;
      console.log(text);
    },
  });
  say('suites: workbench opened; the extension host runs the mocha suites …');
  let outcome;
  const hostGone = extensionHostExited(server.logFile);
  try {
    outcome = await withTimeout(Promise.race([exit, hostGone.promise]), SUITES_TIMEOUT_MS, 'the extension host suites');
  } catch (error) {
    outcome = { code: null, logs: [], timeout: error.message };
  } finally {
    hostGone.cancel();
  }
  say(`suites: finished in ${secs(Date.now() - started)} (exit code ${outcome.code ?? 'none'})`);
  saveWorkbenchLogs(outcome.logs, join(runDir, 'suites', 'workbench-logs'));
  await page.close().catch(() => {});
  await server.stop();

  let results = null;
  if (existsSync(resultsFile)) {
    try {
      results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    } catch (error) {
      notes.push(`FAILED: results file ${resultsFile} is not JSON: ${error.message}`);
    }
  }
  const valid = results && ['passed', 'failed', 'skipped'].every((k) => Number.isInteger(results[k]));
  if (valid) {
    count('passed', results.passed);
    count('failed', results.failed);
    count('skipped', results.skipped);
    for (const failure of results.failures ?? []) notes.push(`FAILED: ${failure.title}\n    ${String(failure.error).split('\n').join('\n    ')}`);
    console.log(`suites: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
  }
  const problem =
    outcome.timeout ?? (outcome.crashed ? 'the workbench page crashed' : outcome.closed ? 'the workbench page closed' : null) ??
    (!valid ? `the suites never reported results (no valid ${resultsFile}; exit code ${outcome.code ?? 'none'})` : null) ??
    (outcome.code !== 0 && results.failed === 0 ? `the extension host reported exit code ${outcome.code} with no failed test` : null);
  if (problem) {
    count('failed', 1, `suites: ${problem}`);
    printTail(server.logFile);
    printTail(consoleLog, 40);
  }
}

/**
 * One UI click-through run on a fresh code-server. `web`: the extension is packaged (.vsix of the
 * current build), installed, and forced into the browser's web-worker extension host (its `browser`
 * entry) with `remote.extensionKind: ui`; otherwise it is loaded as the extension under development
 * in the Node extension host, and its screenshots are the ones the README uses.
 */
async function runUi(runDir, browser, { web = false } = {}) {
  const ui = await import(pathToFileURL(UI_TEST).href);
  const tag = web ? 'ui-web' : 'ui';
  const title = web ? `${ui.title} [web worker extension host, packaged .vsix]` : ui.title;
  const skip = ui.skipReason?.({ repo: REPO, extensionPath: EXTENSION_PATH }) ?? (web ? webSkipReason() : null);
  if (skip) {
    count('skipped', 1, `${title}: ${skip}`);
    return;
  }
  const dir = join(runDir, tag);
  mkdirSync(dir, { recursive: true });
  let vsix;
  const options = {};
  if (web) {
    try {
      vsix = packageVsix({ repo: REPO, runDir: dir });
    } catch (error) {
      count('failed', 1, `${title}: could not package the extension (npm run package must work): ${error.message}`);
      return;
    }
    options.vsix = vsix;
    options.settings = { 'remote.extensionKind': { [extensionId(REPO)]: ['ui'] } };
  }
  const workspace = freshWorkspace(dir, 'prompts'); // the folder name shows in the screenshots
  const server = await startCodeServer({ cacheDir: CACHE_DIR, runDir: dir, folder: workspace, env: { PO_TEST_WORKSPACE: workspace }, name: `code-server-${tag}`, ...options });
  say(`${tag}: code-server ${server.base} ready in ${secs(server.readyMs)}${vsix ? ` (installed ${relative(runDir, vsix)})` : ''}`);
  const consoleLog = join(dir, 'browser-console.log');
  const started = Date.now();
  const shots = join(dir, 'screenshots'); // this run's pictures only, never a stale one
  mkdirSync(shots, { recursive: true });
  const url = web ? server.workbenchUrl() : server.workbenchUrl({ extensionDevelopmentPath: EXTENSION_PATH });
  const { page } = await openWorkbench(browser, url, { consoleLog });
  const logs = () => findFiles(join(dir, 'user-data', 'logs'), /^(Prompt Optimizer|exthost|remoteexthost)\.log$/);
  try {
    const result = await withTimeout(
      ui.run({ page, workspace, screenshotsDir: shots, log: (m) => say(`${tag}: ${m}`), installed: Boolean(web) }),
      UI_TIMEOUT_MS,
      'the UI test',
    );
    if (web) {
      // Where it ran: the Node extension host on the server logs every activation it does.
      const id = extensionId(REPO);
      const nodeHost = logs().filter((f) => readFileSync(f, 'utf8').includes(`_doActivateExtension ${id},`));
      if (nodeHost.length) throw new Error(`${id} was activated in the Node extension host (${nodeHost[0]}), not in the web worker`);
    }
    if (result?.status === 'skipped') count('skipped', 1, `${title}: ${result.reason}`);
    else {
      count('passed', 1);
      say(`${tag}: PASSED ${title} (${secs(Date.now() - started)})`);
      if (!web) publishScreenshots(shots);
    }
  } catch (error) {
    count('failed', 1, `${title}: ${error?.stack ?? error}`);
    const shot = join(shots, 'failure.png');
    await page.screenshot({ path: shot }).then(() => notes.push(`      screenshot of the failure: ${shot}`), () => {});
    printTail(consoleLog, 30);
    for (const log of logs()) printTail(log, 30);
  } finally {
    await page.close().catch(() => {});
    await server.stop();
  }
}

/** Why the web-worker run cannot happen (no `browser` entry built, another extension folder), or null. */
function webSkipReason() {
  if (EXTENSION_PATH !== REPO) return 'only for this repository\'s extension';
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  if (!manifest.browser) return 'package.json has no "browser" (web extension) entry';
  if (!existsSync(resolve(REPO, manifest.browser))) return `web entry ${manifest.browser} not built (npm run build)`;
  return null;
}

/**
 * Copies the run's screenshot-*.png to .vscode-test/screenshots/ (the latest passing run) and to media/
 * when asked (--update-screenshots) or when missing there; media/ only for this repository's own
 * extension, never for a PO_VSCODE_TEST_EXTENSION stand-in.
 */
function publishScreenshots(shots) {
  const ours = EXTENSION_PATH === REPO;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  for (const name of readdirSync(shots).filter((n) => /^screenshot-.*\.png$/.test(n))) {
    copyFileSync(join(shots, name), join(SCREENSHOTS_DIR, name));
    const target = join(REPO, 'media', name);
    if (ours && (UPDATE_SCREENSHOTS || !existsSync(target))) {
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(shots, name), target);
      say(`ui: screenshot written to ${relative(REPO, target)}`);
    } else say(`ui: screenshot in ${relative(REPO, join(SCREENSHOTS_DIR, name))}${ours ? ' (--update-screenshots copies it to media/)' : ''}`);
  }
}

// ------------------------------------------------------------------------------------------ main
async function main() {
  setup();
  const missing = extensionMissing();
  const suitesMissing = existsSync(SUITES_PATH) ? null : `suites bundle ${relative(REPO, SUITES_PATH)} not built (npm run build)`;
  const runSuitesPhase = !UI_ONLY && !missing && !suitesMissing;
  const runUiPhase = !SKIP_UI && !missing;
  if (!UI_ONLY && !runSuitesPhase) count('skipped', 1, `extension suites: ${missing ?? suitesMissing}`);
  if (!SKIP_UI && missing) count('skipped', SKIP_WEB ? 1 : 2, `UI click-through (Node and web worker hosts): ${missing}`);
  if (!runSuitesPhase && !runUiPhase) return;

  const runDir = mkdtempSync(join(tmpdir(), 'po-vscode-test-'));
  say(`run folder ${runDir}`);
  onShutdown(async () => {
    if (KEEP || totals.failed > 0) say(`kept run folder ${runDir} (logs, workspaces)`);
    else rmSync(runDir, { recursive: true, force: true });
  });

  let service = null;
  if (runSuitesPhase) {
    const unavailable = serveUnavailable(REPO);
    if (unavailable) say(`HTTP service: not started (${unavailable}); PO_TEST_SERVER_URL is not set, the remote-engine suite should skip`);
    else {
      try {
        service = await startHttpService({ repo: REPO, runDir });
        onShutdown(() => service.stop());
        say(`HTTP service: ${service.url} (node dist/cli.js serve, key tk_test_…)`);
      } catch (error) {
        count('failed', 1, `HTTP service did not start: ${error.message}`);
        printTail(join(runDir, 'http-service.log'));
      }
    }
  }

  const browser = await launchBrowser(join(runDir, 'chromium-profile'));
  onShutdown(() => browser.close().catch(() => {}));
  say(`Chromium ${browser.browser()?.version() ?? ''} launched (${CHROMIUM})`);
  if (runSuitesPhase) await runSuites(runDir, browser, service);
  if (runUiPhase) await runUi(runDir, browser);
  if (runUiPhase && !SKIP_WEB) await runUi(runDir, browser, { web: true });
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  count('failed', 1, `harness: ${error?.message ?? error}`);
}
await shutdown();
if (notes.length) {
  console.log('\nvscode-test summary:');
  for (const note of notes) console.log(`  ${note}`);
}
say(`total ${secs(Date.now() - t0)}`);
if (totals.failed > 0) exitCode = 1;
console.log(`vscode: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
