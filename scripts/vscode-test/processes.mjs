// Child processes for the real-VS-Code tests: each one in its own process group, ended as a group
// (so code-server's extension host and pty children end too), also when the harness fails or is
// interrupted.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';

const groups = new Set(); // pids of live process-group leaders
const cleanups = []; // async functions run once on shutdown, newest first

/** Registers an async cleanup (browser close, temp folder removal…), run by `shutdown()`. */
export function onShutdown(fn) {
  cleanups.push(fn);
}

let shuttingDown = null;
/** Runs the cleanups (newest first) and ends every process group still alive. Idempotent. */
export function shutdown() {
  shuttingDown ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        console.error(`[vscode-test] cleanup failed: ${error?.message ?? error}`);
      }
    }
    await Promise.all([...groups].map((pid) => killGroup(pid)));
  })();
  return shuttingDown;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

/** SIGTERM to the group, then SIGKILL after `graceMs` if anything in it is still alive. */
export async function killGroup(pid, graceMs = 3000) {
  if (!groups.has(pid)) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!signalGroup(pid, 0)) break;
    await sleep(100);
  }
  signalGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

// Last resort when the process exits without shutdown() (e.g. an uncaught error): synchronous SIGKILL.
process.on('exit', () => {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\n[vscode-test] ${signal}: stopping child processes`);
    shutdown().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)));
  });
}

/**
 * Starts `command args` in a new process group, stdout+stderr appended to `logFile`.
 * Returns { child, pid, exited: Promise<{code, signal}>, stop() }.
 */
export function startGroup(command, args, { env, cwd, logFile }) {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  groups.add(child.pid);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
  });
  exited.then(() => setTimeout(() => log.end(), 50));
  return { child, pid: child.pid, exited, stop: () => killGroup(child.pid) };
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `url` until it answers with a status accepted by `ok` (default: any HTTP answer), the
 * process exits, or `timeoutMs` passes. Throws with `what` in the message on failure.
 */
export async function waitForHttp(url, { what, exited, timeoutMs = 30000, ok = () => true }) {
  let gone = null;
  exited?.then((result) => (gone = result));
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${what} exited before it was ready (code ${gone.code}, signal ${gone.signal})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer().catch(() => {});
      if (ok(response.status)) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error?.cause?.code ?? error?.message ?? String(error);
    }
    await sleep(150);
  }
  throw new Error(`${what} not ready at ${url} after ${timeoutMs} ms (${last})`);
}
