// Keystroke-to-render latency in a real VS Code (code-server + Chromium) typing into a 5 MB Markdown
// file, with the status-bar token counter off and on. A measurement to quote, not a test: on a shared
// machine the numbers move, so the rounds alternate off/on and the report compares medians of rounds.
// Needs `npm run build` and scripts/setup-vscode-test.sh. Usage: node scripts/bench-typing.mjs [--keys 80] [--rounds 2]
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openWorkbench } from './vscode-test/browser.mjs';
import { startCodeServer } from './vscode-test/code-server.mjs';
import { killGroup } from './vscode-test/processes.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE_DIR = join(process.env.PO_VSCODE_TEST_DIR ?? join(REPO, '.vscode-test'), 'code-server');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const KEYS = arg('keys', 80);
const ROUNDS = arg('rounds', 2);
const SIZE = 5_000_000;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/** Types KEYS characters 120 ms apart and returns each keystroke's keydown → next painted frame in ms. */
async function measure(page) {
  await page.evaluate(() => {
    const lines = document.querySelector('.editor-group-container.active .editor-instance .view-lines');
    const state = (window.__typing = { samples: [], down: 0 });
    window.addEventListener('keydown', () => (state.down = performance.now()), true);
    new MutationObserver(() => {
      if (!state.down) return;
      const down = state.down;
      state.down = 0;
      requestAnimationFrame(() => state.samples.push(performance.now() - down));
    }).observe(lines, { subtree: true, childList: true, characterData: true });
  });
  await page.keyboard.type('x'.repeat(KEYS), { delay: 120 });
  await page.waitForTimeout(1000);
  return page.evaluate(() => window.__typing.samples);
}

async function round(browserDir, counter) {
  const runDir = mkdtempSync(join(tmpdir(), `po-bench-typing-${counter ? 'on' : 'off'}-`));
  const folder = join(runDir, 'workspace');
  mkdirSync(folder);
  const prompt = readFileSync(join(REPO, 'scripts', 'vscode-test', 'workspace', 'prompt.md'), 'utf8');
  writeFileSync(join(folder, 'big.md'), `${prompt}\n`.repeat(Math.ceil(SIZE / (prompt.length + 1))));
  const server = await startCodeServer({ cacheDir: CACHE_DIR, runDir, folder, env: {}, name: 'bench', settings: { 'promptOptimizer.statusBar.enabled': counter } });
  const browser = await launchBrowser(join(browserDir, `profile-${Date.now()}`));
  try {
    const { page } = await openWorkbench(browser, server.workbenchUrl({ extensionDevelopmentPath: REPO }), { consoleLog: join(runDir, 'console.log') });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('big.md');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'big.md' }).first().click();
    const lines = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
    await lines.waitFor({ state: 'visible', timeout: 60000 });
    if (counter) await page.locator('.statusbar-item', { hasText: /tokens/ }).last().waitFor({ state: 'visible', timeout: 60000 });
    await page.waitForTimeout(3000); // let opening and the first count settle
    await lines.click();
    await page.keyboard.press('End');
    return await measure(page);
  } finally {
    await browser.close().catch(() => {});
    await killGroup(server.pid);
    rmSync(runDir, { recursive: true, force: true });
  }
}

const browserDir = mkdtempSync(join(tmpdir(), 'po-bench-typing-browser-'));
const results = { off: [], on: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const counter of [false, true]) {
      const samples = await round(browserDir, counter);
      results[counter ? 'on' : 'off'].push(samples);
      console.log(`round ${r + 1}, counter ${counter ? 'on ' : 'off'}: ${samples.length} keys, p50 ${quantile(samples, 0.5).toFixed(0)} ms, p90 ${quantile(samples, 0.9).toFixed(0)} ms`);
    }
  }
} finally {
  rmSync(browserDir, { recursive: true, force: true });
}
const summary = (rounds) => ({ p50: quantile(rounds.flat(), 0.5), p90: quantile(rounds.flat(), 0.9) });
const off = summary(results.off);
const on = summary(results.on);
console.log(`5 MB Markdown, ${KEYS} keys × ${ROUNDS} rounds: counter off p50 ${off.p50.toFixed(0)} ms / p90 ${off.p90.toFixed(0)} ms; counter on p50 ${on.p50.toFixed(0)} ms / p90 ${on.p90.toFixed(0)} ms; on/off p90 ${((on.p90 / off.p90) * 100).toFixed(0)}%`);
