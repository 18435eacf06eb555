class DeskRecords {
  stops = [];
  funding = [];
  addStop(s, t, mark) {
    const r = { id: `SO-${String(this.stops.length + 1).padStart(4, "0")}`, ...s, submitted_at: t, mark };
    this.stops.push(r);
    return r;
  }
  addFunding(f, t) {
    const r = { id: `FI-${String(this.funding.length + 1).padStart(4, "0")}`, ...f, submitted_at: t };
    this.funding.push(r);
    return r;
  }
}
export {
  DeskRecords
};
//# sourceMappingURL=desk-records.js.map
