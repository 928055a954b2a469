import { isStructural, type Block, type Doc } from '../doc';
import { framesOf, LEAD_IN_LEVEL } from './structure';
import type { Unit } from './units';

/**
 * The headings, tag pairs and lead-ins that frame content. A frame costs nothing until the first unit
 * under it is kept, and is dropped at the end if none was: a section is kept with its heading and both
 * tags, or not at all. Structure that frames nothing (a title, a lone tag, a rule line) is fixed.
 */
export class Frames {
  private readonly of: Map<Block, Block[]>;
  private readonly opened = new Set<Block>();
  /** Tokens of the structure that frames no content. */
  readonly unframed: number;
  private readonly framing: ReadonlySet<Block>;

  constructor(doc: Doc) {
    this.of = framesOf(doc);
    const framing = new Set<Block>();
    for (const [block, list] of this.of) {
      // A heading under others frames nothing by standing there: its parents frame what it holds.
      if (block.kind === 'heading') continue;
      for (const frame of list) framing.add(frame), frame.tag?.partner && framing.add(frame.tag.partner);
    }
    this.framing = framing;
    let unframed = 0;
    for (const block of doc.blocks) {
      if (block.removed || !isStructural(block) || framing.has(block)) continue;
      // A heading over nothing, or a comment or rule line inside a tag pair or template fence, goes with
      // the frame it stands in (see dropUnopened): it costs what that frame costs, not a fixed share.
      const list = this.of.get(block) ?? [];
      const goesWith = block.kind === 'heading' ? list[list.length - 1] : block.tag ? undefined : [...list].reverse().find((frame) => !!frame.tag);
      if (goesWith) this.inner.set(goesWith, (this.inner.get(goesWith) ?? 0) + block.tokens + 1);
      else unframed += block.tokens + 1;
    }
    this.unframed = unframed;
  }

  /** Tokens of the structure inside each frame that goes with it and frames nothing itself. */
  private readonly inner = new Map<Block, number>();

  /** Tokens the frames of the units (a unit and the heads it comes with) still cost; none once opened. */
  cost(...units: Unit[]): number {
    let cost = 0;
    // Units that come together mostly share their frames: count each once (no set for the usual single unit).
    const counted = units.length > 1 ? new Set<Block>() : null;
    for (const unit of units) {
      for (const frame of this.framesOf(unit)) {
        if (this.opened.has(frame) || counted?.has(frame)) continue;
        counted?.add(frame);
        cost += frame.tokens + 1 + (frame.tag?.partner ? frame.tag.partner.tokens + 1 : 0) + (this.inner.get(frame) ?? 0);
      }
    }
    return cost;
  }

  /** Opens the frames of the units; returns what that cost. */
  open(...units: Unit[]): number {
    const cost = this.cost(...units);
    for (const unit of units) for (const frame of this.framesOf(unit)) this.opened.add(frame);
    return cost;
  }

  /** The lead-in line the unit stands under, if any. */
  leadIn(unit: Unit): Block | undefined {
    return this.framesOf(unit).find((frame) => frame.level === LEAD_IN_LEVEL);
  }

  dropUnopened(): void {
    for (const [block, list] of this.of) {
      if (block.kind === 'heading') continue;
      for (const frame of list) {
        const removed = !this.opened.has(frame);
        frame.removed = removed;
        if (frame.tag?.partner) frame.tag.partner.removed = removed;
      }
    }
    // A heading that framed nothing ("### Feature B" with no text under it) goes with a parent that went,
    // and so does a comment or a rule line inside a tag pair or template fence that went.
    for (const [block, list] of this.of) {
      if (block.kind === 'heading' && !this.framing.has(block) && list.some((frame) => frame.removed)) block.removed = true;
      if (block.kind === 'markup' && !block.tag && list.some((frame) => frame.removed && frame.tag)) block.removed = true;
    }
  }

  private framesOf(unit: Unit): readonly Block[] {
    if (unit.parents) return [...new Set(unit.parents.flatMap((block) => this.of.get(block) ?? []))];
    return this.of.get((unit.parent ?? unit.block)!) ?? [];
  }
}

