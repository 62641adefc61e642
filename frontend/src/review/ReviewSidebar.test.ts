import { describe, expect, it } from "vitest";
import { usesChangeText } from "./ReviewSidebar";

describe("usesChangeText", () => {
  it("names a change of the steps a step uses, 1-based, and nothing otherwise", () => {
    expect(usesChangeText({ rating: 1 }, { rating: -1 })).toBe("");
    expect(usesChangeText(null, { rating: 1 })).toBe("");
    expect(usesChangeText({ rating: 1, uses: [0] }, { rating: 1, uses: [0] })).toBe("");
    expect(usesChangeText({ rating: 1 }, { rating: 1, uses: [0, 2] })).toBe(" · uses own → 1, 3");
    expect(usesChangeText({ rating: 1, uses: [1] }, { rating: 1, uses: [] })).toBe(" · uses 2 → none");
    expect(usesChangeText({ rating: 1, uses: [1] }, null)).toBe(" · uses 2 → own");
  });
});
