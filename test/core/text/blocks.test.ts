import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { render, sentenceText } from '../../../src/core/doc';
import { scanBlocks } from '../../../src/core/text/blocks';
import { parse } from '../helpers';

/** Each range as `kind:prefix|content` (the prefix is the text between start and contentStart). */
function blocks(text: string): string[] {
  return [...scanBlocks(text)].map((r) => `${r.kind}:${text.slice(r.start, r.contentStart)}|${text.slice(r.contentStart, r.end)}`);
}

describe('core/text/blocks', () => {
  it('takes each list item, nested or not, as one prose block with its marker as prefix', () => {
    assert.deepEqual(blocks('- one\n  - one.a\n    - one.a.i\n- two\n\n1. first\n   1) inner'), [
      'prose:- |one',
      'prose:  - |one.a',
      'prose:    - |one.a.i',
      'prose:- |two',
      'prose:1. |first',
      'prose:   1) |inner',
    ]);
  });

  it('keeps the continuation lines of a list item in its block', () => {
    assert.deepEqual(blocks('- first item goes on\n  over two lines.\n- second\n\n  with a paragraph of its own.'), [
      'prose:- |first item goes on\n  over two lines.',
      'prose:- |second',
      'prose:  |with a paragraph of its own.',
    ]);
  });

  it('takes each quoted line as its own prose block, so that quote markers stay in prefixes', () => {
    assert.deepEqual(blocks('> Quoted one.\n> Quoted two.\n>\n> > Nested.\n> - item in a quote'), [
      'prose:> |Quoted one.',
      'prose:> |Quoted two.',
      'markup:|>',
      'prose:> > |Nested.',
      'prose:> - |item in a quote',
    ]);
    // A fence inside a quote is code, not quoted prose.
    assert.deepEqual(blocks('> ```\n> code()\n> ```'), ['code:|> ```\n> code()\n> ```']);
  });

  it('reads `>` after a list marker as text unless a space follows ("more than")', () => {
    assert.deepEqual(blocks('- >100K users\n- > quoted'), ['prose:- |>100K users', 'prose:- > |quoted']);
  });

  it('recognises setext headings; an underline below several lines is a separator', () => {
    assert.deepEqual(blocks('Title\n=====\n\nSubtitle\n--------\n\nA paragraph\non two lines\n---\nAfter.'), [
      'heading:|Title\n=====',
      'heading:|Subtitle\n--------',
      'prose:|A paragraph\non two lines',
      'markup:|---',
      'prose:|After.',
    ]);
  });

  it('recognises tables without a leading pipe, and ends a table at a row without one', () => {
    assert.deepEqual(blocks('name | age\n--- | ---\nAda | 36\nNext sentence.'), ['table:|name | age\n--- | ---\nAda | 36', 'prose:|Next sentence.']);
    // Rows led by a pipe are a table even without a delimiter row (not CommonMark).
    assert.deepEqual(blocks('Intro.\n| a | b |\n| 1 | 2 |'), ['prose:|Intro.', 'table:|| a | b |\n| 1 | 2 |']);
  });

  it('makes tag lines markup and parses the lines between them as Markdown', () => {
    assert.deepEqual(blocks('<rules>\n- a\n- b\n</rules>'), ['markup:|<rules>', 'prose:- |a', 'prose:- |b', 'markup:|</rules>']);
    assert.deepEqual(blocks('Text before.\n<example lang="en">\n```\ncode\n\nmore\n```\n</example>'), [
      'prose:|Text before.',
      'markup:|<example lang="en">',
      'code:|```\ncode\n\nmore\n```',
      'markup:|</example>',
    ]);
    assert.deepEqual(blocks('- item\n  <note>\n  Indented text.\n  </note>'), ['prose:- |item', 'markup:|  <note>', 'prose:  |Indented text.', 'markup:|  </note>']);
  });

  it('reads a tag pair that holds a diff, code or a log as one code block between its tag lines', () => {
    // Before, the "-" and "+" lines of a diff in <diff> tags were list items: selection cut one hunk out.
    const diff = '--- a/login.go\n+++ b/login.go\n@@ -40,2 +40,2 @@\n-\trow := q(email)\n+\trow := q("\'" + email)\n \tvar id int64';
    assert.deepEqual(blocks(`<diff>\n${diff}\n</diff>`), ['markup:|<diff>', `code:|${diff}`, 'markup:|</diff>']);
    assert.deepEqual(blocks(`<changes>\n${diff}\n</changes>`), ['markup:|<changes>', `code:|${diff}`, 'markup:|</changes>']);
    assert.deepEqual(blocks('<log>\n- 12:01 retry 1\n- 12:02 retry 2\n</log>'), ['markup:|<log>', 'code:|- 12:01 retry 1\n- 12:02 retry 2', 'markup:|</log>']);
    // A section of rules stays Markdown, and a code tag without its partner frames nothing.
    assert.deepEqual(blocks('<notes>\n- a\n- b\n</notes>'), ['markup:|<notes>', 'prose:- |a', 'prose:- |b', 'markup:|</notes>']);
    assert.deepEqual(blocks('<code>\n- a'), ['markup:|<code>', 'prose:- |a']);
  });

  it('ends paragraphs and lists at tag lines even without blank lines (tagged few-shot examples)', () => {
    const example = '<example>\n<q>What is 2+2?</q>\n<a>4</a>\n</example>\n- item\n  <note>\n  </note>';
    assert.deepEqual(blocks(`${example}\n${example}`), Array(2).fill(['markup:|<example>', 'prose:|<q>What is 2+2?</q>\n<a>4</a>', 'markup:|</example>', 'prose:- |item', 'markup:|  <note>', 'markup:|  </note>']).flat());
  });

  it('keeps HTML comments as markup, and an unclosed one does not swallow the prompt', () => {
    assert.deepEqual(blocks('<!-- a note -->\nText.'), ['markup:|<!-- a note -->', 'prose:|Text.']);
    assert.deepEqual(blocks('<!-- never closed\nstill\n\nText after.'), ['markup:|<!-- never closed\nstill', 'prose:|Text after.']);
    assert.deepEqual(blocks('<p>Some text.</p>\nMore.'), ['prose:|<p>Some text.</p>\nMore.']);
  });

  it('lets an unclosed code fence protect only up to a blank line followed by prose', () => {
    assert.deepEqual(blocks('```js\nconst a = 1;\n\nfunction f() {\n  return a;\n}\n\nNow explain this code.\n\n- and list it'), [
      'code:|```js\nconst a = 1;\n\nfunction f() {\n  return a;\n}',
      'prose:|Now explain this code.',
      'prose:- |and list it',
    ]);
    assert.deepEqual(blocks('```\nno blank line, no end'), ['code:|```\nno blank line, no end']);
    // The tag section the fence was opened in closes it: "</rules>" is the section's end, not code.
    assert.deepEqual(blocks('<rules>\nBe brief.\n```py\nx = 1\n</rules>\nAfter.'), ['markup:|<rules>', 'prose:|Be brief.', 'code:|```py\nx = 1', 'markup:|</rules>', 'prose:|After.']);
    // A closing tag whose opening tag is in the code is code.
    assert.deepEqual(blocks('```html\n<div>\n</div>'), ['code:|```html\n<div>\n</div>']);
    // Closed fences keep their blank lines and anything inside.
    assert.deepEqual(blocks('```\na\n\nPlain words here.\n```\nAfter.'), ['code:|```\na\n\nPlain words here.\n```', 'prose:|After.']);
  });

  it('reads indented plain prose as text, indented code as code', () => {
    assert.deepEqual(blocks('Intro.\n\n    This paragraph is indented. It is still prose.\n\n    const x = compute(1);\n    return x;\n\n    - An indented list item.'), [
      'prose:|Intro.',
      'prose:    |This paragraph is indented. It is still prose.',
      'code:|    const x = compute(1);\n    return x;',
      'prose:    - |An indented list item.',
    ]);
    assert.deepEqual(blocks('    npm install --save foo'), ['code:|    npm install --save foo']);
    assert.deepEqual(blocks('    if x > 3:\n        print("big")'), ['code:|    if x > 3:\n        print("big")']);
  });

  it('keeps <keep> blocks, JSON and YAML that CommonMark would call paragraphs or lists', () => {
    assert.deepEqual(blocks('<keep>\n- a\n\n- b\n</keep>\n{"a": [1, 2]}\n\n- name: web\n  port: 80'), ['keep:|<keep>\n- a\n\n- b\n</keep>', 'data:|{"a": [1, 2]}', 'data:|- name: web\n  port: 80']);
  });

  it('reads lines of key = value pairs (.properties, .env) as one block of data, never cut inside a value', () => {
    // Before, a list of UI strings to translate was prose: "customer.list.empty = You don't have any customers
    // yet." lost its second sentence and "Check your connection and try again." its key.
    const strings = 'invoice.create.button = Create invoice\ncustomer.list.empty = You don\'t have any customers yet. Add your first customer.\nerror.network = We couldn\'t reach the server. Check your connection.';
    assert.deepEqual(blocks(`Strings:\n\n${strings}`), ['prose:|Strings:', `data:|${strings}`]);
    assert.deepEqual(blocks('API_URL=https://api.example.com\nAPI_KEY=abc123\nDEBUG=false'), ['data:|API_URL=https://api.example.com\nAPI_KEY=abc123\nDEBUG=false']);
    // Two lines, or an equation in prose, are text.
    assert.deepEqual(blocks('a = 1\nb = 2'), ['prose:|a = 1\nb = 2']);
    assert.deepEqual(blocks('The total = price × quantity, rounded.'), ['prose:|The total = price × quantity, rounded.']);
  });

  it('reads a stack trace pasted without a fence as one block of code', () => {
    // Before, the frames of a Python traceback were sentences: at 50% the "File …" lines went and a lone
    // frame stayed over the exception.
    const python = 'Traceback (most recent call last):\n  File "/app/views.py", line 84, in order_detail\n    context = build(order)\n  File "/app/dates.py", line 12, in format_window\n    return f"{start:%d %b}"\nTypeError: unsupported format string passed to NoneType.__format__';
    assert.deepEqual(blocks(`Here is the traceback:\n\n${python}\n\nWhat is wrong?`), ['prose:|Here is the traceback:', `code:|${python}`, 'prose:|What is wrong?']);
    const java = 'java.lang.NullPointerException: Cannot invoke "String.length()"\n    at com.acme.Orders.total(Orders.java:42)\n    at com.acme.Api.handle(Api.java:17)\nCaused by: java.io.IOException: closed\n    ... 3 more';
    assert.deepEqual(blocks(java), [`code:|${java}`]);
    // A sentence that names an error is text.
    assert.deepEqual(blocks('TypeError: the value was null. Fix it.'), ['prose:|TypeError: the value was null. Fix it.']);
  });

  it('splits a paragraph at lines with markers CommonMark does not know', () => {
    assert.deepEqual(blocks('Steps:\n• one\n• two\na) first\n3. third'), ['prose:|Steps:', 'prose:• |one', 'prose:• |two', 'prose:a) |first', 'prose:3. |third']);
  });

  it('leaves no text outside a range: an empty list item is markup; a link definition stays text', () => {
    assert.deepEqual(blocks('- a\n-\n- b'), ['prose:- |a', 'markup:|-', 'prose:- |b']);
    assert.deepEqual(blocks('[1]: https://example.com\nSee [1].'), ['prose:|[1]: https://example.com\nSee [1].']);
  });

  it('handles CRLF line endings with offsets into the original text', () => {
    const text = '# Title\r\n\r\n- one\r\n- two\r\n\r\n```\r\ncode\r\n```\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n';
    assert.deepEqual(blocks(text), ['heading:|# Title', 'prose:- |one', 'prose:- |two', 'code:|```\r\ncode\r\n```', 'table:|| a | b |\r\n|---|---|\r\n| 1 | 2 |']);
    assert.deepEqual(blocks('a\rb\r\rc'), ['prose:|a\rb', 'prose:|c']);
  });

  it('ends the last range at the end of a prompt without a trailing line break', () => {
    const text = 'Para.\n\n- item';
    const ranges = [...scanBlocks(text)];
    assert.equal(ranges.at(-1)!.end, text.length);
    assert.deepEqual(blocks('```\ncode\n```'), ['code:|```\ncode\n```']);
    assert.deepEqual(blocks(''), []);
    assert.deepEqual(blocks('\n\n  \n'), []);
  });

  it('gives segment blocks that render back to the input', () => {
    const text = [
      '# Task',
      '',
      '<instructions>',
      '1. Read the text.',
      '   Keep the indentation of this line.',
      '',
      '   A second paragraph in the item, indented.',
      '2. Answer.',
      '</instructions>',
      '',
      '> Quoted advice.',
      '>',
      '> More advice.',
      '',
      '    An indented paragraph of plain prose.',
      '',
      'a | b',
      '--|--',
      '1 | 2',
    ].join('\r\n');
    assert.equal(render(parse(text)), text);
  });

  it('keeps the line break of a sentence that went: one transcript turn per line', () => {
    const doc = parse('Regina: Bom, vamos começar. Estão aqui eu e o Jorge. A Luana avisou que não vinha.\nCarlos: Primeiro ponto, a reforma.');
    for (const s of doc.blocks[0]!.sentences) if (sentenceText(s).startsWith('A Luana')) s.removed = true;
    assert.equal(render(doc), 'Regina: Bom, vamos começar. Estão aqui eu e o Jorge.\nCarlos: Primeiro ponto, a reforma.');
  });

  it('drops a thematic break whose text went: no run of breaks, none opening or closing the output', () => {
    const doc = parse('Intro that goes.\n\n---\n\n# A\n\nText one.\n\n---\n\nGoes too.\n\n---\n\n## C\n\nText three.\n\n---\n\nGone at the end.');
    for (const block of doc.blocks) if (block.sentences.some((s) => /goes|Gone/i.test(sentenceText(s)))) block.removed = true;
    assert.equal(render(doc), '# A\n\nText one.\n\n---\n\n## C\n\nText three.');
    // Breaks side by side in the prompt stay as written.
    assert.equal(render(parse('A.\n\n---\n\n---\n\nB.')), 'A.\n\n---\n\n---\n\nB.');
  });

  const fragments = ['# H', 'Title', '===', '---', '- item', '  - nested', '1. one', '> quote', '```', '~~~', '    indented code()', '    Indented prose here.', '<rules>', '</rules>', '<keep>', '</keep>', '<!--', '-->', '<div>', '| a | b |', '|---|---|', 'a | b', '{"k": 1}', '[', ']', 'key: value', '  sub: 1', 'Plain sentence.', '• bullet', 'a) item', '\t', ''];
  const prompt = fc.oneof(
    fc.array(fc.constantFrom(...fragments), { maxLength: 20 }).chain((lines) =>
      fc.array(fc.constantFrom('\n', '\n\n', '\r\n', ' '), { minLength: lines.length, maxLength: lines.length }).map((seps) => lines.map((l, i) => l + seps[i]).join('')),
    ),
    fc.string({ maxLength: 200 }),
  );

  it('yields ordered, non-overlapping ranges with only whitespace between and around them', () => {
    fc.assert(
      fc.property(prompt, (text) => {
        let previous = 0;
        for (const r of scanBlocks(text)) {
          assert.ok(previous <= r.start && r.start <= r.contentStart && r.contentStart <= r.end && r.start < r.end, JSON.stringify({ text, r }));
          assert.match(text.slice(previous, r.start), /^\s*$/, JSON.stringify(text));
          previous = r.end;
        }
        assert.match(text.slice(previous), /^\s*$/, JSON.stringify(text));
      }),
      { seed: 7, numRuns: 3000 },
    );
  });
});
