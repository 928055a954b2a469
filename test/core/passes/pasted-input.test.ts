import { strict as assert } from 'node:assert';
import { optimize, type Mode } from '../../../src/core';
import { promptRanges } from '../../../src/core/prompt/layout';

/**
 * The text a request works on, pasted into the prompt (a notice to translate, a contract to extract from,
 * a diff to review): the prompt without it asks nothing, so it ranks with the request, whole where it fits.
 */
const MODES: Mode[] = ['strict', 'relaxed'];

const NOTICE = [
  'Hola, buenas tardes. Te escribo porque me han dicho que se te da muy bien traducir.', '',
  'Necesito que traduzcas al inglés británico el texto que pego más abajo. Es un aviso para los huéspedes de una casa rural.', '',
  'Algunas indicaciones:', '- Mantén sin traducir los nombres propios.', '- Las horas quedan en formato de 24 horas.', '- No añadas información que no esté en el original.', '',
  'La última traducción que nos hicieron fue un desastre, con frases muy literales, así que confío en que esta vez salga mejor. Gracias de antemano.', '',
  'Texto:', '', '"""', 'Estimado huésped:', '',
  'Le damos la bienvenida a Casa Lindera. La entrada es a partir de las 15:00 y la salida antes de las 11:30.', '',
  'El desayuno se sirve de 8:00 a 10:30 y cuesta 12 € por persona. No se admiten mascotas.', '',
  'Las cancelaciones gratuitas se aceptan hasta 72 horas antes de la llegada.', '"""',
].join('\n');

