/**
 * Graceful close under load: every request whose bytes reached the server before close began gets an
 * answer (200, or 503 shutting_down with Retry-After when the grace period runs out), never a reset.
 */
import { strict as assert } from 'node:assert';
import { connect, type Socket } from 'node:net';
import { parseRawResponse, startTestServer, stubPool, type TestServer } from './helpers';

const CONNECTIONS = 100;
const TRIALS = 20;

/**
 * Opens `count` connections and resolves once each is established: by the client, or (`waitForAccept`) also
 * by the server. Established but not yet accepted means still in the kernel's queue.
 */
async function openConnections(server: TestServer, count: number, waitForAccept = true): Promise<Socket[]> {
  const { hostname, port } = new URL(server.url);
  let accepted = 0;
  const allAccepted = new Promise<void>((done) => {
    const onConnection = () => {
      if (++accepted < count) return;
      server.server.app.server.off('connection', onConnection);
      done();
    };
    server.server.app.server.on('connection', onConnection);
  });
  const sockets = Array.from({ length: count }, () => connect({ host: hostname, port: Number(port) }));
  await Promise.all(sockets.map((socket) => new Promise((done) => socket.once('connect', done))));
  if (waitForAccept) await allAccepted;
  return sockets;
}

/** Everything the server sends on `socket` until it closes; '' for a reset or a close without an answer. */
function answerOf(socket: Socket): Promise<string> {
  return new Promise((done) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => done(text));
  });
}

function request(key: string, text: string): string {
  const body = JSON.stringify({ text });
  return `POST /optimize HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function assertAnswered(raw: string, index: number): number {
  assert.ok(raw.startsWith('HTTP/1.1 '), `request ${index} got no answer (connection closed or reset)`);
  const answer = parseRawResponse(raw);
  if (answer.status === 503) {
    assert.equal(JSON.parse(answer.body).error.code, 'shutting_down', raw);
    assert.ok(Number(answer.headers['retry-after']) > 0, 'Retry-After');
  } else {
    assert.equal(answer.status, 200, raw);
  }
  return answer.status;
}

describe('server: graceful close under load', function () {
  this.timeout(180_000);

  it(`answers all ${CONNECTIONS} requests sent before close began, in ${TRIALS} trials`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const server = await startTestServer({}, { executor: stubPool(2, CONNECTIONS) });
      // Half the trials close while some connections may still wait in the kernel's accept queue.
      const sockets = await openConnections(server, CONNECTIONS, trial % 2 === 0);
      const answers = sockets.map(answerOf);
      // In one synchronous block: the requests reach the server's socket buffers, unread, then close begins.
      for (const socket of sockets) socket.write(request(server.key, 'hello'));
      const closing = server.close();
      const raw = await Promise.all(answers);
      await closing;
      raw.forEach(assertAnswered);
    }
  });

  it('answers 503 shutting_down with Retry-After to requests it cannot finish within the grace period', async () => {
    const server = await startTestServer({ shutdownGraceMs: 300, taskTimeoutMs: 60_000 }, { executor: stubPool(1, 8) });
    const sockets = await openConnections(server, 3);
    const answers = sockets.map(answerOf);
    // One request runs for 20 s, the other two wait behind it: none can finish within 300 ms.
    sockets.forEach((socket, i) => socket.write(request(server.key, i === 0 ? 'sleep:20000' : 'sleep:1')));
    await new Promise((done) => server.server.app.server.once('request', () => setImmediate(done)));
    await server.close();
    const statuses = (await Promise.all(answers)).map(assertAnswered);
    assert.deepEqual(statuses, [503, 503, 503]);
  });
});
