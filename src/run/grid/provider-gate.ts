/**
 * The per-provider concurrency cap (spec/harness.md "Models"): never more than `caps[provider]`
 * jobs of one model provider running at once in this process. Providers without a cap are
 * unlimited (bounded only by the number of workers).
 */
export class ProviderGate {
  private readonly running = new Map<string, number>();
  private readonly waiting: { provider: string; cap: number | undefined; go(): void }[] = [];

  constructor(private readonly caps: Readonly<Record<string, number>> = {}) {}

  /** the cap of a provider: the one given with the job, else this gate's, else none */
  capOf(provider: string, cap?: number): number | undefined {
    return cap ?? this.caps[provider];
  }

  runningOf(provider: string): number {
    return this.running.get(provider) ?? 0;
  }

  /** Takes a slot when one is free; false otherwise. */
  tryAcquire(provider: string, cap?: number): boolean {
    const c = this.capOf(provider, cap);
    if (c !== undefined && this.runningOf(provider) >= c) return false;
    this.running.set(provider, this.runningOf(provider) + 1);
    return true;
  }

  /** Waits for a slot (first come, first served per provider). */
  acquire(provider: string, cap?: number): Promise<void> {
    if (!this.waiting.some((w) => w.provider === provider) && this.tryAcquire(provider, cap)) return Promise.resolve();
    return new Promise((go) => this.waiting.push({ provider, cap, go }));
  }

  release(provider: string): void {
    const n = this.runningOf(provider);
    if (n <= 0) throw new Error(`internal: release of provider ${provider} without a slot`);
    this.running.set(provider, n - 1);
    const i = this.waiting.findIndex((w) => w.provider === provider);
    if (i >= 0 && this.tryAcquire(provider, this.waiting[i]!.cap)) {
      const [w] = this.waiting.splice(i, 1);
      w!.go();
    }
  }
}
