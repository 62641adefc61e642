/** A fake steplab API behind `fetch`, for component tests. */
import { vi } from "vitest";
import type { Progress, Task } from "../api";

export interface Call {
  method: string;
  path: string;
  body: any;
  headers: Record<string, string>;
  keepalive?: boolean;
}

type Handler = (call: Call) => { status: number; body?: unknown } | undefined;

export class FakeApi {
  calls: Call[] = [];
  queue: Task[] = [];
  version = new Map<number, number>();
  progress: Progress = { done_today: 12, submitted_total: 40, remaining: 34, project_total: 100 };
  user: { id: number; username: string; is_staff: boolean } | null = { id: 1, username: "annotator", is_staff: false };
  overrides: Handler[] = [];

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
      for (const h of this.overrides) {
        const r = h(call);
        if (r) return respond(r.status, r.body);
      }
      const r = this.route(call);
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
      return this.user
        ? { status: 200, body: this.user }
        : { status: 403, body: { error: { code: "not_authenticated", message: "Log in.", details: {} } } };
    }
    if (method === "POST" && /\/queue\/next\/$/.test(path)) {
      const task = this.queue[0];
      if (!task) return { status: 204 };
      return { status: 200, body: { ...task, annotation: { ...task.annotation, version: this.version.get(task.annotation.id) } } };
    }
    if (method === "GET" && /\/progress\/$/.test(path)) return { status: 200, body: this.progress };
    const m = /^\/api\/annotations\/(\d+)\/(draft|submit|skip)\/$/.exec(path);
    if (m) {
      const id = Number(m[1]);
      const current = this.version.get(id) ?? 1;
      if (m[2] === "skip") {
        this.queue = this.queue.filter((t) => t.annotation.id !== id);
        return { status: 204 };
      }
      if (call.body.version !== current) {
        return { status: 409, body: { error: { code: "conflict", message: "This solution was changed in another tab or window.", details: {} } } };
      }
      this.version.set(id, current + 1);
      if (m[2] === "submit") {
        this.queue = this.queue.filter((t) => t.annotation.id !== id);
        this.progress = { ...this.progress, done_today: this.progress.done_today + 1, remaining: this.progress.remaining - 1 };
      }
      return { status: 200, body: { id, version: current + 1, labels: call.body.labels, status: m[2] === "submit" ? "submitted" : "draft" } };
    }
    return { status: 404, body: { error: { code: "not_found", message: `No route ${method} ${path}`, details: {} } } };
  }
}

function respond(status: number, body?: unknown): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
