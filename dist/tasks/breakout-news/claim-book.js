class ClaimBook {
  constructor(windowMs) {
    this.windowMs = windowMs;
  }
  windowMs;
  claims = [];
  last = /* @__PURE__ */ new Map();
  /** the claim on `market` still inside its window at `now`, or null */
  pending(market, now) {
    const c = this.last.get(market);
    return c && c.t + this.windowMs > now ? c : null;
  }
  add(c) {
    this.claims.push(c);
    this.last.set(c.market, c);
  }
  /** every accepted claim, in acceptance order */
  all() {
    return this.claims;
  }
}
export {
  ClaimBook
};
//# sourceMappingURL=claim-book.js.map
