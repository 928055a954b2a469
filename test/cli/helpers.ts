import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/command';

export const ROOT = resolve(__dirname, '../..');

/** In-memory streams for calling `runCli` directly. */
export function memoryIo(input: string | null = null, options: { tty?: boolean; cwd?: string } = {}) {
  const stdin = Object.assign(Readable.from(input === null ? [] : [Buffer.from(input)]), { isTTY: options.tty ?? false });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const io: CliIo = { stdin, stdout, stderr, cwd: options.cwd ?? ROOT, env: {} };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

let built: string | undefined;

/** Bundles the CLI once into a private temp dir (so parallel builds of dist/ by others never interfere). */
export async function buildCli(): Promise<string> {
  if (built) return built;
  const esbuild = await import('esbuild');
  const outfile = join(mkdtempSync(join(tmpdir(), 'po-cli-')), 'cli.js');
  await esbuild.build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  built = outfile;
  return outfile;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI as a real process. */
export function runCli(cli: string, args: string[], options: { input?: string | Buffer; cwd?: string } = {}): Run {
  const result = spawnSync(process.execPath, [cli, ...args], {
    input: options.input ?? '',
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, PROMPT_OPTIMIZER_DEBUG: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the CLI with an open stdin, for streaming tests. */
export function startCli(cli: string, args: string[]) {
  return spawn(process.execPath, [cli, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
}
