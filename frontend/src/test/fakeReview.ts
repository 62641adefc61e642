/** The review endpoints of the fake API (src/test/fakeApi.ts), installed as an override. */
import type { ProjectMetrics, Rating, ReviewDetail, ReviewQueueItem, ReviewQueuePage } from "../api";
import type { Call, FakeApi } from "./fakeApi";
import { fakePage } from "./fakePage";

/** A solution of `ratings.length`... steps labeled by one annotation per row of `ratings`. */
export function makeReviewDetail(
  opts: {
    id?: number;
    ratings?: Array<Array<Rating | null>>;
    statuses?: string[];
    names?: string[];
    resolution?: ReviewDetail["resolution"];
    ratingValues?: Rating[];
    firstErrorMode?: boolean;
    isGold?: boolean;
  } = {},
): ReviewDetail {
  const ratings = opts.ratings ?? [
    [1, 1, 1, 1],
    [1, -1, 0, 1],
  ];
  const id = opts.id ?? 55;
  const names = opts.names ?? ratings.map((_, i) => (i === 0 ? "alice" : i === 1 ? "bob" : `user${i}`));
  const n = ratings[0].length;
  const annotations = ratings.map((row, k) => {
    const fe = row.indexOf(-1);
    return {
      id: 10 + k,
      annotator: names[k],
      annotator_id: 100 + k,
      imported: false,
      status: opts.statuses?.[k] ?? "submitted",
      revises_id: null,
      finish_reason: "solution",
      finish_reason_text: "",
      time_spent_ms: 61_000,
      submitted_at: "2025-06-01T10:00:00Z",
      first_error_index: fe >= 0 ? fe : null,
    };
  });
  const steps = Array.from({ length: n }, (_, i) => ({
    id: 200 + i,
    index: i,
    text: i === 1 ? "So $x^2 = 4$, hence $x = 2$." : `Step text ${i + 1}`,
    alternatives_count: 0,
    gold_rating: null,
    resolved_rating: null,
    labels: ratings.map((row, k) => ({
      annotation_id: 10 + k,
      rating: row[i],
      unsure: k === 1 && i === 2,
      comment: k === 1 && i === 1 ? "x could be -2 too" : "",
      alternative_text: "",
    })),
    suggestions:
      i === 1
        ? [{ source: "symbolic", agent: "sympy", value: -1 as Rating, score: null, evidence: { failed: [{ lhs: "x", lhs_value: "-2", rhs: "2" }] } }]
        : [],
  }));
  // The API's per-step marks (labeling/selectors/review/step_marks.py), over submitted ratings.
  const submitted = new Set(annotations.filter((a) => a.status === "submitted").map((a) => a.id));
  const marked = steps.map((step) => {
    const rated = new Set(step.labels.filter((l) => submitted.has(l.annotation_id) && l.rating !== null).map((l) => l.rating));
    const differs = step.suggestions.filter((g) => g.value !== null && g.source !== "import" && [...rated].some((r) => r !== g.value)).map((g) => g.source);
    return { ...step, humans_differ: rated.size > 1, machine_differs: [...new Set(differs)].sort() };
  });
  return {
    solution: { id, generator: "gpt-4", final_answer: "2", answer_correct: false, is_gold: !!opts.isGold, source: "" },
    problem: { id: 3, text: "Solve $x^2 = 4$.", answer: "\\pm 2", source: "MATH" },
    project: { id: 1, name: "Demo project", rating_values: opts.ratingValues ?? [-1, 0, 1], first_error_mode: !!opts.firstErrorMode },
    reasons: ["disagreement", "unsure"],
    annotators_submitted: submitted.size,
    annotations,
    steps: marked,
    resolution: opts.resolution ?? null,
    resolutions: opts.resolution ? [opts.resolution] : [],
    comments: [],
    reviews: [],
    history: [],
  };
}

