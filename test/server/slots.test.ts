/** The cap on concurrent work: runs up to `slots`, then a first-come line of at most `maxWaiting`. */
import { strict as assert } from 'node:assert';
import { WorkSlots } from '../../src/server/slots';

describe('server: work slots', () => {
  it('runs up to the slot count, then serves the line first come, first served', async () => {
    const slots = new WorkSlots(2, 3);
    const never = new AbortController().signal;
    await slots.acquire(never);
    await slots.acquire(never);
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => slots.acquire(never).then(() => order.push(n)));
    assert.equal(slots.pending, 5);
    assert.equal(slots.full, true);
    slots.release();
    await waiting[0];
    slots.release();
    slots.release();
    await Promise.all(waiting);
    assert.deepEqual(order, [1, 2, 3]);
    assert.equal(slots.pending, 2);
    assert.equal(slots.full, false);
  });

  it('lets an aborted request leave the line without taking a slot', async () => {
    const slots = new WorkSlots(1, 5);
    const never = new AbortController().signal;
    await slots.acquire(never);
    const leaving = new AbortController();
    const gone = slots.acquire(leaving.signal);
    const next = slots.acquire(never);
    leaving.abort();
    await assert.rejects(gone);
    assert.equal(slots.pending, 2);
    slots.release();
    await next;
    assert.equal(slots.pending, 1);
    await assert.rejects(slots.acquire(AbortSignal.abort()));
    assert.equal(slots.pending, 1);
  });
});
