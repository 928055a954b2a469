// Bundles every entry point. `--production` minifies and drops source maps (for the .vsix).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

await Promise.all([
  // Library entry `<package>/core`: ESM, dependencies bundled, runs anywhere.
  esbuild.build({ ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core/index.js', format: 'esm', platform: 'neutral', mainFields: ['module', 'main'] }),
  // Command-line tool, the package's `bin`.
  // piscina stays external: it starts its own worker.js from its package folder (a dependency at run time).
  esbuild.build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', format: 'cjs', platform: 'node', target: 'node20', banner: { js: '#!/usr/bin/env node' }, external: ['piscina'] }),
  // The HTTP service's worker thread (`serve` loads dist/server-worker.js next to dist/cli.js).
  esbuild.build({ ...common, entryPoints: ['src/server/worker.ts'], outfile: 'dist/server-worker.js', format: 'cjs', platform: 'node', target: 'node20' }),
]);
