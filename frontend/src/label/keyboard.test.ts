import { describe, expect, it } from "vitest";
import { reviewCommandForKey } from "../review/keyboard";
import {
  SHORTCUTS,
  commandForKey,
  isActivationOnControl,
  isTypingTarget,
  ratingShortcuts,
  sharedCommandForKey,
  type KeyLike,
} from "./keyboard";

describe("commandForKey", () => {
  it.each([
    ["1", -1],
    ["-", -1],
    ["2", 0],
    ["0", 0],
    ["3", 1],
    ["+", 1],
    ["=", 1],
  ])("%s rates %d", (key, value) => {
    expect(commandForKey({ key })).toEqual({ type: "rate", value });
  });

  it("has no neutral on a binary scale", () => {
    expect(commandForKey({ key: "2" }, [-1, 1])).toBeNull();
    expect(commandForKey({ key: "0" }, [-1, 1])).toBeNull();
    expect(commandForKey({ key: "3" }, [-1, 1])).toEqual({ type: "rate", value: 1 });
  });

  it("moves with j/k and the arrows", () => {
    expect(commandForKey({ key: "j" })).toEqual({ type: "move", delta: 1 });
    expect(commandForKey({ key: "ArrowDown" })).toEqual({ type: "move", delta: 1 });
    expect(commandForKey({ key: "k" })).toEqual({ type: "move", delta: -1 });
    expect(commandForKey({ key: "ArrowUp" })).toEqual({ type: "move", delta: -1 });
  });

  it("maps the single-letter commands", () => {
    const map: Record<string, string> = {
      u: "toggleUnsure",
      a: "editAlternative",
      A: "acceptSuggestions",
      c: "editComment",
      Enter: "submit",
      s: "skip",
      g: "giveUp",
      b: "badProblem",
      t: "toggleAnswer",
      "?": "toggleHelp",
      Escape: "escape",
    };
    for (const [key, type] of Object.entries(map)) expect(commandForKey({ key })?.type).toBe(type);
  });

  it("undoes with ctrl+z and cmd+z, and leaves other shortcuts to the browser", () => {
    expect(commandForKey({ key: "z", ctrlKey: true })).toEqual({ type: "undo" });
    expect(commandForKey({ key: "z", metaKey: true })).toEqual({ type: "undo" });
    expect(commandForKey({ key: "z", ctrlKey: true, shiftKey: true })).toBeNull();
    expect(commandForKey({ key: "c", ctrlKey: true })).toBeNull();
    expect(commandForKey({ key: "r", metaKey: true })).toBeNull();
    expect(commandForKey({ key: "1", altKey: true })).toBeNull();
    expect(commandForKey({ key: "z" })).toBeNull();
  });

  it("shift+Enter is not submit; unknown keys are ignored", () => {
    expect(commandForKey({ key: "Enter", shiftKey: true })).toBeNull();
    expect(commandForKey({ key: "q" })).toBeNull();
    expect(commandForKey({ key: "F5" })).toBeNull();
  });
});

describe("sharedCommandForKey", () => {
  const shared: Array<[string, unknown]> = [
    ["1", { type: "rate", value: -1 }],
    ["-", { type: "rate", value: -1 }],
    ["_", { type: "rate", value: -1 }],
    ["2", { type: "rate", value: 0 }],
    ["0", { type: "rate", value: 0 }],
    ["3", { type: "rate", value: 1 }],
    ["+", { type: "rate", value: 1 }],
    ["=", { type: "rate", value: 1 }],
    ["x", { type: "clear" }],
    ["Backspace", { type: "clear" }],
    ["Delete", { type: "clear" }],
    ["j", { type: "move", delta: 1 }],
    ["ArrowDown", { type: "move", delta: 1 }],
    ["k", { type: "move", delta: -1 }],
    ["ArrowUp", { type: "move", delta: -1 }],
    ["Home", { type: "first" }],
    ["End", { type: "last" }],
    ["Enter", { type: "submit" }],
    ["t", { type: "toggleAnswer" }],
    ["?", { type: "toggleHelp" }],
    ["Escape", { type: "escape" }],
  ];

  it.each(shared)("maps %s", (key, command) => {
    expect(sharedCommandForKey({ key })).toEqual(command);
  });

  it("means the same on the labeling and the review page", () => {
    for (const [key, command] of shared) {
      expect(commandForKey({ key })).toEqual(command);
      expect(reviewCommandForKey({ key })).toEqual(command);
    }
  });

  it("has no neutral on a binary scale, and no new line as submit", () => {
    expect(sharedCommandForKey({ key: "2" }, [-1, 1])).toBeNull();
    expect(sharedCommandForKey({ key: "0" }, [-1, 1])).toBeNull();
    expect(sharedCommandForKey({ key: "1" }, [-1, 1])).toEqual({ type: "rate", value: -1 });
    expect(sharedCommandForKey({ key: "Enter", shiftKey: true })).toBeNull();
  });

  it("leaves modified keys and each page's own keys alone", () => {
    const modified: KeyLike[] = [
      { key: "1", ctrlKey: true },
      { key: "j", metaKey: true },
      { key: "x", altKey: true },
    ];
    for (const e of modified) expect(sharedCommandForKey(e)).toBeNull();
    for (const key of ["u", "a", "A", "c", "s", "g", "b", "l", "h", "p", "P", "r", "n", "G", "z", "q"]) {
      expect(sharedCommandForKey({ key })).toBeNull();
    }
  });

  it("documents the rating keys once for both pages", () => {
    expect(ratingShortcuts("decision").map((i) => i.keys[0])).toEqual(["1", "2", "3", "x"]);
    expect(ratingShortcuts("decision")[3].label).toBe("Clear the decision");
    expect(SHORTCUTS[0].items.slice(0, 4)).toEqual(ratingShortcuts("rating"));
  });
});

