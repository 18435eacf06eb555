class BinaryHeap {
  constructor(less) {
    this.less = less;
  }
  less;
  items = [];
  get size() {
    return this.items.length;
  }
  peek() {
    return this.items[0];
  }
  push(item) {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = i - 1 >> 1;
      const p = items[parent];
      if (!this.less(item, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = item;
  }
  pop() {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === void 0) return top;
    const n = items.length;
    let i = 0;
    for (; ; ) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(items[r], items[l]) ? r : l;
      const child = items[c];
      if (!this.less(child, last)) break;
      items[i] = child;
      i = c;
    }
    items[i] = last;
    return top;
  }
}
export {
  BinaryHeap
};
//# sourceMappingURL=binary-heap.js.map
