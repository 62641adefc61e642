import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { makeProject } from "../test/fixtures";

const JOB = {
  id: 7,
  filename: "hf://datasets/Qwen/ProcessBench (gsm8k/test)",
  format: "auto",
  detected_format: "",
  detect_uses: true,
  hub: { repo_id: "Qwen/ProcessBench", config: "gsm8k", split: "test", revision: "main" },
  status: "pending",
  bytes_total: 0,
  bytes_done: 0,
  rows_done: 0,
  result: {},
  error: {},
  created_at: "2026-12-06T07:00:00Z",
  finished_at: null,
};

afterEach(() => vi.unstubAllGlobals());

describe("Import from the Hub", () => {
  it("imports one config's split of a Hub dataset and follows the job", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: true };
    api.project = makeProject({ role: "admin" });
    api.overrides.push((call) => {
      if (call.path.startsWith("/api/projects/1/imports/") && call.method === "GET") return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      if (call.path === "/api/projects/1/imports/" && call.method === "POST") return { status: 202, body: JOB };
      if (call.path === "/api/imports/7/") return { status: 200, body: { ...JOB, status: "done", result: { solutions_created: 400 }, hub: { ...JOB.hub, rows: 400 } } };
      return undefined;
    });
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=import"]}>
        <App />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByTestId("import-from-hub", {}, { timeout: 5000 }));
    expect(screen.queryByTestId("import-file")).toBeNull();
    expect((await screen.findByTestId("hub-token-note")).textContent).toContain("The worker reads the dataset with the server's token (HF_TOKEN) for repos under team/;");
    expect(screen.getByTestId("hub-token-link").textContent).toBe("Use your own token");
    const submit = screen.getByTestId("import-submit") as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByTestId("import-hub-repo"), { target: { value: "Qwen/ProcessBench" } });
    fireEvent.change(screen.getByTestId("import-hub-config"), { target: { value: "gsm8k" } });
    fireEvent.change(screen.getByTestId("import-hub-split"), { target: { value: "test" } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await waitFor(() => expect(api.callsTo("POST", "/api/projects/1/imports/")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/projects/1/imports/")[0].body).toMatchObject({
      hub_repo: "Qwen/ProcessBench",
      hub_config: "gsm8k",
      hub_split: "test",
      hub_revision: "main",
      format: "auto",
    });
    expect(await screen.findByText("Import finished", {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe("Near-duplicate problems at import", () => {
  it("sends the chosen mode and shows the report with examples", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: true };
    api.project = makeProject({ role: "admin" });
    const report = {
      mode: "skip",
      existing: 2,
      in_file: 1,
      skipped_solutions: 6,
      project_checked: true,
      examples: [{ line: 3, problem: "How many apples does Ann have now?", near: "How many apples does Ann have?", near_id: "p-1", of: "existing" }],
    };
    api.overrides.push((call) => {
      if (call.path.startsWith("/api/projects/1/imports/") && call.method === "GET") return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      if (call.path === "/api/projects/1/imports/" && call.method === "POST") return { status: 202, body: JOB };
      if (call.path === "/api/imports/7/") return { status: 200, body: { ...JOB, status: "done", result: { solutions_created: 10, near_duplicates: report } } };
      return undefined;
    });
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=import"]}>
        <App />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByTestId("import-from-hub", {}, { timeout: 5000 }));
    fireEvent.change(screen.getByTestId("import-hub-repo"), { target: { value: "Qwen/ProcessBench" } });
    fireEvent.change(screen.getByTestId("import-near-duplicates-mode"), { target: { value: "skip" } });
    fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(api.callsTo("POST", "/api/projects/1/imports/")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/projects/1/imports/")[0].body).toMatchObject({ near_duplicates: "skip" });
    const shown = await screen.findByTestId("import-near-duplicates", {}, { timeout: 5000 });
    expect(shown.textContent).toContain("Near-duplicate problems (left out): 2 of the project's, 1 within the file");
    expect(shown.textContent).toContain("6 solutions left out");
    expect(shown.textContent).toContain("line 3:");
  });
});
