import { indentOf, isListItem, isMaterial, isSpacer, isThematicBreak, sentenceText, type Block, type Sentence } from '../doc';
import { LABEL_LINE, LEAD_IN_LEVEL } from './structure';
import { asksOnCompletion, opensImperative, statesWant } from '../scoring/structure';
import { isSaidToReader } from './rewrite';
import { GREETING_WORDS } from '../scoring/rules';
import { POLITE_ASKS } from '../data/asides';
import { words } from '../text/words';

/**
 * What the prompt asks, found as it is segmented: the role statement, the request (its first question or
 * instruction about its input, a template slot), and what it closes on — the final input ('My first
 * request is "…"', a template slot, material announced by a colon) or its closing request. Relaxed mode
 * keeps these whatever the budget; strict mode ranks them first.
 */

/**
 * The sentence that names what the answer may be ("… classifique cada avaliação em exatamente uma destas
 * categorias: ENTREGA, PAGAMENTO, APP …", "只能输出以下三个标签之一：正面、负面、中性"): the other half of
 * the request, pinned with it. Without it the final input has no answer to take.
 */
function pinAnswerOptions(prose: readonly Block[]): void {
  for (const block of prose) {
    // (A list item is one field's or rule's values among others: "- `indice_reajuste` só pode ter um destes valores: …".)
    if (block.verbatim || isListItem(block)) continue;
    for (const sentence of block.sentences) if (ANSWER_OPTIONS.test(sentenceText(sentence))) sentence.pinned = true;
  }
}
const ANSWER_OPTIONS = new RegExp(
  '(?:(?<![\\p{L}])(?:(?:exactly |only )?one of(?: the following| these| those| the)?|(?:exatamente |apenas )?uma? d(?:estas|estes|as seguintes|os seguintes)|(?:exactamente |solo )?una? de (?:estas|estos|las siguientes|los siguientes)|' +
    '(?:exactement |seulement )?(?:l[’\']une?|une?) des (?:catégories|étiquettes|labels|classes|valeurs|options) suivantes|genau eine[nrs]? (?:der|von) (?:folgenden|diesen))(?![\\p{L}])[^.!?。！？\\n]{0,40}|' +
    '(?:之一|のいずれか|のどれか))[:：]\\s*[^\\s,、，;；]{1,24}(?:\\s*[,、，/|;；]\\s*(?:(?:or|ou|o|oder|et|e|y|und|或)\\s+)?[^\\s,、，;；]{1,24}){2,}',
  'iu',
);

/**
 * A prompt that ends with its material announced by a colon ("Here is the handler:", then the code; "相关
 * 代码如下：", then the table) pins that material: it is what the prompt is about. Closing thanks after
 * it do not count.
 */
function pinMaterial(blocks: Block[], said: (sentence: Sentence) => boolean): boolean {
  const end = closingEnd(blocks, said);
  const material = blocks[end];
  if (!material || !isMaterial(material)) return false;
  const before = blocks[end - 1];
  const lastSentence = before?.sentences[before.sentences.length - 1];
  const announced = before && (before.level === LEAD_IN_LEVEL || (before.kind === 'prose' && lastSentence !== undefined && /[:：]\s*$/.test(sentenceText(lastSentence))));
  if (announced) material.pinned = true;
  return !!announced;
}

/** The last block that says something: closing thanks in a paragraph of their own and tag lines do not. */
function closingEnd(blocks: readonly Block[], said: (sentence: Sentence) => boolean): number {
  let end = blocks.length - 1;
  while (end >= 0 && (blocks[end]!.kind === 'markup' || (blocks[end]!.kind === 'prose' && blocks[end]!.sentences.every(said)))) end--;
  return end;
}
// "You are a …", "Act as …", "Please act as …", "Hey ChatGPT, act as …", "Du bist …", "Eres …", "Tu es …", "Você é …",
// "你是…", "接下来请你扮演…", "あなたは…".
const ROLE = new RegExp(
  `^[^\\p{L}]*(?:(?:${GREETING_WORDS.join('|')})(?: there| chatgpt| claude| copilot| gemini)?[!,.]?\\s*)?(?:please,?\\s+)?(?:接下来|下面|从现在(?:开始|起)|これから|今から)?[，,、]?` +
    '(?:(?:you are|you[\'’]re|act (?:as|like)|i (?:want|need) you (?:to )?act (?:as|like)|(?:i would|i[\'’]d) (?:really )?(?:like|love|appreciate it if) you (?:to |could )?act (?:as|like)|' +
    'you(?: will|[\'’]ll| are going to|[\'’]re going to) act as|you(?: will|[\'’]ll) be \\p{L}+ing|your role is|imagine (?:you are|you[\'’]re)|pretend (?:to be|you are|you[\'’]re)|as an? [\\w -]{1,40}, you|' +
    'du bist|sie sind|agiere als|handle als|du agierst als|du fungierst als|stell dir vor,? du bist|eres|usted es|actúa como|actua como|' +
    'quiero que act[úu]es como|imagina que eres|tu es|vous êtes|agis comme|agissez comme|agis en tant que|agissez en tant que|' +
    'je (?:veux|voudrais) que (?:tu agisses|vous agissiez) (?:comme|en tant que)|imagine que tu es|' +
    'você é|voce e|aja como|atue como|quero que você (?:atue|aja) como|imagine que você é)(?![\\p{L}])|你是|您是|请你扮演|请扮演|你将扮演|你要扮演|请你充当|请充当|假设你是|你现在是|现在你是|あなたは)|^[^。！？]{1,40}(?:として(?:振る舞|ふるま|行動し)|になりきって|の役(?:割)?を(?:演じ|担当し))',
  'iu',
);
/**
 * Pins the role statement (in the first three sentences) and, when the prompt layer found no final
 * input, the closing request: the last sentence, when it asks or instructs and ends the prompt's prose.
 */
