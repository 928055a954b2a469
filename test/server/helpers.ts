/**
 * Test helpers for the HTTP service: start the real server on 127.0.0.1 on a free port and talk real
 * HTTP to it (fetch, or raw sockets for slow and malformed clients).
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ErrorBody } from '../../src/schemas/index';
import { DEFAULT_CONFIG, type ServerConfig } from '../../src/server/config';
import { PoolExecutor } from '../../src/server/executor';
import { generateKey } from '../../src/server/keys';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/server';

export const SLOW_WORKER = join(__dirname, 'fixtures', 'slow-worker.ts');
/** SLOW_WORKER whose threads take 1.5 s to start (longer than a 1 s time limit), replacements included. */
export const SLOW_START_WORKER = join(__dirname, 'fixtures', 'slow-start-worker.ts');

/** A real worker pool running the stand-in worker: starts fast, for tests about HTTP behaviour rather than compression. */
export function stubPool(workers = 1, maxQueue = 16): PoolExecutor {
  return new PoolExecutor({ workers, maxQueue, filename: SLOW_WORKER });
}

export interface TestServer {
  url: string;
  key: string;
  server: RunningServer;
  /** Parsed JSON log lines so far. */
  logs: Record<string, unknown>[];
  /** The raw log text so far. */
  logText(): string;
  close(): Promise<void>;
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): Promise<TestServer> {
  const key = generateKey('test');
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config: ServerConfig = {
    ...DEFAULT_CONFIG,
    host: '127.0.0.1',
    port: 0,
    workers: 1,
    connectionsCheckIntervalMs: 50,
    rateLimitMax: 10_000,
    ...overrides,
    extraKeys: [key, ...(overrides.extraKeys ?? [])],
  };
  const server = await startServer(config, { logStream, ...options });
  return {
    url: server.url,
    key,
    server,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    close: () => server.close(),
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface CallOptions {
  method?: string;
  /** An object is sent as JSON. A string is sent as is. */
  body?: unknown;
  /** Default: `Bearer <the server's key>`; null sends no Authorization header. */
  key?: string | null;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export async function call(server: TestServer, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? server.key : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const type = options.contentType === undefined ? 'application/json' : options.contentType;
    if (type !== null) headers['content-type'] = type;
  }
  const response = await fetch(server.url + path, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Asserts a well-formed error answer: status, JSON content type, the one body shape, type, code and param. */
export function assertError(answer: Answer, status: number, code: string, param?: string | null): void {
  assert.equal(answer.status, status, `expected ${status} ${code}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const parsed = ErrorBody.safeParse(answer.json);
  assert.ok(parsed.success, `not the error shape: ${answer.text.slice(0, 300)}`);
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  assert.equal(answer.json.error.type, type);
  assert.equal(answer.json.error.code, code, answer.json.error.message);
  if (param !== undefined) assert.equal(answer.json.error.param, param);
  assert.ok(answer.json.error.message.length > 0);
  assert.doesNotMatch(answer.json.error.message, /\n\s+at /, 'message contains a stack trace');
  assert.ok(answer.headers.get('x-request-id'), 'X-Request-Id header');
}

/** Sends raw bytes on a fresh TCP connection (in parts, with pauses) and returns everything the server sent until it closed. */
export function rawExchange(url: string, parts: (string | number)[], overallTimeoutMs = 5000): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${overallTimeoutMs} ms; got: ${text.slice(0, 200)}`));
    }, overallTimeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else socket.write(part);
      }
    });
  });
}

/** Splits a raw HTTP/1.1 response into status, headers and body. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const head = text.slice(0, end).split('\r\n');
  const status = Number(head[0]?.split(' ')[1]);
  const headers = Object.fromEntries(head.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status, headers, body: text.slice(end + 4) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A prompt of roughly `words` words with filler, code and numbers (what the core must keep). */
export function wordyPrompt(words: number): string {
  const filler = [
    'Please could you kindly take a careful look at the following text and basically summarize it for me,',
    'making sure that you really do keep all of the important details that are actually relevant here.',
    'It is very important that the function parseConfig() in src/config.ts returns 42 when given "--verbose".',
    'In order to be able to do this properly, you should definitely consider each and every single point.',
  ];
  const out: string[] = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    const sentence = filler[i % filler.length]!;
    out.push(sentence);
    count += sentence.split(' ').length;
  }
  return out.join(' ');
}
