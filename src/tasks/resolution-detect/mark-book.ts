/** An accepted `mark_outcome` claim. */
export interface Mark {
  question: string;
  outcome: string;
  news_id: string | null;
  t: number;
  actor: string;
}

/**
 * The marks accepted in one run (tool state; a resumed run rebuilds it by re-running the episode):
 * one per question, ever, never withdrawn. Shared by every actor of the run.
 */
export class MarkBook {
  private readonly byQuestion = new Map<string, Mark>();
  private readonly order: Mark[] = [];

  get(question: string): Mark | null {
    return this.byQuestion.get(question) ?? null;
  }

  add(m: Mark): void {
    if (this.byQuestion.has(m.question)) throw new Error(`internal: question ${m.question} already marked`);
    this.byQuestion.set(m.question, m);
    this.order.push(m);
  }

  /** every accepted mark, in acceptance order */
  all(): readonly Mark[] {
    return this.order;
  }
}
