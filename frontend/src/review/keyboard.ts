/**
 * The review page's keyboard map, in one place: its own keys here, the keys it shares with the
 * labeling page (1/2/3 or −/0/+ rate, x clears, j/k move, Enter, t answer, ? help, Esc) from
 * `sharedCommandForKey`. The `?` overlay is generated from REVIEW_SHORTCUTS.
 */
import type { Rating } from "../api";
import {
  type KeyLike,
  type SharedCommand,
  type ShortcutGroup,
  type UseCommand,
  ratingShortcuts,
  sharedCommandForKey,
  useCommandForKey,
} from "../label/keyboard";

export type ReviewCommand =
  | SharedCommand
  | UseCommand
  | { type: "column"; delta: number }
  | { type: "take" }
  | { type: "takeColumn" }
  | { type: "accept" }
  | { type: "reject" }
  | { type: "comment" }
  | { type: "next" }
  | { type: "nextMarked"; delta: 1 | -1 }
  | { type: "gold" }
  /** `/` (and Ctrl F / ⌘ F, `browserKey`): find in the steps (a long solution's are mostly not
   * in the DOM, where the browser's find looks; the page takes Ctrl F only then). */
  | { type: "find"; browserKey?: boolean };

/** `usePrompt`: the `d` prompt is open, so digits are a step number, not a decision. */
export function reviewCommandForKey(
  e: KeyLike,
  ratingValues: readonly Rating[] = [-1, 0, 1],
  usePrompt = false,
): ReviewCommand | null {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === "f" || e.key === "F")) {
    return { type: "find", browserKey: true };
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const use = useCommandForKey(e, usePrompt);
  if (use) return use;
  switch (e.key) {
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
    case "c":
      return { type: "comment" };
    case "n":
      return { type: "next" };
    case "m":
      return { type: "nextMarked", delta: 1 };
    case "M":
      return { type: "nextMarked", delta: -1 };
    case "G":
      return { type: "gold" };
    case "/":
      return { type: "find" };
    default:
      return sharedCommandForKey(e, ratingValues);
  }
}

/** The review page's keys, with the project's rating words (ratingNames.ts). */
export function reviewShortcuts(names?: Record<string, string>): ShortcutGroup[] {
  return [
    {
      title: "Decide the current step",
      items: [
        ...ratingShortcuts("decision", names),
        { keys: ["p"], label: "Pick the selected annotator's rating (and the steps they marked it using)" },
        { keys: ["P"], label: "Take the selected annotator's whole column" },
        { keys: ["d  N"], label: "This step uses step N (again: no longer; ⏎ after a 2-digit N)" },
      ],
    },
    {
      title: "Move",
      items: [
        { keys: ["j", "↓"], label: "Next step" },
        { keys: ["k", "↑"], label: "Previous step" },
        { keys: ["h", "←"], label: "Previous annotator column" },
        { keys: ["l", "→"], label: "Next annotator column", elsewhere: "on the labeling page: guidelines" },
        { keys: ["Home", "End"], label: "First / last step" },
        { keys: ["m", "M"], label: "Next / previous marked step (humans differ, or human ≠ machine)" },
        { keys: ["/"], label: "Find in the steps (also Ctrl F / ⌘ F on a long solution)" },
      ],
    },
    {
      title: "Decide the solution",
      items: [
        { keys: ["⏎"], label: "Submit the adjudication, open the next item" },
        { keys: ["a"], label: "Accept the selected annotation", elsewhere: "on the labeling page: alternative step" },
        { keys: ["r"], label: "Reject the selected annotation (with a comment)", elsewhere: "on the labeling page: reasoning steps" },
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
}

export const REVIEW_SHORTCUTS: ShortcutGroup[] = reviewShortcuts();
