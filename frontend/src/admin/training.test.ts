import { describe, expect, it } from "vitest";
import type { Export, MetricRecord } from "../api";
import { makePrmModel, makeTrainingRun } from "../test/fakeTraining";
import {
  DEFAULT_FORM,
  buildTrainingRequest,
  domainOf,
  formProblem,
  modelMetrics,
  pathOf,
  project,
  series,
  trainableExports,
  trainingFraction,
} from "./training";

const form = { ...DEFAULT_FORM, exportId: "3", baseModel: " /models/qwen " };

describe("training request", () => {
  it("sends the given settings as numbers and leaves empty ones to the trainer", () => {
    expect(buildTrainingRequest({ ...form, maxSteps: "", lr: "2e-5", lora: true })).toEqual({
      export: 3,
      base_model: "/models/qwen",
      config: { lr: 2e-5, epochs: 1, batch_size: 8, grad_accum: 1, max_length: 1024, log_every: 10, head: "linear", lora: true },
    });
    expect(buildTrainingRequest({ ...form, maxSteps: "100", epochs: "" }).config).toMatchObject({ max_steps: 100 });
    expect(buildTrainingRequest({ ...form, maxSteps: "100", epochs: "" }).config).not.toHaveProperty("epochs");
  });

  it("names what is missing or malformed", () => {
    expect(formProblem(form)).toBeNull();
    expect(formProblem({ ...form, exportId: "" })).toMatch(/TRL export/);
    expect(formProblem({ ...form, baseModel: "models/qwen" })).toMatch(/absolute path/);
    expect(formProblem({ ...form, batchSize: "2.5" })).toBe("Batch size must be a positive whole number.");
    expect(formProblem({ ...form, lr: "-1" })).toBe("Learning rate must be a positive number.");
    expect(formProblem({ ...form, lr: "abc" })).toMatch(/Learning rate/);
  });

  it("offers only finished TRL exports", () => {
    const exports = [
      { id: 1, format: "trl", status: "done" },
      { id: 2, format: "trl", status: "running" },
      { id: 3, format: "prm800k", status: "done" },
    ] as Export[];
    expect(trainableExports(exports).map((e) => e.id)).toEqual([1]);
  });
});

describe("run arithmetic", () => {
  it("is step / total, full when done, zero without a total", () => {
    expect(trainingFraction(makeTrainingRun({ status: "running", step: 3, total_steps: 12 }))).toBe(0.25);
    expect(trainingFraction(makeTrainingRun({ status: "running", step: 3, total_steps: 0 }))).toBe(0);
    expect(trainingFraction(makeTrainingRun({ status: "done", step: 3, total_steps: 12 }))).toBe(1);
  });

  it("shows a model's eval metrics, else its last training window", () => {
    expect(modelMetrics(makePrmModel())?.split).toBe("eval");
    const train = { step: 2, split: "train", f1: 0.5 };
    expect(modelMetrics(makePrmModel({ metrics: { train } }))).toEqual({ split: "train", record: train });
    expect(modelMetrics(makePrmModel({ metrics: {} }))).toBeNull();
  });
});

describe("metric curves", () => {
  const history: MetricRecord[] = [
    { step: 4, split: "train", loss: 0.5 },
    { step: 2, split: "train", loss: 0.7 },
    { step: 2, split: "eval", loss: 0.9 },
    { step: 6, split: "train", loss: Number.NaN },
    { step: 8, split: "train" },
  ];

  it("takes one split's finite values in step order", () => {
    expect(series(history, "train", "loss")).toEqual([
      { x: 2, y: 0.7 },
      { x: 4, y: 0.5 },
    ]);
    expect(series(history, "eval", "loss")).toEqual([{ x: 2, y: 0.9 }]);
  });

  it("fits every series, widening flat ranges and keeping fixed bounds", () => {
    expect(domainOf([series(history, "train", "loss"), series(history, "eval", "loss")])).toEqual({ x: [2, 4], y: [0.5, 0.9] });
    expect(domainOf([[{ x: 3, y: 0.5 }]])).toEqual({ x: [2, 4], y: [0, 1] });
    expect(domainOf([[{ x: 1, y: 0.6 }, { x: 2, y: 0.8 }]], 0, 1)).toEqual({ x: [1, 2], y: [0, 1] });
    expect(domainOf([])).toEqual({ x: [0, 1], y: [0, 1] });
  });

  it("maps data to SVG coordinates, y up", () => {
    const box = { width: 120, height: 70, pad: 10 };
    const d = { x: [0, 10] as [number, number], y: [0, 1] as [number, number] };
    expect(project({ x: 0, y: 0 }, d, box)).toEqual({ x: 10, y: 60 });
    expect(project({ x: 10, y: 1 }, d, box)).toEqual({ x: 110, y: 10 });
    expect(pathOf([{ x: 0, y: 0 }, { x: 5, y: 0.5 }, { x: 10, y: 1 }], d, box)).toBe("M10.0 60.0 L60.0 35.0 L110.0 10.0");
    expect(pathOf([], d, box)).toBe("");
  });
});
