/**
 * What minutes record from a meeting: a decision ("let's make that a team agreement", "fica decidido")
 * or a commitment with an owner or a date ("I'll do it by Friday", "me encargo yo", "我来负责，周五前").
 * The rest of a transcript is discussion, which a summary condenses.
 */
const LATIN =
  // English
  "i['’]ll|i will|we['’]ll|we will|i can (?:do|take|handle|talk|file|write|send|own)|let['’]s (?!get started|start|begin|kick off|move on|see|go\\b|wrap)|" +
  'agreed|we agree|agreement|decision|decided|decide|approved|action item|deadline|' +
  'by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of|eod|eow|next|the \\d)|' +
  // German
  'ich (?:mache|übernehme|kümmere|schicke|schreibe|kläre)|machen wir|wir machen|beschlossen|entschieden|beschluss|einigen uns|geeinigt|' +
  'bis (?:montag|dienstag|mittwoch|donnerstag|freitag|morgen|ende|zum|nächste)|' +
  // Spanish
  'me encargo|lo hago|yo lo hago|me ocupo|acordamos|acordado|decidimos|decidido|queda aprobado|aprobado|' +
  'para el (?:lunes|martes|miércoles|jueves|viernes|\\d)|antes del|' +
  // Portuguese
  'fico com|eu faço|eu cuido|eu mando|combinado|decidimos|fica decidido|aprovad[oa]|aprovamos|prazo|' +
  'até (?:segunda|terça|quarta|quinta|sexta|amanhã|o dia|dia|o fim)|' +
  // French
  "je m['’]en (?:occupe|charge)|je m['’]occupe|on valide|validé|c['’]est décidé|nous décidons|on décide|décision|d['’]ici (?:lundi|mardi|mercredi|jeudi|vendredi|demain|la fin|le \\d)|avant le";
const DECIDES = new RegExp(`(?<![\\p{L}])(?:${LATIN})(?![\\p{L}])`, 'iu');
// Chinese and Japanese: no word boundaries.
const WIDE_DECIDES = /我来|我负责|由我|负责跟进|决定|定下来|通过了|截止|之前完成|前完成|前发|担当します|私がやります|やります|対応します|決定|決まり|までに|承認/u;

// A task handed to someone by name: "Greta, can you add it to the page?", "Javier, te encargas tú del arreglo",
// "Lucía, prepara el plan revisado", "Fernanda, você avisa o fornecedor".
const ASSIGNS =
  /^[^\p{L}]*\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?,\s+(?:can you|could you|would you|will you|please|you take|te encargas|encárgate|puedes|podrías|prepara|haz|manda|envía|revisa|você (?:pode|poderia|fica|avisa|manda|prepara)|pode|fica com|prepare|mande|kannst du|könntest du|übernimmst du|peux-tu|pourrais-tu|tu peux|tu t['’]en occupes)(?![\p{L}])/u;

/** Whether a transcript's sentence decides, commits to something or hands a task to someone. */
export const decides = (text: string): boolean => DECIDES.test(text) || WIDE_DECIDES.test(text) || ASSIGNS.test(text);
