/** The Training tab's pure parts: the request it sends, run arithmetic, metric curves as SVG paths. */
import type { Export, MetricRecord, PrmModel, TrainingConfig, TrainingRun, TrainingRunRequest } from "../api";

/** The form's values, as typed (strings: an empty field means "the trainer's default"). */
export interface TrainingForm {
  exportId: string;
  baseModel: string;
  lr: string;
  epochs: string;
  maxSteps: string;
  batchSize: string;
  gradAccum: string;
  maxLength: string;
  logEvery: string;
  head: "linear" | "mlp2";
  lora: boolean;
  bf16: boolean;
}

export const DEFAULT_FORM: TrainingForm = {
  exportId: "",
  baseModel: "",
  lr: "1e-5",
  epochs: "1",
  maxSteps: "",
  batchSize: "8",
  gradAccum: "1",
  maxLength: "1024",
  logEvery: "10",
  head: "linear",
  lora: false,
  bf16: false,
};

const NUMBERS: Array<[keyof TrainingForm, keyof TrainingConfig, "int" | "float"]> = [
  ["lr", "lr", "float"],
  ["epochs", "epochs", "float"],
  ["maxSteps", "max_steps", "int"],
  ["batchSize", "batch_size", "int"],
  ["gradAccum", "grad_accum", "int"],
  ["maxLength", "max_length", "int"],
  ["logEvery", "log_every", "int"],
];

/** What is wrong with the form, or null; the server checks again. */
export function formProblem(form: TrainingForm): string | null {
  if (!form.exportId) return "Choose a finished TRL export.";
  if (!form.baseModel.trim().startsWith("/")) return "Give the base model's absolute path on the training machine.";
  for (const [key, , kind] of NUMBERS) {
    const text = String(form[key]).trim();
    if (!text) continue;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0 || (kind === "int" && !Number.isInteger(n))) {
      return `${LABELS[key]} must be a positive ${kind === "int" ? "whole number" : "number"}.`;
    }
  }
  return null;
}

export const LABELS: Partial<Record<keyof TrainingForm, string>> = {
  lr: "Learning rate",
  epochs: "Epochs",
  maxSteps: "Max steps",
  batchSize: "Batch size",
  gradAccum: "Gradient accumulation",
  maxLength: "Max tokens",
  logEvery: "Log metrics every (steps)",
};

/** The POST body: only the settings given (an empty field leaves the trainer's default). */
export function buildTrainingRequest(form: TrainingForm): TrainingRunRequest {
  const config: TrainingConfig = {};
  for (const [key, name] of NUMBERS) {
    const text = String(form[key]).trim();
    if (text) config[name] = Number(text);
  }
  config.head = form.head;
  if (form.lora) config.lora = true;
  if (form.bf16) config.bf16 = true;
  return { export: Number(form.exportId), base_model: form.baseModel.trim(), config };
}

/** Exports a run can train on: finished, TRL stepwise. */
export function trainableExports(exports: readonly Export[]): Export[] {
  return exports.filter((e) => e.format === "trl" && e.status === "done");
}

export function isTrainingActive(run: Pick<TrainingRun, "status"> | null | undefined): boolean {
  return !!run && (run.status === "pending" || run.status === "running");
}

export function trainingFraction(run: TrainingRun): number {
  if (run.status === "done") return 1;
  if (run.total_steps > 0) return Math.max(0, Math.min(1, run.step / run.total_steps));
  return 0;
}

export const TRAINING_STATUS_TEXT: Record<TrainingRun["status"], string> = {
  pending: "Queued",
  running: "Training",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** 0.6931 → "0.693", 0.5 → "0.500", missing → "—". */
export function metric(value: unknown, digits = 3): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "—";
}

/** A model's headline metrics: eval when it has them, else the last training window. */
export function modelMetrics(model: PrmModel): { split: string; record: MetricRecord } | null {
  if (model.metrics.eval) return { split: "eval", record: model.metrics.eval };
  if (model.metrics.train) return { split: "train", record: model.metrics.train };
  return null;
}

export interface Point {
  x: number;
  y: number;
}

/** (step, value) of one metric of one split, in step order; records without it are left out. */
export function series(history: readonly MetricRecord[], split: string, key: string): Point[] {
  return history
    .filter((r) => r.split === split && typeof r[key] === "number" && Number.isFinite(r[key] as number))
    .map((r) => ({ x: r.step, y: r[key] as number }))
    .sort((a, b) => a.x - b.x);
}

export interface Box {
  width: number;
  height: number;
  pad: number;
}

export interface Domain {
  x: [number, number];
  y: [number, number];
}

/** The range every series fits in; a flat or single-point range is widened so it can be drawn. */
export function domainOf(all: readonly Point[][], yFloor?: number, yCeil?: number): Domain {
  const points = all.flat();
  if (points.length === 0) return { x: [0, 1], y: [yFloor ?? 0, yCeil ?? 1] };
  let [x0, x1] = [Math.min(...points.map((p) => p.x)), Math.max(...points.map((p) => p.x))];
  let [y0, y1] = [Math.min(...points.map((p) => p.y)), Math.max(...points.map((p) => p.y))];
  if (yFloor !== undefined) y0 = Math.min(y0, yFloor);
  if (yCeil !== undefined) y1 = Math.max(y1, yCeil);
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = [y0 - 0.5, y1 + 0.5];
  return { x: [x0, x1], y: [y0, y1] };
}

/** Data → SVG coordinates (y grows downwards in SVG). */
export function project(p: Point, d: Domain, box: Box): Point {
  const w = box.width - 2 * box.pad;
  const h = box.height - 2 * box.pad;
  return {
    x: box.pad + ((p.x - d.x[0]) / (d.x[1] - d.x[0])) * w,
    y: box.pad + (1 - (p.y - d.y[0]) / (d.y[1] - d.y[0])) * h,
  };
}

/** "M x y L x y …" through the points, or "" for none. */
export function pathOf(points: readonly Point[], d: Domain, box: Box): string {
  return points
    .map((p, i) => {
      const q = project(p, d, box);
      return `${i === 0 ? "M" : "L"}${q.x.toFixed(1)} ${q.y.toFixed(1)}`;
    })
    .join(" ");
}
