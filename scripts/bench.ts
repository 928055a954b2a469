/**
 * `npm run bench`: speed of the core, measured by a script (never by timed tests).
 *
 *   1. optimize throughput (budget 50%) on inputs of ~1k, 10k, 100k and 1M tokens, side by side with the
 *      time to tokenize the same input once (countTokens), as a ratio; warm (after a timed warm-up, so
 *      the JIT has settled), median of a few runs; at 10k also with a task (the task path ranks by
 *      relevance and offers clauses);
 *   2. warm p50/p99 latency of optimize on a 2k-token prompt (200 runs);
 *   3. peak memory (max RSS of this process);
 *   4. tokenizer libraries: gpt-tokenizer vs js-tiktoken on the same ~1 MB text, each in a fresh process
 *      (load time, RSS, tokens/s, identical counts).
 *
 * Inputs come from ../shared/data (SQuAD contexts and awesome-chatgpt-prompts, interleaved). The unique
 * text is ~27k tokens; larger inputs are filled with text from a seeded word-bigram model of the same
 * corpus, so they contain no repeated sentences (repeats would let the duplicate pass delete most of the
 * input and flatter the numbers). The table says how much of each input is original text.
 *
 * Options: --quick (sizes up to 100k, fewer runs), --sizes 1k,10k (any of 1k, 2k, 10k, 100k, 1M),
 * --data DIR (instead of ../shared/data).
 * Prints markdown tables. Exits 0 with a message when the data folder is absent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCsv } from './eval-data';

const ROOT = resolve(__dirname, '..');
const dataFlag = process.argv.indexOf('--data');
const DATA = dataFlag > 0 && process.argv[dataFlag + 1] ? resolve(process.argv[dataFlag + 1]!) : resolve(ROOT, '..', 'shared', 'data');
const SQUAD = join(DATA, 'squad-dev-v1.1-super-bowl-50.json');
const PROMPTS = join(DATA, 'awesome-chatgpt-prompts.csv');

type Core = typeof import('../src/core/index');

// ---------------------------------------------------------------------------------------------- helpers

const now = (): number => performance.now();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number): string => (n >= 100 ? int.format(n) : n >= 10 ? fmt(n, 1) : fmt(n, 2));
const mb = (bytes: number): string => `${int.format(bytes / 1048576)} MB`;
const perSecond = (n: number): string => (n >= 1e6 ? `${fmt(n / 1e6, 2)} M` : `${fmt(n / 1e3, 0)} k`);

function table(headers: string[], rows: string[][], right: boolean[] = headers.map((_, i) => i > 0)): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** Max RSS of this process so far, in bytes (the kernel's high-water mark, not a sample). */
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;

// ---------------------------------------------------------------------------------------------- corpus

