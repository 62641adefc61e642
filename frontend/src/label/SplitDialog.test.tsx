import { describe, expect, it } from "vitest";
import { commandForKey, SHORTCUTS } from "./keyboard";
import { codePointOffset, splitParts } from "./SplitDialog";

describe("splitting a step", () => {
  it("counts the cut in code points, as the server does", () => {
    const text = "Let 𝑥 = 2. Then 𝑥² = 4.";
    const at = text.indexOf(" Then");
    expect(codePointOffset(text, at)).toBe(Array.from(text.slice(0, at)).length);
    expect(codePointOffset(text, at)).toBe(at - 1); // 𝑥 is two UTF-16 units, one code point
  });

  it("trims the parts at the cut and refuses an empty one", () => {
    expect(splitParts("a $x$. b $y$.", 6)).toEqual(["a $x$.", "b $y$."]);
    expect(splitParts("  abc", 2)).toBeNull();
    expect(splitParts("abc  ", 3)).toBeNull();
  });

  it("S splits, m merges, and the help lists both", () => {
    expect(commandForKey({ key: "S", shiftKey: true })).toEqual({ type: "splitStep" });
    expect(commandForKey({ key: "m" })).toEqual({ type: "mergeStep" });
    expect(commandForKey({ key: "m", ctrlKey: true })).toBeNull();
    const keys = SHORTCUTS.flatMap((g) => g.items.flatMap((i) => i.keys));
    expect(keys).toEqual(expect.arrayContaining(["S", "m"]));
  });
});