export function pinRequests(blocks: Block[], english: boolean): void {
  const said = (sentence: Sentence) => isSaidToReader(sentenceText(sentence), english);
  const prose = blocks.filter((b) => b.kind === 'prose');
  const sentences = prose.flatMap((b) => b.sentences);
  // A template slot on its own ("{reviews_jsonl}", "{{ticket}}"): where the app puts the input.
  for (const block of prose) if (block.sentences.length === 1 && SLOT.test(sentenceText(block.sentences[0]!))) block.sentences[0]!.pinned = block.sentences[0]!.input = true;
  // Greetings and thanks before it do not count ("お疲れ様です。いつもありがとうございます。…あなたは…").
  const role = firstUnsaid(sentences, said, 3).find((sentence) => ROLE.test(sentenceText(sentence))) ?? roleSection(blocks);
  if (role) role.pinned = true;
  markRequest(prose, said, english);
  markAskedLists(blocks, said, english);
  pinAnswerOptions(prose);
  pinAnnouncedDrafts(blocks, said, english);
  // The line that introduces the final input goes with it: "Now classify this one:".
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    const last = block.sentences[block.sentences.length - 1];
    if (block.kind === 'prose' && last && next && (next.pinned || next.sentences[0]?.pinned) && /[:：]\s*$/.test(sentenceText(last))) last.pinned = true;
  });
  // A final input already pinned (a slot, the line that introduces it) ends the prompt; the role does not.
  if (blocks.some((b) => b.pinned) || sentences.some((s, i) => s.pinned && s !== role && i >= 3)) return;
  if (pinMaterial(blocks, said)) return;
  // Closing thanks in a paragraph of their own ("辛苦了，非常感谢！有空请你喝奶茶～") do not end the prompt.
  const end = closingEnd(blocks, said);
  let lastProse = end;
  while (lastProse >= 0 && blocks[lastProse]!.kind !== 'prose' && blocks[lastProse]!.kind !== 'example') lastProse--;
  const last = blocks[lastProse];
  // A transcript the prompt ends on is its material: "Sam: … Anything else? ... No?" asks nothing of the model.
  if (!last || last.kind !== 'prose' || lastProse < end - 1 || (last.verbatim && last.sentences.some((s) => s.speaker))) return;
  // The input a role prompt closes on is its final input, in the role's paragraph too (an article's last
  // sentence, "The first recorded use is …" or a closing quotation, is none).
  const input = [...last.sentences].reverse().find((s) => !said(s));
  // A prompt without a role statement closes on its input too when it opens on what to do with it ("I want
  // you to translate … My first sentence is "…""): that instruction stands for the role, pinned with the
  // input and ranked beside it (an input alone, "First sentence: "Could you send me …?"", asks the wrong
  // thing). An article has no instruction.
  const task = role ? undefined : sentences.find((s) => s.instruction && !said(s));
  const opening = role ?? task;
  if (opening && input && input !== opening && (FIRST_INPUT.test(sentenceText(input)) || QUOTED_INPUT.test(sentenceText(input)))) {
    input.pinned = true;
    if (task) task.pinned = true;
    else input.input = true;
    return;
  }
  // A list item is one rule among others, not the prompt's closing request; nor is what follows the role
  // in its own paragraph.
  if (isListItem(last) || (role && last.sentences.includes(role))) return;
  // The last request among the closing sentences that are not thanks: "请用中文回答：…" before "麻烦大家了，
  // 感激不尽！", "Responde en español, …" before "Ah, y el código vacío debe devolver 400.".
  const closing = [...last.sentences].reverse().filter((s) => !said(s)).slice(0, CLOSING_SENTENCES);
  // Not a colon alone: an article can end on one ("…, Tesla said:"); an input the app appends comes after
  // an instruction ("Summarize the following text:"), which is pinned as one.
  // A question in quotation marks ends on its closing mark: "「…送料はどうなりますか？」".
  const asks = (s: Sentence) => /[?？]\s*$/.test(sentenceText(s)) || QUOTED_QUESTION.test(sentenceText(s)) || REQUEST.test(sentenceText(s));
  // Under a section heading, a plain instruction is that section's last rule ("## Working Style … Prefer
  // a few high-value scenarios."), not the prompt's request, unless the section is the task.
  // So under a label that opens its paragraph ("Output:", then the format's rules), unless it names the task.
  const labelLine = last.sentences.length > 1 ? sentenceText(last.sentences[0]!) : '';
  const section = sectionTitle(blocks, lastProse) ?? (LABEL_LINE.test(labelLine) ? labelLine : null);
  // What to do once the work is done ("When you're done, run … and give me a short summary") closes the
  // whole prompt, whatever section it stands in.
  const request = closing.find((s) => asks(s) || (s.instruction && (section === null || TASK_SECTION.test(section))) || (english && asksOnCompletion(sentenceText(s))));
  if (!request) return;
  // A question in quotation marks is one input: "Hi, my partner is due in September. … Would the company
  // pay for the flights?" is pinned whole, not its last sentence.
  // It is the input the prompt closes on, ranked above the role: where only one fits, the customer's question
  // says more than "You are a support assistant".
  if (last.suffix) {
    for (const sentence of last.sentences) sentence.pinned = sentence.input = true;
    return;
  }
  request.pinned = true;
  // A question in quotation marks is someone's message: the input, ranked above the role (see above).
  if (QUOTED_QUESTION.test(sentenceText(request))) request.input = true;
  // The question the prompt exists to answer may stand in the paragraph before a closing rule: "Voici la
  // question d'un salarié : « … ? »", then "Merci de répondre en quatre phrases maximum."
  const before = blocks[lastProse - 1];
  const question = before?.kind === 'prose' && !before.verbatim && !isListItem(before) ? [...before.sentences].reverse().find((s) => !said(s)) : undefined;
  if (question && !/[?？]/.test(sentenceText(request)) && QUOTED_ASK.test(sentenceText(question))) question.pinned = question.input = true;
  // The question that asks may come before the last rule about it: "Can you point out the bugs and show a
  // fixed version? … Keep the explanation to at most 5 bullet points." (`closing` runs backwards.)
  // So may the polite ask before a closing rule, with or without its question mark: "Você poderia escrever
  // uma resposta …, propondo o seguinte: …. Use "você", não "o senhor"."
  const ask = closing.slice(closing.indexOf(request) + 1).find((s) => ASKS.test(sentenceText(s)) && (/[?？]\s*$/.test(sentenceText(s)) || ASKS_AS_QUESTION.test(sentenceText(s))));
  if (ask) ask.pinned = true;
}

