/**
 * Asides to the prompt's reader in German, Spanish, French, Portuguese, Japanese and Chinese: greetings,
 * thanks, apologies, "any questions, just ask", "I'm not sure this is clear", compliments. The rewrite
 * pass drops such a sentence whole (English has its own list in rewrites.ts), and only when what is left
 * of it without the aside holds no request, constraint, literal (see ASIDE_GUARD) or code.
 */
// "Can you …?" put politely in the other languages the product reads: a question to the model.
export const POLITE_ASKS = 'kannst du|könntest du|können sie|könnten sie|puedes|podrías|pourriez-vous|pouvez-vous|peux-tu|poderia|você pode';

const EUROPEAN = [
  // German
  '(?:vielen|herzlichen|tausend|lieben)(?:,? vielen| lieben)? dank', 'danke(?: dir| euch| ihnen)?(?: schön| sehr)?', 'ich hoffe,? (?:ihr|du|sie) (?:hattet|hattest|hatten|habt|hast|haben)',
  'ich hoffe,? (?:das|es|die) (?:ist|war|sind) (?:jetzt |so )?(?:verständlich|klar|okay|ok|nicht zu)', 'sorry', 'entschuldig\\p{L}*', 'tut mir leid',
  'meld(?:e|et) (?:dich|euch) gern', 'falls (?:was|etwas) (?:fehlt|unklar ist)', 'frag(?:t)? einfach nach', 
  'ich (?:bin mir|weiß) nicht (?:ganz |so )?(?:sicher|genau)', 'wie (?:schon )?gesagt',
  '(?:liebe|viele|beste|herzliche|schöne) grüße', 'mit freundlichen grüßen', 'ich hoffe,? es geht (?:dir|euch|ihnen) gut',
  'das wäre (?:echt |wirklich |total |sehr |super )?(?:nett|lieb|super|toll|klasse)', 'vielleicht magst du (?:kurz |mal |kurz mal )?(?:draufschauen|drüberschauen|drauf schauen|drüber schauen)',
    'ich weiß nicht,? ob das (?:sinn ergibt|verständlich ist|klar ist)', 'ich hoffe,? das passt so', 'ich bin da (?:immer )?so ungeschickt(?: mit worten)?', 'ich bin (?:echt |schon )?gespannt,? ob das klappt', 'wie geht(?:[’\']s| es)(?: dir| euch| ihnen)?', 'bin ich mir nicht (?:ganz |so )?sicher', 'du bist ein schatz', 'ihr rettet mir', 'schönes wochenende', 'schönen tag',
  // Spanish
  '(?:muchas|mil|muchísimas) gracias', 'gracias(?! a (?!ti|usted|vos|todos))', 'perdona\\p{L}*', 'perdón', 'disculpa\\p{L}*', 'lo siento',
  'no sé si me (?:explico|estoy|he explicado)(?: bien)?', '(?:bueno,? )?creo que eso es todo', '(?:pero )?en fin(?=\\s*[,.!…])', '(?:y )?que tengas(?: un)? (?:buen|bonito|feliz) (?:día|fin de semana)', 'cualquier duda', 'a ver si me puedes (?:echar|ayudar)',
  'espero que (?:te|le|os) (?:encuentres|encuentre|vaya)', 'espero que (?:estés|esté|estéis) bien', 'un (?:abrazo|saludo)',
  'no sé si (?:tiene sentido|se entiende)', '¿?qué tal', '¿?cómo (?:estás|está|andas)',
  'si algo no queda claro,? (?:dímelo|me dices|avísame)(?: y lo aclaro)?', 'no sé si funcionará,? pero (?:probamos|probemos)', 'a ver si me explico(?: bien)?',
  // "A ver si me puedes echar una mano, si no es mucha molestia": asking for help, not saying what with.
  'si no es (?:mucha )?molestia',
  // French
  'merci(?: beaucoup| mille fois| encore)?(?: d[’\']avance| par avance| pour votre aide)?\\s*[!.]', 'merci (?:beaucoup|mille fois|d[’\']avance|par avance)',
  'mille mercis', 'ça va', 'comment (?:ça va|allez-vous|vas-tu)', 'désolée?', 'excusez-moi', 'j[’\']espère que (?:vous allez|tu vas) bien', 'n[’\']hésite(?:z)? pas(?: à (?:me|nous) (?:le )?(?:dire|demander|contacter|faire signe|poser (?:tes|vos) questions))?(?: si (?:tu as|vous avez) (?:des|la moindre|une|d[’\']autres) questions?| si quelque chose n[’\']est pas clair)?', 'bonne (?:journée|soirée|semaine)',
  'je ne suis pas sûre? que ce soit', 'vous me sauvez', 'bon courage', 'si jamais ça peut aider',
  'je sais que (?:ça|cela|c[’\']est) (?:paraît|semble|peut paraître|fait) (?:évident|beaucoup)', 'je préfère le redire',
  'en espérant que (?:ce|ça|cela) ne soit pas trop \\p{L}+', 'cordialement', 'bien à vous', 'je (?:vous|te) remercie (?:par avance|d[’\']avance|beaucoup)',
  'je ne sais pas si (?:c[’\']est|ça) (?:clair|compréhensible)', 'on en (?:re)?(?:discute|parle)',
  'je me permets de vous (?:solliciter|contacter|écrire|déranger)', 'si vous avez (?:un moment|deux minutes|un peu de temps)',
  '(?:voilà,? )?je crois que c[’\']est tout', 'j[’\']ai hâte de voir le résultat',
  // Portuguese
  'muito obrigad[oa]', 'como (?:vai|está|estás)(?: você)?(?=\\s*[?!])', 'obrigad[oa]', 'valeu', 'desculp[ae](?! a)',
  'espero que (?:sim|esteja)', 'qualquer (?:dúvida|coisa)', 'não sei se estou explicando', 'você é (?:um anjo|demais|incrível)',
  'você está salvando', '(?:um )?abraços?', 'atenciosamente', 'desde já agradeço', 'não sei se (?:faz sentido|ficou claro|me expliquei)',
  '(?:tudo )?beleza(?=\\s*\\?)', 'seria (?:ótimo|incrível|muito bom) se (?:você|vocês) (?:pudesse|pudessem) me ajudar(?: com isso)?',
  'acho que é tudo', 'não sei se vai funcionar(?: direitinho)?,? mas vamos tentar(?:,? né)?', 'sei que é (?:meio |um pouco )?chato', 'não sou muito bom nisso(?:,? sabe)?', 'se (?:tiveres|tiver|tiverem) (?:alguma|qualquer) dúvida,? (?:diz-me|me diga|diga|avisa|pergunta)',
  'se não (?:for|fosse) (?:muito )?(?:incômodo|pedir muito)', 'se puder(?:em)? me ajudar', 'agradeço (?:demais|muito|imensamente)', 'queria pedir uma ajud(?:a|inha)',
  // Help asked for, not yet named: "mas preciso de uma ajudinha rápida" ("… de ajuda com um contrato" names it).
  '(?:mas )?preciso de uma ajud(?:a|inha)(?: rápida)?(?!\\s+(?:com|para|em|no|na)(?![\\p{L}]))',
];
const WIDE = [
  // Japanese
  'こんにちは', 'こんばんは', 'おはようございます', 'お疲れ様', 'お世話になって', 'よろしくお願い', 'ありがとうございま', 'すみません', '恐縮', '恐れ入ります', '申し訳', 'ご不明な点', 'お気軽に', 'お知らせください', 'ご連絡ください', 'また何かあれば', 'ご連絡します', 'お手数',
  // "以上です。" closes a message; not "3日以上です" (three days or more).
  '(?<![\\p{N}\\p{Script=Han}\\p{Script=Katakana}])以上(?:です|になります|となります)(?=[。！!]*$)',
  // Chinese
  '你好', '您好', '大家好', '大佬好', '谢谢', '感谢', '辛苦', '麻烦了', '麻烦大家', '麻烦你了', '打扰', '不好意思', '见谅', '感激不尽', '想多了', '多谢', '拜托了', '先谢过', '说清楚没有', '请你喝', '请你吃', '大概就是这些', '以上就是全部内容(?:啦|了)?', '请?多担待', '希望这样(?:比较|够)清楚', '(?:可能)?写得有点啰嗦', '如果我的描述不够清楚的话', 'まだ粗削りかもしれませんが', '(?:分かり|わかり)にくい点があれば', '(?:如果[^，。]{0,12}?)?(?:还)?请?多多?包涵',
  // "如果有任何不清楚的地方，请直接问我": what English says as "let me know if anything is unclear".
  '(?:如果)?有(?:任何)?(?:不清楚|不明白|疑问|问题)(?:的地方)?[，,]?\\s*(?:请|欢迎)?(?:直接|随时)?(?:问我|告诉我|联系我)',
];

