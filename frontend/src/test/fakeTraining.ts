/** The training endpoints of the fake API (src/test/fakeApi.ts), installed as an override. */
import type { MetricRecord, PrmModel, QueueOrder, TrainingRun, TrainingRunRequest } from "../api";
import type { Call, FakeApi } from "./fakeApi";
import { fakePage, routeOf } from "./fakePage";

export function makeTrainingRun(overrides: Partial<TrainingRun> = {}): TrainingRun {
  return {
    id: 1,
    project: 1,
    export: 3,
    base_model: "/models/qwen",
    config: {},
    status: "pending",
    step: 0,
    total_steps: 0,
    progress: 0,
    metrics: {},
    history: [],
    log_tail: "",
    artifact_path: "",
    error: "",
    attempts: 0,
    prm_model: null,
    created_by: "admin",
    created_at: "2025-06-01T10:00:00Z",
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export function makePrmModel(overrides: Partial<PrmModel> = {}): PrmModel {
  return {
    id: 5,
    project: 1,
    name: "run-1",
    path: "/app/var/training/run-1/out",
    training_run: 1,
    base_model: "/models/qwen",
    metrics: { eval: { step: 4, split: "eval", loss: 0.4, accuracy: 0.81, f1: 0.77 } },
    created_by: "admin",
    created_at: "2025-06-01T10:05:00Z",
    ...overrides,
  };
}

const err = (status: number, code: string, message: string, details: unknown = {}) => ({
  status,
  body: { error: { code, message, details } },
});

/** A record per step: the loss falls, accuracy and F1 rise; eval every 2 steps. */
export function historyUpTo(step: number): MetricRecord[] {
  const out: MetricRecord[] = [];
  for (let s = 1; s <= step; s++) {
    out.push({ step: s, split: "train", loss: 0.7 - 0.1 * s, accuracy: 0.5 + 0.1 * s, f1: 0.4 + 0.1 * s });
    if (s % 2 === 0) out.push({ step: s, split: "eval", loss: 0.72 - 0.1 * s, accuracy: 0.5 + 0.08 * s, f1: 0.45 + 0.08 * s });
  }
  return out;
}

const TRAINABLE = { id: 3, format: "trl", status: "done", row_count: 120, created_at: "2025-06-01T09:00:00Z", finished_at: "2025-06-01T09:00:05Z" };

export class FakeTraining {
  runs: TrainingRun[] = [];
  models: PrmModel[] = [];
  /** Models an unfinished run uses: DELETE answers 409. */
  inUse: number[] = [];
  order: QueueOrder = "default";
  /** The project's exports, newest first. */
  exports: { id: number; format: string; status: string; row_count: number; created_at: string; finished_at: string }[] = [
    TRAINABLE,
    { ...TRAINABLE, id: 2, format: "prm800k" },
  ];
  /** Steps a run trains; each GET of an active run advances it by `step`. */
  total = 4;
  step = 2;

  constructor(api: FakeApi) {
    api.overrides.push((call) => this.route(call));
  }

  private route(call: Call): { status: number; body?: unknown } | undefined {
    const { method, path } = call;
    if (/^\/api\/projects\/\d+\/exports\/$/.test(routeOf(path)) && method === "GET") {
      // As the server: `export_format` and `status` keep those only, a page at a time.
      const query = new URL(path, "http://testserver").searchParams;
      const rows = this.exports.filter(
        (e) => (!query.get("export_format") || e.format === query.get("export_format")) && (!query.get("status") || e.status === query.get("status")),
      );
      return { status: 200, body: fakePage(rows, path) };
    }
    if (/^\/api\/projects\/\d+\/queue-priority\/$/.test(path)) {
      if (method === "PUT") this.order = call.body.order;
      return { status: 200, body: { order: this.order } };
    }
    if (/^\/api\/projects\/\d+\/prm-models\/(\?.*)?$/.test(path)) {
      if (method === "GET") return { status: 200, body: { count: this.models.length, next: null, previous: null, results: this.models } };
      const model = makePrmModel({ id: 50 + this.models.length, name: call.body.name, path: call.body.path, training_run: null, metrics: {} });
      this.models = [model, ...this.models];
      return { status: 201, body: model };
    }
    const one = /^\/api\/projects\/\d+\/prm-models\/(\d+)\/$/.exec(path);
    if (one && method === "DELETE") {
      const id = Number(one[1]);
      if (this.inUse.includes(id)) return err(409, "conflict", `Model ${id} is in use by auto-label run 3: cancel or wait for them to finish, then delete it.`);
      if (!this.models.some((x) => x.id === id)) return err(404, "not_found", "Not found.");
      this.models = this.models.filter((x) => x.id !== id);
      return { status: 204 };
    }
    const list = /^\/api\/projects\/(\d+)\/training-runs\/$/.exec(path);
    if (list) {
      if (method === "GET") {
        const results = this.runs.map(({ history: _h, log_tail: _l, ...summary }) => summary);
        return { status: 200, body: { count: results.length, next: null, previous: null, results } };
      }
      const body = call.body as TrainingRunRequest;
      if (!body.base_model.startsWith("/")) return err(400, "validation_error", "base_model must be an absolute path.", { field: "base_model" });
      const run = makeTrainingRun({ id: Math.max(0, ...this.runs.map((r) => r.id)) + 1, export: body.export, base_model: body.base_model, config: body.config ?? {} });
      this.runs = [run, ...this.runs];
      return { status: 202, body: run };
    }
    const m = /^\/api\/training-runs\/(\d+)\/(cancel\/)?$/.exec(path);
    if (!m) return undefined;
    const i = this.runs.findIndex((r) => r.id === Number(m[1]));
    if (i < 0) return err(404, "not_found", "Not found.");
    let run = this.runs[i];
    const active = run.status === "pending" || run.status === "running";
    if (m[2]) {
      if (!active) return err(409, "conflict", `The run is already ${run.status}.`);
      run = { ...run, status: "cancelled", finished_at: "2025-06-01T10:01:00Z" };
    } else if (active) {
      const step = run.status === "pending" ? 0 : Math.min(this.total, run.step + this.step);
      const history = historyUpTo(step);
      const metrics = {
        train: [...history].reverse().find((r) => r.split === "train"),
        eval: [...history].reverse().find((r) => r.split === "eval"),
        truncation: "truncation dropped 2 of 40 labeled steps (1 negative, 1 positive) in 1 examples, 0 of them left with no step and skipped; raise max_length to keep them",
      };
      run = { ...run, status: "running", step, total_steps: this.total, history, metrics, started_at: "2025-06-01T10:00:01Z", log_tail: `training: ${step}/${this.total}` };
      if (step >= this.total) {
        const model = makePrmModel({ id: 40 + run.id, name: `run-${run.id}`, training_run: run.id, metrics });
        this.models = [model, ...this.models];
        run = { ...run, status: "done", prm_model: model.id, artifact_path: model.path, finished_at: "2025-06-01T10:00:30Z" };
      }
    }
    this.runs = this.runs.map((r, j) => (j === i ? run : r));
    return { status: 200, body: run };
  }
}
