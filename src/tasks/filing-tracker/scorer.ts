import { HOUR_MS, isoInstant } from "../../common/time.js";
import { HTTP_GET_TOOL } from "../../tools/browser/http-get-tool.js";
import { effectsOfCommitment } from "../../tools/browser/web-effects.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { FilingDuties, type FilingDuty } from "./filing-duties.js";
import { type FilingRecord, parseRecord, parseRecordForm, recordKey } from "./filing-record.js";
import { FilingTrackerParams } from "./params.js";
import { RECORD_FILING_TOOL } from "./portal-tools.js";
import { PORTAL_FORM_PATH, PORTAL_HOST } from "./web/portal-host.js";
import { SEC_HOST } from "./web/sec-host.js";

export const FILING_TRACKER_SCORER_VERSION = "filing-tracker-scorer/2";

/** truth label kind (key: CIK, value.reason) of a company imported without companyfacts (ingest/edgar-world.ts) */
export const XBRL_FACTS_UNAVAILABLE = "xbrl_facts_unavailable";

export type FilingStatus = "ok" | "miss" | "wrong" | "premature" | "no_evidence";

/** The SEC paths that count as reading a company's data; group 1 is the CIK. */
const COMPANY_PATHS: readonly RegExp[] = [
  /^\/submissions\/CIK(\d{10})\.json$/,
  /^\/api\/xbrl\/companyfacts\/CIK(\d{10})\.json$/,
  /^\/api\/xbrl\/companyconcept\/CIK(\d{10})\/[^/]+\/[^/]+\.json$/,
];

/** The CIK whose data a SEC path reads (query ignored), or null. */
export function cikOfSecPath(pathAndQuery: string): string | null {
  const path = pathAndQuery.split("?")[0] ?? "";
  for (const re of COMPANY_PATHS) {
    const m = re.exec(path);
    if (m) return m[1]!;
  }
  return null;
}

/** order = a running index over everything the scorer saw, so "read before save" is exact within one instant */
interface Read {
  t: number;
  order: number;
}
interface Save {
  t: number;
  order: number;
  record: FilingRecord;
  via: "api" | "browser";
}

interface Verdict {
  status: FilingStatus;
  save: Save | null;
  mismatched: string[];
  evidence: boolean | null;
}

/**
 * filing-tracker scorer. Duties: filings accepted in [sim_start, sim_end) of companies held at
 * acceptance that are 8-K with item 2.02, 10-Q or 10-K; each settles at its deadline (the first
 * NYSE open after acceptance), or is `not_scorable` ("settles after window") when that is after
 * sim_end. It rebuilds everything from raw ledger rows: saves are accepted `record_filing`
 * commitments and portal form POSTs in the web effects of browser actions (both re-parsed here),
 * SEC reads are ok `http_get` calls on sec and browser requests to sec, matched to companies by
 * path. Status order: miss → premature → wrong → no_evidence → ok (credit 1, else 0).
 */
export class FilingTrackerScorer extends ScorerBase {
  protected readonly watchedTools: ReadonlySet<string> = new Set([HTTP_GET_TOOL]);
  private readonly p: FilingTrackerParams;
  private readonly scored: FilingDuty[];
  private readonly unscorable: NotScorable[];
  /** CIK → why its 10-Q/10-K value fields have no gold (no companyfacts imported) */
  private readonly noFacts: Map<string, string>;
  private readonly reads = new Map<string, Read[]>();
  private readonly saves = new Map<string, Save[]>();
  private order = 0;
  private emitted = 0;
  private invalidSaves = 0;
  private secReads = 0;
  private readonly results: Verdict[] = [];
  private readonly dutyBook: FilingDuties;

