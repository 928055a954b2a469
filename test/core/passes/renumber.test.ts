import { strict as assert } from 'node:assert';
import { render } from '../../../src/core/doc';
import { renumberLists } from '../../../src/core/passes/renumber';
import { parse } from '../helpers';

/** Parses `text`, removes the list items and lead-ins whose text includes one of `drop`, renumbers and renders. */
function without(text: string, drop: string[]): string {
  const doc = parse(text);
  for (const block of doc.blocks) {
    for (const s of block.sentences) if (drop.some((d) => s.pieces.some((p) => p.text.includes(d)))) s.removed = true;
    // A bold label over nested items is a lead-in (structure): it goes as a whole block.
    if (block.kind === 'heading' && drop.some((d) => block.body.includes(d))) block.removed = true;
  }
  renumberLists(doc);
  return render(doc);
}

describe('core/passes/renumber', () => {
  it('numbers the kept items of an ordered list again from its first number', () => {
    const text = 'Rules:\n\n1. Answer in German.\n2. Never ask for addresses.\n3. Keep it short.\n4. Use the informal du.';
    assert.equal(without(text, ['German', 'short']), 'Rules:\n\n1. Never ask for addresses.\n2. Use the informal du.');
  });

  it('numbers an item that introduces a nested list with the others', () => {
    const text = '1. Initialize.\n2. Send ping.\n3. Call each discovery method:\n   - `tools/list`\n   - `prompts/list`\n4. Follow pagination.';
    assert.equal(without(text, ['Initialize']), '1. Send ping.\n2. Call each discovery method:\n   - `tools/list`\n   - `prompts/list`\n3. Follow pagination.');
  });

  it('keeps nested items under their parent and numbers parallel lists on their own', () => {
    const text = '1) Check the API.\n   - Every handler validates input.\n2) Check the database.\n3) Check the logs.\n\nThen:\n\n5. Write the summary.\n6. Send it.';
    assert.equal(
      without(text, ['database', 'Write the summary']),
      '1) Check the API.\n   - Every handler validates input.\n2) Check the logs.\n\nThen:\n\n5. Send it.',
    );
  });

  it('numbers a loose list whose items hold nested lead-ins, paragraphs and code', () => {
    const text = '### Phase 2\n\n1. **Analyze changes**\n   - Look for:\n     - deploys\n\n2. **Deep dive**\n\n   Open the slowest trace.\n\n   ```\n   query()\n   ```\n\n3. **Examine errors**\n   - Correlate with changes.';
    assert.equal(without(text, ['Analyze changes', 'deploys', 'Deep dive', 'slowest trace']).replace(/\n+/g, '\n').split('\n').filter((l) => /^\d\./.test(l)).join(' '), '1. **Examine errors**');
  });

  it('leaves lists as written when their numbers were not in sequence, or the prompt points at an item by number', () => {
    const lazy = '1. Answer in German.\n1. Never ask for addresses.\n1. Keep it short.';
    assert.equal(without(lazy, ['German']), '1. Never ask for addresses.\n1. Keep it short.');
    const referenced = '1. Read the ticket.\n2. Check the order.\n3. Reply.\n\nIf step 3 fails, escalate.';
    assert.equal(without(referenced, ['Read the ticket']), '2. Check the order.\n3. Reply.\n\nIf step 3 fails, escalate.');
    // The output cites the playbook's items by number: a renumbered list would make every citation wrong.
    const cited = '1. Liability cap of 12 months.\n2. Data in the EU.\n3. Renewal notice of 90 days.\n\nEach issue has "playbook_item" (number, or null if not covered).';
    assert.equal(without(cited, ['Liability cap']), '2. Data in the EU.\n3. Renewal notice of 90 days.\n\nEach issue has "playbook_item" (number, or null if not covered).');
  });
});