/**
 * The text of the section heading the block stands under, or the name of the tag pair it stands in
 * ("<output> … </output>": its last rule is no request), or null (a level-1 heading titles the whole prompt).
 */
function sectionTitle(blocks: readonly Block[], index: number): string | null {
  // Closing tags passed on the way back: an opening tag whose partner is not among them closes after the block.
  const closed = new Set<Block>();
  for (let k = index - 1; k >= 0; k--) {
    const block = blocks[k]!;
    const tag = block.tag;
    if (tag?.closing) closed.add(block);
    else if (tag?.partner && !closed.has(tag.partner)) return tag.name;
    if (block.kind === 'heading' && (block.level ?? 1) < LEAD_IN_LEVEL) return (block.level ?? 1) > 1 ? block.body : null;
  }
  return null;
}

// "Task:", "Your task:", "Aufgabe:", "Tarea:", "任务：": the label over what the prompt asks.
const TASK_LABEL = /^[^\p{L}]*(?:(?:your|the) )?(?:task|aufgabe|tarea|tâche|tarefa|任务|タスク)\s*[:：]$/iu;

// A section that holds the prompt's task or input: "## Task", "## Your request", "### Question", "## Aufgabe".
const TASK_SECTION = /\b(?:task|request|question|input|ask|prompt|your (?:turn|job)|now)\b|aufgabe|anfrage|frage|tarea|pregunta|solicitud|tâche|demande|tarefa|pergunta|pedido|任务|问题|要求|タスク|質問|依頼/i;

/**
 * What the prompt asks: its first question among the opening sentences that are not greetings ("Could
 * you translate these UI strings …?", "Pourriez-vous traduire … ?") or else its first instruction about
 * the input ("Turn this standup into …"), and every sentence that holds a template slot the app fills
 * ("Create an endpoint named ${input:endpointName} …").
 */
function markRequest(prose: readonly Block[], said: (sentence: Sentence) => boolean, english: boolean): void {
  const opening = firstUnsaid(prose.flatMap((b) => b.sentences), said, REQUEST_WINDOW);
  const blockOf = (s: Sentence) => prose.find((b) => b.sentences.includes(s))!;
  const aboutInput = (s: Sentence) =>
    s.instruction && (POINTS_AT_INPUT.test(sentenceText(s)) || pointsBelow(sentenceText(s)) || (!english && FOREIGN_INPUT.test(sentenceText(s))) || (NAMES_SECTION.test(sentenceText(s)) && opensImperative(sentenceText(s)))) && !isListItem(blockOf(s));
  // "What I need is a query that …", "Lo que necesito es una consulta que …": the request, in so many words
  // (the writer's, not a retrieved document's "I need a replacement part").
  const wants = (s: Sentence) => {
    const block = blockOf(s);
    return !isListItem(block) && !block.verbatim && (statesWant(sentenceText(s), english) || NEEDS_DELIVERABLE.test(sentenceText(s)) || NEEDS_TASK.test(sentenceText(s)) || NEEDS_TASK_DONE.test(sentenceText(s)));
  };
  // Past the opening, a question put to the model in so many words ("Könnten Sie mir … einen Widerspruch
  // formulieren?" after two paragraphs of background), in the writer's own prose.
  const asked = () => {
    for (const block of prose) {
      if (isListItem(block) || block.verbatim) continue;
      const found = block.sentences.find((s) => !s.pinned && ASKS_AS_QUESTION.test(sentenceText(s)) && !said(s));
      if (found) return found;
    }
    return undefined;
  };
  // "Task:" alone on the line over what to do ("Task:\nWrite a reusable prompt that …"): its first instruction.
  const tasked = prose.find((b) => b.sentences.length > 1 && !b.verbatim && TASK_LABEL.test(sentenceText(b.sentences[0]!)))?.sentences.slice(1).find((s) => s.instruction && !s.pinned);
  const first =
    tasked ?? opening.find((s) => !s.pinned && ASKS.test(sentenceText(s))) ?? opening.find((s) => !s.pinned && aboutInput(s)) ?? opening.find((s) => !s.pinned && wants(s)) ?? asked() ??
    // "O que eu preciso: listar, para cada categoria, …" after a paragraph of constraints: the want, labelled.
    prose.flatMap((b) => (isListItem(b) || b.verbatim ? [] : b.sentences)).find((s) => !s.pinned && WANT_LABEL.test(sentenceText(s))) ??
    // "Please fill the schema from the email.": a polite imperative of the writer's own opening prose; "Bitte
    // beachte folgende Regeln" asks only that the prompt be followed.
    opening.find((s) => !s.pinned && s.instruction && PLEASE.test(sentenceText(s)) && !FOLLOWING_RULES.test(sentenceText(s)) && !isListItem(blockOf(s)) && !blockOf(s).verbatim);
  if (first) first.request = true;
  // A second ask in so many words: "I'd also like to know whether we need to handle … separately.", "Could you
  // also …?", "¿Podrías también …?".
  for (const block of prose) {
    if (isListItem(block) || block.verbatim) continue;
    for (const s of block.sentences) if (!s.request && ALSO_ASKS.test(sentenceText(s)) && !said(s)) s.request = true;
  }
  for (const block of prose) for (const s of block.sentences) if (s.pieces.some((piece) => piece.text.includes('{')) && TEMPLATE_SLOT.test(sentenceText(s))) s.request = true;
}

