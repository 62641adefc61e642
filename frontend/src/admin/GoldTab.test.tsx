import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Project } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeAssign, makeGold } from "../test/fakeAssign";
import { makeProject } from "../test/fixtures";

function mount(tab: string, project: Partial<Project> = {}, setup: (s: FakeAssign) => void = () => {}) {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: false };
  api.project = makeProject({ role: "admin", ...project });
  const server = new FakeAssign(api);
  setup(server);
  api.install();
  render(
    <MemoryRouter initialEntries={[`/projects/1?tab=${tab}`]}>
      <App />
    </MemoryRouter>,
  );
  return { api, server };
}

afterEach(() => vi.unstubAllGlobals());

describe("Gold tab", () => {
  it("lists gold questions with their labels and annotators' accuracy, and unmarks one", async () => {
    const { api } = mount("gold", { gold_rate: 0.1, screening_size: 30, screening_pass_rate: 0.8 }, (s) => {
      s.gold = [makeGold(), makeGold({ solution_id: 8, answers: 0, annotators: [], step_accuracy: null, first_error_accuracy: null, ratings: [1, 1], first_error: null })];
    });
    const row = await screen.findByTestId("gold-row-7");
    expect(screen.getByTestId("gold-summary").textContent).toMatch(/2 gold questions.*Served at 10% of claims.*first 30, pass at 80%/);
    const marks = [...within(row).getAllByTitle(/^Step/)].map((m) => m.getAttribute("data-rating"));
    expect(marks).toEqual(["1", "-1", "1"]);
    expect(within(row).getByTitle("Step 2: first error")).toBeTruthy();
    const cells = [...row.querySelectorAll("td.num")].map((td) => td.textContent);
    expect(cells.slice(1, 4)).toEqual(["2 ▾", "67%", "50%"]);
    expect(row.querySelector(".pct-bad")?.textContent).toBe("67%"); // below the 80% pass mark
    fireEvent.click(screen.getByTestId("gold-answers-7"));
    const who = screen.getByTestId("gold-annotators-7").textContent;
    expect(who).toContain("ann67% of stepsfirst error step 2 ✓");
    expect(who).toContain("bob67% of stepsfirst error step 1 ✗");
    expect(within(screen.getByTestId("gold-row-8")).getAllByText("—")).toHaveLength(2);

    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(screen.getByTestId("gold-unmark-7"));
    await waitFor(() => expect(screen.queryByTestId("gold-row-7")).toBeNull());
    expect(api.callsTo("DELETE", "/api/solutions/7/gold/")).toHaveLength(1);
  });

  it("says how to make gold questions when there are none", async () => {
    mount("gold");
    expect((await screen.findByTestId("gold-empty")).textContent).toContain("press G");
    expect(screen.getByTestId("gold-summary").textContent).toContain("No screening");
  });
});

describe("Settings: review and quality", () => {
  it("edits auto-resolve, the gold rate and the screening as percentages", async () => {
    const { api } = mount("settings");
    await screen.findByTestId("settings-quality");
    expect((screen.getByTestId("settings-screening-pass") as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("settings-auto-resolve"));
    fireEvent.change(screen.getByTestId("settings-gold-rate"), { target: { value: "10" } });
    fireEvent.change(screen.getByTestId("settings-screening-size"), { target: { value: "30" } });
    fireEvent.change(screen.getByTestId("settings-screening-pass"), { target: { value: "90" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await screen.findByText("Saved");
    const body = api.callsTo("PATCH", "/api/projects/1/")[0].body;
    expect(body).toMatchObject({ auto_resolve: true, gold_rate: 0.1, screening_size: 30, screening_pass_rate: 0.9 });
    expect((screen.getByTestId("settings-gold-rate") as HTMLInputElement).value).toBe("10");
  });
});

describe("Members: screening", () => {
  it("shows each annotator's screening and lets a failed one retake it", async () => {
    const { api } = mount("members", { screening_size: 5 }, (s) => {
      s.members[1] = { ...s.members[1], screening: "failed", screening_answered: 5 };
      s.members[2] = { ...s.members[2], screening: "", screening_answered: 2 };
    });
    await screen.findByTestId("members-table");
    expect(screen.getByTestId("screening-admin").textContent).toBe("not screened");
    expect(screen.getByTestId("screening-bob").textContent).toBe("in screening · 2/5");
    expect(screen.getByTestId("screening-ann").textContent).toContain("failed");
    fireEvent.click(screen.getByTestId("screening-retake-ann"));
    await waitFor(() => expect(screen.getByTestId("screening-ann").textContent).toBe("in screening · 0/5"));
    expect(api.callsTo("POST", "/api/projects/1/members/2/screening/reset/")).toHaveLength(1);
  });

  it("has no screening column when the project does not screen", async () => {
    mount("members");
    await screen.findByTestId("members-table");
    expect(screen.queryByText("Screening")).toBeNull();
  });
});

describe("Gold tab, many gold questions", () => {
  it("counts them all and loads past the first page", async () => {
    const golds = Array.from({ length: 55 }, (_, i) => makeGold({ solution_id: 1000 + i }));
    mount("gold", {}, (s) => (s.gold = golds));
    await screen.findByTestId("gold-row-1049");
    expect(screen.getByTestId("gold-summary").textContent).toContain("55 gold questions");
    expect(screen.queryByTestId("gold-row-1050")).toBeNull();
    fireEvent.click(within(screen.getByTestId("gold-more")).getByRole("button", { name: "Load more" }));
    await screen.findByTestId("gold-row-1054");
    expect(screen.queryByTestId("gold-more")).toBeNull();
  });
});
