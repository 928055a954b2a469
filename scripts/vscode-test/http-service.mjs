// The project's own HTTP service (`prompt-optimizer serve`, dist/cli.js) on 127.0.0.1 and a free port,
// with a fresh test API key, for the remote-engine suite. Never a mock server.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startGroup, waitForHttp } from './processes.mjs';

/** A key in the service's test format: `tk_test_` + 40 URL-safe characters. */
export function makeTestKey() {
  return `tk_test_${randomBytes(30).toString('base64url')}`;
}

/** Whether dist/cli.js has a `serve` subcommand; returns a reason string when it has not. */
export function serveUnavailable(repo) {
  const cli = join(repo, 'dist', 'cli.js');
  if (!existsSync(cli)) return 'dist/cli.js not built';
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 20000 });
  const text = `${help.stdout ?? ''}\n${help.stderr ?? ''}`;
  if (!/^\s*serve\b/m.test(text)) return '`prompt-optimizer --help` lists no `serve` command yet';
  return null;
}

/**
 * Starts `node dist/cli.js serve --host 127.0.0.1 --port N --workers 1` with PROMPT_OPTIMIZER_API_KEY
 * set; ready when GET /healthz answers 200.
 * Returns { url, apiKey, port, logFile, stop() }.
 */
export async function startHttpService({ repo, runDir }) {
  const apiKey = makeTestKey();
  const port = await freePort();
  const logFile = join(runDir, 'http-service.log');
  const env = { ...process.env, PROMPT_OPTIMIZER_API_KEY: apiKey, NODE_ENV: 'test' };
  const args = [join(repo, 'dist', 'cli.js'), 'serve', '--host', '127.0.0.1', '--port', String(port), '--workers', '1'];
  const service = startGroup(process.execPath, args, { env, cwd: repo, logFile });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, { what: `HTTP service (log: ${logFile})`, exited: service.exited, timeoutMs: 30000, ok: (status) => status === 200 });
  return { ...service, url, apiKey, port, logFile };
}
