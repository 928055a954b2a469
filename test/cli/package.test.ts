/**
 * The package as users get it: `npm pack`, installed into a temporary project. The library entry
 * `prompt-optimizer/core` loads from an ES module and from CommonJS without a warning, also with Node's
 * module-format guessing turned off (which is what made a typeless package warn), with working type
 * declarations for both; the `bin` runs.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installPackedTarball, type Consumer } from './consumer';
import { ROOT } from './helpers';

const PROGRAM = `
const text = 'I would really appreciate it if you could please summarize the 3 attached reports in 100 words.';
const result = optimize({ text, budget: '50%' });
console.log(JSON.stringify({ tokens: countTokens(text), optimized: result.optimizedTokens, isError: typeof isOptimizeError }));
`;
const ESM = `import { optimize, countTokens, isOptimizeError } from 'prompt-optimizer/core';\n${PROGRAM}`;
const CJS = `const { optimize, countTokens, isOptimizeError } = require('prompt-optimizer/core');\n${PROGRAM}`;
// Types must be real, not `any`: the @ts-expect-error lines fail to compile if nothing is checked.
const TYPED = `
const result = optimize({ text: 'Please be brief.', budget: '50%', mode: 'strict' });
const tokens: number = result.optimizedTokens + countTokens('x', 'gpt-4');
// @ts-expect-error text must be a string
optimize({ text: 1 });
// @ts-expect-error mode is 'relaxed' | 'strict'
optimize({ text: 'x', mode: 'fast' });
export { tokens };
`;

// Flags that stop Node from guessing a file's module format, where this Node has them.
const NO_GUESSING = ['--no-experimental-detect-module', '--no-experimental-require-module'].filter((flag) => process.allowedNodeEnvironmentFlags.has(flag));

function node(consumer: Consumer, args: string[]) {
  return spawnSync(process.execPath, args, { cwd: consumer.dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
}

describe('package: the packed tarball installed into a project', function () {
  this.timeout(300_000);
  let consumer: Consumer;

  before(function () {
    if (!existsSync(join(ROOT, 'dist/core/index.cjs')) || !existsSync(join(ROOT, 'dist/cli.js'))) {
      const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, build.stderr);
    }
    consumer = installPackedTarball(ROOT);
    // Only when npm's cache lacks a dependency `npm ci` fetched (another cache folder): nothing to test offline.
    if (consumer.installError?.includes('ENOTCACHED')) {
      console.log(`      skipped: npm's cache lacks a dependency that npm ci fetched (another cache folder?):\n${consumer.installError}`);
      this.skip();
    }
    assert.equal(consumer.installError, null);
    writeFileSync(join(consumer.dir, 'esm.mjs'), ESM);
    writeFileSync(join(consumer.dir, 'cjs.cjs'), CJS);
    writeFileSync(join(consumer.dir, 'typed.mts'), `import { optimize, countTokens } from 'prompt-optimizer/core';\n${TYPED}`);
    writeFileSync(join(consumer.dir, 'typed.cts'), `import core = require('prompt-optimizer/core');\nconst { optimize, countTokens } = core;\n${TYPED}`);
    writeFileSync(
      join(consumer.dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] }, files: ['typed.mts', 'typed.cts'] }),
    );
  });

  after(() => {
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });

  for (const [name, file] of [['an ES module (import)', 'esm.mjs'], ['CommonJS (require)', 'cjs.cjs']] as const) {
    it(`loads prompt-optimizer/core from ${name} with no warning, also without format guessing`, () => {
      for (const flags of [[], NO_GUESSING]) {
        const run = node(consumer, [...flags, file]);
        assert.equal(run.status, 0, run.stderr);
        assert.equal(run.stderr, '', `no warning with ${flags.join(' ') || 'default flags'}`);
        const out = JSON.parse(run.stdout) as { tokens: number; optimized: number; isError: string };
        assert.ok(out.tokens > 15 && out.optimized < out.tokens, run.stdout);
        assert.equal(out.isError, 'function');
      }
    });
  }

  it('type-checks import and require of prompt-optimizer/core (nodenext)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: consumer.dir, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  it('installs the prompt-optimizer command, which runs', () => {
    const bin = join(consumer.dir, 'node_modules/.bin/prompt-optimizer');
    const version = spawnSync(bin, ['--version'], { cwd: consumer.dir, encoding: 'utf8' });
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const count = spawnSync(bin, ['count', '--model', 'gpt-4'], { cwd: consumer.dir, input: 'Hello world', encoding: 'utf8' });
    assert.equal(count.stdout, '2\n');
  });
});
