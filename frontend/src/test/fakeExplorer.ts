/** The solutions explorer's endpoints of the fake API (src/test/fakeApi.ts), installed as an
 * override: filters q, state and gold, the sort by id, paging, and the bulk actions on ids. */
import type { ExplorerRow } from "../api";
import type { Call, FakeApi } from "./fakeApi";
import { makeReviewDetail } from "./fakeReview";

export function makeRow(overrides: Partial<ExplorerRow> = {}): ExplorerRow {
  return {
    id: 1,
    problem_id: 1,
    problem_text: "Solve $x^2 = 4$.",
    problem_source: "MATH",
    generator: "gpt-4",
    final_answer: "2",
    answer_correct: null,
    steps_count: 3,
    submitted_count: 0,
    extra_overlap: 0,
    is_gold: false,
    queue_open: true,
    label_state: "unlabeled",
    reasons: [],
    verdict: "",
    import_job_id: null,
    created_at: "2025-06-01T10:00:00Z",
    ...overrides,
  };
}

export class FakeExplorer {
  rows: ExplorerRow[] = [];
  imports = [
    { id: 4, filename: "prm800k.jsonl", status: "done" },
    { id: 5, filename: "broken.jsonl", status: "failed" },
  ];

  constructor(api: FakeApi) {
    api.overrides.unshift((call) => this.route(call));
  }

  route(call: Call): { status: number; body?: unknown } | undefined {
    const url = new URL(call.path, "http://localhost");
    if (call.method === "GET" && /^\/api\/projects\/\d+\/explorer\/$/.test(url.pathname)) {
      const p = url.searchParams;
      let rows = [...this.rows];
      const q = p.get("q")?.toLowerCase();
      if (q) rows = rows.filter((r) => r.problem_text.toLowerCase().includes(q));
      if (p.get("state")) rows = rows.filter((r) => r.label_state === p.get("state"));
      if (p.get("import_job")) rows = rows.filter((r) => String(r.import_job_id) === p.get("import_job"));
      if (p.get("gold")) rows = rows.filter((r) => String(r.is_gold) === p.get("gold"));
      if (p.get("sort") === "-created") rows.reverse();
      const limit = Number(p.get("limit")), offset = Number(p.get("offset"));
      return { status: 200, body: { count: rows.length, count_capped: false, limit, offset, results: rows.slice(offset, offset + limit) } };
    }
    if (call.method === "POST" && /^\/api\/projects\/\d+\/explorer\/bulk\/$/.test(url.pathname)) {
      const ids: number[] = call.body.ids ?? this.rows.map((r) => r.id);
      const targets = this.rows.filter((r) => ids.includes(r.id));
      let changed = 0,
        reopened = 0;
      const skipped: Record<string, number> = {};
      for (const r of targets) {
        if (call.body.action === "mark_gold" && r.label_state !== "reviewed") skipped.not_reviewed = (skipped.not_reviewed ?? 0) + 1;
        else if (call.body.action === "mark_gold") (r.is_gold = true), changed++;
        else if (call.body.action === "requeue" && r.label_state === "labeled") {
          // Complete: reopened for one more label (the server raises its extra overlap).
          r.extra_overlap += 1;
          r.label_state = "in_progress";
          r.queue_open = true;
          changed++;
          reopened++;
        } else changed++;
      }
      return { status: 200, body: { action: call.body.action, matched: targets.length, changed, reopened, skipped } };
    }
    if (call.method === "GET" && /^\/api\/projects\/\d+\/imports\/$/.test(url.pathname))
      return { status: 200, body: { count: this.imports.length, next: null, previous: null, results: this.imports } };
    const review = /^\/api\/solutions\/(\d+)\/review\/$/.exec(url.pathname);
    if (call.method === "GET" && review) return { status: 200, body: makeReviewDetail({ id: Number(review[1]) }) };
    return undefined;
  }
}
