import { describe, expect, it } from "vitest";
import { effectiveUses, toggleUse, typeDigit, usesText } from "./dependencies";

describe("step dependencies", () => {
  it("marks replace the step's own; null leaves them", () => {
    expect(effectiveUses(null, [0])).toEqual([0]);
    expect(effectiveUses([], [0])).toEqual([]);
    expect(effectiveUses(undefined, undefined)).toEqual([]);
  });

  it("toggles earlier steps only, kept ascending", () => {
    expect(toggleUse([2], 0, 3)).toEqual([0, 2]);
    expect(toggleUse([0, 2], 2, 3)).toEqual([0]);
    expect(toggleUse([], 3, 3)).toBeNull(); // itself
    expect(toggleUse([], 4, 3)).toBeNull(); // a later step
    expect(toggleUse([], -1, 3)).toBeNull();
  });

  it("a typed step number is final when no digit more could name an earlier step", () => {
    expect(typeDigit("", "2", 4)).toEqual({ buffer: "2", done: true });
    expect(typeDigit("", "1", 13)).toEqual({ buffer: "1", done: false });
    expect(typeDigit("1", "2", 13)).toEqual({ buffer: "12", done: true });
    expect(typeDigit("", "0", 5)).toEqual({ buffer: "", done: false });
  });

  it("shows 1-based numbers", () => {
    expect(usesText([0, 2])).toBe("uses 1, 3");
  });
});
