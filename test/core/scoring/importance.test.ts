import { strict as assert } from 'node:assert';
import { rankSentences } from '../../../src/core/scoring/importance';
import { segment } from '../../../src/core/passes/segment';
import { sentenceText } from '../../../src/core/doc';
import { tokenizerFor } from '../../../src/core/tokenizer';
import { optimize } from '../../../src/core';

const rank = (text: string) => {
  const ranked = rankSentences(segment(text, '', tokenizerFor('o200k_base')));
  return (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
};

describe('core/scoring/importance without a task', () => {
  it("keeps each paragraph's topic sentence of a text to read before the details", () => {
    const text =
      'The old harbour of the town was rebuilt after the great storm. Fishermen repaired their boats on the northern beach. ' +
      'Merchants moved their warehouses closer to the water.\n\n' +
      'A railway line reached the valley a few decades later. Farmers sent grain and timber to the coast by train. ' +
      'Travellers came from the capital to walk in the hills.\n\n' +
      'The town school opened its doors to girls at the same time. Teachers arrived from the university to teach science. ' +
      'Parents paid for books with eggs and milk.';
    const out = optimize({ text, budget: '40%', mode: 'strict' }).text;
    assert.equal(
      out,
      'The old harbour of the town was rebuilt after the great storm.\n\nA railway line reached the valley a few decades later.\n\n' +
        'The town school opened its doors to girls at the same time.',
    );
  });

  it('reads no rule into a text to read: a "not" or "only" in an article outranks no specific fact', () => {
    const score = rank(
      'The museum stands on the east bank of the river. Some visitors did not like the new wing at first. ' +
        'The collection reopened in 1987 with 40,000 objects from Japan and Korea. The garden stayed the same, only older.',
    );
    assert.ok(score('The collection reopened') > score('Some visitors did not'));
    assert.ok(score('The collection reopened') > score('The garden stayed'));
  });

  it('gives a prompt no bonus for paragraph openings: its rules carry its value', () => {
    const score = rank(
      'You are a support assistant for a storage company that sells plans to teams. Customers write in about billing.\n\n' +
        '- Never promise refunds above $250.',
    );
    const plain = rank('You are a support assistant for a storage company that sells plans to teams.\n\nCustomers write in about billing.\n\n- Never promise refunds above $250.');
    assert.equal(score('You are'), plain('You are'));
  });

  it('reads word rarity in the text where there is no frequency table (Chinese)', () => {
    // The same length; the first sentence repeats what every sentence says, the second names things
    // said nowhere else.
    const score = rank(
      '这个城市的历史很长。这个城市的历史很长也很有名。' + '港口在一八五零年由商人修建。' + '这个城市的历史很长很长。',
    );
    assert.ok(score('港口') > score('这个城市的历史很长也'), 'the sentence with words found nowhere else is worth more');
  });
});

describe('core/scoring/importance: what the prompt is about', () => {
  const text = [
    'Hello! Just a few notes about this project, I will try to keep them short.', '',
    'This is the iOS app for Juniper & Moss, a plant-care and watering-reminder app. It is written in Swift 5.9.', '',
    '- Use SwiftUI only; do not add UIKit view controllers for new screens.',
    '- The deployment target is iOS 16, so never use APIs that need iOS 17 without an availability check.',
    '- Networking goes through `ApiClient`; do not call URLSession directly from views.',
    '- All user-visible text goes in Localizable.strings, no hard-coded strings in views.',
    '- Tests use XCTest and swift-snapshot-testing.', '',
    "That's about it, thanks!",
  ].join('\n');

  it('ranks the opening sentence that names the product ("This is the iOS app for Juniper & Moss") with the rules', () => {
    const score = rank(text);
    assert.ok(score('This is the iOS app') > score('Tests use XCTest'), `${score('This is the iOS app')} vs ${score('Tests use XCTest')}`);
    assert.ok(score('This is the iOS app') > score('It is written in Swift'));
  });

  it('keeps it where a quarter of the prompt goes', () => {
    const out = optimize({ text, budget: '75%', mode: 'strict' }).text;
    assert.ok(out.includes('This is the iOS app for Juniper & Moss'), out);
  });
});

describe('core/scoring/importance: a section titled as the task', () => {
  it('ranks the instructions under "## Your task" as the task statement, above the same kind of rule elsewhere', () => {
    const text =
      'You help the finance team with supplier invoices.\n\n## Your task\n\nYou will receive the OCR text of one invoice below. ' +
      'Extract the fields in the schema and return them as one JSON object.\n\n## Notes\n\nExtract the totals in the currency the invoice shows and return them as numbers.';
    for (const task of ['', 'Extract invoice fields into JSON.']) {
      const ranked = rankSentences(segment(text, task, tokenizerFor('o200k_base')));
      const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
      assert.ok(score('Extract the fields') - score('Extract the totals') > 0.2, `task ${JSON.stringify(task)}: ${score('Extract the fields')} vs ${score('Extract the totals')}`);
    }
  });

  it('does so under a "Task:" label on a line of its own, as prompts laid out as Context/Task/Output have it', () => {
    const text =
      'Context:\nWe run a weekly newsletter for bookshop owners.\n\nTask:\nWrite a reusable prompt for subject lines. The prompt you write should name the audience and what to avoid.\n\n' +
      'Notes:\nThe list you keep should name the audience and what to avoid.';
    const ranked = rankSentences(segment(text, '', tokenizerFor('o200k_base')));
    const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
    assert.ok(score('The prompt you write') - score('The list you keep') > 0.2, `${score('The prompt you write')} vs ${score('The list you keep')}`);
  });
});

describe('core/scoring/importance with a task', () => {
  it("values a prompt's facts (amounts, dates) whatever the task's words, not only its rules", () => {
    const text =
      'You answer questions about the leave policy of our company.\n\n- Use only the documents below.\n- Cite the document you use.\n\n' +
      '<document>\nParents receive 16 weeks of paid leave within 12 months of the birth. The leave policy was written to support families.\n</document>';
    const ranked = rankSentences(segment(text, 'Answer an employee question about leave from the policy documents.', tokenizerFor('o200k_base')));
    const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
    assert.ok(score('Parents receive 16 weeks') > score('The leave policy was written'));
  });

  it("reads no rule into quoted material: a draft's 'not' weighs nothing there", () => {
    const text =
      'Rewrite my email to the supplier, formal but firm.\n\nMy draft:\n' +
      '"You did not send the order on time. You sent the order too late. We want the penalty of the contract. Regards, Nuria"';
    for (const task of ['', 'Rewrite a supplier email.']) {
      const ranked = rankSentences(segment(text, task, tokenizerFor('o200k_base')));
      const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
      assert.ok(Math.abs(score('You did not send') - score('You sent the order')) < 0.2, `task ${JSON.stringify(task)}`);
    }
  });

  it('values an instruction as much with a task as without: it clearly outranks description the task does not name', () => {
    const text = 'You help the customers of our router shop.\n\n- Reply in the language the customer writes in.\n- Keep answers short.\n\nMost of our staff answer chats remotely.';
    for (const task of ['', 'System prompt for a router shop support chatbot.']) {
      const ranked = rankSentences(segment(text, task, tokenizerFor('o200k_base')));
      const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
      assert.ok(score('Keep answers short') - score('Most of our staff') > 0.1, `task ${JSON.stringify(task)}`);
    }
  });
});

describe('core/scoring/importance: a task the closing question restates', () => {
  it('measures relevance against what selection can choose, not against the pinned question', () => {
    // Before, "Employee question: … mileage?" set the scale: the fact that answers it scored below a rule about
    // TOIL, and at 33% the answer went while three unrelated facts stayed.
    const text = [
      'You are an assistant for the HR team at Brightwater Logistics, a freight company with about 1,400 employees across 6 depots in the UK.',
      "Answer the employee's question using only the policy facts listed below.",
      'Policy facts:\n1. Annual leave requests must be submitted at least 14 days in advance, unless the request is for 1 day or less.\n' +
        '2. Up to 5 unused days can be carried over into the next leave year; the leave year runs from 1 April to 31 March.\n' +
        '3. TOIL must be taken within 3 months of being earned, otherwise it expires.\n' +
        '4. Mileage is reimbursed at 45p per mile for the first 10,000 miles in a tax year and 25p after that.\n' +
        '5. Shift swaps between drivers need approval from the depot manager, not from HR.',
      'Never share personal data. Be friendly, but keep answers under 80 words.',
      'Employee question: "I did 12,500 miles for work this year, how much do I get back for mileage?"',
    ].join('\n\n');
    const task = 'How much mileage reimbursement do I get for 12,500 miles this tax year?';
    const ranked = rankSentences(segment(text, task, tokenizerFor('o200k_base')));
    const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).startsWith(start))!.score;
    for (const other of ['Annual leave requests', 'Up to 5 unused days', 'TOIL must be taken', 'Shift swaps between'])
      assert.ok(score('Mileage is reimbursed') > score(other), other);
  });
});
