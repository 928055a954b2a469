import * as assert from 'node:assert/strict';
import { decideAccept, PendingStore, resolveTarget, type PendingProposal } from '../../src/extension/logic/pending';

function proposal(key: string, documentKey: string, start: number, end: number, version = 1, originalText = 'original'): PendingProposal {
  return { key, documentKey, start, end, version, originalText, optimizedText: 'short', title: 't', engine: 'local', originalTokens: 10, optimizedTokens: 5, softLimitEnforced: false, review: { summary: undefined, rulesDropped: [], engine: 'local engine' } };
}

describe('extension/logic/pending', () => {
  it('accepts only when the document is open, at the same version, with the same text in range', () => {
    const p = proposal('p1', 'doc:a', 0, 8, 3);
    assert.deepEqual(decideAccept(p, { open: true, version: 3, textInRange: 'original' }), { ok: true });
    assert.equal(decideAccept(p, { open: true, version: 4, textInRange: 'original' }).ok, false);
    const changed = decideAccept(p, { open: true, version: 3, textInRange: 'changed!' });
    assert.equal(!changed.ok && changed.reason, 'changed');
    const closed = decideAccept(p, { open: false, version: 3, textInRange: 'original' });
    assert.equal(!closed.ok && closed.reason, 'closed');
    assert.match(!closed.ok ? closed.message : '', /nothing was replaced/);
  });

  it('keeps proposals of different documents apart', () => {
    const store = new PendingStore();
    store.add(proposal('p1', 'doc:a', 0, 5));
    store.add(proposal('p2', 'doc:b', 10, 20));
    store.add(proposal('p3', 'doc:a', 30, 40));
    assert.deepEqual(store.forDocument('doc:a').map((p) => [p.start, p.end]), [[0, 5], [30, 40]]);
    assert.deepEqual(store.forDocument('doc:b').map((p) => [p.start, p.end]), [[10, 20]]);
    assert.equal(store.delete('p1')?.documentKey, 'doc:a');
    assert.equal(store.get('p1'), undefined);
    assert.equal(store.size, 2);
  });

  it('resolves which proposal a command means: named, else active, else the only one', () => {
    const store = new PendingStore();
    assert.equal(resolveTarget(store, undefined, undefined), undefined);
    store.add(proposal('p1', 'doc:a', 0, 5));
    assert.equal(resolveTarget(store, undefined, undefined)?.key, 'p1');
    store.add(proposal('p2', 'doc:b', 0, 5));
    assert.equal(resolveTarget(store, undefined, undefined), undefined, 'ambiguous');
    assert.equal(resolveTarget(store, undefined, 'p2')?.key, 'p2');
    assert.equal(resolveTarget(store, 'p1', 'p2')?.key, 'p1');
    assert.equal(resolveTarget(store, 'gone', 'p2')?.key, 'p2');
  });
});
