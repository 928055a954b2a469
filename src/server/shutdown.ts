/**
 * The first half of a graceful close: stop accepting connections, then let every request already sent
 * finish, up to a deadline. Node's http `close()` would instead destroy at once each connection whose
 * request bytes are still unread (it counts them as idle), and closing the listener before accepting
 * its backlog resets connections the kernel already took: those clients got no answer. Fastify's
 * `close()` runs after this, when only idle keep-alive connections are left.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Node's default listen backlog. */
const MAX_BACKLOG = 511;

/** Most of a refused body read and dropped before the connection is cut. */
const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;

export class Drain {
  private inFlight = 0;
  private accepted = 0;
  /** Connections that have not sent a request yet: their first one may already be on its way. */
  private readonly fresh = new Set<Socket>();
  private wake: (() => void) | null = null;
  private started = false;
  /** Aborted when the grace period is over: work still waiting or running is then answered 503. */
  private readonly deadline = new AbortController();

  constructor(private readonly server: Server) {
    // One listener per request in flight.
    setMaxListeners(0, this.deadline.signal);
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.fresh.add(socket);
      socket.once('close', () => {
        this.fresh.delete(socket);
        this.check();
      });
    });
    server.on('request', (request, response) => {
      this.fresh.delete(request.socket);
      this.inFlight++;
      response.once('finish', () => {
        if (!request.complete) this.discardRest(request);
      });
      response.once('close', () => {
        this.inFlight--;
        this.check();
      });
    });
  }

  /**
   * Answered before its body arrived (413, or 503 while closing): read and drop the rest of the body, up
   * to a bound, so the client finishes sending and reads the answer instead of getting a reset.
   */
  private discardRest(request: IncomingMessage): void {
    let discarded = 0;
    request.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DISCARD_LIMIT_BYTES) request.socket.destroy();
    });
    request.once('end', () => {
      if (this.started) request.socket.end();
    });
    request.resume();
  }

  /** True from the start of the drain: answers then end their connection. */
  get draining(): boolean {
    return this.started;
  }

  get deadlineSignal(): AbortSignal {
    return this.deadline.signal;
  }

  private get idle(): boolean {
    return this.inFlight === 0 && this.fresh.size === 0;
  }

  private check(): void {
    if (this.idle) this.wake?.();
  }

  /** Resolves once nothing is in flight and every connection has sent its request, or at the deadline. */
  async run(graceMs: number): Promise<void> {
    if (this.started) return;
    this.started = true;
    const timer = setTimeout(() => {
      this.deadline.abort();
      this.wake?.();
    }, graceMs);
    try {
      // First accept what the kernel has already queued (a busy loop may take one per turn, and closing
      // the listener resets the rest), and read what is already in socket buffers. Not cut short by the
      // deadline: a late connection still gets an answer (a quick 503); the hard backstop bounds this.
      // Past the deadline, a client that keeps connecting cannot hold the listener open for ever: the
      // kernel's queue holds at most a backlog (511 by default) of connections, one per turn at worst.
      let seen = -1;
      let turnsPastDeadline = 0;
      while (seen !== this.accepted && (!this.deadline.signal.aborted || turnsPastDeadline++ < MAX_BACKLOG)) {
        seen = this.accepted;
        await nextTurn();
        await nextTurn();
      }
      // Stop listening without touching open connections (http.Server#close would close the "idle" ones).
      if (this.server.listening) NetServer.prototype.close.call(this.server);
      while (!this.deadline.signal.aborted && !this.idle) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
