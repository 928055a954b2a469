/**
 * `npm run bench:server`: load on loopback against the HTTP service running in a second process (the
 * bundle built like dist/: cli.js + server-worker.js), with autocannon. Both variants, a ~200-token and a
 * ~2,000-token prompt, at 1, 16 and 128 connections, with 1 worker and with one per core; then, when
 * redis-server is installed (scripts/setup-redis-test.sh), one and two instances sharing Redis counters
 * on this machine (200 tokens, 16 connections in all). Prints requests/s, p50/p99 latency and error
 * counts as a Markdown table. Bounded: BENCH_DURATION seconds per cell (default 5) plus start-up.
 *
 *   npm run bench:server                      # full table
 *   BENCH_DURATION=2 npm run bench:server     # quicker
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { countTokens } from '../src/core/index';
import { generateKey } from '../src/server/keys';

const ROOT = resolve(__dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = process.env.BENCH_CONNECTIONS ? process.env.BENCH_CONNECTIONS.split(",").map(Number) : [1, 16, 128];
const CORES = availableParallelism();
const WORKERS = [...new Set([1, CORES])];

const SENTENCES = [
  'Please could you kindly take a careful look at the following text and basically summarize it for me, making sure that you really do keep all of the important details.',
  'It is very important that the function parseConfig() in src/config.ts returns 42 when it is given the "--verbose" flag, and that it never throws on an empty file.',
  'In order to be able to do this properly, you should definitely consider each and every single point that is mentioned, and also think about the edge cases.',
  'The deployment on 2024-05-01 failed twice because the cache key for build 1187 was computed from the wrong lockfile, which nobody noticed for a while.',
  'As a matter of fact, I would really appreciate it if you could also, if at all possible, list the three most likely causes in order of how likely they are.',
];

/** A prompt of about `tokens` tokens (gpt-4o), from varied sentences. */
function promptOf(tokens: number): string {
  const parts: string[] = [];
  for (let i = 0; countTokens(parts.join(' ')) < tokens; i++) parts.push(SENTENCES[i % SENTENCES.length]!.replace('1187', String(1000 + i)));
  return parts.join(' ');
}

async function build(): Promise<string> {
  const dir = join(ROOT, '.tmp', 'bench-server');
  mkdirSync(dir, { recursive: true });
  const common = { bundle: true, format: 'cjs' as const, platform: 'node' as const, target: 'node20', logLevel: 'error' as const, minify: true };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: join(dir, 'cli.js'), external: ['piscina'] }),
    esbuild.build({ ...common, entryPoints: [join(ROOT, 'src/server/worker.ts')], outfile: join(dir, 'server-worker.js') }),
  ]);
  return join(dir, 'cli.js');
}

async function startServer(cli: string, workers: number, key: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--workers', String(workers), '--rate-limit', '1000000000', ...extra], {
    env: { ...process.env, PROMPT_OPTIMIZER_API_KEY: key, PROMPT_OPTIMIZER_KEYS_FILE: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    let buffered = '';
    let listening = false;
    // Keep reading (and dropping) the access log after start-up: a full pipe would block the server's logger.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (listening) return;
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        listening = true;
        done({ child, url: JSON.parse(line).url });
      }
    });
    child.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
}

interface Row {
  setup: string;
  variant: 'A' | 'B';
  workers: number;
  prompt: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: string;
  errors: number;
}

/** The part of autocannon's result used here (the package ships no types). */
interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Cannon;

type Measured = Omit<Row, 'setup' | 'variant' | 'workers' | 'prompt' | 'connections'>;

/** Variant A takes a token budget: half the prompt's tokens, like Variant B's "50%". */
function requestOf(variant: 'A' | 'B', text: string): { path: string; body: string } {
  return variant === 'A'
    ? { path: '/v1/optimize', body: JSON.stringify({ prompt: text, budget: Math.max(1, Math.floor(countTokens(text) / 2)) }) }
    : { path: '/optimize', body: JSON.stringify({ text, budget: '50%' }) };
}

const warmed = new Set<string>();

