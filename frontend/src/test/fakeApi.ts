/** A fake steplab API behind `fetch`, for component tests. */
import { vi } from "vitest";
import type { AutolabelEngine, AutolabelRun, HubTokenStatus, MachineSource, Progress, Project, Task } from "../api";

/** The server's built-in sources as GET /api/machine-sources/ lists them (labeling/rules/machine_sources.py). */
export const BUILTIN_SOURCES: MachineSource[] = [
  ["consensus", "Consensus"],
  ["symbolic", "Symbolic check"],
  ["code", "Code execution"],
  ["rollout", "Monte-Carlo rollouts"],
  ["judge", "LLM judge"],
  ["prm", "Trained PRM"],
  ["prediction", "Uploaded predictions"],
  ["import", "Imported dataset"],
].map(([name, label]) => ({ name, label, plugin: false, default: true }))
  .concat(
    [
      ["agent", "Agent trajectory checks"],
      ["graph", "Graph checker (networkx)"],
      ["subgoal", "Subgoal log check"],
      ["citation", "Citation check"],
    ].map(([name, label]) => ({ name, label, plugin: false, default: false })),
  );

export interface Call {
  method: string;
  path: string;
  body: any;
  headers: Record<string, string>;
  keepalive?: boolean;
}

type Handler = (call: Call) => { status: number; body?: unknown } | undefined;

/** FAKE_API_JITTER_MS=40 delays every answer by a random 0-40 ms, so that a test which races
 * one request against another fails here rather than once in a while in CI. */
const JITTER_MS = Number(
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.FAKE_API_JITTER_MS ?? 0,
);

export class FakeApi {
  calls: Call[] = [];
  queue: Task[] = [];
  version = new Map<number, number>();
  progress: Progress = { done_today: 12, submitted_total: 40, remaining: 34, project_total: 100 };
  user: { id: number; username: string; is_staff: boolean; must_change_password?: boolean } | null = {
    id: 1,
    username: "annotator",
    is_staff: false,
  };
  overrides: Handler[] = [];
  /** The request_id of the write last applied per annotation (a retry of it is a replay). */
  lastRequestId = new Map<number, string>();
  /** Calls for which the write is applied but the answer never arrives (a connection reset). */
  loseResponse: (call: Call) => boolean = () => false;
  /** Served at GET /api/projects/{id}/ when set. */
  project: Project | null = null;
  /** Auto-label runs, newest first. Each GET of a running run advances it by `autolabelStep`. */
  autolabelRuns: AutolabelRun[] = [];
  autolabelStep = 5;
  /** Served at GET /api/autolabel-engines/ (the installed plug-ins among them). */
  engines: AutolabelEngine[] = [];
  /** Served at /api/auth/hub-token/ (PUT saves, DELETE removes; a token ending in "bad0" is
   * refused by the fake Hub's whoami). */
  hubToken: HubTokenStatus = { set: false, last4: "", hub_user: "", checked_at: null, updated_at: null, server_token: true, uses: "server_listed", server_repos: ["team/"] };
  /** Sources the fake server refuses with 400 validation_error, as a not-yet-available one. */
  unavailableSources = new Set<string>(["rollout", "judge", "code"]);

  constructor(tasks: Task[]) {
    this.queue = [...tasks];
    for (const t of tasks) this.version.set(t.annotation.id, t.annotation.version);
  }

