import { createReadStream, promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { CliFailure, CliUsageError, type CliIo } from './command';

/** The real process's streams. A closed pipe on stdout (`… | head`) ends the program quietly. */
export function processIo(): CliIo {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

const NO_INPUT = "no input: give a FILE, or pipe text on stdin (or pass '-' to type it, ending with Ctrl-D)";

/** True when the input is stdin: `-`, or no FILE at all (which a terminal on stdin makes a usage error). */
function useStdin(file: string | undefined, io: CliIo): boolean {
  if (file === '-') return true;
  if (file !== undefined) return false;
  if (io.stdin.isTTY) throw new CliUsageError(NO_INPUT);
  return true;
}

/** Reads the whole input (FILE, `-` or piped stdin) as UTF-8 text without a leading byte-order mark. */
export async function readInput(file: string | undefined, io: CliIo): Promise<string> {
  let buffer: Buffer;
  if (useStdin(file, io)) {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    buffer = Buffer.concat(chunks);
  } else {
    const path = resolve(io.cwd, file!);
    try {
      buffer = await fs.readFile(path);
    } catch (error) {
      throw unreadable(file!, error);
    }
  }
  return stripBom(buffer.toString('utf8'));
}

/** A stream over the input for line-by-line reading; fails up front when FILE cannot be opened. */
export async function openInput(file: string | undefined, io: CliIo): Promise<NodeJS.ReadableStream | Readable> {
  if (useStdin(file, io)) return io.stdin;
  const path = resolve(io.cwd, file!);
  try {
    const handle = await fs.open(path, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      await handle.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    await handle.close();
    return createReadStream(path);
  } catch (error) {
    throw unreadable(file!, error);
  }
}

function unreadable(file: string, error: unknown): CliFailure {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : error instanceof Error
            ? error.message
            : String(error);
  return new CliFailure(`cannot read '${file}': ${reason}`);
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Writes and waits for the stream to accept more, so a large output never piles up in memory. */
export function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (stream.write(text)) return Promise.resolve();
  return new Promise((done) => stream.once('drain', () => done()));
}
