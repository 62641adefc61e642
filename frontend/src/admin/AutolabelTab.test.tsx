import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi, makeRun } from "../test/fakeApi";
import { makeProject } from "../test/fixtures";

function mount(api: FakeApi) {
  api.install();
  return render(
    <MemoryRouter initialEntries={["/projects/1?tab=autolabel"]}>
      <App />
    </MemoryRouter>,
  );
}

function fakeApi(): FakeApi {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: true };
  api.project = makeProject();
  return api;
}

const progress = () => screen.getByTestId("autolabel-progress");

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("Auto-label tab", () => {
  it("is a tab after Import, for admins only", async () => {
    const api = fakeApi();
    mount(api);
    await screen.findByTestId("autolabel-form");
    const tabs = screen.getAllByRole("tab").map((t) => t.getAttribute("data-testid"));
    expect(tabs.indexOf("tab-autolabel")).toBe(tabs.indexOf("tab-import") + 1);
    expect(await screen.findByText("No runs yet.")).toBeTruthy();
    expect((screen.getByTestId("autolabel-start") as HTMLButtonElement).disabled).toBe(true);
  });

  it("hides the tab from annotators", async () => {
    const api = fakeApi();
    api.project = makeProject({ role: "annotator" });
    mount(api);
    await screen.findByTestId("tab-overview");
    expect(screen.queryByTestId("tab-autolabel")).toBeNull();
    expect(screen.queryByTestId("autolabel-form")).toBeNull();
  });

  it("starts a run, follows it to 100% and Done, and lists it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi();
    mount(api);
    await screen.findByTestId("autolabel-form");
    fireEvent.click(screen.getByTestId("autolabel-source-symbolic"));
    fireEvent.click(screen.getByTestId("autolabel-source-answer"));
    fireEvent.click(screen.getByTestId("autolabel-only-unlabeled"));
    fireEvent.click(screen.getByTestId("autolabel-start"));
    await waitFor(() => expect(api.callsTo("POST", "/autolabel-runs/")).toHaveLength(1));
    expect(api.callsTo("POST", "/autolabel-runs/")[0].body).toEqual({
      sources: ["answer", "symbolic"],
      filter: { only_unlabeled: true },
    });
    expect(api.callsTo("POST", "/autolabel-runs/")[0].headers["X-CSRFToken"]).toBe("test-token");
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("pending"));
    expect(screen.getByTestId("autolabel-cancel")).toBeTruthy();
    expect((screen.getByTestId("autolabel-start") as HTMLButtonElement).disabled).toBe(true);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("running"));
    expect(progress().textContent).toContain("5 / 10");
    expect(progress().textContent).toContain("50%");

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    expect(progress().textContent).toContain("10 / 10");
    expect(progress().textContent).toContain("100%");
    expect(screen.getByTestId("autolabel-done").textContent).toMatch(/Done · 20 suggestions written/);
    expect(screen.queryByTestId("autolabel-cancel")).toBeNull();
    const polls = api.callsTo("GET", "/api/autolabel-runs/1/").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(api.callsTo("GET", "/api/autolabel-runs/1/").length).toBe(polls); // stops polling
    const history = screen.getByTestId("autolabel-history");
    expect(within(history).getAllByRole("row")).toHaveLength(2);
    expect(history.textContent).toContain("Final answer, Symbolic check");
    expect(history.textContent).toContain("unlabeled only");
  });

  it("shows the server's 400 for a source that is not available yet", async () => {
    const api = fakeApi();
    mount(api);
    await screen.findByTestId("autolabel-form");
    fireEvent.click(screen.getByTestId("autolabel-source-judge"));
    fireEvent.click(screen.getByTestId("autolabel-params-toggle-judge"));
    fireEvent.change(screen.getByTestId("autolabel-judge-url"), { target: { value: "http://llm:8000/v1" } });
    fireEvent.change(screen.getByTestId("autolabel-judge-model"), { target: { value: "gpt-4o-mini" } });
    fireEvent.click(screen.getByTestId("autolabel-start"));
    const error = await screen.findByTestId("autolabel-error");
    expect(error.textContent).toContain("LLM judge (judge) is not available on this server yet.");
    expect(error.textContent).toContain('"judge" is not a valid choice.');
    expect(api.callsTo("POST", "/autolabel-runs/")[0].body.params).toEqual({
      judge: { backend: { kind: "openai", base_url: "http://llm:8000/v1", model: "gpt-4o-mini" } },
    });
    expect(screen.queryByTestId("autolabel-progress")).toBeNull();
  });

  it("keeps the rollout params collapsed until asked", async () => {
    const api = fakeApi();
    mount(api);
    await screen.findByTestId("autolabel-form");
    expect(screen.queryByTestId("autolabel-params-rollout")).toBeNull();
    expect(screen.getByTestId("autolabel-params-toggle-rollout").textContent).toContain("MC · n = 8");
    fireEvent.click(screen.getByTestId("autolabel-params-toggle-rollout"));
    expect(screen.getByTestId("autolabel-params-rollout")).toBeTruthy();
  });

  it("resumes an active run on load, cancels it, and shows its errors", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi();
    api.autolabelRuns = [
      makeRun({
        id: 7,
        status: "running",
        total: 40,
        done: 10,
        failed: 1,
        progress: 11 / 40,
        errors: [{ solution_id: 12, error: "sympy timed out" }],
      }),
      makeRun({ id: 6, status: "done", total: 40, done: 40, progress: 1, suggestions_written: 80 }),
    ];
    api.autolabelStep = 1;
    mount(api);
    await waitFor(() => expect(progress().getAttribute("data-run-id")).toBe("7"));
    expect(progress().textContent).toContain("11 / 40");
    expect(progress().textContent).toContain("27%");
    expect(screen.getByTestId("autolabel-errors").textContent).toContain("Solution 12");
    expect(screen.getByTestId("autolabel-errors").textContent).toContain("sympy timed out");
    fireEvent.click(screen.getByTestId("autolabel-cancel"));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("cancelled"));
    expect(api.callsTo("POST", "/api/autolabel-runs/7/cancel/")).toHaveLength(1);
    const polls = api.callsTo("GET", "/api/autolabel-runs/7/").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(api.callsTo("GET", "/api/autolabel-runs/7/").length).toBe(polls);
  });

  it("a failed run lists identical errors once, with their solutions", async () => {
    const api = fakeApi();
    const down = "Backend down: connection refused";
    api.autolabelRuns = [
      makeRun({
        id: 9,
        status: "failed",
        total: 60,
        failed: 60,
        progress: 1,
        errors: Array.from({ length: 50 }, (_, i) => ({ solution_id: i + 1, error: down })),
      }),
    ];
    mount(api);
    const errors = await screen.findByTestId("autolabel-errors");
    expect(progress().getAttribute("data-status")).toBe("failed");
    expect(errors.textContent).toContain("60 solutions could not be labeled");
    expect(errors.textContent).toContain("the first 50 errors are kept");
    expect(within(errors).getAllByRole("listitem")).toHaveLength(1);
    expect(errors.textContent).toContain("Solutions 1, 2, 3 and 47 more");
  });

  it("a cancel that loses the race (409) shows how the run ended", async () => {
    const api = fakeApi();
    api.autolabelRuns = [makeRun({ id: 3, status: "running", total: 4, done: 3, progress: 0.75 })];
    api.overrides.push((call) =>
      call.path === "/api/autolabel-runs/3/cancel/"
        ? ((api.autolabelRuns = [makeRun({ id: 3, status: "done", total: 4, done: 4, progress: 1, suggestions_written: 9 })]),
          { status: 409, body: { error: { code: "conflict", message: "The run has finished.", details: {} } } })
        : undefined,
    );
    mount(api);
    await screen.findByTestId("autolabel-cancel");
    fireEvent.click(screen.getByTestId("autolabel-cancel"));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    expect(screen.queryByTestId("autolabel-error")).toBeNull();
    expect(screen.getByTestId("autolabel-done").textContent).toContain("9 suggestions written");
  });

  it("shows rate and time left while running, pauses and resumes from the panel", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi();
    api.autolabelRuns = [
      makeRun({ id: 5, status: "running", total: 40, done: 10, progress: 0.25, started_at: "2025-06-01T10:00:01Z" }),
    ];
    api.autolabelStep = 5;
    mount(api);
    await waitFor(() => expect(progress().getAttribute("data-run-id")).toBe("5"));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(screen.getByTestId("autolabel-rate").textContent).toBe("2.5 solutions/s · about 10s left"));
    expect(screen.getByTestId("autolabel-verdicts").textContent).toContain("15 −1");

    fireEvent.click(screen.getByTestId("autolabel-pause"));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("paused"));
    expect(api.callsTo("POST", "/api/autolabel-runs/5/pause/")).toHaveLength(1);
    expect(screen.queryByTestId("autolabel-rate")).toBeNull();
    expect(screen.getByTestId("autolabel-paused").textContent).toContain("25 solutions wait for Resume");
    expect(screen.getByTestId("autolabel-cancel")).toBeTruthy(); // cancel works while paused too
    const polled = api.callsTo("GET", "/api/autolabel-runs/5/").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(progress().textContent).toContain("15 / 40"); // nothing moves while paused

    fireEvent.click(screen.getByTestId("autolabel-resume"));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("running"));
    expect(api.callsTo("POST", "/api/autolabel-runs/5/resume/")).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6000);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    expect(api.callsTo("GET", "/api/autolabel-runs/5/").length).toBeGreaterThan(polled);
    expect(screen.getByTestId("autolabel-done").textContent).toContain("2.5 solutions/s");
  });

  it("reads Running, not Queued, once solutions are being processed", async () => {
    const api = fakeApi();
    api.autolabelRuns = [makeRun({ id: 8, status: "pending", total: 10, done: 3, progress: 0.3 })];
    mount(api);
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("running"));
    expect(progress().textContent).not.toContain("Queued");
    expect(progress().textContent).toContain("measuring the rate…");
  });

  it("controls a run from its row in the run list; a finished run has no buttons", async () => {
    const api = fakeApi();
    api.autolabelRuns = [
      makeRun({ id: 4, status: "paused", total: 10, done: 2, progress: 0.2, rate: 0.05, started_at: "2025-06-01T10:00:01Z" }),
      makeRun({ id: 3, status: "done", total: 10, done: 10, progress: 1 }),
    ];
    mount(api);
    const history = await screen.findByTestId("autolabel-history");
    expect(history.textContent).toContain("3.0 solutions/min");
    expect(within(screen.getByTestId("autolabel-row-actions-3")).queryAllByRole("button")).toHaveLength(0);
    fireEvent.click(screen.getByTestId("autolabel-row-4-resume"));
    await waitFor(() => expect(api.callsTo("POST", "/api/autolabel-runs/4/resume/")).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId("autolabel-row-4-pause")).toBeTruthy());
    fireEvent.click(screen.getByTestId("autolabel-row-4-cancel"));
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("cancelled"));
    expect(within(screen.getByTestId("autolabel-row-actions-4")).queryAllByRole("button")).toHaveLength(0);
  });
});
