import { strict as assert } from 'node:assert';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import * as core from '../../src/core/index';
import { OptimizeError, type OptimizeResult } from '../../src/core/index';
import { CliFailure, CliUsageError, EXIT, type CliCommand } from '../../src/cli/command';
import { processLine } from '../../src/cli/commands/batch';
import { describeOptimizeError, flagForParam, isOptimizeErrorLike } from '../../src/cli/errors';
import { formatChange, formatCount, formatMs, summaryLine } from '../../src/cli/format';
import { stripBom } from '../../src/cli/io';
import { checkBudget, checkMode, checkModel, singleFile } from '../../src/cli/options';
import { editDistance, runCli, topLevelHelp, usageMessage, wantsHelp } from '../../src/cli/run';
import { toWireError, toWireResult } from '../../src/cli/wire';
import { memoryIo } from './helpers';

const RESULT: OptimizeResult = {
  text: 'short',
  originalTokens: 1234,
  optimizedTokens: 567,
  reductionPercent: 54.05,
  budgetTokens: 600,
  softLimitEnforced: false,
  latencyMs: 12.34,
  mode: 'relaxed',
  model: 'gpt-4o',
  encoding: 'o200k_base',
  passes: [{ name: 'cleanup', tokens: 1000 }],
  removed: [],
};

describe('cli: wire mapping', () => {
  it('maps every camelCase result field to snake_case and nothing else', () => {
    assert.deepEqual(toWireResult(RESULT), {
      text: 'short',
      original_tokens: 1234,
      optimized_tokens: 567,
      reduction_percent: 54.05,
      budget_tokens: 600,
      soft_limit_enforced: false,
      latency_ms: 12.34,
      mode: 'relaxed',
      model: 'gpt-4o',
      encoding: 'o200k_base',
    });
  });

  it('builds error objects with a null param and an optional line', () => {
    assert.deepEqual(toWireError('invalid_json', 'bad', null), { error: { code: 'invalid_json', message: 'bad', param: null } });
    assert.deepEqual(toWireError('budget_invalid', 'm', 'budget', 3), { error: { code: 'budget_invalid', message: 'm', param: 'budget', line: 3 } });
  });
});

describe('cli: formatting', () => {
  it('formats counts, changes and durations', () => {
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(formatChange(54.25), '\u221254.3%');
    assert.equal(formatChange(0), '0%');
    assert.equal(formatChange(-3), '+3.0%');
    assert.equal(formatMs(12.34), '12 ms');
    assert.equal(formatMs(1.234), '1.2 ms');
  });

  it('summarizes a result on one line', () => {
    const line = summaryLine(RESULT);
    assert.ok(!line.includes('\n'));
    assert.match(line, /^1,234 → 567 tokens \(−54\.\d%\), budget 600, gpt-4o, relaxed, 12 ms$/);
  });

  it('explains the soft limit in words, for each mode', () => {
    const relaxed = summaryLine({ ...RESULT, optimizedTokens: 650, softLimitEnforced: true });
    assert.match(relaxed, /soft limit: 50 tokens over budget, because protected content and the request alone exceed it/);
    const strict = summaryLine({ ...RESULT, mode: 'strict', optimizedTokens: 590, softLimitEnforced: true });
    assert.match(strict, /soft limit: protected content had to be dropped/);
  });
});

describe('cli: option checks', () => {
  it('accepts the budget forms of the core and refuses the rest naming budget', () => {
    assert.equal(checkBudget(core, undefined), 1000);
    assert.equal(checkBudget(core, '500'), '500');
    assert.equal(checkBudget(core, '12.5%'), '12.5%');
    for (const bad of ['0', '-5', '1.5', 'abc', '150%', '%', '1e308', 'NaN', '']) {
      assert.throws(() => checkBudget(core, bad), (e: unknown) => e instanceof OptimizeError && e.code === 'budget_invalid' && e.param === 'budget', bad);
    }
  });

  it('checks mode and model', () => {
    assert.equal(checkMode(core, undefined), 'relaxed');
    assert.equal(checkMode(core, 'strict'), 'strict');
    assert.throws(() => checkMode(core, 'loose'), CliUsageError);
    assert.equal(checkModel(core, undefined), 'gpt-4o');
    assert.equal(checkModel(core, 'gpt-4'), 'gpt-4');
    assert.throws(() => checkModel(core, 'llama-3'), (e: unknown) => e instanceof OptimizeError && e.code === 'model_unsupported');
  });

  it('takes at most one FILE', () => {
    assert.equal(singleFile([]), undefined);
    assert.equal(singleFile(['-']), '-');
    assert.throws(() => singleFile(['a', 'b']), /at most one FILE/);
  });

  it('names the flag of a core error', () => {
    assert.equal(flagForParam('budget'), '--budget');
    assert.equal(flagForParam('text'), 'input text');
    assert.match(describeOptimizeError(new OptimizeError('mode_invalid', 'mode', 'nope')), /^invalid --mode \(mode_invalid\): nope$/);
  });

  it('recognizes a core error by shape without loading the core', () => {
    assert.equal(isOptimizeErrorLike(new OptimizeError('budget_invalid', 'budget', 'x')), true);
    assert.equal(isOptimizeErrorLike(new Error('x')), false);
    assert.equal(isOptimizeErrorLike({ name: 'OptimizeError', code: 'a', param: 'b' }), false);
  });

  it('help texts state the core defaults', async () => {
    const { command: optimize } = await import('../../src/cli/commands/optimize');
    const { command: count } = await import('../../src/cli/commands/count');
    assert.match(optimize.usage, new RegExp(`Default ${core.DEFAULT_BUDGET}\\.`));
    assert.match(optimize.usage, new RegExp(`Default ${core.DEFAULT_MODEL}\\.`));
    assert.match(optimize.usage, new RegExp(core.MODES.join(' or ')));
    assert.match(optimize.usage, new RegExp(`${core.DEFAULT_MODE} \\(default\\)`));
    assert.match(count.usage, new RegExp(`Default ${core.DEFAULT_MODEL}\\.`));
  });

  it('strips one leading byte-order mark', () => {
    assert.equal(stripBom('\uFEFFhi'), 'hi');
    assert.equal(stripBom('hi\uFEFF'), 'hi\uFEFF');
  });
});