/** Load spread evenly over `urls` (one autocannon each, run together); rates and counts summed, worst p50/p99. */
async function measure(urls: string[], key: string, variant: 'A' | 'B', text: string, connections: number): Promise<Measured> {
  const { path, body } = requestOf(variant, text);
  const optionsFor = (url: string) => ({
    url: `${url}${path}`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    connections: Math.max(1, Math.round(connections / urls.length)),
  });
  // Warm-up, not reported: longer for a fresh process, whose first seconds (JIT, workers) are slow.
  const fresh = urls.some((url) => !warmed.has(url));
  urls.forEach((url) => warmed.add(url));
  await Promise.all(urls.map((url) => autocannon({ ...optionsFor(url), duration: fresh ? 5 : 1 })));
  const results = await Promise.all(urls.map((url) => autocannon({ ...optionsFor(url), duration: DURATION })));
  const statuses = new Map<string, number>();
  for (const result of results) {
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) if (code !== '200') statuses.set(code, (statuses.get(code) ?? 0) + stat.count);
  }
  const sum = (pick: (r: CannonResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    rps: Math.round(sum((r) => r.requests.average)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    ok: sum((r) => r['2xx']),
    non2xx: [...statuses].map(([code, count]) => `${code}×${count}`).join(' ') || '0',
    errors: sum((r) => r.errors + r.timeouts),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().on('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** redis-server on a free loopback port, or null when it is not installed. */
async function startRedis(): Promise<{ child: ChildProcess; url: string } | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) done();
    });
    child.on('exit', (code) => fail(new Error(`redis-server exited with ${code}`)));
  });
  return { child, url: `redis://127.0.0.1:${port}` };
}

async function main(): Promise<void> {
  const started = Date.now();
  const cli = await build();
  const key = generateKey('test');
  const prompts = [
    { name: `${countTokens(promptOf(200))}-token`, text: promptOf(200) },
    { name: `${countTokens(promptOf(2000))}-token`, text: promptOf(2000) },
  ];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`# bench:server — ${CORES} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
  console.log(`# load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes share this machine)`);
  console.log(`# ${DURATION} s per cell after a 1 s warm-up (5 s on a fresh server); B: POST /optimize {"text", "budget":"50%"}, A: POST /v1/optimize {"prompt", "budget": half the tokens}; autocannon in this process, server in another\n`);
  const rows: Row[] = [];
  const record = (row: Row) => {
    rows.push(row);
    process.stderr.write(`  ${row.setup} ${row.variant} workers=${row.workers} ${row.prompt} c=${row.connections}: ${row.rps} req/s, p99 ${row.p99} ms\n`);
  };
  for (const workers of WORKERS) {
    const { child, url } = await startServer(cli, workers, key);
    try {
      for (const variant of ['B', 'A'] as const) {
        for (const prompt of prompts) {
          for (const connections of CONNECTIONS) {
            record({ setup: '1 instance', variant, workers, prompt: prompt.name, connections, ...(await measure([url], key, variant, prompt.text, connections)) });
          }
        }
      }
    } finally {
      await stop(child);
    }
  }
  // Scale-out on one machine: the same cores split over two processes, counters in Redis.
  const redis = await startRedis();
  if (!redis) console.log('# redis-server not installed (bash scripts/setup-redis-test.sh): Redis rows skipped\n');
  else {
    try {
      for (const instances of [1, 2]) {
        const workers = Math.max(1, Math.floor(CORES / instances));
        const servers = await Promise.all(Array.from({ length: instances }, () => startServer(cli, workers, key, ['--redis-url', redis.url])));
        try {
          for (const variant of ['B', 'A'] as const) {
            const setup = `${instances} instance${instances > 1 ? 's' : ''} + Redis`;
            record({ setup, variant, workers, prompt: prompts[0]!.name, connections: 16, ...(await measure(servers.map((s) => s.url), key, variant, prompts[0]!.text, 16)) });
          }
        } finally {
          await Promise.all(servers.map((s) => stop(s.child)));
        }
      }
    } finally {
      await stop(redis.child);
    }
  }
  console.log('| setup | variant | workers each | prompt | connections | requests/s | p50 ms | p99 ms | 2xx | non-2xx | errors |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) console.log(`| ${r.setup} | ${r.variant} | ${r.workers} | ${r.prompt} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.non2xx} | ${r.errors} |`);
  console.log(`\n# load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
