/**
 * The labeling page's keyboard map, in one place: key event -> command. The keys it shares with
 * the review page (src/review/keyboard.ts) are mapped once, by `sharedCommandForKey`. The
 * shortcuts overlay is generated from `SHORTCUTS`, so the help can't drift from what the keys do.
 */
import type { Rating } from "../api";
import { RATING_NAMES } from "./ratingNames";

/**
 * The commands the labeling and review pages share, on the same keys: rate (1/2/3, −/0/+), clear
 * (x, Backspace, Delete), move (j/k, ↓/↑), first/last (Home/End), submit (Enter), toggle the
 * reference answer (t), help (?), escape.
 */
export type SharedCommand =
  | { type: "rate"; value: Rating }
  | { type: "clear" }
  | { type: "move"; delta: number }
  | { type: "first" }
  | { type: "last" }
  | { type: "submit" }
  | { type: "toggleAnswer" }
  | { type: "toggleHelp" }
  | { type: "escape" };

export type Command =
  | SharedCommand
  | { type: "toggleUnsure" }
  | { type: "editAlternative" }
  | { type: "editComment" }
  | { type: "skip" }
  | { type: "giveUp" }
  | { type: "badProblem" }
  | { type: "undo" }
  | { type: "toggleGuidelines" }
  | { type: "acceptSuggestions" }
  /** `o`: Back, reopen what the annotator submitted or skipped last. */
  | { type: "back" }
  /** `S`: split the current step in two (a dialog picks where). */
  | { type: "splitStep" }
  /** `m`: merge the current step with the next. */
  | { type: "mergeStep" }
  /** `/` (and Ctrl F / ⌘ F, `browserKey`): find in the steps (a long solution's steps are
   * mostly not in the DOM, where the browser's find looks). */
  | { type: "find"; browserKey?: boolean }
  /** `n`: the next step without a rating. */
  | { type: "nextUnrated" }
  /** `r`: show the model's folded reasoning steps, or fold them again. */
  | { type: "toggleReasoning" }
  | UseCommand;

/** The `d` prompt's commands (label/useUsePrompt.tsx), on both pages. */
export type UseCommand =
  /** `d`: the next step number typed is a step the current one uses (toggled). */
  | { type: "startUse" }
  /** A digit while the `d` prompt is open. */
  | { type: "useDigit"; digit: string };

/** `d`, or a digit while the prompt is open (then digits are a step number, not a rating). */
export function useCommandForKey(e: KeyLike, usePrompt: boolean): UseCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (usePrompt && /^[0-9]$/.test(e.key)) return { type: "useDigit", digit: e.key };
  return e.key === "d" ? { type: "startUse" } : null;
}

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

/**
 * The shared command a key press means, or null: a key neither page gives a shared meaning, a
 * rating the project's scale does not have (2 or 0 on a binary scale), shift+Enter (a new line),
 * or any key with Ctrl, ⌘ or Alt (those are each page's or the browser's).
 */
export function sharedCommandForKey(e: KeyLike, ratingValues: readonly Rating[] = [-1, 0, 1]): SharedCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const rate = (value: Rating): SharedCommand | null => (ratingValues.includes(value) ? { type: "rate", value } : null);
  switch (e.key) {
    case "1":
    case "-":
    case "_":
      return rate(-1);
    case "2":
    case "0":
      return rate(0);
    case "3":
    case "+":
    case "=":
      return rate(1);
    case "x":
    case "Backspace":
    case "Delete":
      return { type: "clear" };
    case "j":
    case "ArrowDown":
      return { type: "move", delta: 1 };
    case "k":
    case "ArrowUp":
      return { type: "move", delta: -1 };
    case "Home":
      return { type: "first" };
    case "End":
      return { type: "last" };
    case "Enter":
      return e.shiftKey ? null : { type: "submit" };
    case "t":
      return { type: "toggleAnswer" };
    case "?":
      return { type: "toggleHelp" };
    case "Escape":
      return { type: "escape" };
    default:
      return null;
  }
}

/**
 * Which command a key press on the labeling page means, or null (the key is left to the browser).
 * `usePrompt`: the `d` prompt is open, so digits are a step number, not a rating.
 */
export function commandForKey(
  e: KeyLike,
  ratingValues: readonly Rating[] = [-1, 0, 1],
  usePrompt = false,
): Command | null {
  const mod = !!(e.ctrlKey || e.metaKey);
  const use = useCommandForKey(e, usePrompt);
  if (use) return use;
  if (mod) {
    if (!e.altKey && !e.shiftKey && (e.key === "z" || e.key === "Z")) return { type: "undo" };
    // The page takes find only where the browser's cannot see every step (LabelPage decides).
    if (!e.altKey && !e.shiftKey && (e.key === "f" || e.key === "F")) return { type: "find", browserKey: true };
    return null; // leave ctrl/cmd+anything else (copy, reload...) to the browser
  }
  if (e.altKey) return null;
  switch (e.key) {
    case "u":
      return { type: "toggleUnsure" };
    case "a":
      return { type: "editAlternative" };
    case "A":
      return { type: "acceptSuggestions" };
    case "c":
      return { type: "editComment" };
    case "s":
      return { type: "skip" };
    case "g":
      return { type: "giveUp" };
    case "b":
      return { type: "badProblem" };
    case "l":
      return { type: "toggleGuidelines" };
    case "o":
      return { type: "back" };
    case "S":
      return { type: "splitStep" };
    case "m":
      return { type: "mergeStep" };
    case "/":
      return { type: "find" };
    case "n":
      return { type: "nextUnrated" };
    case "r":
      return { type: "toggleReasoning" };
    default:
      return sharedCommandForKey(e, ratingValues);
  }
}