// Only where a sentence opens: a greeting, or a hedge about the writer ("Sinceramente não sei …"); in the
// middle of a sentence the same words are narrative ("acreditava sinceramente que …", "le salut").
const GREETINGS = [
  'hallo(?: zusammen| alle| ihr)?', 'hi(?: zusammen)?', 'hey', 'moin', 'servus', 'guten (?:morgen|tag|abend)',
  'hola', 'buenas', 'buenos días', 'oye', 'bonjour(?: à tous)?', 'salut', 'coucou', 'bom dia', 'boa tarde',
  // "Oi, gente", "E aí, pessoal": the greeting with whom it greets.
  '(?:oi|olá|e aí)(?:,? (?:gente|pessoal|galera|a todos|todos))?',
];
// "That's all", said as the whole sentence: "Das ist eigentlich schon alles.", "Eso es todo.", "Voilà, c'est tout.", "É isso.".
const THATS_ALL = [
  'das (?:ist|wär|wäre|war)(?: es)?(?: eigentlich| auch| dann| so)?(?: schon)? alles', '(?:ich denke,? |ich glaube,? )?das war[’\']?s(?: so weit| soweit| erstmal| schon)?',
  '(?:y )?eso es todo(?: por ahora)?',
  '(?:voilà,? )?c[’\']est (?:à peu près |tout )?tout(?: pour moi| pour l[’\']instant)?', '(?:acho que )?(?:é|era) (?:só )?isso(?: aí)?',
].map((phrase) => `${phrase}(?=[\\s.!…]*$)`);
const OPENING = [
  ...GREETINGS, 'ehrlich gesagt', 'la verdad es que no sé', 'un saludo', 'saludos', 'tudo (?:bem|certo)', 'sinceramente', 'sei lá', ...THATS_ALL,
];

