import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Role } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeTraining, makePrmModel, makeTrainingRun } from "../test/fakeTraining";
import { makeProject } from "../test/fixtures";

function setup(role: Role = "admin") {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: role === "admin" };
  api.project = makeProject({ role });
  const server = new FakeTraining(api);
  return { api, server };
}

function mount(api: FakeApi, tab = "training") {
  api.install();
  return render(
    <MemoryRouter initialEntries={[`/projects/1?tab=${tab}`]}>
      <App />
    </MemoryRouter>,
  );
}

const progress = () => screen.getByTestId("training-progress");

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("Training tab", () => {
  it("is a tab after Export, for admins and reviewers, not annotators", async () => {
    const { api } = setup();
    mount(api);
    await screen.findByTestId("training-form");
    const tabs = screen.getAllByRole("tab").map((t) => t.getAttribute("data-testid"));
    expect(tabs.indexOf("tab-training")).toBe(tabs.indexOf("tab-export") + 1);
    expect(await screen.findByText("No training runs yet.")).toBeTruthy();

    const annotator = setup("annotator");
    vi.unstubAllGlobals();
    annotator.api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=training"]}>
        <App />
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getAllByTestId("tab-overview")).toHaveLength(2));
    expect(screen.getAllByTestId("tab-training")).toHaveLength(1);
  });

  it("reviewers see runs and models but no form or cancel", async () => {
    const { api, server } = setup("reviewer");
    server.runs = [makeTrainingRun({ id: 9, status: "done", step: 4, total_steps: 4 })];
    server.models = [makePrmModel(), makePrmModel({ id: 6, name: "outcomes", kind: "implicit", metrics: {} })];
    mount(api);
    await screen.findByTestId("training-runs");
    expect(screen.queryByTestId("training-form")).toBeNull();
    expect(screen.queryByTestId("training-cancel")).toBeNull();
    expect(screen.queryByTestId("prm-register")).toBeNull();
    expect(within(await screen.findByTestId("prm-models")).getByText("0.770")).toBeTruthy();
    const implicit = within(screen.getByTestId("prm-models")).getByText("implicit");
    expect(implicit.getAttribute("title")).toContain("outcomes only");
    expect((screen.getByTestId("queue-order-active") as HTMLInputElement).disabled).toBe(true);
  });

  it("offers a finished TRL export older than a page of other exports", async () => {
    const { api, server } = setup();
    const base = server.exports[0];
    server.exports = [
      ...Array.from({ length: 80 }, (_, i) => ({ ...base, id: 200 - i, format: i % 2 ? "prm800k" : "trl", status: i % 2 ? "done" : "failed" })),
      { ...base, id: 7 },
    ];
    mount(api);
    await screen.findByTestId("training-form");
    await waitFor(() => expect((screen.getByTestId("training-export") as HTMLSelectElement).value).toBe("7"));
    expect(within(screen.getByTestId("training-export")).getAllByRole("option")).toHaveLength(1);
    expect(api.callsTo("GET", "/exports/").every((c) => c.path.includes("export_format=trl") && c.path.includes("status=done"))).toBe(true);
  });

  it("starts a run with the form's settings, follows it, draws the curves and lists the model", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setup();
    mount(api);
    await screen.findByTestId("training-form");
    const start = screen.getByTestId("training-start") as HTMLButtonElement;
    await waitFor(() => expect((screen.getByTestId("training-export") as HTMLSelectElement).value).toBe("3"));
    // Only the finished TRL export is offered.
    expect(within(screen.getByTestId("training-export")).getAllByRole("option")).toHaveLength(1);
    expect(start.disabled).toBe(true); // no base model yet
    fireEvent.change(screen.getByTestId("training-base-model"), { target: { value: "/models/qwen" } });
    fireEvent.change(screen.getByTestId("training-maxSteps"), { target: { value: "4" } });
    fireEvent.change(screen.getByTestId("training-lr"), { target: { value: "2e-5" } });
    fireEvent.change(screen.getByTestId("training-logEvery"), { target: { value: "1" } });
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(api.callsTo("POST", "/training-runs/")).toHaveLength(1));
    const sent = api.callsTo("POST", "/training-runs/")[0];
    expect(sent.body).toEqual({
      export: 3,
      base_model: "/models/qwen",
      config: { lr: 2e-5, epochs: 1, max_steps: 4, batch_size: 8, grad_accum: 1, max_length: 1024, log_every: 1, head: "linear" },
    });
    expect(sent.headers["X-CSRFToken"]).toBe("test-token");

    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("running"));
    expect(screen.getByTestId("training-steps").textContent).toBe("step 0 / 4");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    await waitFor(() => expect(screen.getByTestId("training-steps").textContent).toBe("step 2 / 4"));
    expect(screen.getByTestId("training-truncation").textContent).toContain("truncation dropped 2 of 40 labeled steps");
    const loss = screen.getByTestId("metric-chart-loss");
    const trainLoss = loss.querySelector('path[data-series="train:loss"]');
    expect(trainLoss?.getAttribute("d")).toMatch(/^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
    // One eval point so far: a path with no segment, and a dot.
    expect(loss.querySelector('path[data-series="eval:loss"]')?.getAttribute("d")).not.toContain("L");
    expect(loss.querySelectorAll("circle")).toHaveLength(1);
    expect(screen.getByTestId("metric-chart-accuracy").querySelector('path[data-series="train:f1"]')).toBeTruthy();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    expect(screen.getByTestId("training-done")).toBeTruthy();
    const curve = screen.getByTestId("metric-chart-loss").querySelector('path[data-series="train:loss"]');
    expect(curve?.getAttribute("d")?.split("L")).toHaveLength(4); // steps 1..4
    expect(screen.getByTestId("metric-chart-loss").textContent).toContain("train loss 0.300");
    await waitFor(() => expect(within(screen.getByTestId("prm-models")).getByText("run-1")).toBeTruthy());
    // Polling stops once the run is finished.
    const gets = api.callsTo("GET", "/api/training-runs/1/").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(api.callsTo("GET", "/api/training-runs/1/")).toHaveLength(gets);
  });

  it("cancels a running run", async () => {
    const { api, server } = setup();
    server.runs = [makeTrainingRun({ id: 4, status: "running", step: 1, total_steps: 100 })];
    server.total = 100;
    mount(api);
    fireEvent.click(await screen.findByTestId("training-cancel"));
    await waitFor(() => expect(api.callsTo("POST", "/api/training-runs/4/cancel/")).toHaveLength(1));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("cancelled"));
    expect(screen.queryByTestId("training-cancel")).toBeNull();
  });

  it("shows a failed run's error", async () => {
    const { api, server } = setup();
    server.runs = [makeTrainingRun({ status: "failed", error: "The trainer was killed by SIGKILL (out of memory?)." })];
    mount(api);
    expect((await screen.findByTestId("training-run-error")).textContent).toContain("SIGKILL");
  });

  it("registers a model by path and turns on the active-learning order", async () => {
    const { api, server } = setup();
    mount(api);
    const register = await screen.findByTestId("prm-register");
    const [name, path] = within(register).getAllByRole("textbox");
    fireEvent.change(name, { target: { value: "external" } });
    fireEvent.change(path, { target: { value: "/models/prm" } });
    fireEvent.click(within(register).getByRole("button"));
    await waitFor(() => expect(within(screen.getByTestId("prm-models")).getByText("external")).toBeTruthy());
    expect(api.callsTo("POST", "/prm-models/")[0].body).toEqual({ name: "external", path: "/models/prm" });

    fireEvent.click(screen.getByTestId("queue-order-active"));
    await waitFor(() => expect(server.order).toBe("prm_active"));
    expect(api.callsTo("PUT", "/queue-priority/")[0].body).toEqual({ order: "prm_active" });
    expect((screen.getByTestId("queue-order-active") as HTMLInputElement).checked).toBe(true);
  });
});

