import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RatingButtons, StepContent, classNames, selectOnClick, useScrollIntoView, scrollDelta } from "./StepParts";

afterEach(cleanup);

describe("classNames", () => {
  it("joins the names that are set", () => {
    expect(classNames("row", false, "is-current", null, undefined, "")).toBe("row is-current");
  });
});

describe("RatingButtons", () => {
  it("shows one button per value, marks the selected one and rates by index", () => {
    const onRate = vi.fn();
    render(<RatingButtons values={[-1, 0, 1]} selected={1} index={2} verb="Decide" small disabled={false} testId={(v) => `d-${v}`} onRate={onRate} />);
    expect(screen.getByRole("group").getAttribute("aria-label")).toBe("Decide step 3");
    const plus = screen.getByTestId("d-1");
    expect(plus.className).toBe("rating-btn rating-btn-sm rating-pos is-selected");
    expect(plus.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("d--1").className).toBe("rating-btn rating-btn-sm rating-neg");
    expect(screen.getByTestId("d--1").title).toBe("Wrong (1 or −)");
    fireEvent.click(screen.getByTestId("d-0"));
    expect(onRate).toHaveBeenCalledWith(2, 0);
  });

  it("disabled, no value can be chosen", () => {
    const onRate = vi.fn();
    render(<RatingButtons values={[-1, 1]} selected={null} index={0} verb="Rate" disabled testId={(v) => `r-${v}`} onRate={onRate} />);
    fireEvent.click(screen.getByTestId("r-1"));
    expect(onRate).not.toHaveBeenCalled();
    expect(screen.getByTestId("r-1").className).toBe("rating-btn rating-pos");
  });
});

describe("selectOnClick", () => {
  it("selects the row unless a control inside it was clicked", () => {
    const onSelect = vi.fn();
    render(
      <div data-testid="row" onClick={selectOnClick(onSelect, 4)}>
        <span data-testid="text">text</span>
        <button type="button">b</button>
      </div>,
    );
    fireEvent.click(screen.getByRole("button"));
    expect(onSelect).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("text"));
    expect(onSelect).toHaveBeenCalledWith(4);
  });
});

describe("useScrollIntoView", () => {
  function Row({ current }: { current: boolean }) {
    const ref = useScrollIntoView<HTMLDivElement>(current);
    return <div ref={ref}>row</div>;
  }

  it("scrolls the row above the fixed FinishBar when it becomes current", () => {
    const scrollBy = vi.fn();
    vi.stubGlobal("scrollBy", scrollBy);
    const bar = document.createElement("footer");
    bar.className = "finish-bar";
    bar.getBoundingClientRect = () => ({ height: 60 }) as DOMRect;
    document.body.appendChild(bar);
    const rect = vi
      .spyOn(HTMLElement.prototype, "getBoundingClientRect")
      // The row sits at the bottom of a 768 px window, under the 60 px bar.
      .mockReturnValue({ top: 700, bottom: 760, height: 60 } as DOMRect);
    try {
      const { rerender } = render(<Row current={false} />);
      expect(scrollBy).not.toHaveBeenCalled();
      rerender(<Row current />);
      // 760 - (768 - 60 - 16) = 68 px down: the row ends 16 px above the bar.
      expect(scrollBy).toHaveBeenCalledWith({ top: 68 });
    } finally {
      rect.mockRestore();
      bar.remove();
      vi.unstubAllGlobals();
    }
  });
});

describe("scrollDelta", () => {
  const view = { height: 800, top: 68, bottom: 76 };
  it("leaves a row in view where it is", () => {
    expect(scrollDelta({ top: 100, bottom: 300 }, view)).toBe(0);
  });
  it("moves a row under the bottom bar up, and one under the header down", () => {
    expect(scrollDelta({ top: 650, bottom: 760 }, view)).toBe(36);
    expect(scrollDelta({ top: 20, bottom: 120 }, view)).toBe(-48);
  });
  it("aligns a row taller than the space at its top", () => {
    expect(scrollDelta({ top: 500, bottom: 1500 }, view)).toBe(432);
  });
});

describe("StepContent", () => {
  it("renders a plain step's text and its images", () => {
    const { container } = render(<StepContent step={{ text: "We add **2**.", images: ["/m/a.png"] }} index={1} />);
    expect(container.querySelector(".step-text")?.textContent).toContain("We add 2.");
    expect(container.querySelectorAll("img").length).toBe(1);
  });
});
