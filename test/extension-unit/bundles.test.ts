import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';

// Checks the built extension bundles (npm test builds before mocha); skipped when they are not built.
const DESKTOP = new URL('../../dist/extension.js', import.meta.url);
const WEB = new URL('../../dist/web/extension.js', import.meta.url);
const requires = (file: URL) => [...new Set([...readFileSync(file, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].sort();

describe('extension bundles', function () {
  before(function () {
    if (!existsSync(DESKTOP) || !existsSync(WEB)) this.skip();
  });

  it('the web bundle requires nothing but vscode (it runs in a browser worker)', () => {
    assert.deepEqual(requires(WEB), ['vscode']);
  });

  it('the desktop bundle is small and leaves the core to the web bundle', () => {
    assert.deepEqual(requires(DESKTOP), ['node:path', 'vscode']);
    assert.ok(statSync(DESKTOP).size < 150_000, `dist/extension.js is ${statSync(DESKTOP).size} bytes`);
    assert.ok(!readFileSync(DESKTOP, 'utf8').includes('o200k_base"'), 'no tokenizer tables in the desktop bundle');
  });
});
