import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Role } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeExports, SHA, finished, makeExport } from "../test/fakeExports";
import { makeProject } from "../test/fixtures";

function setup(role: Role = "admin") {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: role === "admin" };
  api.project = makeProject({ role });
  const server = new FakeExports(api);
  return { api, server };
}

function mount(api: FakeApi, server: FakeExports, tab = "export") {
  api.install();
  server.installCard();
  return render(
    <MemoryRouter initialEntries={[`/projects/1?tab=${tab}`]}>
      <App />
    </MemoryRouter>,
  );
}

const progress = () => screen.getByTestId("export-progress");
const posted = (api: FakeApi) => api.callsTo("POST", "/api/projects/1/exports/").filter((c) => !c.path.endsWith("/preview/"));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("Export tab", () => {
  it("is a tab after Auto-label for admins, with the server's defaults", async () => {
    const { api, server } = setup();
    mount(api, server);
    // The first test of the file loads the lazy admin chunk: slow on a busy machine.
    await screen.findByTestId("export-form", {}, { timeout: 5000 });
    const tabs = screen.getAllByRole("tab").map((t) => t.getAttribute("data-testid"));
    expect(tabs.indexOf("tab-export")).toBe(tabs.indexOf("tab-autolabel") + 1);
    expect(await screen.findByText("No exports yet.")).toBeTruthy();
    expect((screen.getByTestId("export-format") as HTMLSelectElement).value).toBe("trl");
    expect(screen.getByTestId("export-file-type-jsonl").getAttribute("aria-checked")).toBe("true");
    expect((screen.getByTestId("export-label-source") as HTMLSelectElement).value).toBe("final");
    expect((screen.getByTestId("export-machine-labels") as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId("export-label-source").textContent).toContain("Final labels (default)");
    expect((screen.getByTestId("export-truncate") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("export-split-train") as HTMLInputElement).value).toBe("0.9");
    const reviewed = within(screen.getByTestId("export-label-source")).getByRole("option", { name: /Reviewed only/ });
    expect((reviewed as HTMLOptionElement).disabled).toBe(false);
  });

  it("is shown to reviewers (who may export) but without Delete", async () => {
    const { api, server } = setup("reviewer");
    server.exports = [finished(makeExport({ id: 4 }), 10)];
    mount(api, server);
    await screen.findByTestId("export-history");
    expect(screen.queryByTestId("tab-autolabel")).toBeNull();
    expect(screen.getByTestId("tab-export")).toBeTruthy();
    expect(screen.getByTestId("export-download")).toBeTruthy();
    expect(screen.queryByTestId("export-delete")).toBeNull();
  });

  it("is hidden from annotators", async () => {
    const { api, server } = setup("annotator");
    mount(api, server);
    await screen.findByTestId("tab-overview");
    expect(screen.queryByTestId("tab-export")).toBeNull();
    expect(screen.queryByTestId("export-form")).toBeNull();
    expect(api.callsTo("GET", "/exports/")).toHaveLength(0);
  });

  it("creates a TRL JSONL export, follows it to Done, and lists it with counts, size and sha256", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0].headers["X-CSRFToken"]).toBe("test-token");
    expect(posted(api)[0].body).toEqual({
      format: "trl",
      file_type: "jsonl",
      filters: { label_source: "final", min_agreement: 0, unsure: "drop", include_gold: false },
      label_policy: {
        neutral: "positive",
        truncate_after_first_error: true,
        human_written_positive: true,
        soft_labels: false,
        label_sources: false,
      },
      split_policy: { mode: "hash", train: 0.9, validation: 0.05, test: 0.05 },
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("pending"));
    expect(screen.queryByTestId("export-download")).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("running"));
    expect(progress().textContent).toContain("5 / 10 solutions read");
    expect(progress().textContent).toContain("50%");
    expect(within(progress()).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("50");

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    expect(progress().textContent).toContain("100%");
    expect(screen.getByTestId("export-done").textContent).toBe("Done · 9 rows · 36 steps · 12.1 KB");
    const polls = api.callsTo("GET", "/api/exports/1/").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(api.callsTo("GET", "/api/exports/1/").length).toBe(polls); // stops polling once done

    const row = within(screen.getByTestId("export-history")).getAllByTestId("export-row")[0];
    expect(row.getAttribute("data-status")).toBe("done");
    expect(row.textContent).toContain("TRL stepwise supervision");
    expect(row.textContent).toContain("9");
    expect(row.textContent).toContain("36");
    expect(row.textContent).toContain("12.1 KB");
    expect(row.textContent).toContain("admin");
    const sha = within(row).getByTestId("export-sha");
    expect(sha.textContent).toBe(`${SHA.slice(0, 12)}…`);
    expect(sha.getAttribute("title")).toBe(SHA);
    const download = within(row).getByTestId("export-download") as HTMLAnchorElement;
    expect(download.getAttribute("href")).toBe("/api/exports/1/download/");
    expect(download.hasAttribute("download")).toBe(true);
  });

  it("shows before the export where final labels come from, and after it the export's counts", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    const before = await screen.findByTestId("export-preview-counts");
    const previews = () => api.callsTo("POST", "/api/projects/1/exports/preview/");
    expect(previews()[0].body).toEqual({ filters: { label_source: "final", min_agreement: 0, unsure: "drop", include_gold: false } });
    expect(before.textContent).toContain("Before you export: 9 labeled solutions, 1 without a label");
    expect(within(before).getByTestId("export-preview-counts-review").textContent).toBe("Review28");
    expect(within(before).getByTestId("export-preview-counts-tie").textContent).toBe("Left out: tie01");
    expect(within(before).getByTestId("export-preview-counts-no_label").textContent).toBe("Left out: no label10");

    // Ticking machine labels asks again, with them.
    server.preview = { ...server.preview, partial: true, solutions_read: 5, solutions_labeled: 12 };
    fireEvent.click(screen.getByTestId("export-machine-labels"));
    await waitFor(() => expect(previews().at(-1)?.body).toMatchObject({ filters: { machine_labels: true } }));
    await waitFor(() => expect(screen.getByTestId("export-preview-counts").textContent).toContain("from the first 5 of 12 labeled solutions"));
    // Another source: no final-label counts to preview.
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "annotations" } });
    expect(screen.queryByTestId("export-preview-counts")).toBeNull();
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "final" } });
    fireEvent.click(screen.getByTestId("export-machine-labels"));

    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    const counts = {
      solutions: { review: 1, agreement: 0, single: 7, machine: 0, tie: 1, no_label: 1 },
      steps: { review: 3, agreement: 0, single: 28, machine: 0, tie: 1, no_label: 2 },
    };
    server.exports = server.exports.map((e) => ({ ...e, stats: { final_labels: counts, skipped: { unsure: 2 } } }));
    for (let i = 0; i < 2; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
    }
    await waitFor(() => expect(progress().getAttribute("data-status")).toBe("done"));
    const after = within(progress()).getByTestId("export-final-counts");
    expect(after.textContent).toContain("Where this export's labels came from");
    expect(within(after).getByTestId("export-final-counts-review").textContent).toBe("Review13");
    expect(within(after).getByTestId("export-final-counts-single").textContent).toBe("Single annotator728");
    expect(screen.getByTestId("export-skipped").textContent).toBe("Solutions left out whole by the options: 2 for an unsure step");
  });

  it("takes a minimum machine-label score for machine label sources only", async () => {
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    const minScore = () => screen.getByTestId("export-min-score") as HTMLInputElement;
    expect(minScore().disabled).toBe(true); // annotations: no machine score
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "auto_consensus" } });
    expect(minScore().disabled).toBe(false);
    fireEvent.change(minScore(), { target: { value: "0.9" } });
    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect((posted(api)[0].body as { filters: Record<string, unknown> }).filters).toMatchObject({
      label_source: "auto_consensus",
      min_score: 0.9,
    });
  });

  it("sends every option the form sets", async () => {
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "trl" } });
    fireEvent.click(screen.getByTestId("export-file-type-parquet"));
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "human" } });
    fireEvent.change(screen.getByTestId("export-min-agreement"), { target: { value: "0.75" } });
    fireEvent.change(screen.getByTestId("export-unsure"), { target: { value: "truncate" } });
    fireEvent.change(screen.getByTestId("export-neutral"), { target: { value: "negative" } });
    fireEvent.change(screen.getByTestId("export-combine"), { target: { value: "per_annotation" } });
    fireEvent.click(screen.getByTestId("export-truncate"));
    fireEvent.click(screen.getByTestId("export-soft-labels"));
    fireEvent.click(screen.getByTestId("export-label-sources"));
    fireEvent.click(screen.getByTestId("export-include-gold"));
    fireEvent.change(screen.getByTestId("export-annotators"), { target: { value: "alice, bob,alice" } });
    fireEvent.change(screen.getByTestId("export-problem-sources"), { target: { value: "MATH" } });
    fireEvent.change(screen.getByTestId("export-labeled-after"), { target: { value: "2025-01-02T03:04" } });
    fireEvent.change(screen.getByTestId("export-split-train"), { target: { value: "0.8" } });
    fireEvent.change(screen.getByTestId("export-split-validation"), { target: { value: "0.1" } });
    fireEvent.change(screen.getByTestId("export-split-test"), { target: { value: "0.1" } });
    fireEvent.change(screen.getByTestId("export-split-seed"), { target: { value: "v2" } });
    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0].body).toEqual({
      format: "trl",
      file_type: "parquet",
      filters: {
        label_source: "human",
        min_agreement: 0.75,
        unsure: "truncate",
        include_gold: true,
        labeled_after: new Date("2025-01-02T03:04").toISOString(),
        annotators: ["alice", "bob"],
        problem_sources: ["MATH"],
      },
      label_policy: {
        neutral: "negative",
        truncate_after_first_error: false,
        human_written_positive: true,
        combine: "per_annotation",
        soft_labels: true,
        label_sources: true,
      },
      split_policy: { mode: "hash", train: 0.8, validation: 0.1, test: 0.1, seed: "v2" },
    });
  });

  it("asks for auto sources only with auto_any, and the TRL-only columns only for TRL", async () => {
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    expect(screen.queryByTestId("export-auto-sources")).toBeNull();
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "auto_any" } });
    expect((screen.getByTestId("export-annotators") as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(await screen.findByTestId("export-auto-source-consensus"));
    fireEvent.click(screen.getByTestId("export-auto-source-import"));
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "processbench" } });
    expect((screen.getByTestId("export-soft-labels") as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("export-file-type-jsonl.gz"));
    fireEvent.change(screen.getByTestId("export-split-mode"), { target: { value: "none" } });
    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    const body = posted(api)[0].body;
    expect(body.format).toBe("processbench");
    expect(body.file_type).toBe("jsonl.gz");
    expect(body.filters.auto_sources).toEqual(["symbolic", "code", "rollout", "judge", "prm", "prediction"]);
    expect(body.filters.annotators).toBeUndefined();
    expect(body.label_policy).toEqual({ neutral: "positive", truncate_after_first_error: true, human_written_positive: true });
    expect(body.split_policy).toEqual({ mode: "none" });
  });

  it("lists every source the server has, plug-ins with their labels, and sends them in that order", async () => {
    const { api, server } = setup();
    api.engines = [{ name: "hedges", label: "Hedging language", description: "", queue: "default", builtin: false, plugin: "x 1", domains: [], params: [] }];
    mount(api, server);
    await screen.findByTestId("export-form");
    fireEvent.change(screen.getByTestId("export-label-source"), { target: { value: "auto_any" } });
    const hedges = (await screen.findByTestId("export-auto-source-hedges")) as HTMLInputElement;
    const box = screen.getByTestId("export-auto-sources");
    expect(box.textContent).toContain("Hedging language");
    expect(box.textContent).toContain("Code execution");
    expect(box.textContent).toContain("Citation check");
    // The server's default auto_sources are ticked; the other built-ins and plug-ins are not.
    expect((screen.getByTestId("export-auto-source-code") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("export-auto-source-citation") as HTMLInputElement).checked).toBe(false);
    expect(hedges.checked).toBe(false);
    fireEvent.click(hedges);
    fireEvent.click(screen.getByTestId("export-auto-source-import"));
    fireEvent.click(screen.getByTestId("export-create"));
    await waitFor(() => expect(posted(api)).toHaveLength(1));
    expect(posted(api)[0].body.filters.auto_sources).toEqual(["consensus", "symbolic", "code", "rollout", "judge", "prm", "prediction", "hedges"]);
  });

  it("blocks fractions that do not add up to 1 and a reversed date range, naming them", async () => {
    const { api, server } = setup();
    mount(api, server);
    await screen.findByTestId("export-form");
    fireEvent.change(screen.getByTestId("export-split-train"), { target: { value: "0.95" } });
    expect(screen.getByTestId("export-form").textContent).toContain("must add up to 1 (now 1.05)");
    expect((screen.getByTestId("export-create") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("export-split-train").className).toContain("input-invalid");
    fireEvent.change(screen.getByTestId("export-split-train"), { target: { value: "0.9" } });
    fireEvent.change(screen.getByTestId("export-labeled-after"), { target: { value: "2025-02-01T00:00" } });
    fireEvent.change(screen.getByTestId("export-labeled-before"), { target: { value: "2025-01-01T00:00" } });
    expect(screen.getByTestId("export-form").textContent).toContain("Must be before the end date.");
    expect((screen.getByTestId("export-create") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("export-create"));
    expect(posted(api)).toHaveLength(0);
  });

  it("shows the server's 400 with the option it names", async () => {
    const { api, server } = setup();
    api.overrides.unshift((call) =>
      call.method === "POST" && call.path === "/api/projects/1/exports/"
        ? {
            status: 400,
            body: {
              error: {
                code: "validation_error",
                message: "filters: min_agreement: Ensure this value is less than or equal to 1.",
                details: { filters: { min_agreement: ["Ensure this value is less than or equal to 1."] }, format: ["Required."] },
              },
            },
          }
        : undefined,
    );
    mount(api, server);
    await screen.findByTestId("export-form");
    fireEvent.click(screen.getByTestId("export-create"));
    const error = await screen.findByTestId("export-error");
    expect(error.textContent).toContain("filters: min_agreement: Ensure this value is less than or equal to 1.");
    expect(within(error).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["format: Required."]);
    expect(screen.getByTestId("export-min-agreement").className).toContain("input-invalid");
    expect(screen.queryByTestId("export-progress")).toBeNull();
  });

  it("resumes polling an export still building on load and shows a failed one's error", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, server } = setup();
    server.exports = [
      makeExport({ id: 3, status: "running", progress: { solutions_done: 2, solutions_total: 10, fraction: 0.2 } }),
      makeExport({ id: 2, status: "failed", error: { message: "internal error: disk full" } }),
    ];
    mount(api, server);
    await waitFor(() => expect(progress().getAttribute("data-export-id")).toBe("3"));
    expect(progress().textContent).toContain("20%");
    const failedRow = screen.getAllByTestId("export-row").find((r) => r.getAttribute("data-export-id") === "2")!;
    expect(failedRow.textContent).toContain("internal error: disk full");
    expect(within(failedRow).queryByTestId("export-download")).toBeNull();
    // Each poll advances the fake build; however the polls and answers interleave, it ends done.
    for (let tick = 0; tick < 20 && progress().getAttribute("data-status") !== "done"; tick++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
    }
    expect(progress().getAttribute("data-status")).toBe("done");
    expect(progress().textContent).toContain("100%");
    expect(api.callsTo("GET", "/api/exports/3/").length).toBeGreaterThanOrEqual(2);
  });

  it("shows the dataset card as Markdown", async () => {
    const { api, server } = setup();
    server.exports = [finished(makeExport({ id: 5 }), 10)];
    server.cards.set(5, "---\nlicense: mit\ntags:\n- steplab\n---\n\n# Demo export\n\n**Rows:** 9\n\n| split | rows |\n|---|---|\n| train | 8 |\n");
    mount(api, server);
    fireEvent.click(await screen.findByTestId("export-card"));
    const dialog = await screen.findByTestId("export-card-dialog");
    await waitFor(() => expect(within(dialog).getByRole("heading", { name: "Demo export" })).toBeTruthy());
    expect(within(dialog).getByRole("table").textContent).toMatch(/train\s*8/);
    // The Hub's YAML front matter is shown as YAML, not rendered as Markdown (an <hr> and a list).
    expect(within(dialog).getByTestId("export-card-meta").textContent).toContain("license: mit");
    expect(dialog.querySelector(".export-card-md hr")).toBeNull();
    expect(dialog.querySelector(".export-card-md li")).toBeNull();
    expect(api.callsTo("GET", "/api/exports/5/card/")).toHaveLength(1);
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("export-card-dialog")).toBeNull();
  });

  it("deletes an export after confirming, and says so when the server refuses", async () => {
    const { api, server } = setup();
    server.exports = [finished(makeExport({ id: 8 }), 10), finished(makeExport({ id: 7 }), 10)];
    const confirm = vi.fn(() => true);
    vi.stubGlobal("confirm", confirm);
    mount(api, server);
    await screen.findByTestId("export-history");
    fireEvent.click(screen.getAllByTestId("export-delete")[0]);
    await waitFor(() => expect(screen.getAllByTestId("export-row")).toHaveLength(1));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(api.callsTo("DELETE", "/api/exports/8/")).toHaveLength(1);

    api.overrides.unshift((call) =>
      call.method === "DELETE" ? { status: 403, body: { error: { code: "permission_denied", message: "Project admins only.", details: {} } } } : undefined,
    );
    fireEvent.click(screen.getByTestId("export-delete"));
    const error = await screen.findByTestId("export-list-error");
    expect(error.textContent).toBe("Export 7 was not deleted: Project admins only.");
    expect(screen.getAllByTestId("export-row")).toHaveLength(1);
  });
});
