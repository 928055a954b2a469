// Builds the README of the extension page (docs/marketplace/README.md) as it goes into the .vsix: the
// extension page renders it in a webview whose content policy allows only https: and data: images, so
// a relative image shows as broken. Each local image is inlined as a data: URL; other relative links
// are refused (the docs they point to are not in the .vsix).
// Usage: node scripts/extension-readme.mjs <out-file>
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = join(REPO, 'docs', 'marketplace', 'README.md');
const MIME = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };

export function buildExtensionReadme(source = SOURCE) {
  const text = readFileSync(source, 'utf8');
  return text.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (all, bang, label, target) => {
    if (/^(https:|#)/.test(target)) return all;
    if (!bang) throw new Error(`${source}: the link "${target}" would be broken on the extension page (use https:// or #anchor)`);
    const mime = MIME[extname(target).toLowerCase()];
    if (!mime) throw new Error(`${source}: image "${target}" is not PNG, JPEG or GIF`);
    const data = readFileSync(resolve(dirname(source), target)).toString('base64');
    return `![${label}](data:${mime};base64,${data})`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node scripts/extension-readme.mjs <out-file>');
  writeFileSync(out, buildExtensionReadme());
}
