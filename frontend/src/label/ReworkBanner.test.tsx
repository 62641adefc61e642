import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { FakeReview } from "../test/fakeReview";
import { makeTask } from "../test/fixtures";
import { mountApp as mount } from "../test/labelPage";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("rework on the labeling page", () => {
  it("shows the reviewer's comment at the top of a rejected annotation", async () => {
    const task = {
      ...makeTask({ labels: [1, -1, 1, 1] }),
      rework: { rejected_annotation_id: 3, comment: "Step 2 is fine: x = 2 is given.", reviewer: "rev", rejected_at: "2025-06-02T09:00:00Z" },
    };
    mount(new FakeApi([task]));
    const banner = await screen.findByTestId("rework-banner");
    expect(banner.textContent).toContain("Sent back by rev");
    expect(screen.getByTestId("rework-comment").textContent).toBe("Step 2 is fine: x = 2 is given.");
    expect(screen.getAllByTestId("step-row")[1].getAttribute("data-rating")).toBe("-1");
  });

  it("has no banner on ordinary work, and lists rework waiting behind it", async () => {
    const api = new FakeApi([makeTask({ annotationId: 7 })]);
    const review = new FakeReview();
    review.rejections = [
      { id: 3, solution_id: 9, comment: "Look at step 4 again.", reviewer: "rev", rejected_at: null, rework_id: 8, rework_status: "draft" },
      { id: 2, solution_id: 8, comment: "Done already.", reviewer: "rev", rejected_at: null, rework_id: 6, rework_status: "submitted" },
    ];
    review.install(api);
    mount(api);
    const pending = await screen.findByTestId("rework-pending");
    expect(screen.queryByTestId("rework-banner")).toBeNull();
    expect(screen.getAllByTestId("rework-pending-comment").map((c) => c.textContent)).toEqual(["rev: Look at step 4 again."]);
    expect(pending.textContent).toContain("it comes next");
  });

  it("counts every rejection still to rework, page after page, not the newest 50", async () => {
    const api = new FakeApi([makeTask({ annotationId: 7 })]);
    const review = new FakeReview();
    const reworked = (id: number) => ({ id, solution_id: id, comment: "Done.", reviewer: "rev", rejected_at: null, rework_id: 5000 + id, rework_status: "submitted" });
    const toRework = (id: number) => ({ id, solution_id: id, comment: `Fix ${id}.`, reviewer: "rev", rejected_at: null, rework_id: 1000 + id, rework_status: "draft" });
    // Newest first: 60 reworked already, then 250 still to rework (past one page of PAGE_MAX).
    review.rejections = [
      ...Array.from({ length: 60 }, (_, i) => reworked(400 - i)),
      ...Array.from({ length: 250 }, (_, i) => toRework(300 - i)),
    ];
    review.install(api);
    mount(api);
    const pending = await screen.findByTestId("rework-pending");
    await waitFor(() => expect(pending.textContent).toContain("Reviewers sent back 250 of your solutions"));
    expect(screen.getAllByTestId("rework-pending-comment")[0].textContent).toBe("rev: Fix 300.");
    const reads = api.calls.filter((c) => c.path.startsWith("/api/projects/1/rejections/"));
    expect(reads.every((c) => new URL(c.path, "http://x").searchParams.get("rework") === "draft")).toBe(true);
    expect(reads.some((c) => new URL(c.path, "http://x").searchParams.get("offset") === "200")).toBe(true);
  });
});