/** True when a key event happens inside something that takes typing. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== "string") return false;
  const tag = el.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") {
    const type = ((el as HTMLInputElement).type || "text").toLowerCase();
    return !["checkbox", "radio", "button", "submit", "reset", "range", "file"].includes(type);
  }
  return !!el.isContentEditable;
}

/** True for Enter/Space on a focused control: the browser's own activation should win. */
export function isActivationOnControl(e: KeyLike & { target: EventTarget | null }): boolean {
  if (e.key !== "Enter" && e.key !== " ") return false;
  const el = e.target as HTMLElement | null;
  if (!el || typeof el.tagName !== "string") return false;
  const tag = el.tagName.toLowerCase();
  return tag === "button" || tag === "a" || tag === "summary" || el.getAttribute("role") === "button";
}

export interface ShortcutItem {
  keys: string[];
  label: string;
  neutralOnly?: boolean;
  /** What the same key does on the other page, where that differs (shown beside the label). */
  elsewhere?: string;
}

export interface ShortcutGroup {
  title: string;
  items: ShortcutItem[];
}

/** The help rows of the shared rating keys; `cleared` is what x clears ("rating", "decision");
 * `names` the scale's words (ratingNames.ts: evidence projects say supported / unsupported). */
export function ratingShortcuts(cleared: string, names: Record<string, string> = RATING_NAMES): ShortcutItem[] {
  return [
    { keys: ["1", "−"], label: `${names["-1"]} (−1)` },
    { keys: ["2", "0"], label: `${names["0"]} (0)`, neutralOnly: true },
    { keys: ["3", "+"], label: `${names["1"]} (+1)` },
    { keys: ["x", "⌫"], label: `Clear the ${cleared}` },
  ];
}

/** The labeling page's keys, with the project's rating words. */
export function labelShortcuts(names: Record<string, string> = RATING_NAMES): ShortcutGroup[] {
  return [
  {
    title: "Rate the current step",
    items: [
      ...ratingShortcuts("rating", names),
      { keys: ["u"], label: "Toggle unsure" },
      { keys: ["A"], label: "Accept suggestions on unrated steps" },
      { keys: ["d  N"], label: "This step uses step N (again: no longer; ⏎ after a 2-digit N)" },
      { keys: ["click"], label: "Accept one suggestion (on its chip)" },
      { keys: ["Ctrl Z", "⌘ Z"], label: "Undo the last change" },
    ],
  },
  {
    title: "Move",
    items: [
      { keys: ["j", "↓"], label: "Next step" },
      { keys: ["k", "↑"], label: "Previous step" },
      { keys: ["Home", "End"], label: "First / last step" },
      { keys: ["n"], label: "Next step without a rating", elsewhere: "on the review page: next item" },
      { keys: ["/"], label: "Find in the steps (also Ctrl F / ⌘ F on a long solution)" },
    ],
  },
  {
    title: "Write",
    items: [
      { keys: ["a"], label: "Alternative (corrected) step", elsewhere: "on the review page: accept" },
      { keys: ["c"], label: "Comment on the step" },
      { keys: ["⏎"], label: "Save (in an editor; ⇧⏎ new line)" },
      { keys: ["Esc"], label: "Cancel / close" },
    ],
  },
  {
    title: "Steps (where the project allows it)",
    items: [
      { keys: ["S"], label: "Split the step in two (put the cursor where the first part ends, ⏎)" },
      { keys: ["m"], label: "Merge the step with the next", elsewhere: "on the review page: next marked step" },
    ],
  },
  {
    title: "Finish",
    items: [
      { keys: ["⏎"], label: "Submit and load the next solution" },
      { keys: ["s"], label: "Skip this solution" },
      { keys: ["g"], label: "Give up (needs a reason)" },
      { keys: ["b"], label: "Bad problem (needs a reason)" },
      { keys: ["o"], label: "Back: reopen what you submitted or skipped last" },
    ],
  },
  {
    title: "View",
    items: [
      { keys: ["t"], label: "Show / hide the reference answer" },
      { keys: ["r"], label: "Show / fold the model's reasoning steps", elsewhere: "on the review page: reject" },
      { keys: ["l"], label: "Show / hide the guidelines", elsewhere: "on the review page: next annotator" },
      { keys: ["?"], label: "This help" },
    ],
  },
  ];
}

export const SHORTCUTS: ShortcutGroup[] = labelShortcuts();
