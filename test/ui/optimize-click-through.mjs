// UI-level test in the real VS Code workbench (code-server + Chromium), driven by scripts/test-vscode.mjs:
// Explorer → prompt.md → select all → F1 "Prompt Optimizer: Optimize Prompt" → the diff editor opens with
// the review notification → screenshot → palette and read-only-key checks → Accept in the editor title,
// pressed as Ctrl+Enter in the proposal → the text is shorter → screenshot of the status-bar token
// counter with its tooltip → the budget in the Settings UI (→ the extension page, when installed).
// Screenshots: screenshot-diff.png, screenshot-statusbar.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const title = 'UI click-through: palette → Optimize Prompt → diff → Accept, status bar';

const CATEGORY = 'Prompt Optimizer';
const OPTIMIZE = 'Optimize Prompt';
const ACCEPT = 'Accept Proposal';
const FILE = 'prompt.md';

/** Why the test cannot run yet (the extension does not contribute the commands), or null. */
export function skipReason({ extensionPath }) {
  const manifest = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
  const commands = manifest.contributes?.commands ?? [];
  const has = (name) => commands.some((c) => c.title === name && (c.category ?? '') === CATEGORY);
  const missing = [OPTIMIZE, ACCEPT].filter((name) => !has(name));
  return missing.length ? `the extension does not contribute ${missing.map((m) => `"${CATEGORY}: ${m}"`).join(', ')} yet` : null;
}

const squash = (text) => text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Text of the active editor as rendered (visible lines), U+00A0 turned into spaces. */
async function editorText(page) {
  const lines = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
  return squash((await lines.innerText({ timeout: 5000 })) ?? '');
}

async function tokenItem(page) {
  const item = page.locator('.statusbar-item', { hasText: /tokens/ }).last();
  await item.waitFor({ state: 'visible', timeout: 20000 });
  return item;
}

/**
 * With a proposal open, typing the Optimize command must not offer Accept or Discard: Enter on a
 * "recently used" Accept would replace the text the user asked to optimize.
 */
async function checkPaletteOffersOnlyOptimize(page, wanted) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`>${wanted}`);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
  await rows.first().waitFor({ state: 'visible', timeout: 10000 });
  const labels = (await rows.allInnerTexts()).map(squash);
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'hidden', timeout: 10000 });
  const others = labels.filter((label) => !label.startsWith(wanted));
  check(others.length === 0, `typing "${wanted}" also offers ${JSON.stringify(others)}`);
}

/** The Optimize key pressed in the read-only proposal says why nothing happens. */
async function checkOptimizeKeyOnProposalExplains(page) {
  await page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified .view-lines').first().click();
  await page.keyboard.press('Control+Alt+Shift+O');
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'This is an optimization proposal' }).first();
  const shown = await toast.waitFor({ state: 'visible', timeout: 15000 }).then(() => true, () => false);
  check(shown, 'Ctrl+Alt+Shift+O in the proposal showed no message');
}

/** The budget setting is drawn with an input box in the Settings UI (a setting of two JSON types is not). */
async function checkBudgetEditableInSettingsUi(page, log) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill('>Preferences: Open User Settings');
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^Preferences: Open User Settings$/ }) }).first();
  await row.waitFor({ state: 'visible', timeout: 10000 });
  await row.click();
  // The search box (a small Monaco editor) has the focus when the Settings editor opens.
  await page.locator('.settings-editor .settings-header .suggest-input-container').first().waitFor({ state: 'visible', timeout: 20000 });
  await page.keyboard.type('promptOptimizer.budget');
  const item = page.locator('.settings-editor .setting-item-contents', { hasText: 'Target size of an optimized prompt' }).first();
  await item.waitFor({ state: 'visible', timeout: 20000 });
  const box = item.locator('.setting-item-control input').first();
  const hasBox = await box.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false);
  check(hasBox, 'the Settings UI draws no input box for promptOptimizer.budget');
  const value = await box.inputValue();
  check(value === '1000', `the budget box shows "${value}", not the default 1000`);
  log('Settings UI: promptOptimizer.budget has an input box showing 1000');
}

/**
 * The installed extension's page (Extensions view) shows the user README with its pictures: the page's
 * webview loads only https: and data: images, so a relative path shows as a broken image.
 */