/**
 * A greeting set off by a comma or colon that opens a sentence which goes on to say something ("Hola,
 * resume el acta en cinco puntos."): the greeting is an aside, the rest is not (see the rewrite pass's
 * isForeignAside).
 */
export const GREETING_OPENING = new RegExp(`^[^\\p{L}]*(?:${GREETINGS.join('|')})(?![\\p{L}])\\s*[,!:;]\\s*(?=\\p{L})`, 'iu');

/**
 * A hedge or a restatement marker that opens a sentence of German, Spanish, French or Portuguese and can
 * go alone when the rest of the sentence says something ("Sei lá, talvez um emoji no assunto, no máximo
 * um" → "Talvez um emoji …"; "Ah, e só para reforçar o que eu já disse: não acrescente campos" → "Não
 * acrescente campos").
 */
export const OPENING_HEDGE = new RegExp(
  // German puts the verb right after such an opener ("Ehrlich gesagt bin ich …"): without it, the sentence
  // opens on its verb and reads as a question. Set off by a comma, it stands apart and may go.
  '^[^\\p{L}]*(?:(?:ehrlich gesagt|wie (?:schon )?gesagt)\\s*[,:]|(?:sinceramente|la verdad(?: es que)?|honnêtement|franchement|pour être honnête|' +
    'enfin, je dis ça, mais|sei lá|(?:ah,? )?(?:e )?só para reforçar o que (?:eu )?já disse)(?![\\p{L}])\\s*[,:]?)\\s*(?=\\p{L})',
  'iu',
);

export const ASIDES = new RegExp(
  `^[^\\p{L}]*(?:${OPENING.join('|')})(?![\\p{L}])|^[^\\p{L}]*(?:说实话|老实说)|(?<![\\p{L}])(?:${EUROPEAN.join('|')})(?![\\p{L}])|${WIDE.join('|')}`,
  'giu',
);

/**
 * What keeps a sentence with an aside: a request ("bitte", "por favor", "请", "ください"), a negation or
 * limit, or a literal. Read on the sentence without its asides ("Perdona, no uses tablas" stays).
 */
