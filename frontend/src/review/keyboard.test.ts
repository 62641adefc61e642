import { describe, expect, it } from "vitest";
import { reviewCommandForKey } from "./keyboard";

describe("reviewCommandForKey", () => {
  it("rates like the labeling page: 1/2/3 and −/0/+", () => {
    expect(reviewCommandForKey({ key: "1" })).toEqual({ type: "rate", value: -1 });
    expect(reviewCommandForKey({ key: "-" })).toEqual({ type: "rate", value: -1 });
    expect(reviewCommandForKey({ key: "2" })).toEqual({ type: "rate", value: 0 });
    expect(reviewCommandForKey({ key: "0" })).toEqual({ type: "rate", value: 0 });
    expect(reviewCommandForKey({ key: "3" })).toEqual({ type: "rate", value: 1 });
    expect(reviewCommandForKey({ key: "+" })).toEqual({ type: "rate", value: 1 });
  });

  it("has no neutral on a binary scale", () => {
    expect(reviewCommandForKey({ key: "2" }, [-1, 1])).toBeNull();
  });

  it("maps moves, columns and decisions", () => {
    expect(reviewCommandForKey({ key: "j" })).toEqual({ type: "move", delta: 1 });
    expect(reviewCommandForKey({ key: "ArrowUp" })).toEqual({ type: "move", delta: -1 });
    expect(reviewCommandForKey({ key: "l" })).toEqual({ type: "column", delta: 1 });
    expect(reviewCommandForKey({ key: "ArrowLeft" })).toEqual({ type: "column", delta: -1 });
    expect(reviewCommandForKey({ key: "a" })).toEqual({ type: "accept" });
    expect(reviewCommandForKey({ key: "r" })).toEqual({ type: "reject" });
    expect(reviewCommandForKey({ key: "p" })).toEqual({ type: "take" });
    expect(reviewCommandForKey({ key: "P" })).toEqual({ type: "takeColumn" });
    expect(reviewCommandForKey({ key: "Enter" })).toEqual({ type: "submit" });
    expect(reviewCommandForKey({ key: "Enter", shiftKey: true })).toBeNull();
    expect(reviewCommandForKey({ key: "?" })).toEqual({ type: "toggleHelp" });
  });

  it("jumps between marked steps with m / M", () => {
    expect(reviewCommandForKey({ key: "m" })).toEqual({ type: "nextMarked", delta: 1 });
    expect(reviewCommandForKey({ key: "M" })).toEqual({ type: "nextMarked", delta: -1 });
    expect(reviewCommandForKey({ key: "m", ctrlKey: true })).toBeNull();
  });

  it("leaves browser shortcuts alone", () => {
    expect(reviewCommandForKey({ key: "r", ctrlKey: true })).toBeNull();
    expect(reviewCommandForKey({ key: "a", metaKey: true })).toBeNull();
  });
});