function loadParagraphs(): { squad: string[]; prompts: string[] } {
  const squadJson = JSON.parse(readFileSync(SQUAD, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
  const squad = squadJson.data.flatMap((article) => article.paragraphs.map((p) => p.context.trim()));
  const [, ...rows] = parseCsv(readFileSync(PROMPTS, 'utf8'));
  const prompts = rows.map((r) => (r[1] ?? '').trim()).filter(Boolean);
  return { squad, prompts };
}

/** mulberry32: small, fast, seeded. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word-bigram model of the corpus: generates new, non-repeating English-like paragraphs. */
function bigramGenerator(paragraphs: readonly string[], seed: number): () => string {
  const next = new Map<string, string[]>();
  const starts: string[] = [];
  for (const paragraph of paragraphs) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    let previous = '';
    for (const word of words) {
      if (previous === '' || /[.!?]$/.test(previous)) starts.push(word);
      if (previous) {
        let list = next.get(previous);
        if (!list) next.set(previous, (list = []));
        list.push(word);
      }
      previous = word;
    }
  }
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const sentence = (): string => {
    const words = [pick(starts)];
    while (words.length < 45 && !/[.!?]$/.test(words.at(-1)!)) {
      const options = next.get(words.at(-1)!);
      if (!options) break;
      words.push(pick(options));
    }
    const text = words.join(' ');
    return /[.!?]$/.test(text) ? text : `${text}.`;
  };
  return () => Array.from({ length: 3 + Math.floor(random() * 5) }, sentence).join(' ');
}

interface Input {
  label: string;
  text: string;
  tokens: number;
  /** Share of characters that are original corpus text (the rest is bigram-generated). */
  original: number;
}

function buildInputs(core: Core, targets: readonly [string, number][]): Input[] {
  const { squad, prompts } = loadParagraphs();
  // Interleave so every size mixes encyclopedic prose with instruction-style prompts.
  const real: string[] = [];
  for (let i = 0; i < Math.max(squad.length, prompts.length); i++) {
    if (squad[i]) real.push(squad[i]!);
    if (prompts[i]) real.push(prompts[i]!);
  }
  return targets.map(([label, target]) => {
    const generate = bigramGenerator(real, 0xc0ffee);
    const parts: string[] = [];
    let tokens = 0;
    let originalChars = 0;
    for (let i = 0; tokens < target; i++) {
      const paragraph = i < real.length ? real[i]! : generate();
      if (i < real.length) originalChars += paragraph.length;
      parts.push(paragraph);
      tokens += core.countTokens(paragraph) + 1;
    }
    const text = parts.join('\n\n');
    return { label, text, tokens: core.countTokens(text), original: Math.min(1, originalChars / text.length) };
  });
}

// ---------------------------------------------------------------------------------------------- 1. throughput

interface Row {
  input: Input;
  tokenizeMs: number;
  optimizeMs: number;
  runs: number;
  outTokens: number;
  softLimit: boolean;
  rss: number;
}

const WARM_UP_MS = 2_000;
const WARM_UP_PER_INPUT_MS = 500;

/** Runs countTokens and optimize on `text` at least once and until `ms` have passed. */
function warmUp(core: Core, text: string, ms: number, task = ''): void {
  const started = now();
  do {
    core.countTokens(text);
    core.optimize({ text, budget: '50%', task });
  } while (now() - started < ms);
}

/** The question the task path runs with: words the SQuAD text holds, as a user's question would. */
const TASK = 'Which team won the game, and where was it played?';

function throughput(core: Core, inputs: readonly Input[], quick: boolean, task = ''): Row[] {
  const rows: Row[] = [];
  // Warm-up: JIT, encodings, dictionaries. By time, not by count: V8 optimizes the pipeline's many
  // functions on a background thread, and a few runs leave most of them unoptimized (on a busy machine
  // the first 20 or so 10k-token runs took twice the settled time), which is not a warm measurement.
  const warm = inputs.find((i) => i.tokens <= 20_000) ?? inputs[0]!;
  warmUp(core, warm.text, WARM_UP_MS, task);
  let previous: Row | undefined;
  for (const input of inputs) {
    const estimate = previous ? previous.optimizeMs * (input.tokens / previous.input.tokens) : 0;
    if (estimate > 60_000) {
      console.log(`  ${input.label}: skipped, optimize would take about ${fmt(estimate / 1000, 0)} s per run`);
      continue;
    }
    const runs = input.tokens >= 500_000 ? 3 : input.tokens >= 50_000 ? (quick ? 3 : 5) : input.tokens >= 5_000 ? (quick ? 5 : 31) : quick ? 11 : 31;
    if (input.tokens < 500_000) warmUp(core, input.text, WARM_UP_PER_INPUT_MS, task);
    const tokenize: number[] = [];
    const optimize: number[] = [];
    let outTokens = 0;
    let softLimit = false;
    const started = now();
    for (let r = 0; r < runs; r++) {
      let t = now();
      core.countTokens(input.text);
      tokenize.push(now() - t);
      t = now();
      const result = core.optimize({ text: input.text, budget: '50%', task });
      optimize.push(now() - t);
      outTokens = result.optimizedTokens;
      softLimit = result.softLimitEnforced;
      if (now() - started > 40_000) break;
    }
    const row: Row = { input, tokenizeMs: median(tokenize), optimizeMs: median(optimize), runs: optimize.length, outTokens, softLimit, rss: peakRss() };
    rows.push(row);
    previous = row;
    console.log(`  ${input.label}: ${int.format(input.tokens)} tokens, optimize ${ms(row.optimizeMs)} ms, tokenize ${ms(row.tokenizeMs)} ms (${row.runs} runs)`);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------- 2. latency

function latency(core: Core, input: Input, runs: number): { runs: number; p50: number; p90: number; p99: number; max: number; mean: number } {
  for (let i = 0; i < 10; i++) core.optimize({ text: input.text, budget: '50%' });
  const times: number[] = [];
  const started = now();
  for (let i = 0; i < runs && now() - started < 30_000; i++) {
    const t = now();
    core.optimize({ text: input.text, budget: '50%' });
    times.push(now() - t);
  }
  return {
    runs: times.length,
    p50: percentile(times, 50),
    p90: percentile(times, 90),
    p99: percentile(times, 99),
    max: Math.max(...times),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

// ---------------------------------------------------------------------------------------------- 4. tokenizers

interface TokenizerStats {
  library: string;
  loadMs: number;
  rssLoaded: number;
  firstEncodeMs: number;
  warmEncodeMs: number;
  tokens: number;
}

/** Runs in a fresh plain-Node process (CommonJS via `node -e`), so load time and RSS are cold and comparable. */
function tokenizerChildSource(library: 'gpt-tokenizer' | 'js-tiktoken', paths: Record<string, string>, file: string): string {
  const load =
    library === 'gpt-tokenizer'
      ? `const { GptEncoding } = require(${JSON.stringify(paths.gptEncoding)});
         const ranks = require(${JSON.stringify(paths.gptRanks)}).default;
         const api = GptEncoding.getEncodingApi('o200k_base', () => ranks);
         const plain = { disallowedSpecial: new Set() };
         count = (s) => api.countTokens(s, plain);`
      : `const { Tiktoken } = require(${JSON.stringify(paths.tiktoken)});
         const ranks = require(${JSON.stringify(paths.tiktokenRanks)});
         const enc = new Tiktoken(ranks.default ?? ranks);
         count = (s) => enc.encode(s, [], []).length;`;
  return `
    const { readFileSync } = require('node:fs');
    const text = readFileSync(${JSON.stringify(file)}, 'utf8');
    let count;
    const t0 = performance.now();
    ${load}
    const loadMs = performance.now() - t0;
    const rssLoaded = process.memoryUsage().rss;
    let t = performance.now();
    const tokens = count(text);
    const firstEncodeMs = performance.now() - t;
    const warm = [];
    for (let i = 0; i < 3; i++) { t = performance.now(); count(text); warm.push(performance.now() - t); }
    warm.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ library: ${JSON.stringify(library)}, loadMs, rssLoaded, firstEncodeMs, warmEncodeMs: warm[1], tokens }));
  `;
}

function compareTokenizers(text: string): TokenizerStats[] {
  const require = createRequire(join(ROOT, 'package.json'));
  const paths = {
    gptEncoding: require.resolve('gpt-tokenizer/GptEncoding'),
    gptRanks: require.resolve('gpt-tokenizer/bpeRanks/o200k_base'),
    tiktoken: require.resolve('js-tiktoken/lite'),
    tiktokenRanks: require.resolve('js-tiktoken/ranks/o200k_base'),
  };
  const dir = mkdtempSync(join(tmpdir(), 'po-bench-'));
  const file = join(dir, 'text.txt');
  writeFileSync(file, text);
  try {
    return (['gpt-tokenizer', 'js-tiktoken'] as const).map((library) => {
      const child = spawnSync(process.execPath, ['-e', tokenizerChildSource(library, paths, file)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (child.status !== 0) throw new Error(`${library} child failed: ${child.stderr}`);
      return JSON.parse(child.stdout) as TokenizerStats;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------- main

const SIZES: Record<string, number> = { '1k': 1_000, '2k': 2_000, '10k': 10_000, '100k': 100_000, '1M': 1_000_000 };

function machine(): string {
  const cpu = cpus();
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = 'unknown';
  }
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${mb(totalmem())} RAM, Node ${process.version}, ${process.platform}/${process.arch}, commit ${commit}, ${new Date().toISOString().slice(0, 16)}Z`;
}

async function main(): Promise<void> {
  if (!existsSync(SQUAD) || !existsSync(PROMPTS)) {
    console.log(`bench: shared data not found at ${DATA} (expected ../shared/data beside the repository, or --data DIR); nothing to measure.`);
    return;
  }
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const sizesArg = args[args.indexOf('--sizes') + 1];
  const labels = args.includes('--sizes') && sizesArg ? sizesArg.split(',') : quick ? ['1k', '10k', '100k'] : ['1k', '10k', '100k', '1M'];
  for (const label of labels) if (!(label in SIZES)) throw new Error(`unknown size ${label}; use ${Object.keys(SIZES).join(', ')}`);

  const wallStart = now();
  const rssStart = process.memoryUsage().rss;
  const core = (await import('../src/core/index')) as Core;
  console.log(`# prompt-optimizer bench\n\nMachine: ${machine()}\n`);

  console.log('Building inputs …');
  const inputs = buildInputs(core, [...labels.map((l) => [l, SIZES[l]!] as [string, number]), ['2k prompt', 2_000]]);
  const latencyInput = inputs.pop()!;

  console.log('\n## Throughput (budget 50%, relaxed, warm, median)\n');
  const rows = throughput(core, inputs, quick);
  console.log();
  console.log(
    table(
      ['input', 'tokens', 'original text', 'runs', 'tokenize ms', 'optimize ms', 'optimize tokens/s', 'optimize / tokenize', 'optimize µs per 1k tokens', 'output tokens', 'peak RSS'],
      rows.map((r) => [
        r.input.label,
        int.format(r.input.tokens),
        `${fmt(r.input.original * 100, 0)}%`,
        String(r.runs),
        ms(r.tokenizeMs),
        ms(r.optimizeMs),
        perSecond(r.input.tokens / (r.optimizeMs / 1000)),
        `${fmt(r.optimizeMs / r.tokenizeMs, 2)}×`,
        int.format((r.optimizeMs * 1000) / (r.input.tokens / 1000)),
        `${int.format(r.outTokens)}${r.softLimit ? ' (soft)' : ''}`,
        mb(r.rss),
      ]),
    ),
  );

  const tenK = inputs.find((i) => i.label === '10k');
  if (tenK) {
    console.log(`\n## With a task (budget 50%, relaxed, warm, median): "${TASK}"\n`);
    const [row] = throughput(core, [tenK], quick, TASK);
    console.log();
    console.log(table(['input', 'tokens', 'runs', 'tokenize ms', 'optimize ms', 'optimize / tokenize', 'output tokens'], [[
      row!.input.label, int.format(row!.input.tokens), String(row!.runs), ms(row!.tokenizeMs), ms(row!.optimizeMs), `${fmt(row!.optimizeMs / row!.tokenizeMs, 2)}×`, int.format(row!.outTokens),
    ]]));
  }

  console.log(`\n## Latency: ${int.format(latencyInput.tokens)}-token prompt, budget 50%, warm\n`);
  const lat = latency(core, latencyInput, quick ? 50 : 200);
  console.log(table(['runs', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'mean ms'], [[String(lat.runs), ms(lat.p50), ms(lat.p90), ms(lat.p99), ms(lat.max), ms(lat.mean)]]));

  console.log('\n## Memory\n');
  console.log(
    table(
      ['RSS before loading the core', 'peak RSS (max RSS of the whole run)', 'heap used at the end'],
      [[mb(rssStart), mb(peakRss()), mb(process.memoryUsage().heapUsed)]],
    ),
  );

  console.log('\n## Tokenizer libraries: o200k_base on ~1 MB of SQuAD contexts (repeated), each in a fresh process\n');
  const { squad } = loadParagraphs();
  let text = '';
  for (let i = 0; text.length < 1_000_000; i++) text += `${squad[i % squad.length]}\n\n`;
  const stats = compareTokenizers(text.slice(0, 1_000_000));
  const same = stats.every((s) => s.tokens === stats[0]!.tokens);
  console.log(
    table(
      ['library', 'load ms', 'RSS after load', 'first encode ms', 'warm encode ms', 'warm tokens/s', 'tokens', 'identical counts'],
      stats.map((s) => [
        s.library,
        ms(s.loadMs),
        mb(s.rssLoaded),
        ms(s.firstEncodeMs),
        ms(s.warmEncodeMs),
        perSecond(s.tokens / (s.warmEncodeMs / 1000)),
        int.format(s.tokens),
        same ? 'yes' : 'NO',
      ]),
      [false, true, true, true, true, true, true, false],
    ),
  );
  console.log(`\nTotal bench time: ${fmt((now() - wallStart) / 1000, 0)} s`);
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