describe("Auto-label tab: the prm source", () => {
  it("picks a trained model and sends its id and threshold", async () => {
    const { api, server } = setup();
    server.models = [makePrmModel({ id: 7, name: "v2" }), makePrmModel({ id: 5, name: "v1" })];
    mount(api, "autolabel");
    fireEvent.click(await screen.findByTestId("autolabel-source-prm"));
    const picker = await screen.findByTestId("autolabel-params-prm");
    await waitFor(() => expect((screen.getByTestId("autolabel-prm-model") as HTMLSelectElement).value).toBe("7"));
    expect(within(picker).getByText(/v2 · eval F1 0.770/)).toBeTruthy();
    fireEvent.change(screen.getByTestId("autolabel-prm-model"), { target: { value: "5" } });
    fireEvent.change(screen.getByTestId("autolabel-prm-threshold"), { target: { value: "0.6" } });
    fireEvent.click(screen.getByTestId("autolabel-start"));
    await waitFor(() => expect(api.callsTo("POST", "/autolabel-runs/")).toHaveLength(1));
    expect(api.callsTo("POST", "/autolabel-runs/")[0].body).toEqual({
      sources: ["prm"],
      params: { prm: { model_id: 5, threshold: 0.6 } },
      filter: { only_unlabeled: false },
    });
  });

  it("asks for a model when the project has none", async () => {
    const { api } = setup();
    mount(api, "autolabel");
    fireEvent.click(await screen.findByTestId("autolabel-source-prm"));
    expect(await screen.findByText("No trained models yet")).toBeTruthy();
    expect(screen.getByTestId("autolabel-params-prm").textContent).toContain("Choose a trained model");
  });

  it("deletes a model after a confirm, and says why when one is in use", async () => {
    const { api, server } = setup();
    server.models = [makePrmModel({ id: 5, name: "old" }), makePrmModel({ id: 6, name: "busy" })];
    server.inUse = [6];
    const confirm = vi.fn(() => false);
    vi.stubGlobal("confirm", confirm);
    mount(api);
    const table = await screen.findByTestId("prm-models");
    fireEvent.click(within(table).getByRole("button", { name: "Delete model old" }));
    expect(confirm).toHaveBeenCalledOnce();
    expect(api.callsTo("DELETE", "/prm-models/")).toHaveLength(0);

    confirm.mockReturnValue(true);
    fireEvent.click(within(table).getByRole("button", { name: "Delete model old" }));
    await waitFor(() => expect(within(screen.getByTestId("prm-models")).queryByText("old")).toBeNull());
    expect(server.models.map((m) => m.id)).toEqual([6]);

    fireEvent.click(within(screen.getByTestId("prm-models")).getByRole("button", { name: "Delete model busy" }));
    expect((await screen.findByText(/Not deleted: .*in use by auto-label run 3/)).textContent).toBeTruthy();
    expect(within(screen.getByTestId("prm-models")).getByText("busy")).toBeTruthy();
  });

  it("reviewers get no delete button", async () => {
    const { api, server } = setup("reviewer");
    server.models = [makePrmModel({ id: 5, name: "old" })];
    mount(api);
    const table = await screen.findByTestId("prm-models");
    expect(within(table).queryByRole("button")).toBeNull();
  });
});
