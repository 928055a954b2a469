import { isForeignInstruction, statesWantForeign } from './instructions-intl';

// Verbs that open an instruction to the model ("Write…", "Never…", "Act as…").
const IMPERATIVE_OPENERS = new Set(
  ('act add answer apply ask avoid be begin call change check choose classify compare consider convert correct create define ' +
    'describe design do does don\'t draft edit ensure evaluate explain extract find fix focus follow format generate give help ' +
    'identify ignore imagine implement improve include keep label let list make mention never always only note offer output ' +
    'pretend provide put rank read refactor reply remember remove respond restate return review rewrite say score select ' +
    'send show simplify sort speak start state stay stop suggest summarize summarise tell think translate treat try type use ' +
    "verify wait write please assume limit prefer reply respond cite let's let’s")
    .split(' '),
);
// Verbs that open an instruction when an object or complement follows ("Turn this standup into …", "Run
// the tests", "Validate all request bodies"), not their subject use as nouns ("Order IDs are …", "Record
// numbers were …": see NOT_AFTER_VERB); a sentence of one word is a title ("Style", "Question").
const VERB_OPENERS = new Set(
  (
    'accept access acknowledge adapt address adjust adopt advise align allow analyse analyze annotate append ' +
    'approve argue arrange assess assign assist attach audit back bold book break brainstorm bring build ' +
    'bump calculate cap capitalize capitalise capture carry catch categorize categorise cc center centre ' +
    'challenge clarify clean clear close coach collapse collect combine comment commit compile complete ' +
    'compose compute condense configure confirm connect contact continue contrast convey copy count cover ' +
    'crop cross cut debug decide declare decline decode deduplicate default defer delete deliver demonstrate ' +
    'deny deploy derive detail detect determine develop diagnose disable discard discuss dispatch display ' +
    'divide document download drop dump echo elaborate eliminate email emit emphasize emphasise employ ' +
    'enable encode encourage end enforce enrich enter enumerate escalate escape establish estimate examine ' +
    'exclude execute expand expect explore export expose fetch fill filter finish flag flatten forecast ' +
    'forget forward frame gather get go greet group guess guide handle highlight hide hold import indent infer ' +
    'inform insert inspect install interpret introduce invent investigate invite invoke isolate join judge ' +
    'justify leave link load locate lock log look lower map mark match measure merge migrate minimize minimise ' +
    'mirror model modify monitor move name narrate negotiate normalize normalise notify number omit open ' +
    'optimize optimise order organize organise outline paraphrase parse paste pause pay pick pin place plan ' +
    'play point polish populate post predict prepare prepend present preserve press prevent print prioritize ' +
    'prioritise proceed process produce profile promote prompt proofread propose protect prove publish pull ' +
    'push query question quote raise reason recall receive recommend reconcile record recreate ' +
    'redact reduce refer reference reflect reformat refrain refuse regenerate register reject relate release ' +
    'rely rename render reorder rephrase replace report represent request research reset resize resolve ' +
    'restore restructure resume retrieve retry reuse reveal reverse reword round route run sanitize sanitise ' +
    'save scan schedule scope search separate serve set share shorten sign simulate sketch skip slow solve ' +
    'specify spell split spot squash stick store strip structure study style submit substitute supply ' +
    'support surface swap sync tag tailor take talk target teach test tidy track train transcribe transform ' +
    'trim troubleshoot turn underline understand undo unify update upgrade upload validate vary walk warn ' +
    'watch weigh welcome wrap yield zip'
  ).split(' '),
);
const NOT_AFTER_VERB = /^(?:is|are|was|were|be|been|has|have|had|of|will|would|can|could|may|might|must|should|shall|does|did|and|or|['’]s|\d.*)$/i;
// What an imperative acts on: "Confirm everything is …", "Run the …" (a noun here may be a subject).
const OBJECT_WORD = /^(?:the|a|an|this|that|these|those|my|our|your|its|their|it|them|me|us|him|her|all|every|each|any|some|no|everything|anything|nothing)$/i;

/**
 * "Turn this …", "Run tests before …" after a verb: an object, not a noun and its verb ("Support asked
 * …", "Support wants two …", "Order IDs are …").
 */
function opensObject(second: string | undefined, third: string | undefined): boolean {
  // "Pause and ask …": two imperatives ("Order and shipping are …": two nouns).
  if (second !== undefined && /^(?:and|or)$/i.test(second) && third !== undefined) return IMPERATIVE_OPENERS.has(third.toLowerCase()) || VERB_OPENERS.has(third.toLowerCase());
  if (second === undefined || NOT_AFTER_VERB.test(second)) return false;
  if (OBJECT_WORD.test(second)) return true;
  if (PAST.test(second) || (THIRD_PERSON.test(second) && third !== undefined && (OBJECT_WORD.test(third) || FOLLOWS_VERB.test(third)))) return false;
  return third === undefined || !NOT_AFTER_VERB.test(third);
}
const PAST = /^\p{L}{2,}ed$/u;
const THIRD_PERSON = /^\p{L}+[^su's]s$/u;
const FOLLOWS_VERB = /^(?:to|that|whether|two|three|four|five|several|many|more|\d.*)$/i;
const MODAL = /\b(you|your [\w-]+|the (?:answer|output|response|reply))\b[^.!?]{0,40}\b(must|should|shall|need to|needs to|have to|has to|will|are (?:to|not)|may not|cannot|can't|won't)\b|\byou['’]ll\s/i;
// What the writer hopes will happen is no instruction: "… so hopefully you'll get it right the first time".
const HOPED = /\b(?:hopefully|i hope|we hope|maybe|perhaps|so that)\b[^.!?;]{0,20}\byou(?:['’]ll| will)\b/i;
const MODAL_SUBJECT = /the (?:answer|output|response|reply)/;
const DIRECTIVE = /\b(make sure|ensure that|i want you to|i need you to|i would like you to|i'd like you to|your (?:task|job|role|goal) is|you are an?|you're an?|only (?:reply|respond|answer|use|return|output|write))\b/i;
// Negations and absolutes count when they open the sentence or a clause after ":" or ";", not inside
// narrative ("the Broncos never trailed").
const DIRECTIVE_WORDS = "(do not|don't|never|always|avoid|no more than|at most|at least)\\b";
const CLAUSE_DIRECTIVE = new RegExp(`(?:^[^\\p{L}]*|[;:]\\s*)${DIRECTIVE_WORDS}`, 'iu');
const OPENING_DIRECTIVE = new RegExp(`^[^\\p{L}]*${DIRECTIVE_WORDS}`, 'iu');
// Discourse markers in front of an instruction: "Also, do not…", "Finally, list…".
const LEAD_IN = /^[^\p{L}]*(?:(?:also|and|then|finally|lastly|additionally|next|now|so|first|firstly|second|secondly|third|later|afterwards|today|this time|to (?:start|begin))\b[,\s]*)+/iu;

// The ask put as what the writer wants back: "What I'd like back: first a short explanation …",
// "What I need is a list of …".
const WANTED = /^[^\p{L}]*(?:what i(?:'d| would)? (?:like|need|want|am after|'m after|am looking for|'m looking for)\b[^.:!?]{0,24}?(?:\bis\b|:)|(?:the|my|our) (?:idea|goal|plan|aim) (?:here )?is (?:that you|for you to)\b)/iu;

/** Whether the sentence says what the writer needs ("What I need is …", "The idea is that you …", "Lo que necesito es …"): the request itself. */
export const statesWant = (text: string, english: boolean): boolean => (english ? WANTED.test(text) : statesWantForeign(text));

// A label in front of an instruction: "Rules: use the informal "du" …", "Important: never …".
const LABEL = /^[^\p{L}]*\p{L}[\p{L} ]{0,24}:\s+(?=\S)/u;

/** An instruction to the model rather than content about the world, in English or (see instructions-intl) not. */
export function isInstruction(original: string, english = true): boolean {
  if (!english) return isForeignInstruction(original);
  const label = original.includes(':') ? LABEL.exec(original) : null; // most sentences have no colon
  return opensInstruction(original) || (label !== null && opensInstruction(original.slice(label[0].length)));
}

function opensInstruction(original: string): boolean {
  const fronted = FRONTED.exec(original);
  if (fronted && imperative(OPENING_WORDS.exec(original.slice(fronted[0].length)))) return true;
  const sentence = original.replace(LEAD_IN, '');
  const opening = OPENING_WORDS.exec(sentence);
  if (imperative(opening)) return true;
  if (WANTED.test(sentence)) return true;
  if (sentence.trimEnd().endsWith('?') && /\b(you|your)\b/i.test(sentence)) return true;
  // Substrings each pattern cannot match without (its matches are ASCII), checked first: cheaper.
  const lower = sentence.toLowerCase();
  const you = lower.includes('you');
  if ((you || MODAL_SUBJECT.test(lower)) && MODAL.test(sentence) && !HOPED.test(sentence)) return true;
  if ((you || lower.includes('make sure') || lower.includes('ensure that') || lower.includes('only ')) && DIRECTIVE.test(sentence)) return true;
  // After ";" or ":" only where the sentence has one: most have neither.
  return sentence.includes(';') || sentence.includes(':') ? CLAUSE_DIRECTIVE.test(sentence) : OPENING_DIRECTIVE.test(sentence);
}

/** Whether the sentence opens with a verb in the imperative ("Review the diff …"), not a modal ("You'll receive …"). */
export const opensImperative = (text: string): boolean => imperative(OPENING_WORDS.exec(text.replace(LEAD_IN, '')));

/** Whether the opening words (OPENING_WORDS) are a verb in the imperative: "tell me …", "Run the tests …". */
function imperative(opening: RegExpExecArray | null): boolean {
  const first = opening?.[1]?.toLowerCase() ?? '';
  return IMPERATIVE_OPENERS.has(first) || (VERB_OPENERS.has(first) && opensObject(opening![2], opening![3]));
}
// What the instruction works from or on, put first: "Using only the two release notes below, tell me …",
// "Based on the trace segments, identify …", "For each selected module, fetch its README".
const FRONTED = /^[^\p{L}]*(?:using|based on|given|according to|relying on|drawing on|from|for (?:each|every|all)|in light of)\s[^,;:.!?]{1,100},\s+/iu;

// What the work ends with, put first: "When you're done, run …", "When you finish a change, give me …",
// "At the end, give me a table …", "Once finished, list …".
const ON_COMPLETION = /^[^\p{L}]*(?:(?:when(?:ever)?|once|after) (?:you(?:['’]re| are|['’]ve| have) )?(?:you )?(?:done|finish(?:ed)?|complete(?:d)?)\b|at the (?:very )?end\b|in the end\b)[^,;:.!?]{0,60},\s+/iu;

/** Whether the sentence instructs what to do once the work is done: a prompt closing on it asks for it. */
export function asksOnCompletion(text: string): boolean {
  const fronted = ON_COMPLETION.exec(text);
  return !!fronted && opensInstruction(text.slice(fronted[0].length));
}

// The first three words: the verb and what follows it.
const OPENING_WORDS = /^[^\p{L}]*([\p{L}']+)(?:\s+([^\s,;:]+))?(?:\s+([^\s,;:]+))?/u;
