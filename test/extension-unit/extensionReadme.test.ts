import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildExtensionReadme } from '../../scripts/extension-readme.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('the extension page README (docs/marketplace/README.md, as packaged)', () => {
  const readme: string = buildExtensionReadme();

  it('is for users: how to use it, settings, remote engine, privacy; no developer instructions', () => {
    for (const heading of ['## How to use it', '## Settings', '## Remote engine', '## Privacy']) assert.ok(readme.includes(heading), heading);
    assert.doesNotMatch(readme, /npm (test|ci|run)|code-server|mocha/);
  });

  it('carries its pictures inline (the page loads only https: and data: images) and links nowhere relative', () => {
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    assert.ok(images.length >= 2, `${images.length} images`);
    for (const src of images) assert.match(src.slice(0, 30), /^data:image\/png;base64,/);
    const links = [...readme.matchAll(/(?<!!)\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    for (const href of links) assert.match(href, /^(https:|#)/, href);
  });

  it('names only settings that exist', () => {
    const named = new Set([...readme.matchAll(/`(promptOptimizer\.[\w.]+)`/g)].map((m) => m[1]));
    for (const key of named) assert.ok(key && key in pkg.contributes.configuration.properties, String(key));
  });
});