export const ASIDE_GUARD = new RegExp(
  '(?<![\\p{L}])(?:bitte|nicht|nie|niemals|kein\\p{L}*|nur|immer|muss|müssen|darf|dürfen|ohne|außer|soll\\p{L}*|' +
    'por favor|no|nunca|jamás|solo|sólo|siempre|debe\\p{L}*|sin|excepto|salvo|' +
    'ne|n[’\']|jamais|seulement|uniquement|toujours|doi\\p{L}+|sans|sauf|veuillez|merci de|merci d[’\'](?!avance)|' +
    'não|nunca|apenas|somente|sempre|deve\\p{L}*|sem|exceto|' +
    // Limits: "no máximo um por e-mail", "höchstens drei", "au plus deux".
    'máximo|mínimo|maximum|minimum|maximal|höchstens|mindestens|au plus|au moins|pelo menos|al menos|por lo menos|a lo sumo|' +
    // What to keep in mind, beside the thanks: "Gracias por todo, y recuerda que lo más importante es …".
    'recuerda|recuerde|recordad|olvides|olvide|rappelle-toi|rappelez-vous|souviens-toi|souvenez-vous|denk daran|denken sie daran|vergiss|lembra|lembre|lembrem|esqueça|' +
    'más importante|plus important|mais importante|wichtigste|am wichtigsten|' +
    // A date, as a digit is: "Wie schon gesagt, die Frist ist Freitag."
    'montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|januar|februar|märz|juni|juli|oktober|dezember|' +
    'lunes|martes|miércoles|jueves|viernes|sábado|domingo|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre|' +
    'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|janvier|février|avril|juin|juillet|août|septembre|octobre|novembre|décembre|' +
    'segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro)(?![\\p{L}])|' +
    // Chinese: a request or a negation that limits ("不要", "不能"), not any 不 ("不是很熟": not very familiar),
    // and not 请教 ("to ask someone's advice").
    '请(?!教|你喝|你吃|多包涵)|要|不要|不能|不得|不可|不许|不用|别|勿|必须|务必|只|仅|ください|てください|ないで|必ず|のみ|(?<!いた)だけ|禁止|[\\p{N}]|' +
    // A request put politely, which the thanks beside it does not make an aside: "麻烦帮我写一个脚本，谢谢！",
    // "議事録の要約をお願いします", "Danke, kannst du mir das Skript schreiben?".
    '帮我|帮忙|麻烦(?!了|大家|你了)|をお願い(?:します|いたします|したい|でき(?:ます|ません))|(?<!させて)いただけ(?:ます|ません|ない)|教えて|' +
    // What the writer needs, beside the apology: "Desculpa …, mas preciso de ajuda com um contrato de aluguel".
    '(?<![\\p{L}])(?:preciso de|precisamos de|necesito|necesitamos|ich brauche|wir brauchen|ich benötige|j[’\'\']ai besoin|nous avons besoin)(?![\\p{L}])|需要|' +
    `(?<![\\p{L}])(?:${POLITE_ASKS}|puede usted)(?![\\p{L}])`,
  'iu',
);

/**
 * A clause of a Chinese or Japanese sentence, between commas, that talks about the writer or the prompt
 * rather than the task: a hedge ("说实话我有点怕", "我也不太清楚为什么", "うまく説明できているか自信が
 * ないのですが"), a remark on the message's length or repetition ("ちょっと長くなってしまいましたが",
 * "念のためもう一度書いておくと"), a bare discourse marker ("还有就是"). The rewrite pass drops such a
 * clause with its comma, and only when it holds no request, constraint or literal (ASIDE_GUARD).
 */
export const ASIDE_CLAUSE = new RegExp(
  '^(?:说实话|老实说|说真的|还有就是|另外就是|然后就是|正直なところ|正直に言うと|念のため[^、，]*(?:と|けど|が)$)|' +
    '我(?!们)(?:也|自己|本人)?[^，、。]{0,6}不(?:太|是很|怎么)(?:好|懂|熟|清楚|会|确定)|自信がない|うまく説明できて|長くなってしまい|' +
    '同じことを(?:何度も)?書いて',
  'u',
);

/** The longest clause read as an aside clause: a longer one says more than a hedge. */
export const MAX_ASIDE_CLAUSE_CHARS = 24;

/** The longest sentence read as an aside: a longer one mixes in content. */
export const MAX_ASIDE_WORDS = 30;
export const MAX_ASIDE_CHARS = 70;

/**
 * Words that ask politely or intensify and carry no instruction, in German, Spanish, French and
 * Portuguese: the rewrite pass removes them where they stand ("Bitte lagere alle Texte aus" → "Lagere
 * alle Texte aus", "Responde en español, por favor." → "Responde en español."), as it removes "please" and
 * "really" from English. Rules for entries, enforced by tests: each saves tokens, none is a negation or limit.
 */
export const FILLER_WORDS: readonly string[] = [
  'bitte', 'wirklich', 'sozusagen', 'por favor', 'realmente', 'básicamente', 'basicamente', "s'il vous plaît", "s'il te plaît", 'vraiment',
  // "as you can imagine", set off by commas.
  'wie ihr euch vorstellen könnt', 'wie du dir vorstellen kannst', 'wie Sie sich vorstellen können', 'como te puedes imaginar', 'como puedes imaginar',
  "comme vous pouvez l'imaginer", "comme tu peux l'imaginer", 'como você pode imaginar',
  // "if you have a moment", set off by commas.
  'si vous avez un moment',
];

// "eine Bitte", "deine Bitte": the noun, not the particle.
export const NOUN_BEFORE = /(?:^|[^\p{L}])(?:eine|die|der|meine|deine|seine|ihre|unsere|eure|keine|diese|jede|la|una|mi|tu|su)\s+$/iu;

