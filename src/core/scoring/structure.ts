import { isForeignInstruction } from './instructions-intl';

// Verbs that open an instruction to the model ("Write…", "Never…", "Act as…").
const IMPERATIVE_OPENERS = new Set(
  ('act add answer apply ask avoid be begin call change check choose classify compare consider convert correct create define ' +
    'describe design do does don\'t draft edit ensure evaluate explain extract find fix focus follow format generate give help ' +
    'identify ignore imagine implement improve include keep label let list make mention never always only note offer output ' +
    'pretend provide put rank read refactor reply remember remove respond restate return review rewrite say score select ' +
    'send show simplify sort speak start state stay stop suggest summarize summarise tell think translate treat try type use ' +
    'verify wait write please assume limit prefer reply respond cite')
    .split(' '),
);
const MODAL = /\b(you|your [\w-]+|the (?:answer|output|response|reply))\b[^.!?]{0,40}\b(must|should|shall|need to|needs to|have to|has to|will|are (?:to|not)|may not|cannot|can't|won't)\b|\byou['’]ll\s/i;
// What the writer hopes will happen is no instruction: "… so hopefully you'll get it right the first time".
const HOPED = /\b(?:hopefully|i hope|we hope|maybe|perhaps|so that)\b[^.!?;]{0,20}\byou(?:['’]ll| will)\b/i;
const MODAL_SUBJECT = /the (?:answer|output|response|reply)/;
const DIRECTIVE = /\b(make sure|ensure that|i want you to|i need you to|i would like you to|i'd like you to|your (?:task|job|role|goal) is|you are an?|you're an?|only (?:reply|respond|answer|use|return|output|write))\b/i;
// Negations and absolutes count when they open the sentence or a clause after ":" or ";", not inside
// narrative ("the Broncos never trailed").
const CLAUSE_DIRECTIVE = /(?:^[^\p{L}]*|[;:]\s*)(do not|don't|never|always|avoid|no more than|at most|at least)\b/iu;
// Discourse markers in front of an instruction: "Also, do not…", "Finally, list…".
const LEAD_IN = /^[^\p{L}]*(?:(?:also|and|then|finally|lastly|additionally|next|now|so|first|firstly|second|secondly|third|later|afterwards|to (?:start|begin))\b[,\s]*)+/iu;

// The ask put as what the writer wants back: "What I'd like back: first a short explanation …",
// "What I need is a list of …".
const WANTED = /^[^\p{L}]*what i(?:'d| would)? (?:like|need|want|am after|'m after|am looking for|'m looking for)\b[^.:!?]{0,24}?(?:\bis\b|:)/iu;

// A label in front of an instruction: "Rules: use the informal "du" …", "Important: never …".
const LABEL = /^[^\p{L}]*\p{L}[\p{L} ]{0,24}:\s+(?=\S)/u;

/** An instruction to the model rather than content about the world, in English or (see instructions-intl) not. */
export function isInstruction(original: string, english = true): boolean {
  if (!english) return isForeignInstruction(original);
  const label = LABEL.exec(original);
  return opensInstruction(original) || (label !== null && opensInstruction(original.slice(label[0].length)));
}

function opensInstruction(original: string): boolean {
  const sentence = original.replace(LEAD_IN, '');
  const first = /^[^\p{L}]*([\p{L}']+)/u.exec(sentence)?.[1]?.toLowerCase() ?? '';
  if (IMPERATIVE_OPENERS.has(first)) return true;
  if (first === 'what' && WANTED.test(sentence)) return true;
  if (/\?\s*$/.test(sentence) && /\b(you|your)\b/i.test(sentence)) return true;
  // Substrings each pattern cannot match without (its matches are ASCII), checked first: cheaper.
  const lower = sentence.toLowerCase();
  const you = lower.includes('you');
  if ((you || MODAL_SUBJECT.test(lower)) && MODAL.test(sentence) && !HOPED.test(sentence)) return true;
  if ((you || lower.includes('make sure') || lower.includes('ensure that') || lower.includes('only ')) && DIRECTIVE.test(sentence)) return true;
  return CLAUSE_DIRECTIVE.test(sentence);
}