  constructor(private readonly ctx: ScorerContext) {
    super();
    this.p = FilingTrackerParams.parse(ctx.params ?? {});
    this.dutyBook = new FilingDuties(ctx.world.db, this.p);
    const duties = this.dutyBook.duties(ctx.sim_start, ctx.sim_end);
    this.scored = duties.filter((d) => d.deadline <= ctx.sim_end);
    this.unscorable = duties
      .filter((d) => d.deadline > ctx.sim_end)
      .map((d) => ({ key: d.key, reason: "settles after window" }));
    this.noFacts = new Map(
      ctx.truth.labels(XBRL_FACTS_UNAVAILABLE).map((l) => [l.key, String(l.value.reason ?? "no XBRL facts")]),
    );
    this.unscorable.push(...this.valuesUnscorable(this.scored));
  }

  /** a company without XBRL facts: the accession, form and acceptance of its 10-Q/10-K stay graded; its values cannot be */
  private valuesUnscorable(scored: readonly FilingDuty[]): NotScorable[] {
    return scored.flatMap((d) => {
      const why = this.noFacts.get(d.cik);
      return why !== undefined && d.form !== "8-K"
        ? [{ key: `${d.key}:values`, reason: `fy, fp, revenue, eps_diluted not gradable: ${why}` }]
        : [];
    });
  }

