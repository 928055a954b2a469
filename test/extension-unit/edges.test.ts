import * as assert from 'node:assert/strict';
import { isUnchanged, keepOriginalEdges, placeResult } from '../../src/extension/logic/edges';

describe('extension/logic/edges', () => {
  it('keeps the final newline of a whole document', () => {
    assert.equal(keepOriginalEdges('Please summarize this.\n', 'Summarize this.'), 'Summarize this.\n');
  });

  it('keeps leading and trailing blank lines and indentation of the selection', () => {
    assert.equal(keepOriginalEdges('\n\n  Some words here.  \n\n', 'Words here.'), '\n\n  Words here.  \n\n');
    assert.equal(keepOriginalEdges('No edges.', 'Edges.'), 'Edges.');
  });

  it('replaces white space the engine left at the edges by the original\'s', () => {
    assert.equal(keepOriginalEdges('Text.\n', '\nShort.\n\n'), 'Short.\n');
  });

  it('leaves an empty proposal empty (it is refused elsewhere)', () => {
    assert.equal(keepOriginalEdges('Text.\n', ''), '');
    assert.equal(keepOriginalEdges('Text.\n', '  '), '  ');
  });

  it('code-only text that the core left alone comes back identical', () => {
    const code = '```js\nconst x = 1;\n```\n';
    assert.ok(isUnchanged(code, keepOriginalEdges(code, code.trim())));
    assert.ok(!isUnchanged(code, 'const x = 1;'));
  });
});

describe('extension/logic/edges placeResult', () => {
  it('recounts only when the edges changed the text', () => {
    const count = (text: string): number => text.length;
    assert.deepEqual(placeResult({ text: 'Short.', optimizedTokens: 3 }, 'Long text.\n', count), { text: 'Short.\n', optimizedTokens: 7 });
    const same = { text: 'Short.', optimizedTokens: 3 };
    assert.equal(placeResult(same, 'Long text.', count), same);
  });
});