describe("targets", () => {
  it("knows where typing happens", () => {
    const textarea = document.createElement("textarea");
    const text = document.createElement("input");
    const box = document.createElement("input");
    box.type = "checkbox";
    const editable = document.createElement("div");
    editable.contentEditable = "true";
    Object.defineProperty(editable, "isContentEditable", { value: true });
    expect(isTypingTarget(textarea)).toBe(true);
    expect(isTypingTarget(text)).toBe(true);
    expect(isTypingTarget(box)).toBe(false);
    expect(isTypingTarget(editable)).toBe(true);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it("lets Enter/Space activate a focused button", () => {
    const button = document.createElement("button");
    expect(isActivationOnControl({ key: "Enter", target: button })).toBe(true);
    expect(isActivationOnControl({ key: " ", target: button })).toBe(true);
    expect(isActivationOnControl({ key: "1", target: button })).toBe(false);
    expect(isActivationOnControl({ key: "Enter", target: document.body })).toBe(false);
  });
});

describe("help", () => {
  it("documents every key the map knows", () => {
    const documented = SHORTCUTS.flatMap((g) => g.items.flatMap((i) => i.keys)).join(" ");
    for (const key of ["1", "2", "3", "j", "k", "u", "a", "A", "c", "s", "g", "b", "t", "?", "Esc", "Ctrl Z"]) {
      expect(documented).toContain(key);
    }
  });
});

describe("the d prompt (step dependencies)", () => {
  it("d opens it; while open, digits are a step number, not a rating", () => {
    expect(commandForKey({ key: "d" })).toEqual({ type: "startUse" });
    expect(commandForKey({ key: "1" })).toEqual({ type: "rate", value: -1 });
    expect(commandForKey({ key: "1" }, [-1, 0, 1], true)).toEqual({ type: "useDigit", digit: "1" });
    expect(commandForKey({ key: "0" }, [-1, 1], true)).toEqual({ type: "useDigit", digit: "0" });
    expect(commandForKey({ key: "Enter" }, [-1, 0, 1], true)).toEqual({ type: "submit" });
    expect(commandForKey({ key: "1", ctrlKey: true }, [-1, 0, 1], true)).toBeNull();
  });
});

describe("Back (o)", () => {
  it("is o on the labeling page, with nothing else on that key on either page", () => {
    expect(commandForKey({ key: "o" })).toEqual({ type: "back" });
    expect(commandForKey({ key: "o", ctrlKey: true })).toBeNull();
    expect(reviewCommandForKey({ key: "o" })).toBeNull();
    const keys = SHORTCUTS.flatMap((g) => g.items).filter((item) => item.keys.includes("o"));
    expect(keys.map((item) => item.label)).toEqual(["Back: reopen what you submitted or skipped last"]);
  });

  it("documents every letter whose meaning differs between the labeling and review pages", () => {
    const label = SHORTCUTS.flatMap((g) => g.items);
    for (const letter of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
      const here = commandForKey({ key: letter });
      const there = reviewCommandForKey({ key: letter });
      if (!here || !there || here.type === there.type) continue;
      if (here.type === "editComment" && there.type === "comment") continue; // c: comment, both
      const item = label.find((i) => i.keys.includes(letter));
      expect(item?.elsewhere, `labeling page's ${letter}`).toBeTruthy();
    }
  });
});