  /** an accepted `http_get` of a SEC company path is an evidence read */
  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") return;
    const a = e.args as { host?: unknown; path?: unknown } | null;
    if (a && a.host === SEC_HOST && typeof a.path === "string") this.read(a.path, e.t);
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool === RECORD_FILING_TOOL) {
      const r = parseRecord(e.args);
      if (r.ok) this.save(r.record, e.t, "api");
      else this.invalidSaves++;
      return;
    }
    for (const x of effectsOfCommitment(e)) {
      if (x.kind !== "request") continue;
      if (x.host === SEC_HOST && (x.method === "GET" || x.method === "HEAD")) this.read(x.path, e.t);
      else if (x.host === PORTAL_HOST && x.method === "POST" && x.path === PORTAL_FORM_PATH) {
        const r = x.status < 400 && x.body !== undefined ? parseRecordForm(new URLSearchParams(x.body)) : null;
        if (r?.ok) this.save(r.record, e.t, "browser");
        else this.invalidSaves++;
      }
    }
  }

  private read(path: string, t: number): void {
    const cik = cikOfSecPath(path);
    if (cik === null) return;
    this.secReads++;
    const list = this.reads.get(cik) ?? [];
    this.reads.set(cik, list);
    list.push({ t, order: this.order++ });
  }

  private save(record: FilingRecord, t: number, via: Save["via"]): void {
    const key = recordKey(record);
    const list = this.saves.get(key) ?? [];
    this.saves.set(key, list);
    list.push({ t, order: this.order++, record, via });
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.scored.length) {
      const d = this.scored[this.emitted]!;
      if (d.deadline > t) break;
      const v = this.judge(d);
      this.results.push(v);
      out.push({
        t: d.deadline,
        key: d.key,
        status: v.status,
        credit: v.status === "ok" ? 1 : 0,
        detail: {
          ticker: d.ticker,
          accession: d.accession,
          form: d.form,
          accepted_at: isoInstant(d.accepted_at),
          deadline: isoInstant(d.deadline),
          saved_at: v.save ? isoInstant(v.save.t) : null,
          // reaction: from the filing's acceptance at the SEC to the save that was judged
          ...(v.save ? { reaction_h: (v.save.t - d.accepted_at) / HOUR_MS } : {}),
          mismatched: v.mismatched,
          evidence: v.evidence,
        },
      });
      this.emitted++;
    }
    return out;
  }

  /** The verdict of one duty from the saves and reads seen so far (all before its deadline at settlement). */
  judge(d: FilingDuty): Verdict {
    const before = (this.saves.get(d.key) ?? []).filter((s) => s.t < d.deadline);
    const save = before.at(-1) ?? null;
    if (!save) return { status: "miss", save: null, mismatched: [], evidence: null };
    if (save.t < d.accepted_at) return { status: "premature", save, mismatched: [], evidence: null };
    const mismatched = this.mismatches(d, save.record);
    if (mismatched.length) return { status: "wrong", save, mismatched, evidence: null };
    const evidence = (this.reads.get(d.cik) ?? []).some((r) => r.t >= d.accepted_at && r.order < save.order);
    return { status: evidence ? "ok" : "no_evidence", save, mismatched: [], evidence };
  }

  private mismatches(d: FilingDuty, r: FilingRecord): string[] {
    const bad: string[] = [];
    const eps = 1e-9;
    if (r.form !== d.form) bad.push("form");
    if (Math.abs(r.accepted_at - d.accepted_at) > this.p.accepted_tolerance_s * 1000) bad.push("accepted_at");
    if (d.form === "8-K" || this.noFacts.has(d.cik)) return bad;
    const g = d.gold;
    if (g.fy !== null && r.fy !== g.fy) bad.push("fy");
    if (g.fp !== null && r.fp !== g.fp) bad.push("fp");
    if (g.revenue !== null) {
      const off =
        r.revenue === null
          ? Number.POSITIVE_INFINITY
          : g.revenue === 0
            ? Math.abs(r.revenue)
            : Math.abs(r.revenue / g.revenue - 1);
      if (off > this.p.revenue_tolerance + eps) bad.push("revenue");
    }
    if (g.eps_diluted !== null) {
      const off = r.eps_diluted === null ? Number.POSITIVE_INFINITY : Math.abs(r.eps_diluted - g.eps_diluted);
      if (off > this.p.eps_tolerance + eps) bad.push("eps_diluted");
    }
    return bad;
  }

  report(): ScoreReport {
    return this.reportOver(this.scored.slice(0, this.results.length), this.results, this.unscorable);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): that window's duties; each one
   * due by `end` was judged at its deadline (settle(end) was called), so its verdict is reused.
   */
  reportAt(end: number): ScoreReport {
    const duties = this.dutyBook.duties(this.ctx.sim_start, end);
    const verdicts = new Map(this.results.map((v, i) => [this.scored[i]!.key, v] as const));
    const scored = duties.filter((d) => d.deadline <= end);
    return this.reportOver(
      scored,
      scored.map((d) => verdicts.get(d.key) ?? this.judge(d)),
      [
        ...duties.filter((d) => d.deadline > end).map((d) => ({ key: d.key, reason: "settles after window" })),
        ...this.valuesUnscorable(scored),
      ],
    );
  }

  private reportOver(
    scored: readonly FilingDuty[],
    results: readonly Verdict[],
    unscorable: readonly NotScorable[],
  ): ScoreReport {
    const n = results.length;
    const count = (s: FilingStatus) => results.filter((v) => v.status === s).length;
    const ok = count("ok");
    const notScorable: NotScorable[] = [...unscorable];
    const score = n === 0 ? null : ok / n;
    if (n === 0) notScorable.push({ key: "filing_score", reason: "no filing deadline falls inside the window" });
    const done = results.map((v, i) => ({ form: scored[i]!.form, status: v.status }));
    const rate = (forms: readonly string[]) => {
      const xs = done.filter((x) => forms.includes(x.form));
      return xs.length === 0 ? null : xs.filter((x) => x.status === "ok").length / xs.length;
    };
    return {
      primary: { name: "filing_score", value: score, direction: "higher" },
      metrics: {
        filing_score: score,
        duties: n,
        ok,
        miss: count("miss"),
        wrong: count("wrong"),
        premature: count("premature"),
        no_evidence: count("no_evidence"),
        ok_rate_8k: rate(["8-K"]),
        ok_rate_periodic: rate(["10-Q", "10-K"]),
        saves: [...this.saves.values()].reduce((s, l) => s + l.length, 0),
        saves_invalid: this.invalidSaves,
        sec_reads: this.secReads,
      },
      not_scorable: notScorable,
    };
  }
}
