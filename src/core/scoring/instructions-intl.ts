/**
 * An instruction to the model in German, Spanish, French, Portuguese, Chinese or Japanese: what
 * `isInstruction` reads in English. Only the opening of the sentence (or of a clause after a label)
 * counts, as in English: an article's "nur wenige Menschen" or "必须" inside narrative is no rule.
 */

// Imperatives that open an instruction, written without accents (see `plain`). German and French
// include the polite forms' verb ("Verwenden Sie", "Utilisez"); Spanish and Portuguese the tú and usted
// forms. Spanish imperatives take their pronouns ("Trátalos", "Devuélvelo"): see ENCLITIC.
const OPENERS = new Set(
  (
    // German
    'antworte antworten schreib schreibe schreiben gib geben erstelle erstellen fasse fassen erklare erklaren ubersetze ubersetzen ' +
    'verwende verwenden nutze nutzen benutze benutzen halte halten achte achten beachte beachten nenne nennen liste ' +
    'fuge fugen vermeide vermeiden prufe prufen uberprufe uberprufen korrigiere korrigieren formuliere formulieren beginne beginnen ' +
    'bleib bleibe bleiben lass lasse lassen markiere markieren gliedere strukturiere ordne ordnen sortiere sortieren ' +
    'extrahiere extrahieren ignoriere ignorieren behalte behalten entferne entfernen ersetze ersetzen stelle stellen frag frage fragen ' +
    'zitiere zitieren bewerte bewerten klassifiziere klassifizieren analysiere analysieren bitte gehe gehen konzentriere ' +
    'ubernimm ubernehmen kennzeichne kennzeichnen duze duzen sieze siezen setze setzen erwahne erwahnen sprich sprechen ' +
    // German: the ihr form ("Rechnet …", "Nennt …"), as used to address a team
    'rechne rechnet wende wendet schreibt nennt zeige zeigt formuliert bewertet antwortet verwendet gebt nutzt achtet erstellt ' +
    'erklart ubersetzt pruft vermeidet haltet lasst markiert sortiert ignoriert entfernt fugt ' +
    // Spanish
    'responde responda escribe escriba usa use utiliza utilice manten mantenga trata trate incluye incluya evita evite genera genere ' +
    'crea cree devuelve devuelva indica indique explica explique resume resuma traduce traduzca redacta redacte revisa revise corrige ' +
    'corrija anade anada agrega agregue elimina elimine quita quite sigue siga recuerda recuerde cita cite clasifica clasifique ' +
    'extrae extraiga enumera enumere ordena ordene senala senale marca marque centrate dime diga haz haga ' +
    'pon ponga comienza comience empieza empiece asegura asegure tenga conserva conserve respeta respete ' +
    'identifica identifique analiza analice compara calcula calcule convierte convierta reescribe reescriba ' +
    // French
    'reponds repondez ecris ecrivez utilise utilisez garde gardez conserve conservez donne donnez redige redigez traduis traduisez ' +
    'resume resumez indique indiquez explique expliquez evite evitez ajoute ajoutez supprime supprimez verifie verifiez mets mettez ' +
    'cite citez liste listez classe classez respecte respectez suis suivez commence commencez sois soyez tutoie tutoyez vouvoie ' +
    'vouvoyez reste restez precise precisez signale signalez mentionne mentionnez fournis fournissez renvoie renvoyez range rangez ' +
    'veuillez terminez pensez lancez extrais extrayez identifie identifiez corrige corrigez reformule reformulez analyse analysez ' +
    'compare comparez calcule calculez convertis convertissez transforme transformez propose proposez relis relisez fais faites ' +
    // Portuguese
    'responda responde escreva use usa utilize mantenha inclua evite gere crie indique explique resuma traduza revise corrija ' +
    'adicione acrescente remova siga cite liste classifique extraia devolva retorne trate seja comece lembre considere mencione ' +
    'informe forneca preserve respeite garanta verifique copie coloque entregue anote identifique analise calcule converta ' +
    'reescreva transforme proponha'
  ).split(' '),
);

// Pronouns a Spanish imperative carries ("Trátalos", "Devuélvemelo", "Redáctalo").
const ENCLITIC = /(?:me|te|se|nos|os|lo|la|los|las|le|les|melo|mela|selo|sela|noslo)$/;

