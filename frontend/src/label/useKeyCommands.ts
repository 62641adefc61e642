/**
 * The keyboard plumbing the labeling and review pages share: one window `keydown` listener that
 * turns a key into the page's command and runs it, and the mouse-down guard that keeps focus off
 * the page's buttons. Each page keeps its own key map (./keyboard.ts, ../review/keyboard.ts) and
 * its own `handle`.
 */
import { useEffect, useLayoutEffect, useRef } from "react";
import { isActivationOnControl, isTypingTarget } from "./keyboard";

/**
 * While the page is mounted, a key press outside a text field (and not Enter/Space on a focused
 * control) goes through `commandFor`; a command goes to `handle`, and when `handle` returns true
 * the browser's default is prevented. A held key repeats only `move`; other repeats are swallowed
 * (a held Enter must not submit twice). Both callbacks may change on every render: the latest
 * ones are used, and the listener is added once.
 */
export function useKeyCommands<C extends { type: string }>(
  commandFor: (e: KeyboardEvent) => C | null,
  handle: (cmd: C) => boolean,
): void {
  const latest = useRef({ commandFor, handle });
  useLayoutEffect(() => {
    latest.current = { commandFor, handle };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      if (isTypingTarget(e.target) || isActivationOnControl(e)) return;
      const cmd = latest.current.commandFor(e);
      if (!cmd) return;
      if (e.repeat && cmd.type !== "move") {
        e.preventDefault();
        return;
      }
      if (latest.current.handle(cmd)) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/**
 * A mouse-down handler for the page: clicking one of `buttons` (a CSS selector) must not leave it
 * focused, or the next Enter would click it again. An open editor is left to blur (and save).
 */
export function keepKeyboardFlow(e: { target: EventTarget | null; preventDefault: () => void }, buttons: string): void {
  const active = document.activeElement;
  if (active && isTypingTarget(active)) return;
  if ((e.target as HTMLElement | null)?.closest?.(buttons)) e.preventDefault();
}