describe('cli: batch line processing', () => {
  it('returns a snake_case result for a good request, echoing id', () => {
    const out = processLine(core, '{"text":"Hello there, world.","budget":"50%","mode":"strict","model":"gpt-4","task":"greeting","id":"a1"}', 1);
    assert.ok(!('error' in out), JSON.stringify(out));
    if ('error' in out) return;
    assert.equal(out.mode, 'strict');
    assert.equal(out.model, 'gpt-4');
    assert.equal(out.encoding, 'cl100k_base');
    assert.equal(typeof out.text, 'string');
    assert.ok(out.optimized_tokens <= out.budget_tokens || out.soft_limit_enforced);
    assert.equal((out as { id?: unknown }).id, 'a1');
  });

  it('treats null optional fields as absent and applies defaults', () => {
    const out = processLine(core, '{"text":"Hello there.","budget":null,"mode":null}', 1, { budget: '100%', mode: 'strict' });
    assert.ok(!('error' in out));
    if ('error' in out) return;
    assert.equal(out.mode, 'strict');
    assert.equal(out.budget_tokens, out.original_tokens);
    const own = processLine(core, '{"text":"Hello there.","budget":7}', 1, { budget: '100%' });
    assert.ok(!('error' in own) && own.budget_tokens === 7);
  });

  const cases: [string, string, string | null][] = [
    ['{"text": ', 'invalid_json', null],
    ['"just a string"', 'request_invalid', null],
    ['[1,2]', 'request_invalid', null],
    ['null', 'request_invalid', null],
    ['{}', 'text_invalid', 'text'],
    ['{"text": 5}', 'text_invalid', 'text'],
    ['{"text": "x", "budget": 0}', 'budget_invalid', 'budget'],
    ['{"text": "x", "budget": "150%"}', 'budget_invalid', 'budget'],
    ['{"text": "x", "budget": true}', 'budget_invalid', 'budget'],
    ['{"text": "x", "mode": "loose"}', 'mode_invalid', 'mode'],
    ['{"text": "x", "model": "llama"}', 'model_unsupported', 'model'],
    ['{"text": "x", "task": 3}', 'task_invalid', 'task'],
    ['{"text": "x", "budjet": 3}', 'param_unknown', 'budjet'],
  ];
  for (const [line, code, param] of cases) {
    it(`gives ${code} for ${line}`, () => {
      const out = processLine(core, line, 9);
      assert.ok('error' in out, JSON.stringify(out));
      if (!('error' in out)) return;
      assert.equal(out.error.code, code);
      assert.equal(out.error.param, param);
      assert.equal(out.error.line, 9);
      assert.equal(typeof out.error.message, 'string');
      assert.ok(out.error.message.length > 0);
    });
  }

  it('never throws and always gives a result or an error object, for any line', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ text: fc.string(), budget: fc.oneof(fc.integer(), fc.string()) }).map((r) => JSON.stringify(r))), (line) => {
        const out = processLine(core, line, 1);
        if ('error' in out) assert.equal(typeof out.error.code, 'string');
        else assert.equal(typeof out.text, 'string');
      }),
      { numRuns: 150 },
    );
  });
});