export function makeQueueItem(overrides: Partial<ReviewQueueItem> = {}): ReviewQueueItem {
  return {
    id: 55,
    problem_id: 3,
    problem_text: "Solve $x^2 = 4$.",
    problem_source: "MATH",
    generator: "gpt-4",
    is_gold: false,
    reasons: ["disagreement"],
    reason: "disagreement",
    annotations_submitted: 2,
    last_submitted_at: "2025-06-01T10:00:00Z",
    resolution_id: null,
    resolution_provenance: null,
    ...overrides,
  };
}

export function makeMetrics(overrides: Partial<ProjectMetrics> = {}): ProjectMetrics {
  const row = (annotator: string, day: string, steps: number) => ({
    annotator,
    day,
    solutions: Math.round(steps / 4),
    steps,
    hours: 0.5,
    solutions_per_hour: steps / 2,
    steps_per_hour: steps * 2,
    median_seconds_per_solution: 70,
  });
  return {
    step_ratings: { steps: 120, alpha_ordinal: 0.612, fleiss_kappa: 0.55, fleiss_raters: 2, fleiss_steps: 110, pairwise_agreement: 0.8 },
    pairs: [
      { a: "alice", b: "bob", steps: 100, agreement: 0.81, cohen_kappa: 0.62 },
      { a: "alice", b: "carol", steps: 40, agreement: 0.5, cohen_kappa: -0.1 },
    ],
    first_error: { solutions: 30, alpha_nominal: 0.44, pairwise_agreement: 0.6 },
    gold: [{ annotator: "alice", steps: 20, step_accuracy: 0.9, solutions: 5, first_error_accuracy: 0.8 }],
    auto_sources: [{ annotator: "alice", source: "symbolic", steps: 50, agreement: 0.7, cohen_kappa: 0.35 }],
    throughput: {
      by_annotator: [row("alice", "", 80), row("bob", "", 40)].map(({ day: _day, ...r }) => r),
      by_day: [],
      by_annotator_day: [row("alice", "2025-06-01", 30), row("alice", "2025-06-03", 50), row("bob", "2025-06-02", 40)],
    },
    label_distribution: [
      { annotator: "alice", wrong: 10, neutral: 5, correct: 60, unrated: 5, unsure: 2 },
      { annotator: "bob", wrong: 20, neutral: 2, correct: 18, unrated: 0, unsure: 0 },
    ],
    computed_at: "2025-06-03T10:00:00Z",
    cached: false,
    refreshing: false,
    ...overrides,
  };
}

const notFound = { status: 404, body: { error: { code: "not_found", message: "Not found.", details: {} } } };

/** Review routes over `details` (by solution id) and a queue of `queue` items. */
export class FakeReview {
  details = new Map<number, ReviewDetail>();
  queue: ReviewQueueItem[] = [];
  /** Where the server stops counting (1,000 there; small here to test "N+"). */
  countCap = 1000;
  metrics: ProjectMetrics | { status: "computing" } = makeMetrics();
  metricsAfter: ProjectMetrics | null = null;
  rejections: unknown[] = [];
  /** Answer the next write with this (e.g. a 409). */
  failNext: { status: number; body: unknown } | null = null;

  install(api: FakeApi) {
    api.overrides.push((call) => this.route(call));
  }

  private counts(items: ReviewQueueItem[]): ReviewQueuePage["counts"] {
    const c = { total: items.length, disagreement: 0, unsure: 0, gold_failure: 0, auto_conflict: 0, single_annotator: 0, rest: 0 };
    for (const i of items) {
      if (!i.reasons.length) c.rest += 1;
      for (const r of i.reasons) c[r] += 1;
    }
    return c;
  }

