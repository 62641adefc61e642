import { useCallback, useState, type ReactElement } from "react";
import { useVirtualRows } from "./useVirtualRows";
import type { RowKey } from "./virtualWindow";

/**
 * A list that renders only the rows near the viewport when `windowed` (spacers hold the others'
 * height), else every row. `renderRow(i)` returns one keyed element per row; the list is a
 * `role="list"` (or a table's `rowgroup`), so each row says its place itself (aria-posinset / aria-setsize), which is
 * how a screen reader still announces "step 2,400 of 3,000" with most rows out of the DOM.
 */
export function VirtualList({
  keys,
  windowed,
  focus,
  renderRow,
  label,
  role = "list",
  className = "steps",
  testId = "step-list",
}: {
  keys: readonly RowKey[];
  windowed: boolean;
  focus: number;
  renderRow: (index: number) => ReactElement;
  label: string;
  /** "list" (the labeling page's steps), or "rowgroup" where the rows are a table's. */
  role?: "list" | "rowgroup";
  className?: string;
  testId?: string;
}) {
  const { listRef, range, spacers } = useVirtualRows({ keys, windowed, focus });
  const rows: ReactElement[] = [];
  for (let i = range.start; i < range.end; i++) rows.push(renderRow(i));
  return (
    <div
      ref={listRef}
      className={`${className}${windowed ? " steps-windowed" : ""}`}
      role={role}
      aria-label={label}
      data-testid={testId}
      data-windowed={windowed ? "true" : undefined}
      data-rendered={rows.length}
      data-digits={keys.length >= 1000 ? String(keys.length).length : undefined}
    >
      {windowed && <div className="virtual-spacer" style={{ height: spacers.top }} aria-hidden="true" />}
      {rows}
      {/* None at the end: the last step is then the list's last child (its rounded corners). */}
      {windowed && spacers.bottom > 0 && (
        <div className="virtual-spacer" style={{ height: spacers.bottom }} aria-hidden="true" />
      )}
    </div>
  );
}

const RENDER_ALL_KEY = "steplab.renderAllSteps";

/** The annotator's choice to render every step of a long solution (the browser's own find then
 * sees them all; slower), kept in this browser. */
export function useRenderAll(): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => {
    try {
      return window.localStorage.getItem(RENDER_ALL_KEY) === "1";
    } catch {
      return false;
    }
  });
  const set = useCallback((next: boolean) => {
    setValue(next);
    try {
      if (next) window.localStorage.setItem(RENDER_ALL_KEY, "1");
      else window.localStorage.removeItem(RENDER_ALL_KEY);
    } catch {
      // storage refused (private mode): the choice lasts this page
    }
  }, []);
  return [value, set];
}
