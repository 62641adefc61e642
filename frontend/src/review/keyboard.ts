/**
 * The review page's keyboard map, in one place (the labeling page's keys where they mean the
 * same thing: 1/2/3 or −/0/+ rate, j/k move, t answer, ? help). The `?` overlay is generated
 * from REVIEW_SHORTCUTS.
 */
import type { Rating } from "../api";
import type { KeyLike, ShortcutGroup } from "../label/keyboard";

export type ReviewCommand =
  | { type: "rate"; value: Rating }
  | { type: "clear" }
  | { type: "move"; delta: number }
  | { type: "first" }
  | { type: "last" }
  | { type: "column"; delta: number }
  | { type: "take" }
  | { type: "takeColumn" }
  | { type: "accept" }
  | { type: "reject" }
  | { type: "submit" }
  | { type: "comment" }
  | { type: "next" }
  | { type: "gold" }
  | { type: "toggleAnswer" }
  | { type: "toggleHelp" }
  | { type: "escape" };

export function reviewCommandForKey(e: KeyLike, ratingValues: readonly Rating[] = [-1, 0, 1]): ReviewCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const rate = (value: Rating): ReviewCommand | null => (ratingValues.includes(value) ? { type: "rate", value } : null);
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
    case "h":
    case "ArrowLeft":
      return { type: "column", delta: -1 };
    case "l":
    case "ArrowRight":
      return { type: "column", delta: 1 };
    case "p":
      return { type: "take" };
    case "P":
      return { type: "takeColumn" };
    case "a":
      return { type: "accept" };
    case "r":
      return { type: "reject" };
    case "Enter":
      return e.shiftKey ? null : { type: "submit" };
    case "c":
      return { type: "comment" };
    case "n":
      return { type: "next" };
    case "G":
      return { type: "gold" };
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

export const REVIEW_SHORTCUTS: ShortcutGroup[] = [
  {
    title: "Decide the current step",
    items: [
      { keys: ["1", "−"], label: "Wrong (−1)" },
      { keys: ["2", "0"], label: "Neutral (0)", neutralOnly: true },
      { keys: ["3", "+"], label: "Correct (+1)" },
      { keys: ["x", "⌫"], label: "Clear the decision" },
      { keys: ["p"], label: "Pick the selected annotator's rating" },
      { keys: ["P"], label: "Take the selected annotator's whole column" },
    ],
  },
  {
    title: "Move",
    items: [
      { keys: ["j", "↓"], label: "Next step" },
      { keys: ["k", "↑"], label: "Previous step" },
      { keys: ["h", "←"], label: "Previous annotator column" },
      { keys: ["l", "→"], label: "Next annotator column" },
      { keys: ["Home", "End"], label: "First / last step" },
    ],
  },
  {
    title: "Decide the solution",
    items: [
      { keys: ["⏎"], label: "Submit the adjudication, open the next item" },
      { keys: ["a"], label: "Accept the selected annotation" },
      { keys: ["r"], label: "Reject the selected annotation (with a comment)" },
      { keys: ["n"], label: "Skip to the next item in the queue" },
      { keys: ["G"], label: "Mark / unmark as gold (admins)" },
    ],
  },
  {
    title: "Other",
    items: [
      { keys: ["c"], label: "Comment on the current step" },
      { keys: ["t"], label: "Show / hide the reference answer" },
      { keys: ["?"], label: "This help" },
      { keys: ["Esc"], label: "Close / cancel" },
    ],
  },
];