/**
 * The draft the prompt announces ("Voici le brouillon :", "我的初稿如下：", "Here's my draft:") is its input, the
 * text to rework: quoted, or set between two rules, it is part of the request (kept in relaxed mode, ranked
 * first in strict mode) and kept as written — a rewrite without it asks nothing, and a letter whose
 * "Cordialement," went is not the one the user wrote.
 */
function pinAnnouncedDrafts(blocks: readonly Block[], said: (sentence: Sentence) => boolean, english: boolean): void {
  // What the request names: "grade the essay below" names the essay that "Essay:" announces.
  const asked = new Set(blocks.filter((b) => b.kind === 'prose' && !b.verbatim).flatMap((b) => b.sentences.filter((s) => s.request).flatMap((s) => namedIn(sentenceText(s)))));
  // A <draft> section is one by its name: "Please rewrite the draft so that: …" then "<draft>…</draft>".
  blocks.forEach((block, i) => {
    if (!block.tag || block.tag.closing || !block.tag.partner || !DRAFT_TAG.test(block.tag.name)) return;
    const end = blocks.indexOf(block.tag.partner);
    for (const draft of blocks.slice(i + 1, end)) for (const sentence of draft.sentences) sentence.request = true;
  });
  blocks.forEach((block, i) => {
    const last = block.kind === 'prose' && !block.verbatim ? block.sentences[block.sentences.length - 1] : undefined;
    if (!last || !ENDS_ANNOUNCING.test(sentenceText(last))) return;
    const named = !DRAFT.test(sentenceText(last));
    if (named && !WRITTEN_WORK.test(sentenceText(last)) && !namesAsked(sentenceText(last), asked)) return;
    const drafts = draftAfter(blocks, i + 1);
    // A transcript the request names ("Transcript:") is material to sum up, not a text to rework whole; so
    // is a mail thread to reply to ("Thread:", then "From: …").
    if (named && drafts.some((d) => d.sentences.some((s) => s.speaker || MAIL_HEADER.test(sentenceText(s))))) return;
    for (const draft of drafts) {
      draft.verbatim = true;
      for (const sentence of draft.sentences) sentence.request = true;
    }
    // What to do with it, when nothing before it asks yet: "Rewrite my email to my landlord so it sounds firm."
    const before = blocks.slice(0, i + 1).filter((b) => b.kind === 'prose' && !b.verbatim && !isListItem(b)).flatMap((b) => b.sentences);
    if (drafts.length > 0 && !before.some((s) => s.request)) {
      const instruction = before.find((s) => s.instruction && !said(s) && (!english || opensImperative(sentenceText(s))));
      if (instruction) instruction.request = true;
    }
  });
}

/** Whether an announcing line ("Essay:", "Here's my cover letter:") names what a request names. */
function namesAsked(text: string, asked: ReadonlySet<string>): boolean {
  return words(text).some((word) => word.length >= MIN_NAME_LENGTH && asked.has(word) && !ANNOUNCING_WORDS.has(word));
}
const MIN_NAME_LENGTH = 4;
/** The words of what a request names with a determiner: "grade the essay below" → essay, below. */
const namedIn = (text: string): string[] => [...text.matchAll(NAMED)].flatMap((m) => words(m[1]!));
const NAMED = /(?<![\p{L}])(?:the|my|our|this|these|that|your)\s+((?:[\p{L}-]+\s+){0,2}[\p{L}-]+)/giu;
const ANNOUNCING_WORDS = new Set(['here', 'below', 'following', 'this', 'these', 'that', 'what', 'which', 'with', 'from', 'your', 'some', 'just']);

/** The draft that starts at `start`: quoted paragraphs, or what stands between two rules ("---"). */
function draftAfter(blocks: readonly Block[], start: number): Block[] {
  const opening = blocks[start];
  if (opening && isThematicBreak(opening)) {
    const end = closingRule(blocks, start);
    return end > start ? blocks.slice(start + 1, end).filter((b) => b.kind === 'prose') : [];
  }
  // A blockquote's paragraphs and the ">" lines between them.
  let end = start;
  while (end < blocks.length && ((blocks[end]!.kind === 'prose' && blocks[end]!.verbatim) || (end > start && isSpacer(blocks[end]!)))) end++;
  return blocks.slice(start, end).filter((b) => b.kind === 'prose');
}

/**
 * The thematic break that closes the text opened by the one at `start` ("---", a letter, "---"), with no
 * heading between and at most `limit` blocks on; -1 for none.
 */