describe('cli: dispatcher (in-process)', () => {
  const seen: string[][] = [];
  const fake = (name: string, behaviour: (args: readonly string[]) => Promise<number>): CliCommand => ({
    name,
    summary: `the ${name} command`,
    usage: `Usage: prompt-optimizer ${name}`,
    run: async (args) => {
      seen.push([name, ...args]);
      return behaviour(args);
    },
  });
  const commands = [
    fake('alpha', async () => 0),
    fake('usage', async () => {
      throw new CliUsageError('bad flag');
    }),
    fake('fail', async () => {
      throw new CliFailure('cannot read');
    }),
    fake('core', async () => {
      throw new OptimizeError('budget_invalid', 'budget', 'Budget must be…');
    }),
    fake('bug', async () => {
      throw new TypeError('undefined is not a function');
    }),
  ];

  it('lists every registered command in the top-level help', () => {
    const help = topLevelHelp(commands);
    for (const c of commands) assert.match(help, new RegExp(`\\b${c.name}\\s+the ${c.name} command`));
  });

  it('passes the remaining arguments to the command', async () => {
    const m = memoryIo();
    assert.equal(await runCli(commands, ['alpha', 'x', '--y'], m.io), 0);
    assert.deepEqual(seen.at(-1), ['alpha', 'x', '--y']);
  });

  it('handles --help for every command without running it', async () => {
    const before = seen.length;
    const m = memoryIo();
    assert.equal(await runCli(commands, ['bug', '--help'], m.io), 0);
    assert.equal(m.stdout(), 'Usage: prompt-optimizer bug\n');
    assert.equal(seen.length, before);
    assert.equal(wantsHelp(['--', '--help']), false);
    assert.equal(wantsHelp(['x', '-h']), true);
  });

  it('maps errors to exit codes and messages without stack traces', async () => {
    const expectations: [string, number, RegExp][] = [
      ['usage', EXIT.USAGE, /^prompt-optimizer usage: bad flag\nRun 'prompt-optimizer usage --help' for usage\.\n$/],
      ['fail', EXIT.FAILURE, /^prompt-optimizer fail: cannot read\n$/],
      ['core', EXIT.USAGE, /^prompt-optimizer core: invalid --budget \(budget_invalid\): Budget must be…\n$/],
      ['bug', EXIT.FAILURE, /internal error: undefined is not a function/],
    ];
    for (const [name, code, message] of expectations) {
      const m = memoryIo();
      assert.equal(await runCli(commands, [name], m.io), code, name);
      assert.match(m.stderr(), message);
      assert.doesNotMatch(m.stderr(), /\n\s+at /, 'no stack trace');
    }
  });

  it('rejects unknown commands with a suggestion, and no command with the help', async () => {
    let m = memoryIo();
    assert.equal(await runCli(commands, ['alpah'], m.io), EXIT.USAGE);
    assert.match(m.stderr(), /unknown command 'alpah'\. Did you mean 'alpha'\?/);
    m = memoryIo();
    assert.equal(await runCli(commands, [], m.io), EXIT.USAGE);
    assert.match(m.stderr(), /^Usage: prompt-optimizer <command>/);
    m = memoryIo();
    assert.equal(await runCli(commands, ['--frob'], m.io), EXIT.USAGE);
    assert.match(m.stderr(), /unknown option '--frob'/);
  });

  it('prints the version and help topics', async () => {
    let m = memoryIo();
    assert.equal(await runCli(commands, ['--version'], m.io), 0);
    assert.match(m.stdout(), /^\d+\.\d+\.\d+\n$/);
    m = memoryIo();
    assert.equal(await runCli(commands, ['help', 'alpha'], m.io), 0);
    assert.equal(m.stdout(), 'Usage: prompt-optimizer alpha\n');
  });

  it('shortens parseArgs messages', () => {
    const failure = (options: Parameters<typeof parseArgs>[0]) => {
      try {
        parseArgs(options);
      } catch (error) {
        return usageMessage(error as Error);
      }
      return 'no error';
    };
    assert.equal(failure({ args: ['--bogus'], options: {}, strict: true }), "unknown option '--bogus'");
    assert.equal(failure({ args: ['--budget'], options: { budget: { type: 'string' } }, strict: true }), "option '--budget' needs a value");
    assert.match(failure({ args: ['--budget', '-5'], options: { budget: { type: 'string' } }, strict: true }), /--budget=-XYZ/);
  });

  it('computes edit distance', () => {
    assert.equal(editDistance('batch', 'btach'), 2);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('count', 'count'), 0);
  });
});

describe('cli: real commands in-process', () => {
  it('refuses a terminal on stdin with no FILE (usage error, exit 2)', async () => {
    const { command: optimize } = await import('../../src/cli/commands/optimize');
    const { command: count } = await import('../../src/cli/commands/count');
    const { command: batch } = await import('../../src/cli/commands/batch');
    for (const command of [optimize, count, batch]) {
      const m = memoryIo(null, { tty: true });
      assert.equal(await runCli([command], [command.name], m.io), EXIT.USAGE, command.name);
      assert.match(m.stderr(), /no input: give a FILE, or pipe text on stdin/);
    }
  });
});