// A negation or absolute that opens a rule ("Nie …", "Nunca …", "Jamais …", "Não …", "Siempre …",
// "Toujours …", "Sempre …"); not "Nur", "Solo" or "Immer", which open narrative too ("Nur wenige Arten …").
const DIRECTIVE_OPENERS = new Set('nie niemals nunca jamas jamais nao siempre toujours sempre'.split(' '));
// French "Ne modifie pas …", "N'invente rien": the negation closes after the verb.
const FRENCH_NE = /^n(?:e\s+|')\S+\s+(?:pas|jamais|rien|plus|aucun|aucune)\b/u;
// "Pas de nouvelle dépendance …", "Nada de procedimientos …", "Kein …": a prohibition without a verb.
const NONE_OF = /^(?:pas de|pas d'|nada de|nenhum|nenhuma|keine? )/u;
// German rules put to "du" in the second person: "Formeln schreibst du in LaTeX", "Im Code verwendest du t()".
const DU_STATEMENT = /^(?:\S+\s+){0,5}\p{L}+st du\b/u;
// A French vous imperative ("Terminez …", "Lancez …"): a verb in -ez opens no statement.
const FRENCH_EZ = /^(?!chez\b|assez\b|nez\b)\p{L}{3,}ez\b/u;
// "No uses …" (Spanish "no" + subjunctive) and not "No hay …": only a second-person verb follows.
const SPANISH_NO = /^no\s+\p{L}+(?:as|es|is)\b/u;

// Second person with a modal ("du musst", "Sie müssen", "debes", "tienes que", "vous devez", "tu dois",
// "você deve"), the jussive "Que …" of Spanish and Portuguese ("Que no pase de 200 palabras"), a polite
// ask ("bitte", "por favor", "merci de", "il faut").
const MODAL =
  /^(?:du (?:musst|sollst|darfst|kannst)|sie (?:mussen|sollen|durfen)|ihr (?:musst|sollt)|es ist wichtig|achte darauf|debes|deberas|debe usted|tienes que|tiene que|hay que|es importante que|asegurate|que\s|vous devez|tu dois|il faut|merci de|il est important|assure-toi|assurez-vous|voce deve|voce precisa|e importante|certifique-se|por favor|bitte)/u;

// "Lo que necesito es una consulta que …", "O que eu preciso é …", "Ce dont j'ai besoin, c'est …", "Was ich
// brauche, ist …", "A ideia é que você leia …": what English reads in "What I need is …" and "The idea is
// that you …" (on the text without accents, see `plain`).
const WANTED = /^(?:lo que (?:necesito|quiero|busco|me gustaria|quisiera)\b(?! decir)[^.:!?]{0,24}?(?:\bes\b|:)|o que (?:eu )?(?:preciso|quero|gostaria|procuro)\b(?! dizer)[^.:!?]{0,24}?(?:\be\b|:)|ce (?:dont j'ai besoin|que je veux|que je voudrais|que je cherche)\b(?! dire)[^.:!?]{0,24}?(?:c'est|:)|was ich (?:brauche|mochte|will|suche)\b(?! sagen)[^.:!?]{0,24}?(?:\bist\b|:)|(?:la idea|el objetivo|la meta) es que|(?:a ideia|o objetivo|a meta) e que|(?:l'idee|le but|l'objectif),? (?:c'est|est) que|(?:die idee|das ziel) ist,? dass (?:du|ihr|sie)\b)/u;

// Chinese: a request marker or a must/never opening the sentence, after an optional "you".
const CHINESE = /^(?:你|您)?(?:请(?!愿)|把(?=[^，。,]{1,40}(?:列出|写|改|翻译|标|注明|放|整理|分成|算|换成|转成|输出|删|去掉|加上|补充|用))|務必|务必|必须|一定要|不要|不得|禁止|切勿|只(?!有|是|要)|仅(?:输出|回答|返回|使用|保留)|避免|确保|注意|回答|输出|列出|给出|保持|保留|返回|翻译|总结|不能|不需要|不允许|麻烦(?:你|您)?(?:给|帮|写|用|说明|列出|把)|写|算出)|[，,：:]\s*请(?!愿)/u;
// Japanese: a request or rule ending ("…してください", "…すること", "…しないでください", "要約をお願いします",
// "…してほしいです"; not "よろしくお願いします"), or 必ず.
// A note in brackets may close the rule: "金額はすべて残してください（予算、執行額、…）".
const JAPANESE = /(?:ください|下さい|なさい|すること|しないこと|こと|をお願い(?:します|いたします|致します)|て(?:ほしい|欲しい)(?:です)?)[。．.!！]?(?:[（(][^）)\n]*[）)])?[。．.!！]?\s*$|^必ず|^絶対に/u;

// A label before the rule: "Wichtig: …", "Formato: …", "注意：…".
const LABEL = /^[^\p{L}]*\p{L}[\p{L} ]{0,24}[:：]\s*(?=\S)/u;
const LEAD_IN = /^[^\p{L}]*(?:(?:und|auch|außerdem|dann|zum schluss|y|además|también|luego|por último|et|aussi|ensuite|enfin|e|também|além disso|depois|por fim)\b[,\s]*)+/iu;

const plain = (text: string): string => text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/** Whether the sentence says what the writer needs ("Lo que necesito es …"): the request itself. */
export const statesWantForeign = (text: string): boolean => WANTED.test(plain(text.replace(/^[^\p{L}\p{N}]+/u, '')));

/** An instruction to the model in one of the other languages the product reads (see the file comment). */
export function isForeignInstruction(text: string): boolean {
  const label = text.includes(':') || text.includes('：') ? LABEL.exec(text) : null;
  return opens(text) || (label !== null && opens(text.slice(label[0].length)));
}

function opens(original: string): boolean {
  const trimmed = original.replace(/^[^\p{L}\p{N}]+/u, '');
  if (CHINESE.test(trimmed) || JAPANESE.test(trimmed)) return true;
  const sentence = plain(trimmed.replace(LEAD_IN, ''));
  if (MODAL.test(sentence) || WANTED.test(sentence) || SPANISH_NO.test(sentence) || FRENCH_NE.test(sentence) || NONE_OF.test(sentence) || DU_STATEMENT.test(sentence) || FRENCH_EZ.test(sentence)) return true;
  const first = /^([\p{L}]+)/u.exec(sentence)?.[1] ?? '';
  if (OPENERS.has(first) || DIRECTIVE_OPENERS.has(first)) return true;
  // With its pronouns a Spanish imperative bears a written accent ("Trátalos"), which plain() took off.
  const bare = first.replace(ENCLITIC, '');
  return bare !== first && bare.length >= 3 && OPENERS.has(bare) && /^[^\s]*[áéíóú]/u.test(trimmed.toLowerCase());
}
