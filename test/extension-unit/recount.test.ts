import * as assert from 'node:assert/strict';
import { countsLanguage, EDIT_IDLE_MS, IdleRunner, LARGE_EDIT_IDLE_MS, recountDelay, SELECTION_DEBOUNCE_MS, type Timers } from '../../src/extension/logic/recount';

/** A manual clock: timers fire only when the test advances it. */
class FakeTimers implements Timers {
  now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  set(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, callback });
    return id;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue;
      this.due.delete(id);
      timer.callback();
    }
  }
}

describe('extension/logic/recount', () => {
  it('a burst of keystrokes never counts while typing, and counts once after the pause', () => {
    const timers = new FakeTimers();
    let counts = 0;
    const runner = new IdleRunner(() => counts++, timers);
    for (let key = 0; key < 200; key++) {
      runner.request(recountDelay('edit', false));
      timers.advance(EDIT_IDLE_MS - 1); // the next key comes just before the pause would end
    }
    assert.equal(counts, 0);
    timers.advance(1);
    assert.equal(counts, 1);
    assert.equal(runner.isPending, false);
  });

  it('waits after an edit longer than after a selection move, and longest for very large text', () => {
    assert.ok(recountDelay('edit', false) > recountDelay('selection', false));
    assert.equal(recountDelay('selection', false), SELECTION_DEBOUNCE_MS);
    assert.equal(recountDelay('edit', true), LARGE_EDIT_IDLE_MS);
    assert.ok(LARGE_EDIT_IDLE_MS > EDIT_IDLE_MS);
    assert.equal(recountDelay('editor', false), 0);
  });

  it('cancel drops a pending count', () => {
    const timers = new FakeTimers();
    let counts = 0;
    const runner = new IdleRunner(() => counts++, timers);
    runner.request(10);
    runner.cancel();
    timers.advance(100);
    assert.equal(counts, 0);
  });

  it('counts only the configured languages; "*" means all', () => {
    const defaults = ['markdown', 'plaintext', 'prompt'];
    assert.ok(countsLanguage('markdown', defaults));
    assert.ok(countsLanguage('prompt', defaults));
    assert.ok(!countsLanguage('typescript', defaults));
    assert.ok(countsLanguage('typescript', ['*']));
    assert.ok(!countsLanguage('markdown', []));
  });
});
