/**
 * The CLI as a real process: the bundle (built once, like dist/cli.js) run with node. Asserts shapes,
 * fields, invariants, exit codes and messages — never the exact optimized text, which the core owns.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildCli, ROOT, runCli, startCli, type Run } from './helpers';

const EXAMPLE = 'examples/wordy-prompt.md';
const RESULT_FIELDS = [
  'text',
  'original_tokens',
  'optimized_tokens',
  'reduction_percent',
  'budget_tokens',
  'soft_limit_enforced',
  'latency_ms',
  'mode',
  'model',
  'encoding',
] as const;

type Json = Record<string, unknown>;

function assertResult(value: unknown): asserts value is Json {
  assert.equal(typeof value, 'object');
  const r = value as Json;
  for (const field of RESULT_FIELDS) assert.ok(field in r, `missing ${field} in ${JSON.stringify(r).slice(0, 200)}`);
  assert.equal(typeof r.text, 'string');
  for (const field of ['original_tokens', 'optimized_tokens', 'budget_tokens'] as const) {
    assert.ok(Number.isInteger(r[field]) && (r[field] as number) >= 0, `${field} = ${String(r[field])}`);
  }
  assert.equal(typeof r.reduction_percent, 'number');
  assert.equal(typeof r.latency_ms, 'number');
  assert.ok((r.latency_ms as number) >= 0);
  assert.equal(typeof r.soft_limit_enforced, 'boolean');
  assert.ok(r.mode === 'relaxed' || r.mode === 'strict');
  const original = r.original_tokens as number;
  const optimized = r.optimized_tokens as number;
  if (original > 0) assert.ok(Math.abs((r.reduction_percent as number) - ((original - optimized) / original) * 100) < 0.01, 'reduction_percent matches the counts');
  // Never over budget without saying so (strict never over budget at all: see pipelineLanded below).
  if (optimized > (r.budget_tokens as number)) assert.equal(r.soft_limit_enforced, true, 'over budget without soft_limit_enforced');
}

function assertUsage(run: Run, pattern: RegExp): void {
  assert.equal(run.code, 2, `exit code; stderr: ${run.stderr}`);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at .*:\d+/, 'no stack trace');
}

describe('cli: prompt-optimizer as a process', function () {
  this.timeout(60_000);
  let cli = '';
  let tmp = '';

  before(async () => {
    cli = await buildCli();
    tmp = mkdtempSync(join(tmpdir(), 'po-cli-data-'));
  });

  describe('top level', () => {
    it('--help lists the commands, exit 0', () => {
      const run = runCli(cli, ['--help']);
      assert.equal(run.code, 0);
      for (const name of ['optimize', 'count', 'batch']) assert.match(run.stdout, new RegExp(`^  ${name}\\s+\\S`, 'm'));
    });

    it('--version prints the package version', () => {
      const run = runCli(cli, ['--version']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
    });

    it('no command prints usage on stderr, exit 2', () => {
      assertUsage(runCli(cli, []), /^Usage: prompt-optimizer <command>/);
    });

    it('an unknown command is a usage error naming it', () => {
      assertUsage(runCli(cli, ['optimse']), /unknown command 'optimse'\. Did you mean 'optimize'\?/);
    });

    for (const name of ['optimize', 'count', 'batch']) {
      it(`${name} --help prints its usage, exit 0`, () => {
        const run = runCli(cli, [name, name === 'count' ? '-h' : '--help']);
        assert.equal(run.code, 0);
        assert.match(run.stdout, new RegExp(`^Usage: prompt-optimizer ${name} \\[FILE\\|-\\]`));
      });
    }
  });

  describe('optimize', () => {
    it('optimizes a file: text on stdout, one summary line on stderr', () => {
      const run = runCli(cli, ['optimize', EXAMPLE, '--budget', '50%']);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.trim().length > 0);
      assert.ok(run.stdout.endsWith('\n'));
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, /^[\d,]+ → [\d,]+ tokens \((−[\d.]+%|0%|\+[\d.]+%)\), budget [\d,]+, gpt-4o, relaxed, [\d.]+ ms/);
    });

    it('reads stdin when FILE is absent or -', () => {
      const input = 'Please summarize the following text in order to help me.\n';
      for (const args of [['optimize'], ['optimize', '-']]) {
        const run = runCli(cli, [...args, '--json', '--quiet'], { input });
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stderr, '');
        const result = JSON.parse(run.stdout) as Json;
        assertResult(result);
        assert.equal(result.original_tokens, 11);
      }
    });

    it('--json prints every snake_case field with the right types', () => {
      const run = runCli(cli, ['optimize', EXAMPLE, '--json', '--budget', '200', '--mode', 'strict', '--model', 'gpt-4', '--task', 'retry logic']);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 1, 'one JSON line');
      const result = JSON.parse(lines[0]!) as Json;
      assertResult(result);
      assert.equal(result.budget_tokens, 200);
      assert.equal(result.mode, 'strict');
      assert.equal(result.model, 'gpt-4');
      assert.equal(result.encoding, 'cl100k_base');
      assert.equal(result.original_tokens, Number(runCli(cli, ['count', EXAMPLE, '--model', 'gpt-4']).stdout));
      for (const key of Object.keys(result)) assert.match(key, /^[a-z]+(_[a-z]+)*$/, 'snake_case');
    });

    it('resolves a percentage budget against the original count (rounded down)', () => {
      const result = JSON.parse(runCli(cli, ['optimize', EXAMPLE, '--json', '-b', '50%']).stdout) as Json;
      assertResult(result);
      assert.equal(result.budget_tokens, Math.floor((result.original_tokens as number) / 2));
      assert.equal(result.mode, 'relaxed');
      assert.equal(result.model, 'gpt-4o');
    });

    it('handles an empty input', () => {
      const run = runCli(cli, ['optimize', '--json'], { input: '' });
      assert.equal(run.code, 0, run.stderr);
      const result = JSON.parse(run.stdout) as Json;
      assertResult(result);
      assert.equal(result.original_tokens, 0);
    });

    it('refuses an invalid budget with exit 2 naming --budget, printing nothing on stdout', () => {
      const run = runCli(cli, ['optimize', EXAMPLE, '--budget=150%']);
      assertUsage(run, /invalid --budget \(budget_invalid\): Budget must be a whole number of tokens/);
      assert.equal(run.stdout, '');
    });

    it('with --json, a refused request is also a JSON error object on stdout', () => {
      const run = runCli(cli, ['optimize', EXAMPLE, '--json', '--budget', 'lots']);
      assertUsage(run, /invalid --budget/);
      const body = JSON.parse(run.stdout) as { error: Json };
      assert.equal(body.error.code, 'budget_invalid');
      assert.equal(body.error.param, 'budget');
      assert.equal(typeof body.error.message, 'string');
    });

    it('refuses an unknown model naming --model', () => {
      assertUsage(runCli(cli, ['optimize', EXAMPLE, '--model', 'llama-3']), /invalid --model \(model_unsupported\): Unsupported model "llama-3"/);
    });

    it('refuses an unknown mode', () => {
      assertUsage(runCli(cli, ['optimize', EXAMPLE, '--mode', 'loose']), /invalid --mode 'loose': expected one of relaxed, strict/);
    });

    it('refuses unknown options, missing values and extra files', () => {
      assertUsage(runCli(cli, ['optimize', EXAMPLE, '--bugdet', '5']), /optimize: unknown option '--bugdet'\nRun 'prompt-optimizer optimize --help' for usage\.\n$/);
      assertUsage(runCli(cli, ['optimize', EXAMPLE, '--budget']), /option '-b, --budget' needs a value\n/);
      assertUsage(runCli(cli, ['optimize', EXAMPLE, EXAMPLE]), /expected at most one FILE, got 2/);
    });

    it('an unreadable file exits 1 with the reason and no stack trace', () => {
      const missing = runCli(cli, ['optimize', 'no/such/file.md']);
      assert.equal(missing.code, 1);
      assert.equal(missing.stderr, "prompt-optimizer optimize: cannot read 'no/such/file.md': no such file\n");
      const directory = runCli(cli, ['optimize', 'examples']);
      assert.equal(directory.code, 1);
      assert.match(directory.stderr, /cannot read 'examples': it is a directory/);
      if (process.getuid?.() !== 0) {
        const locked = join(tmp, 'locked.md');
        writeFileSync(locked, 'secret');
        chmodSync(locked, 0o000);
        const denied = runCli(cli, ['optimize', locked]);
        assert.equal(denied.code, 1);
        assert.match(denied.stderr, /permission denied/);
      }
    });

    it('strips a UTF-8 byte-order mark and keeps CRLF input working', () => {
      const plain = JSON.parse(runCli(cli, ['optimize', '--json'], { input: 'Hello there.\r\nSecond line.' }).stdout) as Json;
      const bom = JSON.parse(runCli(cli, ['optimize', '--json'], { input: '\uFEFFHello there.\r\nSecond line.' }).stdout) as Json;
      assertResult(plain);
      assertResult(bom);
      assert.equal(bom.original_tokens, plain.original_tokens);
    });
  });

  describe('count', () => {
    it('prints the token count of a file and of stdin', () => {
      const file = runCli(cli, ['count', EXAMPLE]);
      assert.equal(file.code, 0, file.stderr);
      assert.match(file.stdout, /^\d+\n$/);
      const tokens = Number(file.stdout);
      assert.ok(tokens > 300 && tokens < 700, `example prompt has ${tokens} tokens`);
      assert.equal(runCli(cli, ['count', '-'], { input: 'hello world' }).stdout, '2\n');
      assert.equal(runCli(cli, ['count'], { input: '' }).stdout, '0\n');
    });

    it('counts special-token strings as ordinary text', () => {
      const run = runCli(cli, ['count'], { input: 'a <|endoftext|> b' });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Number(run.stdout) > 3);
    });

    it('--model picks the encoding; --json gives the details', () => {
      const run = runCli(cli, ['count', EXAMPLE, '--model', 'gpt-3.5-turbo', '--json']);
      assert.equal(run.code, 0, run.stderr);
      const body = JSON.parse(run.stdout) as Json;
      assert.equal(body.model, 'gpt-3.5-turbo');
      assert.equal(body.encoding, 'cl100k_base');
      assert.ok(Number.isInteger(body.tokens));
      assert.ok(Number.isInteger(body.characters));
    });

    it('refuses an unknown model, an unknown option and a missing file', () => {
      assertUsage(runCli(cli, ['count', EXAMPLE, '--model', 'claude']), /invalid --model \(model_unsupported\)/);
      assertUsage(runCli(cli, ['count', EXAMPLE, '--budget', '5']), /count: unknown option '--budget'\n/);
      const missing = runCli(cli, ['count', 'missing.txt']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot read 'missing.txt': no such file/);
    });
  });

  describe('batch', () => {
    it('writes one result per request line, in order, skipping blank lines and accepting CRLF', () => {
      const requests = [
        { text: 'First prompt: please kindly explain closures in JavaScript.', id: 1 },
        { text: 'Second prompt, with a budget.', budget: '50%', id: 2 },
        { text: 'Third prompt, strict.', budget: 5, mode: 'strict', id: 3 },
        { text: 'Fourth prompt for gpt-4.', model: 'gpt-4', task: 'explain', id: 4 },
      ];
      const input = `\uFEFF${requests.map((r) => JSON.stringify(r)).join('\r\n')}\r\n\r\n   \n`;
      const run = runCli(cli, ['batch'], { input });
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 4);
      lines.forEach((line, i) => {
        const result = JSON.parse(line) as Json;
        assertResult(result);
        assert.equal(result.id, i + 1, 'order and id echo');
      });
      assert.equal((JSON.parse(lines[2]!) as Json).mode, 'strict');
      assert.equal((JSON.parse(lines[3]!) as Json).encoding, 'cl100k_base');
      assert.match(run.stderr, /^batch: 4 requests, 4 ok, 0 errors, [\d.]+ ms\n$/);
    });

    it('gives an error object on the bad lines and goes on (exit 3)', () => {
      const input = [
        '{"text":"good one"}',
        '{not json',
        '{"text": 42}',
        '{"text":"x","budget":"150%"}',
        '{"text":"x","mode":"fast"}',
        '{"text":"x","model":"llama"}',
        '{"text":"x","extra":true}',
        '["text"]',
        '{"text":"good two"}',
      ].join('\n');
      const file = join(tmp, 'requests.jsonl');
      writeFileSync(file, input);
      const run = runCli(cli, ['batch', file]);
      assert.equal(run.code, 3, run.stderr);
      const out = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Json & { error?: Json });
      assert.equal(out.length, 9);
      assertResult(out[0]);
      assertResult(out[8]);
      const errors = out.slice(1, 8).map((o) => [o.error?.code, o.error?.param, o.error?.line]);
      assert.deepEqual(errors, [
        ['invalid_json', null, 2],
        ['text_invalid', 'text', 3],
        ['budget_invalid', 'budget', 4],
        ['mode_invalid', 'mode', 5],
        ['model_unsupported', 'model', 6],
        ['param_unknown', 'extra', 7],
        ['request_invalid', null, 8],
      ]);
      for (const o of out.slice(1, 8)) assert.equal(typeof o.error?.message, 'string');
      assert.match(run.stderr, /9 requests, 2 ok, 7 errors/);
    });

    it('applies --budget/--mode/--model defaults to requests that do not set them', () => {
      const input = '{"text":"Hello there, friend."}\n{"text":"Hello there, friend.","budget":3,"mode":"relaxed"}\n';
      const run = runCli(cli, ['batch', '-', '--budget', '100%', '--mode', 'strict', '--model', 'gpt-4', '-q'], { input });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      const [first, second] = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
      assert.equal(first!.budget_tokens, first!.original_tokens);
      assert.equal(first!.mode, 'strict');
      assert.equal(first!.model, 'gpt-4');
      assert.equal(second!.budget_tokens, 3);
      assert.equal(second!.mode, 'relaxed');
    });

    it('refuses bad default flags and unreadable files before reading', () => {
      assertUsage(runCli(cli, ['batch', '--budget', 'half']), /invalid --budget \(budget_invalid\)/);
      assertUsage(runCli(cli, ['batch', '--model', 'x']), /invalid --model/);
      const missing = runCli(cli, ['batch', 'none.jsonl']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot read 'none.jsonl': no such file/);
      assert.equal(runCli(cli, ['batch', 'examples']).code, 1);
    });

    it('an empty input gives no output and exit 0', () => {
      const run = runCli(cli, ['batch'], { input: '' });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, '');
    });

    it('streams: answers a line before the input has ended, and keeps order over many lines', async () => {
      const child = startCli(cli, ['batch', '-q']);
      let out = '';
      child.stdout.setEncoding('utf8');
      const firstLine = new Promise<string>((resolve) => {
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
      });
      child.stdin.write('{"text":"first, before the input ends","id":0}\n');
      const first = JSON.parse(await firstLine) as Json;
      assert.equal(first.id, 0, 'a result arrives while stdin is still open');
      for (let i = 1; i <= 2000; i++) child.stdin.write(`${JSON.stringify({ text: `Request number ${i}: please shorten this.`, id: i })}\n`);
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0);
      const ids = out.trimEnd().split('\n').map((l) => (JSON.parse(l) as Json).id);
      assert.equal(ids.length, 2001);
      ids.forEach((id, i) => assert.equal(id, i));
    });
  });

  describe('pipes', () => {
    it('a reader that closes early (| head) ends the run quietly with status 0', async () => {
      const child = startCli(cli, ['batch', '-q']);
      child.stdin.on('error', () => {});
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ text: `Line ${i}: please shorten this.` })).join('\n');
      child.stdin.end(`${lines}\n`);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0);
      assert.equal(stderr, '');
    });
  });

  describe('package wiring', () => {
    it("the README's first command works: npm run optimize -- examples/wordy-prompt.md --budget 50%", () => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const run = spawnSync(npm, ['run', '--silent', 'optimize', '--', EXAMPLE, '--budget', '50%'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(run.stdout.includes('```ts'), 'the code block survives');
      assert.match(run.stderr, /^533 → [\d,]+ tokens \(.*\), budget 266, gpt-4o, relaxed, /m);
    });

    it('dist/cli.js is the bin and starts with a shebang once built', async () => {
      const pkg = (await import('../../package.json')).default as { bin: Record<string, string>; scripts: Record<string, string> };
      assert.equal(pkg.bin['prompt-optimizer'], 'dist/cli.js');
      assert.match(pkg.scripts.optimize!, /src\/cli\/main\.ts optimize$/);
    });
  });
});
