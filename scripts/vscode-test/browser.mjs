// Debian's Chromium driven by playwright-core (no browser download), and the workbench page with
// VS Code's test hooks `codeAutomationLog` / `codeAutomationExit` (the mechanism of VS Code's own
// browser integration tests).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.PO_CHROMIUM_PATH || '/usr/bin/chromium';

// The machine's network is closed: without these Chromium tries (and fails) many connections.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const VIEWPORT = { width: 1280, height: 800 };

/** A headless Chromium with a new empty user-data dir `profileDir`. Returns a persistent context. */
export async function launchBrowser(profileDir) {
  mkdirSync(profileDir, { recursive: true });
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    timeout: 60000,
  });
}

/**
 * Opens a page on `url` with the automation hooks installed first. Every page console message goes
 * to `consoleLog`. Returns { page, exit: Promise<{code, logs}> } where `exit` resolves when the
 * workbench calls codeAutomationExit (the extension host finished running the tests).
 */
export async function openWorkbench(context, url, { consoleLog, onLog }) {
  const page = await context.newPage();
  mkdirSync(dirname(consoleLog), { recursive: true });
  writeFileSync(consoleLog, '');
  // Late events can arrive after the run folder is gone; a lost log line must not crash the run.
  const log = (line) => {
    try {
      appendFileSync(consoleLog, line);
    } catch {}
  };
  page.on('console', (message) => log(`[${message.type()}] ${message.text()}\n`));
  page.on('pageerror', (error) => log(`[pageerror] ${error?.stack ?? error}\n`));
  let resolveExit;
  const exit = new Promise((resolve) => (resolveExit = resolve));
  await page.exposeFunction('codeAutomationLog', (type, args) => onLog?.(type, args));
  await page.exposeFunction('codeAutomationExit', (code, logs) => resolveExit({ code, logs }));
  page.on('crash', () => resolveExit({ code: null, logs: [], crashed: true }));
  page.on('close', () => resolveExit({ code: null, logs: [], closed: true }));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  return { page, exit };
}

/** Saves the workbench log files handed to codeAutomationExit under `dir`. */
export function saveWorkbenchLogs(logs, dir) {
  for (const log of logs ?? []) {
    if (!log?.relativePath) continue;
    const file = join(dir, log.relativePath.replace(/^(\.\.[/\\])+/, ''));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, log.contents ?? '');
  }
}
