import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeExplorer, makeRow } from "../test/fakeExplorer";
import { makeProject } from "../test/fixtures";

let location = "";
function Where() {
  location = useLocation().search;
  return null;
}

function mount(search = "tab=solutions") {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: false };
  api.project = makeProject({ role: "admin", overlap: 2 });
  const server = new FakeExplorer(api);
  server.rows = [
    makeRow({ id: 1, problem_text: "Solve $x^2 = 4$.", label_state: "reviewed", submitted_count: 2, reasons: ["disagreement"] }),
    makeRow({ id: 2, problem_text: "Add $1 + 1$.", label_state: "in_progress", submitted_count: 1, verdict: "error" }),
    makeRow({ id: 3, problem_text: "Integrate $e^x$.", is_gold: true }),
  ];
  api.install();
  render(
    <MemoryRouter initialEntries={[`/projects/1?${search}`]}>
      <App />
      <Where />
    </MemoryRouter>,
  );
  return { api, server };
}

afterEach(() => vi.unstubAllGlobals());

describe("Solutions explorer", () => {
  it("offers the server's engine plug-ins as verdict sources", async () => {
    const api = new FakeApi([]);
    api.engines = [
      { name: "hedges", label: "Hedging language", description: "", queue: "default", builtin: false, plugin: "x 1", domains: [], params: [] },
      { name: "symbolic", label: "Symbolic check", description: "", queue: "default", builtin: true, plugin: null, domains: [], params: null },
    ];
    api.user = { id: 1, username: "admin", is_staff: false };
    api.project = makeProject({ role: "admin", overlap: 2 });
    new FakeExplorer(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=solutions&verdict=error"]}>
        <App />
      </MemoryRouter>,
    );
    const select = (await screen.findByTestId("filter-verdict_source", {}, { timeout: 5000 })) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toContain("hedges"));
    const values = [...select.options].map((o) => o.value);
    expect(values.filter((v) => v === "symbolic")).toHaveLength(1);
    expect([...select.options].find((o) => o.value === "hedges")?.textContent).toBe("Hedging language");
  }, 30000);

  it("lists solutions with rendered math, their state and flags", async () => {
    mount();
    const row = await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    expect(row.querySelector(".katex")).not.toBeNull();
    expect(row.textContent).not.toContain("$x^2");
    expect(within(row).getByText("Reviewed")).toBeTruthy();
    expect(within(row).getByText("Disagreement")).toBeTruthy();
    expect(within(screen.getByTestId("explorer-row-2")).getByText("Machine: error")).toBeTruthy();
    expect(within(screen.getByTestId("explorer-row-3")).getByText("Gold")).toBeTruthy();
    expect(screen.getByTestId("explorer-count").textContent).toBe("3 total");
  });

  it("searches, filters and sorts through the URL", async () => {
    const { api } = mount();
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    fireEvent.change(screen.getByTestId("explorer-search"), { target: { value: "integrate" } });
    fireEvent.submit(screen.getByTestId("explorer-search").closest("form")!);
    await waitFor(() => expect(screen.queryByTestId("explorer-row-1")).toBeNull());
    expect(screen.getByTestId("explorer-row-3")).toBeTruthy();
    expect(location).toContain("q=integrate");
    expect(api.callsTo("GET", "/explorer/?q=integrate").length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId("filters-clear"));
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    fireEvent.change(screen.getByTestId("filter-state"), { target: { value: "in_progress" } });
    await waitFor(() => expect(screen.queryByTestId("explorer-row-1")).toBeNull());
    expect(location).toContain("state=in_progress");
    fireEvent.change(screen.getByTestId("filter-state"), { target: { value: "" } });
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId("sort-created")); // ascending by default: now descending
    await waitFor(() => expect(location).toContain("sort=-created"));
    await waitFor(() => {
      const ids = [...document.querySelectorAll("[data-testid^=explorer-row-]")].map((r) => r.getAttribute("data-testid"));
      expect(ids).toEqual(["explorer-row-3", "explorer-row-2", "explorer-row-1"]);
    });
  });

  it("keeps the filters of the URL it opens with", async () => {
    const { api } = mount("tab=solutions&gold=true");
    await screen.findByTestId("explorer-row-3", {}, { timeout: 5000 });
    expect(screen.queryByTestId("explorer-row-1")).toBeNull();
    expect((screen.getByTestId("filter-gold") as HTMLSelectElement).value).toBe("true");
    expect(api.callsTo("GET", "gold=true")).toHaveLength(1);
  });

  it("filters by one of the project's finished imports", async () => {
    mount("tab=solutions&import_job=4");
    await waitFor(() => expect(screen.queryByTestId("explorer-empty")).not.toBeNull());
    const select = screen.getByTestId("filter-import_job") as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.text)).toEqual(["Any", "#4 prm800k.jsonl"]));
    expect(select.value).toBe("4");
    fireEvent.change(select, { target: { value: "" } });
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    expect(location).not.toContain("import_job");
  });

  it("opens a solution read-only with its steps, labels and machine verdicts", async () => {
    mount();
    fireEvent.click(await screen.findByTestId("explorer-row-2", {}, { timeout: 5000 }));
    const drawer = await screen.findByTestId("solution-drawer");
    const step = await within(drawer).findByTestId("drawer-step-1");
    expect(step.querySelector(".katex")).not.toBeNull();
    expect(step.textContent).toContain("alice");
    expect(step.textContent).toContain("bob");
    expect(step.textContent).toContain("symbolic");
    expect(within(drawer).queryByRole("button", { name: /accept|reject/i })).toBeNull();
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("solution-drawer")).toBeNull());
  });

  it("bulk-marks the selection gold after confirming, and reports the counts", async () => {
    const { api } = mount();
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId("select-1"));
    fireEvent.click(screen.getByTestId("select-2"));
    expect(screen.getByTestId("bulk-count").textContent).toBe("2 selected");
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false);
    fireEvent.click(screen.getByTestId("bulk-mark_gold"));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining("2 selected solutions"));
    expect(api.callsTo("POST", "/explorer/bulk/")).toHaveLength(0);
    confirm.mockReturnValueOnce(true);
    fireEvent.click(screen.getByTestId("bulk-mark_gold"));
    expect((await screen.findByTestId("bulk-result")).textContent).toContain("1 of 2 marked gold; left: 1 not reviewed yet.");
    expect(api.callsTo("POST", "/explorer/bulk/")[0].body).toEqual({ action: "mark_gold", ids: [1, 2] });
    await waitFor(() => expect(within(screen.getByTestId("explorer-row-1")).getByText("Gold")).toBeTruthy());
    expect(screen.queryByTestId("bulk-bar")).toBeNull();
  });

  it("requeues a complete solution for one more label and says so", async () => {
    const { api, server } = mount();
    server.rows.push(makeRow({ id: 4, problem_text: "Halve $8$.", label_state: "labeled", submitted_count: 2 }));
    const row = await screen.findByTestId("explorer-row-4", {}, { timeout: 5000 });
    expect(row.textContent).toContain("2/2");
    fireEvent.click(screen.getByTestId("select-4"));
    fireEvent.click(screen.getByTestId("select-2"));
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(screen.getByTestId("bulk-requeue"));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining("complete ones get one more label"));
    expect((await screen.findByTestId("bulk-result")).textContent).toContain(
      "2 of 2 requeued (1 complete, reopened for one more label).",
    );
    expect(api.callsTo("POST", "/explorer/bulk/")[0].body).toEqual({ action: "requeue", ids: [4, 2] });
    await waitFor(() => expect(screen.getByTestId("explorer-row-4").textContent).toContain("2/3"));
    expect(within(screen.getByTestId("explorer-row-4")).getByText("In progress")).toBeTruthy();
  });

  it("selects the whole page and sends it to review", async () => {
    const { api } = mount("tab=solutions&state=reviewed");
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId("select-page"));
    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(screen.getByTestId("bulk-send_to_review"));
    await screen.findByTestId("bulk-result");
    expect(api.callsTo("POST", "/explorer/bulk/")[0].body).toEqual({ action: "send_to_review", ids: [1] });
  });

  it("acts on everything the filters match, sending the filter instead of ids", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: false };
    api.project = makeProject({ role: "admin", overlap: 2 });
    const server = new FakeExplorer(api);
    server.rows = Array.from({ length: 60 }, (_, i) => makeRow({ id: i + 1, problem_text: `Problem ${i + 1}` }));
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=solutions&state=unlabeled"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findByTestId("explorer-row-1", {}, { timeout: 5000 });
    expect(screen.queryByTestId("explorer-row-51")).toBeNull();
    fireEvent.click(screen.getByTestId("select-page"));
    expect(screen.getByTestId("bulk-count").textContent).toBe("50 selected");
    fireEvent.click(screen.getByTestId("select-all-matching"));
    expect(screen.getByTestId("bulk-count").textContent).toBe("60 selected");
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(screen.getByTestId("bulk-requeue"));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining("all 60 solutions matching the filters"));
    expect((await screen.findByTestId("bulk-result")).textContent).toContain("60 of 60 requeued.");
    expect(api.callsTo("POST", "/explorer/bulk/")[0].body).toEqual({
      action: "requeue",
      filter: { state: "unlabeled", sort: "created" },
    });
    fireEvent.click(screen.getByTestId("page-next"));
    await screen.findByTestId("explorer-row-51");
  });
});
