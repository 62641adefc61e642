import { useEffect, useRef, useState } from "react";

/** The dialogs, drawers and menus open now. Escape closes only the innermost: the one rendered
 * last (a dialog opened from a dialog, as the Hugging Face token from the Hub push, or a child
 * mounted with its parent: render order is parent first, unlike effect order). */
const open = new Set<{ order: number; current: () => void }>();
let rendered = 0;

function onKeyDown(e: KeyboardEvent) {
  if (e.key !== "Escape" || e.defaultPrevented) return;
  let top: { order: number; current: () => void } | null = null;
  for (const entry of open) if (!top || entry.order > top.order) top = entry;
  top?.current();
}

/** Call `onEscape` when Escape is pressed while this component is mounted (and `active`) and is
 * the innermost one that asked. One window listener serves them all. */
export function useEscape(onEscape: () => void, active = true): void {
  const [order] = useState(() => ++rendered);
  const handler = useRef(onEscape);
  useEffect(() => {
    handler.current = onEscape;
  }, [onEscape]);

  useEffect(() => {
    if (!active) return;
    const entry = { order, current: () => handler.current() };
    open.add(entry);
    if (open.size === 1) window.addEventListener("keydown", onKeyDown);
    return () => {
      open.delete(entry);
      if (open.size === 0) window.removeEventListener("keydown", onKeyDown);
    };
  }, [active, order]);
}
