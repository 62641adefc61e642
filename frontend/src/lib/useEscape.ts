import { useEffect, useRef } from "react";

/** The dialogs, drawers and menus open now, innermost last: Escape closes only the last one, so
 * a dialog opened from a dialog (the Hugging Face token from the Hub push) closes alone. */
const open: Array<{ current: () => void }> = [];

function onKeyDown(e: KeyboardEvent) {
  if (e.key !== "Escape" || e.defaultPrevented) return;
  open[open.length - 1]?.current();
}

/** Call `onEscape` when Escape is pressed while this component is mounted (and `active`) and is
 * the innermost one that asked. One window listener serves them all. */
export function useEscape(onEscape: () => void, active = true): void {
  const handler = useRef(onEscape);
  useEffect(() => {
    handler.current = onEscape;
  }, [onEscape]);

  useEffect(() => {
    if (!active) return;
    const entry = { current: () => handler.current() };
    open.push(entry);
    if (open.length === 1) window.addEventListener("keydown", onKeyDown);
    return () => {
      const at = open.indexOf(entry);
      if (at >= 0) open.splice(at, 1);
      if (open.length === 0) window.removeEventListener("keydown", onKeyDown);
    };
  }, [active]);
}
