import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Role } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeAssign } from "../test/fakeAssign";
import { makeProject } from "../test/fixtures";

function mount(role: Role = "admin") {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: false };
  api.project = makeProject({ role, overlap: 1 });
  const server = new FakeAssign(api);
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1?tab=assignments"]}>
      <App />
    </MemoryRouter>,
  );
  return { api, server };
}

afterEach(() => vi.unstubAllGlobals());

const preview = () => screen.getByTestId("assign-preview");

describe("Assignments tab", () => {
  it("is for admins only", async () => {
    const { api } = mount("reviewer");
    await screen.findByTestId("tab-overview");
    expect(screen.queryByTestId("tab-assignments")).toBeNull();
    expect(api.callsTo("GET", "/assignments/")).toHaveLength(0);
  });

  it("assigns the first 4 solutions round robin to two annotators, with a preview, and lists them", async () => {
    const { api } = mount();
    await screen.findByTestId("assign-form");
    expect(await screen.findByTestId("assign-empty")).toBeTruthy();
    expect(preview().textContent).toContain("Choose at least one annotator.");
    expect((screen.getByTestId("assign-submit") as HTMLButtonElement).disabled).toBe(true);
    // Sources come with their counts.
    const source = screen.getByTestId("assign-source") as HTMLSelectElement;
    await waitFor(() => expect(within(source).getByRole("option", { name: /math · 3 open, 4 unassigned/ })).toBeTruthy());

    fireEvent.click(await screen.findByTestId("assign-user-ann"));
    fireEvent.click(screen.getByTestId("assign-user-bob"));
    fireEvent.change(screen.getByTestId("assign-count"), { target: { value: "4" } });
    await waitFor(() => expect(preview().textContent).toMatch(/4 solutions chosen · 4 new assignments/));
    expect(screen.getByTestId("assign-gets-ann").textContent).toBe("+2");
    expect(screen.getByTestId("assign-gets-bob").textContent).toBe("+2");
    const previewCall = api.callsTo("POST", "/assignments/preview/").at(-1)!;
    expect(previewCall.body).toEqual({ user_ids: [2, 3], strategy: "round_robin", only_open: true, only_unassigned: true, limit: 4 });
    expect(api.callsTo("POST", "/api/projects/1/assignments/").filter((c) => !c.path.includes("preview"))).toHaveLength(0);

    fireEvent.click(screen.getByTestId("assign-submit"));
    expect(await screen.findByTestId("assign-notice")).toHaveProperty("textContent", "Assigned 4 solutions: ann 2, bob 2.");
    const row = await screen.findByTestId("assign-row-ann");
    expect([...row.querySelectorAll("td.num")].map((td) => td.textContent).slice(0, 3)).toEqual(["2", "0", "2"]);
    // Preview again after assigning: the next 4 unassigned ones.
    await waitFor(() => expect(api.callsTo("POST", "/assignments/preview/").length).toBeGreaterThan(1));
  });

  it("weighted: a weight per chosen annotator, sent in their order", async () => {
    const { api } = mount();
    await screen.findByTestId("assign-form");
    fireEvent.click(screen.getByTestId("assign-strategy-weighted"));
    // The members load after the form appears.
    fireEvent.click(await screen.findByTestId("assign-user-ann"));
    fireEvent.click(screen.getByTestId("assign-user-bob"));
    fireEvent.change(screen.getByTestId("assign-weight-bob"), { target: { value: "3" } });
    fireEvent.change(screen.getByTestId("assign-count"), { target: { value: "8" } });
    await waitFor(() => expect(screen.getByTestId("assign-gets-bob").textContent).toBe("+6"));
    expect(screen.getByTestId("assign-gets-ann").textContent).toBe("+2");
    expect(api.callsTo("POST", "/assignments/preview/").at(-1)!.body.weights).toEqual([1, 3]);
  });

  it("assigns a pasted id list, and removes one annotator's assignments", async () => {
    const { api, server } = mount();
    server.assigned.set(1, [3]);
    server.submitted.add("1:3");
    vi.spyOn(window, "confirm").mockReturnValue(true);
    await screen.findByTestId("assign-row-bob");
    fireEvent.click(screen.getByTestId("assign-mode-list"));
    fireEvent.click(await screen.findByTestId("assign-user-ann"));
    fireEvent.click(screen.getByTestId("assign-strategy-each"));
    fireEvent.change(screen.getByTestId("assign-ids"), { target: { value: "9, 10 x" } });
    expect(preview().textContent).toContain("Not solution ids: x");
    fireEvent.change(screen.getByTestId("assign-ids"), { target: { value: "9, 10" } });
    await waitFor(() => expect(preview().textContent).toMatch(/2 solutions chosen/));
    fireEvent.click(screen.getByTestId("assign-submit"));
    await screen.findByTestId("assign-row-ann");
    const created = api.callsTo("POST", "/api/projects/1/assignments/").find((c) => !c.path.includes("preview"))!;
    expect(created.body).toEqual({ user_ids: [2], strategy: "each", solution_ids: [9, 10], only_open: false });
    // bob: 1 assigned, 1 done.
    const bob = screen.getByTestId("assign-row-bob");
    expect([...bob.querySelectorAll("td.num")].map((td) => td.textContent).slice(0, 3)).toEqual(["1", "1", "0"]);
    fireEvent.click(screen.getByTestId("assign-remove-bob"));
    await waitFor(() => expect(screen.queryByTestId("assign-row-bob")).toBeNull());
    expect(api.callsTo("DELETE", "/assignments/")[0].body).toEqual({ user_ids: [3] });
    expect(screen.getByTestId("assign-row-ann")).toBeTruthy();
    fireEvent.click(screen.getByTestId("assign-clear-all"));
    expect(await screen.findByTestId("assign-empty")).toBeTruthy();
  });

  it("says how old a large project's stored counts are, and asks again until they are exact", async () => {
    const { api, server } = mount();
    server.sourcesAsOf = "2026-01-02T10:00:00Z";
    server.sourcesRefreshing = true;
    await screen.findByTestId("assign-form");
    const age = await screen.findByTestId("assign-source-age");
    expect(age.textContent).toMatch(/^Counts as of .+ · updating…$/);
    // Still behind, no count under way (the server queues one once due): asked again anyway.
    server.sourcesRefreshing = false;
    await waitFor(() => expect(screen.getByTestId("assign-source-age").textContent).toMatch(/^Counts as of [^·]+$/), {
      timeout: 5000,
    });
    // The background count finished: exact counts (as_of null), the note goes away.
    server.sources = [{ source: "math", solutions: 4, open: 2, unassigned: 1 }];
    server.sourcesAsOf = null;
    const source = screen.getByTestId("assign-source") as HTMLSelectElement;
    await waitFor(() => expect(within(source).getByRole("option", { name: /math · 2 open, 1 unassigned/ })).toBeTruthy(), { timeout: 8000 });
    expect(screen.queryByTestId("assign-source-age")).toBeNull();
    expect(api.callsTo("GET", "/problem-sources/").length).toBeGreaterThanOrEqual(3);
  }, 20_000);
});