export function closingRule(blocks: readonly Block[], start: number, limit = Infinity): number {
  let end = start + 1;
  while (end < blocks.length && end - start <= limit && !isThematicBreak(blocks[end]!) && blocks[end]!.kind !== 'heading') end++;
  return end < blocks.length && isThematicBreak(blocks[end]!) ? end : -1;
}

// What the user wrote and wants reworked: "my draft", "mon brouillon", "meinen Entwurf", "初稿", "下書き".
const DRAFT = /(?<![\p{L}])(?:draft|borrador|brouillon|entwurf|rascunho|bozza)(?![\p{L}])|初稿|草稿|下書き|原稿|文面/iu;
/** A field of a mail's header: "From: …", "Sent: …", "Betreff: …", "Asunto: …". */
export const MAIL_HEADER = /^(?:from|to|cc|date|sent|subject|von|an|datum|gesendet|betreff|de|para|asunto|fecha|enviado|objet|envoyé|assunto|enviada)\s*:/iu;
export const MAIL_SUBJECT = /^(?:subject|betreff|asunto|objet|assunto)\s*:/iu;
// A piece of writing put up to be graded or reworked: "Voici la copie (élève : Inès B.) :", "Here's my essay:", "Mein Aufsatz:".
const WRITTEN_WORK = /(?<![\p{L}])(?:essay|cover letter|copie|dissertation|rédaction|lettre de motivation|aufsatz|anschreiben|ensayo|redacción|carta de presentación|redação|carta de apresentação)(?![\p{L}])|作文|小論文|论文/iu;
const DRAFT_TAG = /^(?:draft|entwurf|borrador|brouillon|rascunho)$/;
// What the rewrite must do, over a list: "Contraintes pour la réécriture :", "Cosas que tiene que cumplir la nueva
// versión:", "修改要求：", "書き直しの条件：".
const REWORK = /(?<![\p{L}])(?:rewrite|rewriting|réécriture|reescritura|reescrita|nueva versión|nova versão|neue fassung|überarbeitung|umschreiben)(?![\p{L}])|修改要求|改写要求|書き直し|添削/iu;
// It ends announcing what follows: a colon, or "如下", "以下の通りです".
const ENDS_ANNOUNCING = /[:：]\s*$|如下|以下の通り|以下です|下記の通り/u;

/**
 * A request written as a list of asks: the items after "What I'd like, if possible:", "Fragen:", "Lo que
 * necesitaría:", "我的问题有两个：" or "以下の3点について教えていただけますか。" are what the prompt asks, each of
 * them (a prompt's "Rules:" are its rules, which compete by value).
 */
