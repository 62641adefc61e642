import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { makeTask, suggestion } from "../test/fixtures";
import {
  cleanBrowserBetweenTests,
  currentIndex,
  pressKey as key,
  mountApp as mount,
  ratingsShown,
  stepRows as rows,
} from "../test/labelPage";

cleanBrowserBetweenTests();

describe("LabelPage", () => {
  it("shows the problem, the steps and the progress", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    expect(await screen.findAllByTestId("step-row")).toHaveLength(4);
    // The progress is its own request: it may answer after the task.
    await waitFor(() => expect(screen.getByTestId("progress").textContent).toContain("12 done today"));
    expect(screen.getByTestId("progress").textContent).toContain("34 left");
    expect(document.querySelector(".problem-text .katex")).not.toBeNull();
    expect(rows()[1].querySelector(".katex")).not.toBeNull();
    expect(currentIndex()).toBe(0);
    expect(screen.getByTestId("save-state").textContent).toBe("Saved");
    expect(within(rows()[0]).getAllByTestId(/rating-button-/)).toHaveLength(3);
  });

  it("explains the ∑ and fork marks in a key over the steps (only the marks shown)", async () => {
    const task = makeTask({ suggestions: [[], [suggestion(-1, "symbolic")]] });
    task.solution.steps[2].alternatives_count = 3;
    mount(new FakeApi([task]));
    await screen.findAllByTestId("step-row");
    const legend = screen.getByTestId("mark-legend");
    expect(legend.textContent).toContain("∑ Symbolic check");
    expect(legend.textContent).toContain("other versions of the step in the data set");
    expect(legend.textContent).not.toContain("PRM");
    expect(within(rows()[2]).getByTestId("alternatives-count").getAttribute("title")).toBe("3 other versions of this step in the data set");
  });

  it("shows a capped remaining count with a plus (the server counts up to 1,000)", async () => {
    const api = new FakeApi([makeTask()]);
    api.progress = { ...api.progress, remaining: 1000, remaining_capped: true };
    mount(api);
    await screen.findAllByTestId("step-row");
    await waitFor(() => expect(screen.getByTestId("progress").textContent).toContain("1,000+ left"));
  });

  it("restores a draft this browser kept unsaved (same annotation and version) and saves it", async () => {
    const task = makeTask();
    const labels = task.solution.steps.map((st, i) => ({
      step_id: st.id, rating: i === 1 ? -1 : null, unsure: false, comment: "", alternative_text: "",
    }));
    localStorage.setItem(
      `steplab:draft:${task.annotation.id}`,
      JSON.stringify({ annotationId: task.annotation.id, version: task.annotation.version, payload: { labels, time_spent_ms: 0 }, storedAt: 0 }),
    );
    const api = new FakeApi([task]);
    mount(api);
    await screen.findAllByTestId("step-row");
    expect(ratingsShown()).toEqual(["", "-1", "", ""]);
    await waitFor(() => expect(api.callsTo("PUT", "/draft/")).toHaveLength(1), { timeout: 2000 });
    expect(api.callsTo("PUT", "/draft/")[0].body.labels[1].rating).toBe(-1);
    await waitFor(() => expect(localStorage.getItem(`steplab:draft:${task.annotation.id}`)).toBeNull());
  });

  it("rates from the keyboard, advances, and autosaves with the version", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    expect(ratingsShown()).toEqual(["1", "", "", ""]);
    expect(currentIndex()).toBe(1);
    key("-");
    key("0");
    expect(ratingsShown()).toEqual(["1", "-1", "0", ""]);
    expect(screen.getByTestId("save-state").textContent).toBe("Saving…");
    await waitFor(() => expect(api.callsTo("PUT", "/draft/")).toHaveLength(1), { timeout: 2000 });
    const put = api.callsTo("PUT", "/draft/")[0];
    expect(put.body.version).toBe(1);
    expect(put.body.labels.map((l: { rating: number | null }) => l.rating)).toEqual([1, -1, 0, null]);
    expect(typeof put.body.time_spent_ms).toBe("number");
    expect(put.headers["X-CSRFToken"]).toBe("test-token");
    await waitFor(() => expect(screen.getByTestId("save-state").textContent).toBe("Saved"));
    key("k");
    key("k");
    expect(currentIndex()).toBe(1);
    key("ArrowDown");
    expect(currentIndex()).toBe(2);
  });

  it("undoes with ctrl+z", async () => {
    mount(new FakeApi([makeTask()]));
    await screen.findAllByTestId("step-row");
    key("3");
    key("1");
    key("z", { ctrlKey: true });
    expect(ratingsShown()).toEqual(["1", "", "", ""]);
    expect(currentIndex()).toBe(1);
    key("z", { metaKey: true });
    expect(ratingsShown()).toEqual(["", "", "", ""]);
  });

  it("refuses an incomplete submit and points at the first unrated step", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("3");
    key("k");
    key("k");
    key("Enter");
    expect(screen.getByTestId("notice").textContent).toContain("Step 3 has no rating");
    expect(currentIndex()).toBe(2);
    expect(api.callsTo("POST", "/submit/")).toHaveLength(0);
  });

  it("submits with Enter and loads the next solution, then the empty state", async () => {
    const api = new FakeApi([makeTask({ steps: 2 }), makeTask({ steps: 3, annotationId: 8 })]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("3");
    key("Enter");
    await waitFor(() => expect(rows()).toHaveLength(3));
    const submit = api.callsTo("POST", "/annotations/7/submit/")[0];
    expect(submit.body.finish_reason).toBe("solution");
    expect(submit.body.version).toBe(1);
    expect(submit.body.labels.map((l: { rating: number }) => l.rating)).toEqual([1, 1]);
    // The submit's answer brought the next task: no queue/next request between the tasks.
    expect(submit.body.next).toBe(true);
    expect(api.callsTo("POST", "/queue/next/")).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId("progress").textContent).toContain("13 done today"));
    expect(ratingsShown()).toEqual(["", "", ""]);
    key("1");
    key("2");
    key("3");
    key("Enter");
    expect(await screen.findByTestId("queue-empty")).toBeTruthy();
    expect(screen.getByTestId("queue-empty").textContent).toContain("All done — nothing left to label in this project");
    expect(api.callsTo("POST", "/queue/next/")).toHaveLength(1); // next_task: null said so
    // One Idempotency-Key per submit, the same as its request_id.
    const keys = api.callsTo("POST", "/submit/").map((c) => c.headers["Idempotency-Key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(submit.body.request_id);
    expect(keys[1]).not.toBe(keys[0]);
    expect(screen.getByRole("link", { name: "Back to projects" }).getAttribute("href")).toBe("/projects");
  });

  it("a submit whose answer was lost says it is checking, retries the same write and moves on", async () => {
    const api = new FakeApi([makeTask({ steps: 2 }), makeTask({ steps: 3, annotationId: 8 })]);
    let lost = 0;
    api.loseResponse = (c) => c.path.includes("/submit/") && lost++ === 0; // applied, answer lost
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("3");
    key("Enter");
    await waitFor(() =>
      expect(screen.getByTestId("notice").textContent).toBe("The connection dropped; checking whether it was submitted…"),
    );
    expect(screen.getByTestId("notice").getAttribute("data-tone")).toBe("pending");
    await waitFor(() => expect(rows()).toHaveLength(3), { timeout: 3000 });
    const submits = api.callsTo("POST", "/annotations/7/submit/");
    expect(submits).toHaveLength(2);
    expect(submits[1].body).toEqual(submits[0].body); // same version, labels and request_id
    expect(submits[0].body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    // The same id as the Idempotency-Key header, on the retry too.
    expect(submits.map((c) => c.headers["Idempotency-Key"])).toEqual([submits[0].body.request_id, submits[0].body.request_id]);
    expect(screen.getByTestId("notice").textContent).toBe("Submitted");
    expect(screen.queryByTestId("conflict-banner")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("progress").textContent).toContain("13 done today"));
  });

  it("a skip whose answer was lost is retried with the same request_id", async () => {
    const api = new FakeApi([makeTask(), makeTask({ annotationId: 9, steps: 2 })]);
    let lost = 0;
    api.loseResponse = (c) => c.path.includes("/skip/") && lost++ === 0;
    mount(api);
    await screen.findAllByTestId("step-row");
    key("s");
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("checking whether it was skipped"));
    await waitFor(() => expect(rows()).toHaveLength(2), { timeout: 3000 });
    const skips = api.callsTo("POST", "/annotations/7/skip/");
    expect(skips).toHaveLength(2);
    expect(skips[1].body.request_id).toBe(skips[0].body.request_id);
  });

  it("submits right after an autosave without a stale version", async () => {
    const api = new FakeApi([makeTask({ steps: 2 })]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    await waitFor(() => expect(api.callsTo("PUT", "/draft/")).toHaveLength(1), { timeout: 2000 });
    key("3");
    key("Enter");
    await screen.findByTestId("queue-empty");
    expect(api.callsTo("POST", "/submit/")[0].body.version).toBe(2);
    expect(screen.queryByTestId("conflict-banner")).toBeNull();
  });

  it("first-error mode: dims the steps after a −1 and submits found_error", async () => {
    const api = new FakeApi([makeTask({ steps: 5, firstErrorMode: true })]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("1");
    expect(currentIndex()).toBe(1);
    expect(rows().map((r) => r.getAttribute("data-dimmed"))).toEqual([null, null, "true", "true", "true"]);
    expect(screen.getByTestId("submit-button").textContent).toContain("Submit — stopped at step 2");
    key("Enter");
    await screen.findByTestId("queue-empty");
    const body = api.callsTo("POST", "/submit/")[0].body;
    expect(body.finish_reason).toBe("found_error");
    expect(body.labels.map((l: { rating: number | null }) => l.rating)).toEqual([1, -1, null, null, null]);
  });

  it("shows a conflict banner on 409 and stops saving", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    api.version.set(7, 5); // another tab saved
    key("3");
    const banner = await screen.findByTestId("conflict-banner", {}, { timeout: 2000 });
    expect(banner.textContent).toContain("This solution was changed in another tab or window");
    expect(within(banner).getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(screen.getByTestId("save-state").textContent).toBe("Conflict");
    key("3");
    key("Enter");
    await new Promise((r) => setTimeout(r, 800));
    expect(api.callsTo("PUT", "/draft/")).toHaveLength(1);
    expect(api.callsTo("POST", "/submit/")).toHaveLength(0);
    expect(ratingsShown()).toEqual(["1", "", "", ""]);
  });

  it("shows offline and retries", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    let offline = true;
    api.overrides.push((c) => {
      if (offline && c.method === "PUT") throw new TypeError("Failed to fetch");
      return undefined;
    });
    key("3");
    await waitFor(() => expect(screen.getByTestId("save-state").textContent).toBe("Offline — retrying"), { timeout: 2000 });
    offline = false;
    await waitFor(() => expect(screen.getByTestId("save-state").textContent).toBe("Saved"), { timeout: 3000 });
  });

  it("give up needs a reason; Enter confirms, Esc cancels", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("g");
    const input = screen.getByTestId("reason-input");
    expect(document.activeElement).toBe(input);
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("reason-dialog")).toBeNull();
    key("b");
    const again = screen.getByTestId("reason-input");
    fireEvent.keyDown(again, { key: "Enter" });
    expect(screen.getByTestId("reason-dialog").textContent).toContain("A reason is required");
    fireEvent.change(again, { target: { value: "The reference answer is wrong" } });
    fireEvent.keyDown(again, { key: "Enter" });
    await screen.findByTestId("queue-empty");
    const body = api.callsTo("POST", "/submit/")[0].body;
    expect(body.finish_reason).toBe("bad_problem");
    expect(body.finish_reason_text).toBe("The reference answer is wrong");
  });

  it("skips with s", async () => {
    const api = new FakeApi([makeTask(), makeTask({ annotationId: 9, steps: 2 })]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("s");
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo("POST", "/annotations/7/skip/")).toHaveLength(1);
  });

  it("edits a comment and an alternative inline", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("c");
    const comment = screen.getByTestId("comment-input");
    expect(document.activeElement).toBe(comment);
    fireEvent.change(comment, { target: { value: "Arithmetic slip" } });
    fireEvent.keyDown(comment, { key: "Enter" });
    expect(screen.queryByTestId("comment-input")).toBeNull();
    expect(rows()[0].textContent).toContain("Arithmetic slip");
    key("a");
    const alt = screen.getByTestId("alternative-input") as HTMLTextAreaElement;
    expect(alt.value).toBe("Step text 1"); // starts from the step to correct
    fireEvent.keyDown(alt, { key: "Escape" });
    expect(screen.queryByTestId("alternative-input")).toBeNull();
    key("u");
    await waitFor(() => expect(api.callsTo("PUT", "/draft/").length).toBeGreaterThan(0), { timeout: 2000 });
    const label = api.callsTo("PUT", "/draft/").at(-1)!.body.labels[0];
    expect(label).toMatchObject({ comment: "Arithmetic slip", unsure: true, alternative_text: "" });
  });

  it("binary projects have no neutral button; suggestions show and A accepts them", async () => {
    const task = makeTask({
      ratingValues: [-1, 1],
      suggestions: [[suggestion(1, "import", 0.62)], [suggestion(-1, "symbolic")], [], []],
    });
    mount(new FakeApi([task]));
    await screen.findAllByTestId("step-row");
    expect(screen.queryAllByTestId("rating-button-0")).toHaveLength(0);
    const chips = screen.getAllByTestId("suggestion-chip");
    expect(chips).toHaveLength(2);
    expect(chips[0].textContent).toContain("import");
    expect(chips[0].textContent).toContain("0.62");
    expect(chips[0].getAttribute("title")).toContain("because 1");
    key("2");
    expect(ratingsShown()).toEqual(["", "", "", ""]);
    key("A", { shiftKey: true });
    expect(ratingsShown()).toEqual(["1", "-1", "", ""]);
    expect(currentIndex()).toBe(2);
  });

  it("renders each kind of suggestion compactly, and a click accepts one (undoable)", async () => {
    const task = makeTask({
      suggestions: [
        [
          { source: "rollout", agent: "qwen", value: 1, score: 0.375, evidence: { correct: 3, total: 8 } },
          { source: "symbolic", agent: "sympy", value: 1, score: null, evidence: { checked: 1 } },
        ],
        [
          { source: "judge", agent: "gpt-4o", value: -1, score: null, evidence: { rationale: "It drops the $-2$ root." } },
          {
            source: "symbolic",
            agent: "sympy",
            value: -1,
            score: null,
            evidence: { failed: [{ claim: "\\frac{14}{2} = 6", lhs: "\\frac{14}{2}", rhs: "6", lhs_value: "7", rhs_value: "6" }] },
          },
        ],
        [{ source: "prm", agent: "prm-7b", value: 0, score: 0.51, evidence: {} }],
        [{ source: "rollout", agent: "qwen", value: null, score: 0.5, evidence: {} }],
      ],
    });
    mount(new FakeApi([task]));
    await screen.findAllByTestId("step-row");
    const chipsOf = (i: number) => within(rows()[i]).queryAllByTestId("suggestion-chip");
    // symbolic before rollout: the leftmost chip is the one A takes
    expect(chipsOf(0).map((c) => c.getAttribute("data-source"))).toEqual(["symbolic", "rollout"]);
    expect(chipsOf(0)[0].textContent).toBe("∑");
    expect(chipsOf(0)[0].querySelector("[data-mark]")?.getAttribute("data-mark")).toBe("✓");
    expect(chipsOf(0)[1].textContent).toBe("MC3/8+");
    expect(chipsOf(0)[1].className).toContain("chip-pos");
    expect(chipsOf(1)[0].getAttribute("data-source")).toBe("symbolic");
    expect(chipsOf(1)[1].getAttribute("title")).toContain("It drops the $-2$ root.");
    expect(chipsOf(2)[0].textContent).toBe("PRM0.510");
    expect(chipsOf(3)[0].textContent).toBe("MC50%?");
    expect(chipsOf(3)[0].getAttribute("aria-disabled")).toBe("true");

    const refuted = within(rows()[1]).getByTestId("symbolic-refuted");
    expect(refuted.querySelector(".katex")).not.toBeNull();
    expect(refuted.textContent).toContain("7≠6");
    const why = within(rows()[1]).getByTestId("judge-rationale");
    expect(why.querySelector(".suggestion-rationale")).toBeNull();
    fireEvent.click(within(why).getByRole("button"));
    expect(why.querySelector(".suggestion-rationale .katex")).not.toBeNull();

    fireEvent.click(chipsOf(1)[1]);
    expect(ratingsShown()).toEqual(["", "-1", "", ""]);
    expect(chipsOf(1)[1].className).toContain("chip-agrees");
    fireEvent.click(chipsOf(3)[0]); // no value: nothing to accept
    expect(ratingsShown()).toEqual(["", "-1", "", ""]);
    fireEvent.click(chipsOf(0)[1]);
    expect(ratingsShown()).toEqual(["1", "-1", "", ""]);
    key("z", { ctrlKey: true });
    expect(ratingsShown()).toEqual(["", "-1", "", ""]);
    key("A", { shiftKey: true });
    expect(ratingsShown()).toEqual(["1", "-1", "0", ""]);
  });

  it("shows no chips when the project hides suggestions", async () => {
    mount(new FakeApi([makeTask({ showSuggestions: false, suggestions: [[suggestion(1, "symbolic")], [], [], []] })]));
    await screen.findAllByTestId("step-row");
    expect(screen.queryAllByTestId("suggestion-chip")).toHaveLength(0);
    expect(screen.queryByTestId("accept-suggestions")).toBeNull();
  });

  it("clicking a rating button rates that row", async () => {
    mount(new FakeApi([makeTask()]));
    await screen.findAllByTestId("step-row");
    fireEvent.click(within(rows()[2]).getByTestId("rating-button--1"));
    expect(ratingsShown()).toEqual(["", "", "-1", ""]);
  });

  it("toggles the answer and the shortcuts overlay", async () => {
    mount(new FakeApi([makeTask()]));
    await screen.findAllByTestId("step-row");
    expect(screen.queryByTestId("answer")).toBeNull();
    key("t");
    expect(screen.getByTestId("answer").textContent).toContain("does not match");
    key("?");
    expect(screen.getByTestId("shortcuts-overlay")).toBeTruthy();
    key("3"); // ignored while the overlay is open
    expect(ratingsShown()).toEqual(["", "", "", ""]);
    key("Escape");
    expect(screen.queryByTestId("shortcuts-overlay")).toBeNull();
  });

  it("shows the server's validation message on submit", async () => {
    const api = new FakeApi([makeTask({ steps: 1 })]);
    api.overrides.push((c) =>
      c.path.includes("/submit/")
        ? { status: 400, body: { error: { code: "validation_error", message: "Step 1 has no rating.", details: { step_index: 0 } } } }
        : undefined,
    );
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("Enter");
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Step 1 has no rating."));
  });

  it("redirects to /login when not authenticated", async () => {
    const api = new FakeApi([]);
    api.user = null;
    mount(api);
    expect(await screen.findByTestId("login-username")).toBeTruthy();
  });
});
