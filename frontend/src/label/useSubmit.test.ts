import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { makeTask } from "../test/fixtures";
import { stepFromError } from "./useSubmit";

describe("stepFromError", () => {
  const task = makeTask({ steps: 4 });

  it("finds the row of the server's step_index", () => {
    const shifted = { ...task, solution: { ...task.solution, steps: task.solution.steps.map((s) => ({ ...s, index: s.index + 10 })) } };
    expect(stepFromError(new ApiError(400, "validation_error", "No rating", { step_index: 12 }), shifted)).toBe(2);
    // An index the page does not show: the nearest row, never past the last.
    expect(stepFromError(new ApiError(400, "validation_error", "No rating", { step_index: 9 }), task)).toBe(3);
  });

  it("falls back to 'Step N' in the message, else no row", () => {
    expect(stepFromError(new ApiError(400, "validation_error", "Step 2 has no rating."), task)).toBe(1);
    expect(stepFromError(new ApiError(400, "validation_error", "step 40 is out of range"), task)).toBe(3);
    expect(stepFromError(new ApiError(400, "validation_error", "Bad request"), task)).toBe(-1);
  });
});
