/**
 * The first half of a graceful close: stop accepting connections, then let every request already sent
 * finish, up to a deadline. Node's http `close()` would instead destroy at once each connection whose
 * request bytes are still unread (it counts them as idle), and closing the listener before accepting
 * its backlog resets connections the kernel already took: those clients got no answer. Fastify's
 * `close()` runs after this, when only idle keep-alive connections are left.
 */
import { setMaxListeners } from 'node:events';
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';

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
      response.once('close', () => {
        this.inFlight--;
        this.check();
      });
    });
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
      // First accept what the kernel has already queued (a poll phase may take just one of them, and
      // closing the listener resets the rest), and read what is already in socket buffers.
      let seen = -1;
      while (seen !== this.accepted && !this.deadline.signal.aborted) {
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