async function checkExtensionPageImages(page, log) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+X');
  const entry = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Prompt Optimizer' }).first();
  await entry.waitFor({ state: 'visible', timeout: 30000 });
  await entry.click();
  let images = null;
  for (const until = Date.now() + 30000; Date.now() < until; await page.waitForTimeout(500)) {
    for (const frame of page.frames()) {
      images = await frame
        .evaluate(() => (document.body?.innerText.includes('How to use it') ? [...document.images].map((i) => ({ src: i.src.slice(0, 40), shown: i.complete && i.naturalWidth > 0 })) : null))
        .catch(() => null);
      if (images) break;
    }
    if (images && images.length > 0 && images.every((i) => i.shown)) break;
  }
  check(images, 'the extension page does not show the user README ("How to use it")');
  check(images.length >= 2 && images.every((i) => i.shown), `the extension page has broken images: ${JSON.stringify(images)}`);
  log(`extension page: user README with ${images.length} images, all shown`);
}

export async function run({ page, workspace, screenshotsDir, log, installed = false }) {
  const original = squash(readFileSync(join(workspace, FILE), 'utf8'));

  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  log('workbench loaded');

  // Open the fixture from the Explorer.
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE }).first();
  if (!(await row.isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+E');
  await row.waitFor({ state: 'visible', timeout: 30000 });
  await row.click();
  await page.locator('.tab.active', { hasText: FILE }).waitFor({ state: 'visible', timeout: 20000 });
  const editor = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
  await editor.waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForFunction(
    () => /Summarize\sthe\sarticle/.test(document.querySelector('.editor-group-container.active .editor-instance .view-lines')?.textContent ?? ''),
    null,
    { timeout: 20000 },
  );
  const before = await editorText(page);
  log(`opened ${FILE} from the Explorer`);

  // Select everything in the editor.
  await editor.click();
  await page.keyboard.press('Control+A');
  const counter = await tokenItem(page);
  const counterBefore = squash(await counter.innerText());
  log(`status bar with the selection: "${counterBefore}"`);

  // F1 → the command → Enter.
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  const wanted = `${CATEGORY}: ${OPTIMIZE}`;
  await input.fill(`>${wanted}`);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10000 });
  const exact = rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${wanted}$`) }) }).first();
  await exact.waitFor({ state: 'visible', timeout: 10000 });
  const focused = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused').first();
  if (squash((await focused.locator('.label-name').innerText().catch(() => '')) ?? '') === wanted) await page.keyboard.press('Enter');
  else await exact.click();
  log(`ran "${wanted}" from the command palette`);

  // The diff editor with our title.
  const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: 30000 });
  const tab = page.locator('.tab.active').first();
  await page.waitForFunction(() => /tokens/.test(document.querySelector('.tab.active')?.textContent ?? ''), null, { timeout: 15000 });
  const tabTitle = squash(await tab.innerText());
  log(`diff editor open: "${tabTitle}"`);
  check(/→/.test(tabTitle), `diff tab title "${tabTitle}" does not show "before → after tokens"`);
  await page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified .view-lines').first().waitFor({ state: 'visible' });
  // Beside the diff: the review notification with what was removed, the engine, and labelled buttons.
  const review = page.locator('.notifications-toasts .notification-toast', { hasText: 'local engine' }).first();
  await review.waitFor({ state: 'visible', timeout: 15000 });
  const reviewText = squash(await review.innerText());
  log(`review notification: "${reviewText}"`);
  for (const label of ['Accept', 'Discard']) {
    check(await review.locator('.monaco-button', { hasText: new RegExp(`^${label}$`) }).first().isVisible(), `the review notification has no "${label}" button`);
  }
  check(/(dropped|cut|pruned) \d+|rewording only/.test(reviewText), `the review notification does not say what was dropped: "${reviewText}"`);
  await page.mouse.move(5, 5); // no hover tooltips in the picture
  await page.waitForTimeout(800); // let the diff decorations settle
  await page.screenshot({ path: join(screenshotsDir, 'screenshot-diff.png') });
  log('saved screenshot-diff.png');
  await checkPaletteOffersOnlyOptimize(page, wanted);
  await checkOptimizeKeyOnProposalExplains(page);

  // Accept: the button is in the editor title.
  const titleActions = page.locator('.editor-group-container.active .editor-actions .action-label');
  const acceptButton = page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${ACCEPT}"]`).first();
  await acceptButton.waitFor({ state: 'visible', timeout: 10000 }).catch(async (error) => {
    const labels = await titleActions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    throw new Error(`no "${ACCEPT}" button in the editor title (buttons: ${JSON.stringify(labels)}): ${error.message}`);
  });
  // Accept with its key, in the proposal (read-only) where the user reads it.
  await page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified .view-lines').first().click();
  await page.keyboard.press('Control+Enter');
  log(`pressed Ctrl+Enter in the proposal ("${ACCEPT}" is also in the editor title)`);

  // Back in prompt.md, with the optimized (shorter) text.
  await diff.waitFor({ state: 'hidden', timeout: 15000 });
  await page.locator('.tab.active', { hasText: FILE }).waitFor({ state: 'visible', timeout: 15000 });
  await page.locator('.editor-group-container.active .editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+Home'); // collapse the selection and scroll to the top
  let after = '';
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    after = await editorText(page).catch(() => '');
    if (after && after !== before && /Summarize/.test(after)) break;
    await page.waitForTimeout(200);
  }
  log(`visible text after accept: ${before.length} → ${after.length} characters`);
  check(after !== before, 'the editor text did not change after Accept');
  check(after.length < before.length, `the editor text is not shorter after Accept (${before.length} → ${after.length} characters)`);
  // Save and compare the whole file: shorter, and the numbers survived.
  await page.keyboard.press('Control+S');
  // The save may truncate the file before it writes it: wait for new content that two reads agree on.
  let saved = '';
  let previous = null;
  while (Date.now() < deadline + 10000) {
    saved = squash(readFileSync(join(workspace, FILE), 'utf8'));
    if (saved && saved !== original && saved === previous) break;
    previous = saved;
    await page.waitForTimeout(200);
  }
  log(`${FILE} on disk after accept + save: ${original.length} → ${saved.length} characters`);
  check(saved.length < original.length, `the saved text is not shorter (${original.length} → ${saved.length} characters)`);
  check(saved.includes('42%') && saved.includes('$1.7 trillion'), 'the accepted text lost the numbers 42% / $1.7 trillion');

  // Status bar token counter (document count: no selection now) with its tooltip.
  // The document's count (the last number) goes down with the shorter text; the counter is debounced.
  const total = (text) => Number(/([\d,]+) tokens/.exec(text)?.[1].replace(/,/g, '') ?? NaN);
  const item = await tokenItem(page);
  let itemText = squash(await item.innerText());
  for (const until = Date.now() + 10000; !(total(itemText) < total(counterBefore)) && Date.now() < until; ) {
    await page.waitForTimeout(250);
    itemText = squash(await item.innerText());
  }
  check(/\d[\d,]* tokens/.test(itemText), `status bar item "${itemText}" shows no token count`);
  log(`status bar after accept: "${itemText}"`);
  check(total(itemText) < total(counterBefore), `the token counter did not go down after Accept ("${counterBefore}" → "${itemText}")`);
  await item.hover();
  const hover = page.locator('.workbench-hover:visible').first();
  const hoverShown = await hover.waitFor({ timeout: 5000 }).then(() => true, () => false);
  if (!hoverShown) log('no tooltip appeared on hover');
  await page.waitForTimeout(500);
  const box = await item.boundingBox();
  const tip = hoverShown ? await hover.boundingBox() : null;
  const viewport = page.viewportSize();
  check(box && viewport, 'status bar item has no position');
  // The counter with its tooltip, some neighbouring status-bar items, a margin.
  const left = Math.max(0, Math.min(box.x, tip?.x ?? box.x) - 220);
  const right = Math.min(viewport.width, Math.max(box.x + box.width, tip ? tip.x + tip.width : 0) + 80);
  const top = Math.max(0, (tip?.y ?? box.y - 60) - 16);
  const clip = { x: left, y: top, width: right - left, height: viewport.height - top };
  await page.screenshot({ path: join(screenshotsDir, 'screenshot-statusbar.png'), clip });
  log('saved screenshot-statusbar.png');
  await checkBudgetEditableInSettingsUi(page, log);
  if (installed) await checkExtensionPageImages(page, log);
  return { status: 'passed' };
}
