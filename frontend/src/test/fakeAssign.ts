/** Members, assignments, gold and project settings endpoints of the fake API
 * (src/test/fakeApi.ts), installed as an override. */
import type { AssignmentRequest, AssignmentSummaryRow, GoldRow, Member, ProblemSource, Project } from "../api";
import type { Call, FakeApi } from "./fakeApi";
import { fakePage, routeOf } from "./fakePage";

const err = (status: number, code: string, message: string) => ({ status, body: { error: { code, message, details: {} } } });

export function makeGold(overrides: Partial<GoldRow> = {}): GoldRow {
  return {
    solution_id: 7,
    problem_text: "What is $2 + 2$?",
    problem_source: "gsm8k",
    generator: "test-model",
    ratings: [1, -1, 1],
    first_error: 1,
    answers: 2,
    step_accuracy: 4 / 6,
    first_error_accuracy: 0.5,
    annotators: [
      { annotator: "ann", steps: 3, step_accuracy: 2 / 3, first_error: 1, first_error_correct: true },
      { annotator: "bob", steps: 3, step_accuracy: 2 / 3, first_error: 0, first_error_correct: false },
    ],
    ...overrides,
  };
}

export class FakeAssign {
  members: Member[] = [
    { user: { id: 1, username: "admin" }, role: "admin", screening: "", screening_answered: 0 },
    { user: { id: 2, username: "ann" }, role: "annotator", screening: "", screening_answered: 0 },
    { user: { id: 3, username: "bob" }, role: "annotator", screening: "", screening_answered: 0 },
  ];
  sources: ProblemSource[] = [
    { source: "gsm8k", solutions: 6, open: 6, unassigned: 6 },
    { source: "math", solutions: 4, open: 3, unassigned: 4 },
  ];
  /** The page's `as_of` and `refreshing` (a large project's stored counts). */
  sourcesAsOf: string | null = null;
  sourcesRefreshing = false;
  /** solution id -> user ids */
  assigned = new Map<number, number[]>();
  submitted = new Set<string>(); // `${solution}:${user}`
  gold: GoldRow[] = [];
  solutionIds = Array.from({ length: 10 }, (_, i) => i + 1);

  constructor(private api: FakeApi) {
    api.overrides.unshift((call) => this.route(call));
  }

  private chosen(req: AssignmentRequest): number[] {
    let ids = req.solution_ids ?? this.solutionIds;
    if (req.source === "math") ids = ids.filter((id) => id > 6);
    if (req.source === "gsm8k") ids = ids.filter((id) => id <= 6);
    if (req.only_unassigned) ids = ids.filter((id) => !this.assigned.has(id));
    return req.limit ? ids.slice(0, req.limit) : ids;
  }

  /** Round robin (one per solution), each, or weighted by integer weights: enough for the UI. */
  plan(req: AssignmentRequest): { solutions: number; pairs: Array<[number, number]> } {
    const ids = this.chosen(req);
    const users = req.user_ids;
    const pairs: Array<[number, number]> = [];
    const deck =
      req.strategy === "weighted"
        ? users.flatMap((u, i) => Array.from({ length: Math.round(req.weights?.[i] ?? 1) }, () => u))
        : users;
    ids.forEach((id, i) => {
      const to = req.strategy === "each" ? users : [deck[i % deck.length]];
      for (const u of to) if (!(this.assigned.get(id) ?? []).includes(u)) pairs.push([id, u]);
    });
    return { solutions: ids.length, pairs };
  }

  summary(): AssignmentSummaryRow[] {
    const rows = new Map<number, AssignmentSummaryRow>();
    for (const [solution, users] of this.assigned) {
      for (const u of users) {
        const m = this.members.find((x) => x.user.id === u)!;
        const row = rows.get(u) ?? { user_id: u, username: m.user.username, assigned: 0, submitted: 0 };
        row.assigned += 1;
        if (this.submitted.has(`${solution}:${u}`)) row.submitted += 1;
        rows.set(u, row);
      }
    }
    return [...rows.values()].sort((a, b) => a.username.localeCompare(b.username));
  }

  private perUser(req: AssignmentRequest, pairs: Array<[number, number]>) {
    const out: Record<string, number> = Object.fromEntries(req.user_ids.map((u) => [String(u), 0]));
    for (const [, u] of pairs) out[String(u)] += 1;
    return out;
  }

  route(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path, body } = call;
    const route = routeOf(path);
    if (method === "GET" && /^\/api\/projects\/\d+\/members\/$/.test(route)) return { status: 200, body: fakePage(this.members, path) };
    const reset = /^\/api\/projects\/\d+\/members\/(\d+)\/screening\/reset\/$/.exec(path);
    if (reset && method === "POST") {
      const m = this.members.find((x) => x.user.id === Number(reset[1]));
      if (!m || m.screening !== "failed") return err(400, "validation_error", "has not failed the screening.");
      Object.assign(m, { screening: "", screening_answered: 0 });
      return { status: 200, body: m };
    }
    if (method === "GET" && /\/problem-sources\/$/.test(route)) return { status: 200, body: { ...fakePage(this.sources, path), as_of: this.sourcesAsOf, refreshing: this.sourcesRefreshing } };
    if (/^\/api\/projects\/\d+\/assignments\/preview\/$/.test(path)) {
      if (body.strategy === "weighted" && body.weights?.length !== body.user_ids.length)
        return err(400, "validation_error", "weighted needs one positive weight per user.");
      const { solutions, pairs } = this.plan(body);
      return { status: 200, body: { solutions, new: this.perUser(body, pairs) } };
    }
    if (/^\/api\/projects\/\d+\/assignments\/$/.test(route)) {
      if (method === "GET") return { status: 200, body: fakePage(this.summary(), path) };
      if (method === "POST") {
        const { pairs } = this.plan(body);
        for (const [id, u] of pairs) this.assigned.set(id, [...(this.assigned.get(id) ?? []), u]);
        return { status: 201, body: { created: this.perUser(body, pairs) } };
      }
      if (method === "DELETE") {
        let deleted = 0;
        for (const [id, users] of this.assigned) {
          const keep = body?.user_ids ? users.filter((u) => !body.user_ids.includes(u)) : [];
          deleted += users.length - keep.length;
          if (keep.length) this.assigned.set(id, keep);
          else this.assigned.delete(id);
        }
        return { status: 200, body: { deleted } };
      }
    }
    if (method === "GET" && /^\/api\/projects\/\d+\/gold\/$/.test(route)) return { status: 200, body: fakePage(this.gold, path) };
    const gold = /^\/api\/solutions\/(\d+)\/gold\/$/.exec(path);
    if (gold && method === "DELETE") {
      this.gold = this.gold.filter((g) => g.solution_id !== Number(gold[1]));
      return { status: 200, body: { solution_id: Number(gold[1]), is_gold: false } };
    }
    if (method === "PATCH" && /^\/api\/projects\/\d+\/$/.test(path) && this.api.project) {
      if (body.gold_rate !== undefined && (body.gold_rate < 0 || body.gold_rate > 1))
        return err(400, "validation_error", "gold_rate: Ensure this value is less than or equal to 1.");
      this.api.project = { ...this.api.project, ...body } as Project;
      return { status: 200, body: this.api.project };
    }
    return undefined;
  }
}
