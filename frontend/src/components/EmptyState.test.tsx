import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EmptyState } from "./ui";

// .empty-body stacks its children (a flex column): a sentence with a link or a key in it was
// cut into one line per piece (the Gold tab's "No gold questions yet" at any width).
describe("EmptyState", () => {
  it("keeps a sentence with inline elements in one paragraph", () => {
    const { container } = render(
      <EmptyState title="No gold questions yet">
        Open a solution in the <a href="/review">review queue</a>, decide every step, and press <span className="kbd">G</span>: done.
      </EmptyState>,
    );
    const body = container.querySelector(".empty-body")!;
    expect(body.children).toHaveLength(1);
    const paragraph = body.children[0];
    expect(paragraph.tagName).toBe("P");
    expect(paragraph.textContent).toBe("Open a solution in the review queue, decide every step, and press G: done.");
    expect(paragraph.querySelector("a")?.textContent).toBe("review queue");
  });

  it("leaves block children (a message and a button) stacked as they are", () => {
    const { container } = render(
      <EmptyState title="Could not load">
        <p>Not found.</p>
        <button type="button">Try again</button>
      </EmptyState>,
    );
    const body = container.querySelector(".empty-body")!;
    expect(Array.from(body.children).map((c) => c.tagName)).toEqual(["P", "BUTTON"]);
  });
});