  install() {
    document.cookie = "csrftoken=test-token";
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const headers = (init.headers ?? {}) as Record<string, string>;
      const call: Call = {
        method: (init.method ?? "GET").toUpperCase(),
        path: url.pathname + url.search,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        headers,
        keepalive: init.keepalive,
      };
      this.calls.push(call);
      if (JITTER_MS > 0) await new Promise((res) => setTimeout(res, Math.random() * JITTER_MS));
      for (const h of this.overrides) {
        const r = h(call);
        if (r) return respond(r.status, r.body);
      }
      const r = this.route(call);
      if (this.loseResponse(call)) throw new TypeError("Failed to fetch");
      return respond(r.status, r.body);
    });
    vi.stubGlobal("fetch", fetchMock);
    return fetchMock;
  }

  callsTo(method: string, pathPart: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path.includes(pathPart));
  }

  private route(call: Call): { status: number; body?: unknown } {
    const { method, path } = call;
    if (path === "/api/auth/me/") {
      // As the server: 200 for everyone, `authenticated: false` when signed out.
      return this.user
        ? { status: 200, body: { authenticated: true, must_change_password: false, ...this.user } }
        : { status: 200, body: { authenticated: false, id: null, username: "", is_staff: false, must_change_password: false } };
    }
    if (method === "POST" && /\/queue\/next\/$/.test(path)) {
      const task = this.nextTask();
      return task ? { status: 200, body: task } : { status: 204 };
    }
    if (method === "GET" && /\/progress\/$/.test(path)) return { status: 200, body: this.progress };
    if (method === "GET" && /^\/api\/projects\/\d+\/$/.test(path) && this.project) return { status: 200, body: this.project };
    const al = this.autolabel(call);
    if (al) return al;
    if (path === "/api/machine-sources/" && method === "GET") {
      const plugins = this.engines.filter((e) => !e.builtin).map((e) => ({ name: e.name, label: e.label, plugin: true, default: false }));
      return { status: 200, body: [...BUILTIN_SOURCES, ...plugins] };
    }
    if (path === "/api/auth/hub-token/") return this.hubTokenCall(call);
    const m = /^\/api\/annotations\/(\d+)\/(draft|submit|skip)\/$/.exec(path);
    if (m) {
      const id = Number(m[1]);
      const current = this.version.get(id) ?? 1;
      const requestId: string | undefined = call.body?.request_id;
      if (requestId && this.lastRequestId.get(id) === requestId) {
        // A retry of the write last applied: answered as its success, nothing applied again.
        if (m[2] === "skip") return { status: 204 };
        return { status: 200, body: this.withNext(call, { id, version: current, labels: call.body.labels, status: m[2] === "submit" ? "submitted" : "draft" }) };
      }
      if (m[2] === "skip") {
        if (requestId) this.lastRequestId.set(id, requestId);
        this.queue = this.queue.filter((t) => t.annotation.id !== id);
        return { status: 204 };
      }
      if (call.body.version !== current) {
        return { status: 409, body: { error: { code: "conflict", message: "This solution was changed in another tab or window.", details: {} } } };
      }
      this.version.set(id, current + 1);
      if (requestId) this.lastRequestId.set(id, requestId);
      else this.lastRequestId.delete(id);
      if (m[2] === "submit") {
        this.queue = this.queue.filter((t) => t.annotation.id !== id);
        this.progress = { ...this.progress, done_today: this.progress.done_today + 1, remaining: this.progress.remaining - 1 };
      }
      return { status: 200, body: this.withNext(call, { id, version: current + 1, labels: call.body.labels, status: m[2] === "submit" ? "submitted" : "draft" }) };
    }
    return { status: 404, body: { error: { code: "not_found", message: `No route ${method} ${path}`, details: {} } } };
  }

  private hubTokenCall(call: Call): { status: number; body?: unknown } {
    if (call.method === "DELETE") {
      this.hubToken = { ...this.hubToken, set: false, last4: "", hub_user: "", checked_at: null, updated_at: null, uses: this.hubToken.server_token && this.hubToken.server_repos.length ? "server_listed" : "none" };
      return { status: 204 };
    }
    if (call.method === "PUT") {
      const token: string = call.body.token;
      if (call.body.check && token.endsWith("bad0")) {
        return { status: 400, body: { error: { code: "hub_error", message: "The Hub refused this token (whoami answered 401).", details: { field: "token" } } } };
      }
      const at = "2026-12-06T09:00:00Z";
      this.hubToken = { ...this.hubToken, set: true, last4: token.slice(-4), hub_user: call.body.check ? "alice" : "", checked_at: call.body.check ? at : null, updated_at: at, uses: "user" };
    }
    return { status: 200, body: this.hubToken };
  }

  /** The queue's head as the server serves it (with its current version), or null. */
  private nextTask(): Task | null {
    const task = this.queue[0];
    return task ? { ...task, annotation: { ...task.annotation, version: this.version.get(task.annotation.id) ?? task.annotation.version } } : null;
  }

  /** A submit that asked for `next` answers the next task as `next_task`, as the server does. */
  private withNext(call: Call, body: Record<string, unknown>): Record<string, unknown> {
    return call.body?.next && /\/submit\/$/.test(call.path) ? { ...body, next_task: this.nextTask() } : body;
  }

  private autolabel(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path } = call;
    if (path === "/api/autolabel-engines/" && method === "GET") return { status: 200, body: this.engines };
    if (/^\/api\/projects\/\d+\/autolabel-runs\/$/.test(path)) {
      if (method === "GET") {
        return { status: 200, body: { count: this.autolabelRuns.length, next: null, previous: null, results: this.autolabelRuns } };
      }
      const sources: string[] = call.body?.sources ?? [];
      const refused = sources.filter((s) => this.unavailableSources.has(s));
      if (!sources.length || refused.length) {
        return {
          status: 400,
          body: {
            error: {
              code: "validation_error",
              message: refused.length
                ? `sources: ${sources.indexOf(refused[0])}: "${refused[0]}" is not a valid choice.`
                : "sources: Ensure this field has at least 1 elements.",
              details: {
                sources: refused.length
                  ? Object.fromEntries(refused.map((s) => [String(sources.indexOf(s)), [`"${s}" is not a valid choice.`]]))
                  : ["Ensure this field has at least 1 elements."],
              },
            },
          },
        };
      }
      const run = makeRun({
        id: (this.autolabelRuns[0]?.id ?? 0) + 1,
        sources,
        params: call.body.params ?? {},
        filter: call.body.filter ?? {},
      });
      this.autolabelRuns = [run, ...this.autolabelRuns];
      return { status: 202, body: run };
    }
    const m = /^\/api\/autolabel-runs\/(\d+)\/(?:(cancel|pause|resume)\/)?$/.exec(path);
    if (!m) return undefined;
    const i = this.autolabelRuns.findIndex((r) => r.id === Number(m[1]));
    if (i < 0) return { status: 404, body: { error: { code: "not_found", message: "Not found.", details: {} } } };
    let run = this.autolabelRuns[i];
    const action = m[2];
    const unfinished = run.status === "pending" || run.status === "running" || run.status === "paused";
    if (action) {
      if (method !== "POST") return { status: 405 };
      const conflict = (message: string) => ({ status: 409, body: { error: { code: "conflict", message, details: {} } } });
      if (!unfinished) return conflict(`The run is already ${run.status}.`);
      if (action === "cancel") run = { ...run, status: "cancelled", eta_seconds: null, finished_at: "2025-06-01T10:01:00Z" };
      else if (action === "pause") run = { ...run, status: "paused", eta_seconds: null };
      else if (run.status === "paused") run = { ...run, status: run.started_at ? "running" : "pending" };
    } else if (run.status === "pending" || run.status === "running") {
      const done = Math.min(run.total, run.done + this.autolabelStep);
      const finished = done >= run.total;
      run = {
        ...run,
        status: finished ? "done" : "running",
        started_at: run.started_at ?? "2025-06-01T10:00:01Z",
        finished_at: finished ? "2025-06-01T10:00:31Z" : null,
        done,
        progress: run.total ? done / run.total : 1,
        rate: 2.5,
        eta_seconds: finished ? null : (run.total - done) / 2.5,
        suggestions_written: done * 2,
        verdicts: { plus: 0, zero: 0, minus: done, doubtful: 0, evidence: done },
      };
    }
    this.autolabelRuns = this.autolabelRuns.map((r, j) => (j === i ? run : r));
    return { status: 200, body: run };
  }
}

export function makeRun(overrides: Partial<AutolabelRun> = {}): AutolabelRun {
  return {
    id: 1,
    sources: ["symbolic"],
    params: {},
    filter: {},
    status: "pending",
    total: 10,
    done: 0,
    failed: 0,
    progress: 0,
    rate: null,
    eta_seconds: null,
    suggestions_written: 0,
    verdicts: { plus: 0, zero: 0, minus: 0, doubtful: 0, evidence: 0 },
    errors: [],
    error_groups: [],
    created_at: "2025-06-01T10:00:00Z",
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

function respond(status: number, body?: unknown): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
