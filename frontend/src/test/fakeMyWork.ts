/** My work's endpoints on a FakeApi: the list (search, status, paging), Back, reopen, resubmit. */
import type { MyWorkRow, Task } from "../api";
import type { Call, FakeApi } from "./fakeApi";

export function makeMyWorkRow(overrides: Partial<MyWorkRow> = {}): MyWorkRow {
  return {
    annotation_id: 7,
    solution_id: 55,
    status: "submitted",
    finish_reason: "solution",
    reviewed: false,
    at: "2025-06-01T10:00:00Z",
    problem_text: "What is $\\frac{14}{2}$?",
    problem_source: "MATH",
    ...overrides,
  };
}

const error = (status: number, code: string, message: string) => ({ status, body: { error: { code, message, details: {} } } });

export class FakeMyWork {
  rows: MyWorkRow[] = [];
  /** What reopen answers per annotation id (absent: 409, taken by others). */
  reopened = new Map<number, Task>();
  /** What Back answers (null: 204, nothing yet). */
  back: Task | null = null;

  constructor(private api: FakeApi) {
    api.overrides.unshift((call) => this.route(call));
  }

  route(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path } = call;
    const url = new URL(path, "http://localhost");
    if (method === "GET" && /^\/api\/projects\/\d+\/my-work\/$/.test(url.pathname)) {
      const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const status = url.searchParams.get("status");
      const limit = Number(url.searchParams.get("limit") ?? 20);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      if (limit < 1 || limit > 100 || offset < 0) return error(400, "validation_error", "limit/offset out of bounds");
      const hits = this.rows.filter(
        (r) => (!status || r.status === status) && words.every((w) => r.problem_text.toLowerCase().includes(w)),
      );
      const results = hits.slice(offset, offset + limit);
      return { status: 200, body: { count: hits.length, next: null, previous: null, results } };
    }
    if (method === "POST" && /^\/api\/projects\/\d+\/my-work\/back\/$/.test(path)) {
      return this.back ? { status: 200, body: this.withVersion(this.back) } : { status: 204 };
    }
    const reopen = /^\/api\/annotations\/(\d+)\/reopen\/$/.exec(path);
    if (method === "POST" && reopen) {
      const task = this.reopened.get(Number(reopen[1]));
      return task ? { status: 200, body: this.withVersion(task) } : error(409, "conflict", "This solution is no longer available to you.");
    }
    const resubmit = /^\/api\/annotations\/(\d+)\/resubmit\/$/.exec(path);
    if (method === "POST" && resubmit) {
      const id = Number(resubmit[1]);
      const current = this.api.version.get(id) ?? 1;
      if (call.body.version !== current) return error(409, "conflict", "This solution was changed in another tab or window.");
      this.api.version.set(id, current + 1);
      return { status: 200, body: { id, version: current + 1, status: "submitted", labels: call.body.labels } };
    }
    return undefined;
  }

  /** The task with the annotation's version as the fake server has it now. */
  private withVersion(task: Task): Task {
    const version = this.api.version.get(task.annotation.id) ?? task.annotation.version;
    this.api.version.set(task.annotation.id, version);
    return { ...task, annotation: { ...task.annotation, version } };
  }
}
