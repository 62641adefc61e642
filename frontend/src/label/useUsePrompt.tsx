/**
 * The `d` prompt, shared by the labeling and review pages: `d`, then the number of an earlier
 * step, toggles that step among the ones the current step uses (Enter after a two-digit number,
 * Esc cancels). The page says what the current step is and what a toggle does.
 */
import { useCallback, useRef, useState } from "react";
import { typeDigit } from "./dependencies";

/** The commands the prompt reads: digits while it is open, and the keys that close it. */
export type PromptCommand = { type: string; digit?: string };

export function useUsePrompt({
  current,
  onToggle,
  onRefuse,
}: {
  /** The current step's index (0-based), read when a number is complete. */
  current: () => number;
  /** Toggle `target` (0-based) among the current step's dependencies. */
  onToggle: (target: number) => void;
  /** Say why the prompt refused: a number that is not an earlier step ("error"), or the
   * first step, which has none ("info"). */
  onRefuse: (text: string, tone: "error" | "info") => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const typedRef = useRef(typed);
  typedRef.current = typed;
  // The callers' functions, read when used: the returned callbacks stay stable.
  const calls = useRef({ current, onToggle, onRefuse });
  calls.current = { current, onToggle, onRefuse };

  const mark = useCallback((buffer: string) => {
    setTyped(null);
    const index = calls.current.current();
    const target = Number(buffer) - 1;
    if (!buffer || target < 0) return;
    if (target >= index) {
      calls.current.onRefuse(`Step ${index + 1} can only use earlier steps (1–${index}).`, "error");
      return;
    }
    calls.current.onToggle(target);
  }, []);

  /** Open the prompt for the current step; the first step has nothing earlier to use. */
  const open = useCallback(() => {
    if (calls.current.current() === 0) {
      calls.current.onRefuse("The first step has no earlier step to use.", "info");
      return;
    }
    setTyped("");
  }, []);

  const close = useCallback(() => setTyped(null), []);

  /** A command while the prompt is open: true when the prompt took it, null when it is closed
   * or the command is for the page (the prompt closes then). */
  const handle = useCallback(
    (cmd: PromptCommand): boolean | null => {
      const buffer = typedRef.current;
      if (buffer === null) return null;
      if (cmd.type === "useDigit" && cmd.digit !== undefined) {
        const next = typeDigit(buffer, cmd.digit, calls.current.current());
        if (next.done) mark(next.buffer);
        else setTyped(next.buffer);
        return true;
      }
      if (cmd.type === "submit") {
        mark(buffer);
        return true;
      }
      setTyped(null);
      return cmd.type === "escape" || cmd.type === "startUse" ? true : null;
    },
    [mark],
  );

  return { typed, isOpen: () => typedRef.current !== null, open, close, handle };
}

/** The prompt's box at the bottom of the page while it is open. */
export function UsePrompt({ typed, step }: { typed: string; step: number }) {
  return (
    <div className="uses-prompt" role="status" data-testid="uses-prompt">
      Step {step + 1} uses step <span className="uses-prompt-typed">{typed || "…"}</span>
      <span className="muted small"> type its number · ⏎ confirm · Esc cancel</span>
    </div>
  );
}
