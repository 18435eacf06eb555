import { WorldStore } from "../../src/world/world-store.js";
const s = WorldStore.open(process.argv[2]);
s.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, news_fts, 'row')");
const n = 100000;
const broad = (s.db.prepare("SELECT term FROM temp.vocab WHERE doc > ?").all(n / 10) as { term: string }[]).map((r) => r.term);
const rare = (s.db.prepare("SELECT term FROM temp.vocab WHERE doc < ? AND doc > 10 LIMIT 300").all(n / 1000) as { term: string }[]).map((r) => r.term);
let now = Date.UTC(2025, 9, 1);
const v = s.at(() => now);
let x = 1;
const rnd = () => { x = (x * 48271) % 2147483647; return x / 2147483647; };
const pick = (a: string[]) => a[Math.floor(rnd() * a.length)]!;
for (const [name, mk] of [["single broad", () => pick(broad)], ["or3 broad", () => `${pick(broad)} OR ${pick(broad)} OR ${pick(broad)}`], ["or3 rare", () => `${pick(rare)} OR ${pick(rare)} OR ${pick(rare)}`], ["and2 broad", () => `${pick(broad)} ${pick(broad)}`]] as const) {
  const qs = Array.from({ length: 100 }, mk);
  for (const q of qs) v.news.search(q, { limit: 10 });
  const c0 = process.cpuUsage();
  for (const q of qs) v.news.search(q, { limit: 10 });
  const c = process.cpuUsage(c0);
  console.log(name, ((c.user + c.system) / 1000 / qs.length).toFixed(3), "ms cpu/query");
}
import { SqliteAsOfView } from "../../src/world/sqlite-as-of-view.js";
const f = new SqliteAsOfView({ stmt: (q) => s.stmt(q), newsLagPubOverVis: 0, newsLagVisOverPub: 0 }, () => now);
for (const [name, mk] of [["FTS single broad", () => pick(broad)], ["FTS or3 rare", () => `${pick(rare)} OR ${pick(rare)} OR ${pick(rare)}`]] as const) {
  const qs = Array.from({ length: 30 }, mk);
  const c0 = process.cpuUsage();
  for (const q of qs) f.news.search(q, { limit: 10 });
  const c = process.cpuUsage(c0);
  console.log(name, ((c.user + c.system) / 1000 / qs.length).toFixed(3), "ms cpu/query");
}
