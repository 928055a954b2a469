/** A binary max-heap by `priority`, ties broken by `order` (earlier first) for determinism. */
export class MaxHeap<T extends { priority: number; order: number }> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.above(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < items.length && this.above(items[left]!, items[best]!)) best = left;
        if (right < items.length && this.above(items[right]!, items[best]!)) best = right;
        if (best === i) break;
        [items[i], items[best]] = [items[best]!, items[i]!];
        i = best;
      }
    }
    return top;
  }

  private above(a: T, b: T): boolean {
    return a.priority > b.priority || (a.priority === b.priority && a.order < b.order);
  }
}
