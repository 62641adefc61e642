/** The export endpoints of the fake API (src/test/fakeApi.ts), installed as an override. */
import { vi } from "vitest";
import type { Export, ExportPreview, ExportRequest } from "../api";
import type { Call, FakeApi } from "./fakeApi";

export function makeExport(overrides: Partial<Export> = {}): Export {
  return {
    id: 1,
    project: 1,
    format: "trl",
    file_type: "jsonl",
    filters: { label_source: "annotations", min_agreement: 0, unsure: "drop", annotators: [], problem_sources: [], include_gold: false },
    label_policy: { neutral: "positive", truncate_after_first_error: true, human_written_positive: true, soft_labels: false, label_sources: false, combine: "majority" },
    split_policy: { mode: "hash", train: 0.9, validation: 0.05, test: 0.05, seed: "" },
    status: "pending",
    progress: { solutions_done: 0, solutions_total: 0, fraction: 0 },
    row_count: 0,
    step_count: 0,
    stats: {},
    sha256: "",
    size_bytes: 0,
    file_name: null,
    download_url: null,
    card_url: null,
    error: {},
    created_by: { id: 1, username: "admin" },
    created_at: "2025-06-01T10:00:00Z",
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export const SHA = "9f2c1e0b7a6d5c4b3a29180706f5e4d3c2b1a09f8e7d6c5b4a3928170605f4e3";

/** What a finished export looks like after `total` solutions. */
export function finished(e: Export, total: number): Export {
  return {
    ...e,
    status: "done",
    progress: { solutions_done: total, solutions_total: total, fraction: 1 },
    row_count: total - 1,
    step_count: (total - 1) * 4,
    sha256: SHA,
    size_bytes: 12_345,
    file_name: `project-1-export-${e.id}-trl.jsonl`,
    download_url: `/api/exports/${e.id}/download/`,
    card_url: `/api/exports/${e.id}/card/`,
    started_at: "2025-06-01T10:00:01Z",
    finished_at: "2025-06-01T10:00:05Z",
  };
}

const err = (status: number, code: string, message: string, details: unknown = {}) => ({
  status,
  body: { error: { code, message, details } },
});

export class FakeExports {
  exports: Export[] = [];
  /** Solutions a build covers, and how many more each GET of an active export has read. */
  total = 10;
  step = 5;
  cards = new Map<number, string>();
  /** What POST .../exports/preview/ answers (final labels by origin). */
  preview: ExportPreview = {
    label_source: "final",
    solutions_labeled: 9,
    solutions_unlabeled: 1,
    solutions_read: 9,
    partial: false,
    final_labels: {
      solutions: { review: 2, agreement: 3, single: 4, machine: 0, tie: 0, no_label: 1 },
      steps: { review: 8, agreement: 11, single: 16, machine: 0, tie: 1, no_label: 0 },
    },
  };

  constructor(private api: FakeApi) {
    api.overrides.push((call) => this.route(call));
  }

  /**
   * Call after `api.install()`: the card endpoint answers Markdown, which FakeApi (JSON only)
   * cannot, so it is served by a wrapper around the fake fetch.
   */
  installCard() {
    const inner = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const m = /^\/api\/exports\/(\d+)\/card\/$/.exec(url.pathname);
      if (!m) return inner(input, init);
      this.api.calls.push({ method: "GET", path: url.pathname, body: undefined, headers: (init.headers ?? {}) as Record<string, string> });
      const e = this.exports.find((x) => x.id === Number(m[1]));
      if (!e || e.status !== "done") {
        const { status, body } = e
          ? err(409, "conflict", `Export ${e.id} is ${e.status}; it can be downloaded once it is done.`)
          : err(404, "not_found", "Not found.");
        return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      }
      const text = this.cards.get(e.id) ?? `# Export ${e.id}\n\n| split | rows |\n|---|---|\n| train | 9 |\n`;
      return new Response(text, { status: 200, headers: { "Content-Type": "text/markdown; charset=utf-8" } });
    });
  }

  private route(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path } = call;
    if (method === "POST" && /^\/api\/projects\/(\d+)\/exports\/preview\/$/.test(path)) {
      return { status: 200, body: this.preview };
    }
    const list = /^\/api\/projects\/(\d+)\/exports\/$/.exec(path);
    if (list) {
      if (method === "GET") {
        return { status: 200, body: { count: this.exports.length, next: null, previous: null, results: this.exports } };
      }
      const body = call.body as ExportRequest;
      const created = makeExport({
        id: Math.max(0, ...this.exports.map((e) => e.id)) + 1,
        project: Number(list[1]),
        format: body.format,
        file_type: body.file_type ?? "jsonl",
        filters: { ...makeExport().filters, ...body.filters },
        label_policy: { ...makeExport().label_policy, ...body.label_policy },
        split_policy: { ...makeExport().split_policy, ...body.split_policy },
      });
      this.exports = [created, ...this.exports];
      return { status: 202, body: created };
    }
    const m = /^\/api\/exports\/(\d+)\/$/.exec(path);
    if (!m) return undefined;
    const id = Number(m[1]);
    const i = this.exports.findIndex((e) => e.id === id);
    if (i < 0) return err(404, "not_found", "Not found.");
    let e = this.exports[i];
    if (method === "DELETE") {
      this.exports = this.exports.filter((x) => x.id !== id);
      return { status: 204 };
    }
    if (e.status === "pending" || e.status === "running") {
      const done = Math.min(this.total, e.progress.solutions_done + this.step);
      e =
        done >= this.total
          ? finished(e, this.total)
          : { ...e, status: "running", started_at: "2025-06-01T10:00:01Z", progress: { solutions_done: done, solutions_total: this.total, fraction: done / this.total } };
      this.exports = this.exports.map((x, j) => (j === i ? e : x));
    }
    return { status: 200, body: e };
  }
}
