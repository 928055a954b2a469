#!/usr/bin/env node
// The README's test command (`npm test`): type-check, unit/API tests with mocha, then the extension's
// suites in a real VS Code. Prints one closing line "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

function run(title, command, args, parse) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28 });
  process.stdout.write(result.stdout ?? '');
  const counted = parse ? parse(result.stdout ?? '') : null;
  if (counted) for (const key of Object.keys(totals)) totals[key] += counted[key];
  if (result.status !== 0) {
    broken = true;
    console.log(`=== ${title} exited with ${result.status ?? result.signal}`);
  }
}

const number = (text, pattern) => Number(pattern.exec(text)?.[1] ?? 0);
const mochaCounts = (out) => ({
  passed: number(out, /(\d+) passing/),
  failed: number(out, /(\d+) failing/),
  skipped: number(out, /(\d+) pending/),
});
const plainCounts = (out) => {
  const line = [...out.matchAll(/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/g)].at(-1);
  return line ? { passed: Number(line[1]), failed: Number(line[2]), skipped: Number(line[3] ?? 0) } : null;
};

run('type-check', 'npx', ['tsc', '--noEmit']);
run('type-check core (no Node, no DOM)', 'npx', ['tsc', '-p', 'tsconfig.core.json', '--noEmit']);
run('build', 'npm', ['run', '--silent', 'build']);
// redis-server for the multi-instance tests (test/server/redis.test.ts skips with a message without it).
run('redis-server for the Redis tests', 'bash', ['scripts/setup-redis-test.sh']);
run('unit and API tests', 'npx', ['mocha'], mochaCounts);
if (existsSync('scripts/test-vscode.mjs')) run('extension tests in a real VS Code', 'node', ['scripts/test-vscode.mjs'], plainCounts);

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(broken || totals.failed > 0 ? 1 : 0);