function markAskedLists(blocks: readonly Block[], said: (sentence: Sentence) => boolean, english: boolean): void {
  for (let i = 0; i + 1 < blocks.length; i++) {
    const lead = blocks[i]!;
    // "## What I need", then "The specific change is: add a `break_minutes` column …": the section's first paragraph.
    if (lead.kind === 'heading' && (lead.level ?? 1) < LEAD_IN_LEVEL && ASKED_LABEL.test(lead.body.replace(/^\s*#+\s*/, ''))) {
      const first = blocks[i + 1]!;
      if (first.kind === 'prose' && !first.verbatim && !isListItem(first)) for (const sentence of first.sentences) if (!said(sentence)) sentence.request = true;
    }
    if (!isListItem(blocks[i + 1]!) || !asksForList(lead, english)) continue;
    const indent = indentOf(blocks[i + 1]!.prefix);
    for (let k = i + 1; k < blocks.length && blocks[k]!.kind === 'prose' && isListItem(blocks[k]!) && indentOf(blocks[k]!.prefix) >= indent; k++) {
      // The item's first sentence is the ask, a hedge in it or not ("entender por que …, mas não sei explicar direito").
      blocks[k]!.sentences.forEach((sentence, n) => { if (n === 0 || !said(sentence)) sentence.request = true; });
    }
    const last = lead.sentences[lead.sentences.length - 1];
    if (last) last.request = true;
  }
}

/** Whether the block, just before a list, asks for what the list holds. */
function asksForList(lead: Block, english: boolean): boolean {
  if (lead.verbatim || isListItem(lead)) return false;
  const last = lead.kind === 'prose' ? lead.sentences[lead.sentences.length - 1] : undefined;
  const text = lead.kind === 'heading' && lead.level === LEAD_IN_LEVEL ? lead.body : last ? sentenceText(last) : '';
  // "Please rewrite the draft so that:": how the draft is to be reworked is what is asked.
  if (/[:：]\s*$/.test(text)) return ASKED_LABEL.test(text) || statesWant(text, english) || ASKS.test(text) || !!last?.request || DRAFT.test(text) || REWORK.test(text);
  return FOLLOWING.test(text) && !FOLLOWING_RULES.test(text) && (ASKS.test(text) || ANSWER_ASK.test(text));
}

// A question put to the model ("Could you translate …?", "Can you rewrite my email …?", "Pourriez-vous
// traduire … ?", "帮我看一下…"): not a rule of a system prompt, which every imperative would be.
export const ASKS = new RegExp(
  '^[^\\p{L}]*(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\\s+)?(?:can|could|would|will) you\\b|\\bi (?:need|want|would like|\'d like) you to\\b|' +
    // "I was wondering if you could help me rewrite a cover letter."
    '\\bi (?:was )?wonder(?:ing)? (?:if|whether) you (?:could|can|would|might)\\b|\\bi was hoping (?:that )?you (?:could|can|would)\\b|' +
    // "I'd really appreciate it if you could turn it into proper meeting minutes."
    "\\bi(?:'d|’d| would) (?:really |truly )?appreciate it if you (?:could|can|would)\\b|" +
    `(?<![\\p{L}])(?:${POLITE_ASKS}|podría|pode me)(?![\\p{L}])|` +
    // "J'aimerais que vous le réécriviez", "Me gustaría que lo revises": "I'd like you to …".
    "(?<![\\p{L}])(?:j[’']aimerais|je voudrais|je souhaiterais) que (?:vous|tu)|(?:me gustaría|quisiera) que|(?:gostaria|queria) que (?:você|vocês|voce)|ich (?:möchte|hätte gerne|hätte gern|würde gerne|würde gern|will),? dass (?:du|sie|ihr)(?![\\p{L}])|" +
    '能否|可以帮|请帮|帮我|麻烦你|[^、，。\\s]{2}をお願い(?:します|いたします|致します)|いただけますか|いただけませんか|いただけないでしょうか|いただけますでしょうか|いただけませんでしょうか|お願いできますか|お願いできますでしょうか|お願いできませんでしょうか|していただきたい|してほしい|してもらえますか|してもらえませんか',
  'iu',
);

// A polite ask that opens its sentence as a question does, question mark or not: "Você poderia escrever …".
const ASKS_AS_QUESTION = new RegExp(`^[^\\p{L}]*(?:(?:can|could|would|will) you|(?:você |vous |tu )?(?:${POLITE_ASKS}|podría|poderia))(?![\\p{L}])`, 'iu');

// "I need a query that shows …", "Preciso de uma ata curta, em português, …", "Necesito una consulta que …":
// the writer names what they want made. Not "I need a hand with …" or "I need to tell our client …".
// ("j'aurais besoin d'un coup de main pour corriger une dissertation": help, with what it is for.)
const NEEDS_DELIVERABLE = /(?:^|[,;]\s*|\b(?:and|so|y|e|et|und)\s+)(?:i need|i would need|i'd need|necesito|necesitaría|preciso de|precisaria de|j['’]ai besoin d['’]|j['’]aurais besoin d['’]|ich brauche|ich bräuchte|wir bräuchten)\s*(?:a|an|the|some|un|una|unos|unas|el|la|los|las|um|uma|o|a|os|as|un|une|des|eine?n?|die|den|das)\s+(?!(?:hand|help|favou?r|mano|ayuda|ayudita|ajuda|ajudinha|coup de main|aide|hilfe|gefallen)\b(?!\s+(?:pour|para|to|um)\s+\p{L}))\p{L}/iu;

// "Preciso de traduzir a newsletter … para o inglês", "I need to summarise these notes": a need that names the
// work the prompt's text is for (not "I need to tell our client …", which the model is not asked to do).
const NEEDS_TASK = /(?:^|[,;]\s*|\b(?:and|so|y|e|et)\s+)(?:i need to|i have to|preciso(?: de)?|precisava(?: de)?|necesito|tengo que|tenho que|j['’]ai besoin de|je dois)\s+(?:translate|summari[sz]e|rewrite|proofread|shorten|reword|traduzir|resumir|reescrever|revisar|traducir|reescribir|traduire|résumer|réécrire|relire)(?![\p{L}])/iu;
// "Necesito que traduzcas …", "Preciso que você resuma …", "J'ai besoin que tu traduises …": the same need, put to the reader.
const NEEDS_TASK_DONE = /(?:^|[,;]\s*)(?:necesito|necesitaría|quiero|querría|preciso|precisava|quero|queria|j['’]ai besoin|je voudrais|j['’]aimerais) que (?:(?:tu|você|vc|vous|usted|me|nos|m['’])\s*)?(?:tradu(?:zcas|zca|za|ises|isiez)|resumas?|résum(?:es|iez)|reescri(?:bas|ba|va)|réécri(?:ves|viez)|revis(?:es|e)|corrij(?:as|a)|reli(?:ses|siez))(?![\p{L}])/iu;

// "I need weekly revenue … from this table:": a need that shows its material asks for it.
export const NEEDS = /^[^\p{L}]*(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\s+)?i (?:need|want|would like|'d like)\s(?!to\b)/iu;

// "## Role", "<role>", "# Persona": the section that says who the model is and what it does.
const ROLE_TITLE = /^(?:#{1,6}\s*)?(?:your\s+)?(?:role|persona|identity|rolle|rol|rôle|papel|角色|役割)\s*:?\s*$/iu;

/** The first sentence of a section titled as the role ("## Role", "<role>"), before any other section. */
function roleSection(blocks: readonly Block[]): Sentence | undefined {
  const titled = (block: Block) => (block.kind === 'markup' ? !!block.tag && !block.tag.closing && ROLE_TITLE.test(block.tag.name) : block.kind === 'heading' && ROLE_TITLE.test(block.body.trim()));
  const start = blocks.findIndex(titled);
  if (start < 0) return undefined;
  for (const block of blocks.slice(start + 1)) {
    if (block.kind === 'prose') return block.sentences[0];
    if (!titled(block)) return undefined;
  }
  return undefined;
}

/** The first `n` sentences that are not greetings or thanks, reading no further than needed. */
function firstUnsaid(sentences: readonly Sentence[], said: (sentence: Sentence) => boolean, n: number): Sentence[] {
  const found: Sentence[] = [];
  for (const sentence of sentences) {
    if (found.length >= n) break;
    if (!said(sentence)) found.push(sentence);
  }
  return found;
}

// What the prompt's own rules are called: "Follow these guidelines" points at no input.
const OWN_RULES = 'guidelines?|rules?|instructions?|steps?|principles?|conventions?|standards?|practices?|prompt|file';
// An instruction about the input it stands before: "Turn this standup into …", "Go through these notes …"
// (not "Follow these guidelines", which the prompt's own rules are).
const POINTS_AT_INPUT = new RegExp(`^[^\\p{L}]*\\p{L}+(?:\\s+(?:up|out|down|over|through|in|on|me|us))?\\s+(?:this|these|the following|the attached)\\s+(?!(?:${OWN_RULES})\\b)\\p{L}`, 'iu');
// "extrae los datos de la siguiente transcripción", "résumez le rapport ci-dessous", "fasse den folgenden Text
// zusammen", "resuma a ata abaixo": the input it stands before, not the prompt's own "folgende Regeln".
const FOREIGN_OWN = 'regeln|regel|richtlinien|anweisungen|hinweise|punkte|reglas|normas|instrucciones|indicaciones|pautas|règles|consignes|instructions|regras|instruções|orientações|diretrizes|pontos';
export const FOREIGN_INPUT = new RegExp(
  `(?<![\\p{L}])(?:siguientes?|seguintes?|suivante?s?|folgenden?|nachstehenden?)\\s+(?!(?:${FOREIGN_OWN})(?![\\p{L}]))\\p{L}|(?<![\\p{L}])(?!(?:${FOREIGN_OWN})\\s)\\p{L}+\\s+(?:ci-dessous|abaixo|de abajo|a continuación|unten)(?![\\p{L}])`,
  'iu',
);
// "Using only the two release notes below, tell me …", "Summarize the email below": the input named below
// ("the rules below", "the format below" are the prompt's own).
/** "the two release notes below", "the changelog above": what a sentence names, and where. */
const namedWhere = (where: 'below' | 'above'): RegExp => new RegExp(`(?<![\\p{L}])(?:the|these|this|my|our)\\s+(?:[\\p{L}\\p{N}-]+\\s+){0,3}?([\\p{L}-]+)\\s+${where}(?![\\p{L}])`, 'iu');
const NAMED_BELOW = namedWhere('below');
const OWN_RULE_WORD = new RegExp(`^(?:${OWN_RULES}|format|template|examples?|schema)$`, 'iu');
/** Whether the text names what it works on as below it: "the two release notes below". */
export function pointsBelow(text: string): boolean {
  const named = NAMED_BELOW.exec(text);
  return !!named && !OWN_RULE_WORD.test(named[1]!);
}
const NAMED_ABOVE = namedWhere('above');
/** What the text names as above it ("from the changelog above" → changelog), if not the prompt's own rules. */
export function namedAbove(text: string): string | undefined {
  const named = NAMED_ABOVE.exec(text)?.[1];
  return named && !OWN_RULE_WORD.test(named) ? named.toLowerCase() : undefined;
}
// "Review the diff in <diff>", "Read the transcript in the <context> section": the input, by its section's
// tag, in an imperative ("You'll receive the text between the <document> tags" describes it).
const NAMES_SECTION = /<\p{L}[\p{L}\p{N}_.-]*>/u;
/** A text named as the one above: "the notes above", "la nota acima", "上記の議事メモ", "请提取上述合同". */
export const NAMES_ABOVE = /(?<![\p{L}])(?:above|oben|obige[nmrs]?|ci-dessus|plus haut|arriba|acima)(?![\p{L}])|上述|上記|上面的|以上の/iu;
/** A text named by where it stands, above or below: "el texto que pego más abajo", "下記の議事録" too. */
export const NAMES_WHERE = new RegExp(`${NAMES_ABOVE.source}|(?<![\\p{L}])(?:below|unten|untenstehende[nmrs]?|ci-dessous|plus bas|abajo|abaixo)(?![\\p{L}])|下面的|下記|以下の`, 'iu');
/** How far into the prompt its request may stand. */
const REQUEST_WINDOW = 5;
const WANT_LABEL = /^[^\p{L}]*(?:what (?:i|we) (?:need|want)(?: is)?|o que (?:eu )?(?:preciso|quero)(?: é)?|lo que necesito(?: es)?|lo que quiero(?: es)?|ce (?:dont j['’]ai besoin|que je veux)(?:,? c['’]est)?|was ich (?:brauche|möchte|will)(?: ist)?|我需要的是|お願いしたいのは)\s*[:：]/iu;
const PLEASE = /^[^\p{L}]*(?:please|kindly|bitte|por favor|s['’]il (?:te|vous) plaît|merci de|请|麻烦)(?![\p{L}])/iu;
// "${input:endpointName}", "${file}", "{{ primeiro_nome }}": variables of prompt files and templates.
const TEMPLATE_SLOT = /\$\{[^{}\n]+\}|\{\{\s*[\p{L}\p{N}_.:-]+\s*\}\}/u;

/** How far from the end of the prompt the closing request may stand. */
const CLOSING_SENTENCES = 3;

// The input a role prompt closes on: "My first request is "…"", "Here is my first request: …", "First
// question – …", "Initial request is - …", "To start, I will make the first move by placing an X …", "Mi
// primera solicitud es …", "Ma première demande est …", "Meine erste Anfrage ist …", "我的第一个请求是…",
// "最初の質問は…".
const FIRST_INPUT = /^[^\p{L}]*(?:here(?: is|['’]s)\s+)?(?:(?:my|the|our|your)\s+(?:first|initial)|initial|first(?=\s+(?!(?:of|and|things?|time|step)\b)))\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s*(?:is|will be|:|[–—-]\s)|^[^\p{L}]*to (?:start|begin),?\s+i(?:['’]ll| will) |^[^\p{L}]*(?:(?:mi|la|ma|mon|le|meu|minha|o|a|meine|mein|die|der)\s+)?(?:primer[ao]?|premi(?:ère|er)|primeir[oa]|erste[rn]?)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s*(?:es|será|est|sera|é|ist|lautet|:)(?![\p{L}])|^[^\p{L}]*(?:我的)?第一个(?:请求|问题|句子|任务|要求)(?:是|[:：])|^[^\p{L}]*最初の(?:質問|リクエスト|依頼|お題|文)は/iu;

// A closing quotation after a colon: 'These are the first basic steps: "1. Click on the download button …"'.
const QUOTED_INPUT = /[:：]\s*["“«„「][^"“”«»„「」]{8,}["”»“」]\s*$/u;

// What asks for something in the other languages the product reads (English has isInstruction): a
// polite marker or an imperative that opens the sentence.
const REQUEST = new RegExp(
  `(?<![\\p{L}])(?:bitte|por favor|s[’']il (?:vous|te) plaît|merci de|veuillez|${POLITE_ASKS})(?![\\p{L}])|` +
    '(?:^[^\\p{L}]*|[,:;]\\s+)(?:antworte|schreib(?:e)?|gib|erstelle|fasse|erkläre|übersetze|responde|explica|explícame|escribe|escríbeme|dame|hazme|genera|traduce|resume|resúmeme|crea|devuelve|indica|indícame|' +
    'répondez|réponds|donnez|écrivez|rédigez|traduisez|résumez|indiquez|expliquez|responda|explique|escreva|traduza|resuma|gere|crie|indique|devolva|retorne)(?![\\p{L}])|' +
    '请|麻烦你|帮我|给出|ください|お願いします|お願いいたします|教えて',
  'iu',
);

const SLOT = /^(?:\{\{?\s*[\p{L}\p{N}_.:-]+\s*\}\}?|\$\{[^{}\n]+\}|\[\[[\p{L}\p{N}_ .:-]+\]\])$/u;

// The label over a list of questions or wishes: "Questions:", "My questions:", "Fragen:", "Was ich mir wünschen
// würde:", "Ce que j'aimerais :", "Lo que necesitaría:", "O que eu gostaria:", "我的问题有两个：", "質問："
const ASKED_LABEL =
  /^[^\p{L}]*(?:(?:(?:my|our|some|a few|two|three|\d)\s+)?questions\s*:|(?:(?:meine|unsere|ein paar|zwei|drei)\s+)?fragen\s*:|(?:(?:mis|algunas|dos|tres)\s+)?preguntas\s*:|(?:(?:mes|quelques|deux|trois)\s+)?questions\s*:|(?:(?:minhas|algumas|duas|três)\s+)?perguntas\s*:|(?:what i(?:'d| would) (?:like|love|need)|what i need|i(?:'d| would) like(?: you to)?|was ich (?:mir )?(?:wünsche|wünschen würde|bräuchte|brauche|gerne hätte|möchte)|lo que (?:necesito|necesitaría|quiero|querría|me gustaría)|ce (?:que j'aimerais|que je voudrais|que je souhaite|que je souhaiterais|que j'attends|dont j'ai besoin|dont j'aurais besoin)|deliverables?|livrables?|entregables?|entregáveis|o que (?:eu )?(?:preciso|precisaria|quero|queria|gostaria))(?![\p{L}]))|^[^\p{L}]*(?:我的问题|问题如下|我想问|我的需求|需求如下|質問|お聞きしたいこと|教えていただきたいこと)/iu;
// "the following", "以下の3点", "下面几个问题": the list after it holds what is asked.
const FOLLOWING = /\b(?:the following|these (?:two|three|four|\d))\b|(?<![\p{L}])(?:folgenden?|siguientes|suivant(?:e?s)?|seguintes)(?![\p{L}])|以下の|下記の|次の|下面(?:几|这|的)|以下几/iu;

// "Follow the following rules", "以下のルールを守ってください": the prompt's own rules, not what it asks.
const FOLLOWING_RULES = new RegExp(`(?:following|these (?:two|three|four|\\d))\\s+(?:${OWN_RULES})\\b|ルール|規則|规则|守って|遵守|regeln|reglas|règles|regras`, 'iu');
// What asks for answers about the points: "以下の3点について教えていただけますと…", "explain the following".
const ANSWER_ASK = /教えて|答えて|回答して|ご回答|解答|说明一下|解释|\b(?:explain|answer|tell me)\b/iu;

// "I'd also like to know …", "I also want to know …", "Could you also …", "Can you also …": what else is asked.
const ALSO_ASKS = /^[^\p{L}]*(?:(?:and|oh|also|plus)[,]?\s+)?(?:i(?:['’]d| would) also like to know|i(?:['’]d| would) also like you to|i also (?:want|need) to know|i(?:['’]m| am) also wondering|(?:can|could|would) you also)(?![\p{L}])/iu;

// A question that is a quotation: "「…返品か交換はしてもらえますか？送料はどうなりますか？」".
const QUOTED_QUESTION = /^[^\p{L}]*[「『"“«][\s\S]*[?？][」』"”»]\s*$/u;
// Someone's question, quoted after the words that introduce it: 'Und jetzt die eigentliche Frage: „… kosten?“'.
const QUOTED_ASK = /[:：]\s*[「『"“«„][\s\S]*[?？]\s*[」』"”»“]\s*$/u;