describe('core/passes: the pasted text a request works on', () => {
  it('reads text between lines of triple quotes as one input, never as few-shot examples ("Razão Social: …" lines of an invoice)', () => {
    const text = [
      'Segue o texto da nota:', '', '"""', 'PREFEITURA MUNICIPAL DE CAMPINAS',
      'NOTA FISCAL DE SERVIÇOS ELETRÔNICA - NFS-e', 'Número da Nota: 00004521', 'Data e Hora de Emissão: 14/03/2025 10:42:17', 'PRESTADOR DE SERVIÇOS',
      'Razão Social: Alves & Moreira Consultoria em TI Ltda.', 'CNPJ: 12.345.678/0001-90', 'TOMADOR DE SERVIÇOS', 'Razão Social: Padaria Pão Dourado Eireli',
      'CNPJ: 98.765.432/0001-10', 'DISCRIMINAÇÃO DOS SERVIÇOS', 'Manutenção mensal do sistema de PDV - referência fevereiro/2025', 'Código do Serviço: 01.07',
      'Valor dos Serviços: R$ 3.200,00', 'Alíquota ISS: 2,00%', 'Valor do ISS: R$ 64,00', 'ISS Retido: Não',
      '"""', '', 'Muito obrigado desde já, você tá salvando minha semana! Por favor, extraia os dados da nota acima no formato pedido.',
    ].join('\n');
    assert.ok(!promptRanges(text).some((r) => r.kind === 'example'), 'an invoice line is no example');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '80%', mode }).text;
      assert.ok(out.includes('Razão Social: Padaria Pão Dourado Eireli') && out.includes('R$ 3.200,00'), `${mode}: the invoice is cut\n${out}`);
    }
  });

  it('keeps a text of several paragraphs between """ lines whole with the request that points at it ("el texto que pego más abajo")', () => {
    for (const mode of MODES) {
      const out = optimize({ text: NOTICE, budget: '60%', mode }).text;
      assert.ok(out.includes('Necesito que traduzcas'), `${mode}: the request is gone\n${out}`);
      for (const line of ['Estimado huésped:', 'a partir de las 15:00', 'No se admiten mascotas.', 'hasta 72 horas antes'])
        assert.ok(out.includes(line), `${mode}: "${line}" of the text to translate is gone\n${out}`);
      assert.equal(out.split('"""').length, 3, `${mode}: both delimiter lines, once each\n${out}`);
      assert.ok(!out.includes('desastre'), `${mode}: the anecdote outranks the text\n${out}`);
    }
  });

  it('keeps a contract between two rules whole for the closing request that names it above ("请提取上述合同中的信息"), items unnumbered anew', () => {
    const text = [
      '您好，麻烦您帮我处理一个信息提取的任务，谢谢！我们以前都是人工录入的，又慢又容易出错，所以想试试用大模型来做。说实话我对这个也不是很懂，如果我描述得不准确，还请见谅。', '',
      '几点要求：', '- 只输出JSON，不要输出任何解释性文字。', '- 如果某个字段在原文中找不到，填 null，千万不要猜测或编造。', '',
      '以下是合同原文：', '', '---', '采购合同', '合同编号：CG-2025-0112', '', '一、采购内容',
      '1. 伺服电机 型号HD-750W，数量 20 台，单价 2,350.00 元', '2. 减速机 型号PL-60，数量 20 台，单价 1,180.00 元', '3. 联轴器 型号LZ-14，数量 40 个，单价 86.00 元', '',
      '二、合同总价', '本合同含税总价为人民币 74,040.00 元，税率13%。', '---', '', '请提取上述合同中的信息。',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '60%', mode }).text;
      for (const line of ['合同编号：CG-2025-0112', '1. 伺服电机', '2. 减速机', '3. 联轴器', '74,040.00'])
        assert.ok(out.includes(line), `${mode}: "${line}" of the contract is gone or renumbered\n${out}`);
      assert.ok(out.includes('请提取上述合同中的信息'), `${mode}: the request is gone\n${out}`);
    }
  });

  it('keeps the diff that "Review this diff …" closes on, over the chatter before it', () => {
    const text = [
      'You are a senior reviewer of our Go services. Some context: we run about forty services on Kubernetes and had a few incidents lately, nothing dramatic, but annoying enough that the team wrote these rules down after a long retro.', '',
      '<review_rules>', '- Flag any goroutine started without a way to stop it.', '- SQL must use parameterised queries.', '</review_rules>', '',
      'I know that is a lot of rules, but honestly they come from real incidents, so they are worth it. Here is the diff for today:', '',
      '```diff', '--- a/handler.go', '+++ b/handler.go', '@@ -41,3 +41,5 @@', '-\ts, err := h.store.Get(r.Context(), id)',
      '+\tquery := "SELECT * FROM shipments WHERE id = \'" + id + "\'"', '+\ts, err := h.store.Raw(context.Background(), query)', '```', '',
      'Review this diff according to the rules above.',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '60%', mode }).text;
      assert.ok(out.includes('h.store.Raw(context.Background(), query)') && out.includes('Review this diff'), `${mode}: the diff to review is gone\n${out}`);
    }
  });
  it('reads notes between two rules that the closing request names above ("上記の議事メモを…要約してください") as material: kept as written, before the chatter around them', () => {
    const text = [
      'お疲れ様です。企画部の佐藤です。いつも大変お世話になっております。', '',
      '定例会議の議事メモを以下に貼り付けますので、お手数ですが要約をお願いできますでしょうか。急ぎで取ったメモなので、読みにくい部分があるかと存じますが、何卒ご容赦ください。', '',
      'なお、この要約は来週月曜日の部長会で共有する予定です。部長はお忙しい方なので、ぱっと見て分かるようにしていただけると大変助かります。', '',
      '---', '議事メモ（2025年6月12日 10:00〜11:15）',
      '・新ポータルのデザイン案B（青基調）が社内アンケートで62%の支持を得た。→案Bで確定。',
      '・シングルサインオンはAzure ADと連携する方針で合意。田中さんが7月4日までに技術検証を完了させる。',
      '・リリース予定日は10月1日で変更なし。', '---', '',
      '以上、どうぞよろしくお願いいたします。上記の議事メモを要約してください。',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '70%', mode }).text;
      for (const line of ['案Bで確定', '7月4日まで', '10月1日で変更なし', '上記の議事メモを要約してください'])
        assert.ok(out.includes(line), `${mode}: "${line}" is gone\n${out}`);
    }
  });
  it('keeps a customer\'s message in <ticket> tags as written at 100%: its greeting and thanks are the customer\'s', () => {
    const text = [
      'Classe le ticket ci-dessous dans une file : FRAUDE, PAIEMENT ou AUTRE. Réponds uniquement par le nom de la file.', '',
      '<ticket>', "Bonjour, je suis artisan plombier et ma carte a été avalée par un distributeur à Lyon ce matin. Merci de m'aider rapidement.", '</ticket>',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '100%', mode }).text;
      assert.ok(out.includes('Bonjour, je suis artisan plombier') && out.includes("Merci de m'aider rapidement."), `${mode}: the ticket was edited\n${out}`);
    }
  });

  const BLURB = 'The StarLeap S3 smart band tracks your heart rate around the clock and really lasts up to 14 days on one charge. It is water resistant to 5 ATM, so you can wear it while swimming.';
  const TRANSLATE = [
    "Hi! I hope you're well. Could you translate a short product blurb from English into German for our website? Thanks so much.", '',
    'Glossary:', '- smart band → Smartband', '- battery life → Akkulaufzeit', '- water resistance → Wasserdichtigkeit', '',
    'Rules:', '1. Output only the German translation, no explanations.', '2. Keep numbers and units exactly as they are.',
    '3. Write the brand name "StarLeap" as is, never translated.', '4. The tone should be professional but not stiff, suitable for a product page.', '',
    'Text to translate:', '', BLURB, '', "That's all, thanks again!",
  ].join('\n');

  it('keeps the paragraph a label names as the text to work on ("Text to translate:") whole, and never rewords it', () => {
    for (const mode of MODES) {
      // Before, at 50% the text went and its rules stayed; at 100% "really" went from the text to translate.
      assert.ok(optimize({ text: TRANSLATE, budget: '50%', mode }).text.includes(BLURB), `${mode}: the text to translate is not whole`);
      assert.ok(optimize({ text: TRANSLATE, budget: '100%', mode }).text.includes(BLURB), `${mode}: the text to translate was edited`);
      for (const budget of ['25%', '33%', '50%', '75%']) {
        const out = optimize({ text: TRANSLATE, budget, mode }).text;
        // The label comes with its text or not at all.
        assert.equal(out.includes('Text to translate:'), out.includes(BLURB), `${mode} ${budget}\n${out}`);
      }
    }
  });

  it('keeps a Chinese request that names the work beside its thanks, and the text after "待翻译原文："', () => {
    const source = '星跃智能手环 S3 支持全天候心率监测和睡眠分析，续航最长可达 14 天。防水等级为 5ATM，游泳时也可以佩戴。';
    const text = [
      '你好！麻烦你了，我这边有一段产品说明需要从中文翻译成英文，客户明天上午就要，所以有点急，真的非常感谢你抽时间帮忙。', '',
      '请严格按照下面的术语表翻译：', '', '- 智能手环 → smart band', '- 续航 → battery life', '- 防水等级 → water resistance rating', '',
      '翻译要求：', '1. 只输出英文译文，不要输出中文原文，也不要加任何解释。', '2. 数字和单位保持原样。', '3. 品牌名“星跃”一律写作 StarLeap，不要音译成 Xingyue。', '',
      '待翻译原文：', '', source, '', '嗯，大概就是这样吧，如果有哪里不确定的地方，你就按你觉得最合理的方式处理就好，再次感谢！',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '50%', mode }).text;
      // Before, the request went as thanks and the text to translate went with it; its glossary and rules stayed.
      assert.ok(out.includes(source), `${mode}: the text to translate is not whole\n${out}`);
      assert.ok(out.includes('需要从中文翻译成英文'), `${mode}: the request is gone\n${out}`);
    }
  });

  it("values a chat log's turns by what they say, not by their speaker's name and time", () => {
    const text = [
      'Resuma a conversa abaixo entre a equipe de produto. Quero no máximo 5 tópicos, cada um com o responsável e o prazo. Não inclua opiniões pessoais nem piadas.', '',
      '[09:02] Mariana: bom dia gente! alguém viu o jogo ontem? kkk',
      '[09:03] Rafael: vi sim, que sofrimento',
      '[09:05] Mariana: o lançamento da versão 3.2 do app está marcado para 14/06',
      '[09:06] Rafael: o backend do checkout novo ainda não está pronto, preciso de mais uma semana',
      '[09:07] Mariana: então o checkout fica fora da 3.2 e entra na 3.3 (28/06)',
      '[09:09] Beatriz: a tradução para espanhol está 80% pronta, termino até 10/06',
      '[09:10] Mariana: ótimo',
      '[09:12] Thiago: recebo a tradução e devolvo em 2 dias úteis',
      '[09:15] Rafael: ok',
      '[09:16] Mariana: orçamento de marketing para o lançamento: R$ 45.000, não pode passar disso',
      '[09:18] Beatriz: alguém vai pedir pizza no almoço?',
    ].join('\n');
    for (const mode of MODES) {
      const out = optimize({ text, budget: '50%', mode }).text;
      // Before, every turn was as specific as the next for its time: all five lines of chatter stayed, and two of the dates went.
      const chatter = ['jogo ontem', 'vi sim, que sofrimento', 'Rafael: ok', 'Mariana: ótimo', 'pedir pizza'].filter((line) => out.includes(line));
      assert.ok(chatter.length <= 1, `${mode}: ${chatter.join(' / ')} kept\n${out}`);
      assert.ok((out.match(/\d{2}\/06/g) ?? []).length >= 2, `${mode}: the dates went\n${out}`);
    }
  });
});
