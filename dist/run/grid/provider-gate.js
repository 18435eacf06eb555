class ProviderGate {
  constructor(caps = {}) {
    this.caps = caps;
  }
  caps;
  running = /* @__PURE__ */ new Map();
  waiting = [];
  /** the cap of a provider: the one given with the job, else this gate's, else none */
  capOf(provider, cap) {
    return cap ?? this.caps[provider];
  }
  runningOf(provider) {
    return this.running.get(provider) ?? 0;
  }
  /** Takes a slot when one is free; false otherwise. */
  tryAcquire(provider, cap) {
    const c = this.capOf(provider, cap);
    if (c !== void 0 && this.runningOf(provider) >= c) return false;
    this.running.set(provider, this.runningOf(provider) + 1);
    return true;
  }
  /** Waits for a slot (first come, first served per provider). */
  acquire(provider, cap) {
    if (!this.waiting.some((w) => w.provider === provider) && this.tryAcquire(provider, cap)) return Promise.resolve();
    return new Promise((go) => this.waiting.push({ provider, cap, go }));
  }
  release(provider) {
    const n = this.runningOf(provider);
    if (n <= 0) throw new Error(`internal: release of provider ${provider} without a slot`);
    this.running.set(provider, n - 1);
    const i = this.waiting.findIndex((w) => w.provider === provider);
    if (i >= 0 && this.tryAcquire(provider, this.waiting[i].cap)) {
      const [w] = this.waiting.splice(i, 1);
      w.go();
    }
  }
}
export {
  ProviderGate
};
//# sourceMappingURL=provider-gate.js.map
