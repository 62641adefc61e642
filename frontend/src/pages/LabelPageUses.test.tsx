import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { makeTask } from "../test/fixtures";
import { cleanBrowserBetweenTests, pressKey as key, mountApp as mount, stepRows as rows } from "../test/labelPage";
const usesOf = (i: number) => within(rows()[i]).queryByTestId("uses-chips")?.getAttribute("data-uses") ?? null;

cleanBrowserBetweenTests();

describe("LabelPage step dependencies", () => {
  it("d then a step number marks (and unmarks) a dependency, saved with the draft", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("j");
    key("j");
    key("d");
    expect(screen.getByTestId("uses-prompt").textContent).toContain("Step 3 uses step");
    key("1"); // step 1: final at once (only steps 1 and 2 are earlier)
    expect(screen.queryByTestId("uses-prompt")).toBeNull();
    expect(usesOf(2)).toBe("0");
    expect(rows().map((r) => r.getAttribute("data-rating"))).toEqual(["", "", "", ""]); // not a rating
    key("d");
    key("2");
    expect(usesOf(2)).toBe("0,1");
    key("3"); // the prompt is closed: digits rate again
    expect(rows()[2].getAttribute("data-rating")).toBe("1");
    await waitFor(() => expect(api.callsTo("PUT", "/draft/").length).toBeGreaterThan(0), { timeout: 2000 });
    const sent = api.callsTo("PUT", "/draft/").at(-1)!.body.labels;
    expect(sent[2].uses).toEqual([0, 1]);
    expect(sent[0].uses).toBeUndefined(); // not marked: the step's own stand
    key("k"); // rating moved the cursor on to step 4: back to step 3
    key("d");
    key("1"); // again: step 3 no longer uses step 1
    expect(usesOf(2)).toBe("1");
    expect(usesOf(1)).toBeNull();
  });

  it("refuses a later step and the first step, and Esc closes the prompt", async () => {
    const api = new FakeApi([makeTask()]);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("d");
    expect(screen.queryByTestId("uses-prompt")).toBeNull();
    expect(await screen.findByText(/first step has no earlier step/)).toBeTruthy();
    key("j");
    key("d");
    key("Escape");
    expect(screen.queryByTestId("uses-prompt")).toBeNull();
    key("d");
    key("4");
    expect(await screen.findByText(/can only use earlier steps/)).toBeTruthy();
    expect(usesOf(1)).toBeNull();
  });

  it("shows imported uses as chips; hovering one highlights the step it names", async () => {
    const task = makeTask();
    task.solution.steps[3].uses = [0, 2];
    task.solution.steps[3].uses_source = "detected";
    const api = new FakeApi([task]);
    mount(api);
    await screen.findAllByTestId("step-row");
    expect(usesOf(3)).toBe("0,2");
    const chips = within(rows()[3]).getAllByTestId("uses-chip");
    expect(chips.map((c) => c.textContent)).toEqual(["1", "3"]);
    fireEvent.mouseEnter(chips[1]);
    expect(rows()[2].className).toContain("is-uses-highlight");
    expect(rows()[0].className).not.toContain("is-uses-highlight");
    fireEvent.mouseLeave(within(rows()[3]).getByTestId("uses-chips"));
    expect(rows()[2].className).not.toContain("is-uses-highlight");
    // Toggling starts from the step's own: d 1 on step 4 removes step 1, keeps step 3.
    key("End");
    key("d");
    key("1");
    expect(usesOf(3)).toBe("2");
  });
});