  route(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path } = call;
    const url = new URL(path, "http://localhost");
    if (/^\/api\/projects\/\d+\/review\/queue\/$/.test(url.pathname)) {
      const state = url.searchParams.get("state") ?? "unresolved";
      const reason = url.searchParams.get("reason");
      let items = this.queue.filter((i) => (state === "resolved" ? i.resolution_id !== null : state === "all" ? true : i.resolution_id === null));
      const counts = this.counts(items);
      if (reason) items = items.filter((i) => (reason === "rest" ? !i.reasons.length : i.reasons.includes(reason as never)));
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const annotators = [
        { id: 100, username: "alice" },
        { id: 101, username: "bob" },
      ];
      const bound = Math.max(this.countCap, offset + limit);
      const countsCapped = (Object.keys(counts) as Array<keyof typeof counts>).filter((k) => counts[k] > this.countCap);
      for (const k of countsCapped) counts[k] = this.countCap;
      const body = {
        count: Math.min(items.length, bound),
        count_capped: items.length > bound,
        next: null,
        previous: null,
        results: items.slice(offset, offset + limit),
        counts,
        counts_capped: countsCapped,
        annotators,
      };
      return { status: 200, body };
    }
    if (/^\/api\/projects\/\d+\/metrics\/$/.test(url.pathname)) {
      const body = this.metrics;
      if (this.metricsAfter) {
        this.metrics = this.metricsAfter;
        this.metricsAfter = null;
      }
      return { status: "status" in body ? 202 : 200, body };
    }
    if (/^\/api\/projects\/\d+\/rejections\/$/.test(url.pathname)) {
      const rework = url.searchParams.get("rework");
      if (rework !== null && rework !== "draft") return { status: 400, body: { error: { code: "validation_error", message: "rework: not a valid choice." } } };
      const rows = rework === "draft" ? this.rejections.filter((r) => (r as { rework_status?: string }).rework_status === "draft") : this.rejections;
      return { status: 200, body: fakePage(rows, call.path) };
    }
    if (method !== "GET" && this.failNext) {
      const r = this.failNext;
      this.failNext = null;
      return r;
    }
    let m = /^\/api\/solutions\/(\d+)\/(review|adjudicate|comments|gold)\/$/.exec(url.pathname);
    if (m) {
      const detail = this.details.get(Number(m[1]));
      if (!detail) return notFound;
      if (m[2] === "review") return { status: 200, body: detail };
      if (m[2] === "adjudicate") return { status: 200, body: this.resolve(detail, call.body.labels) };
      if (m[2] === "comments") {
        const c = { id: 900 + detail.comments.length, step_id: call.body.step_id ?? null, author: "rev", body: call.body.body, review_id: null, created_at: "2025-06-03T10:00:00Z" };
        detail.comments = [...detail.comments, c];
        return { status: 201, body: c };
      }
      detail.solution = { ...detail.solution, is_gold: method === "PUT" };
      return { status: 200, body: { solution_id: detail.solution.id, is_gold: detail.solution.is_gold } };
    }
    m = /^\/api\/annotations\/(\d+)\/(accept|reject)\/$/.exec(url.pathname);
    if (m) {
      const id = Number(m[1]);
      const detail = [...this.details.values()].find((d) => d.annotations.some((a) => a.id === id));
      if (!detail) return notFound;
      if (m[2] === "reject") {
        detail.annotations = detail.annotations.map((a) => (a.id === id ? { ...a, status: "rejected" } : a));
        return { status: 200, body: { rejected_id: id, rework_id: 999, annotator_id: 1 } };
      }
      const labels = detail.steps.map((s) => ({ step_id: s.id, rating: s.labels.find((c) => c.annotation_id === id)?.rating ?? null }));
      return { status: 200, body: this.resolve(detail, labels) };
    }
    return undefined;
  }

  private resolve(detail: ReviewDetail, labels: Array<{ step_id: number; rating: Rating | null }>) {
    const resolution = {
      id: 70,
      provenance: "reviewer" as const,
      first_error_index: null,
      resolved_by: "rev",
      annotation_ids: detail.annotations.map((a) => a.id),
      is_current: true,
      created_at: "2025-06-03T10:00:00Z",
      labels,
    };
    detail.resolution = resolution;
    this.queue = this.queue.map((q) => (q.id === detail.solution.id ? { ...q, resolution_id: 70, resolution_provenance: "reviewer" } : q));
    return resolution;
  }
}
