import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { StepLabel, TaskStep } from "../api";
import { IconX } from "../components/icons";
import { findMatches, firstMatchFrom, matchCountText, nextMatch } from "./stepFind";

/**
 * The find bar of the labeling page (`/`, and Ctrl F / ⌘ F on a long solution): the browser's
 * own find sees only the steps in the DOM, and a long solution keeps most of them out. Typing
 * goes to the first step at or after the current one that has the text; ⏎ and ⇧⏎ go to the next
 * and previous; Esc closes it (the step found stays the current one, ready to rate).
 *
 * It is a band under the header (label.css), and the page's content and sticky parts move down
 * by its height while it is open (`step-find-open` on <html>): no step's buttons are ever under
 * it while the step's text shows. Opening and closing scroll by that height, so the steps stay
 * where they were on the screen. The labeling and the review page both use it.
 */
export function StepFind({
  steps,
  labels,
  current,
  onGoto,
  onClose,
}: {
  steps: readonly TaskStep[];
  labels: readonly StepLabel[];
  current: number;
  onGoto: (index: number) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const texts = useMemo(() => steps.map((s) => s.text.toLowerCase()), [steps]);
  const matches = useMemo(
    () => findMatches(texts, query, (i) => `${labels[i]?.alternative_text ?? ""}\n${labels[i]?.comment ?? ""}`),
    [texts, labels, query],
  );
  useEffect(() => input.current?.focus(), []);
  const band = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.classList.add("step-find-open"); // the page's content moves down by the band's height
    const height = band.current?.offsetHeight ?? 0;
    if (height > 0 && window.scrollY > 0) window.scrollBy({ top: height }); // rows stay put
    return () => {
      root.classList.remove("step-find-open");
      if (height > 0 && window.scrollY > 0) window.scrollBy({ top: -height });
    };
  }, []);

  const change = (value: string) => {
    setQuery(value);
    const found = firstMatchFrom(findMatches(texts, value), current);
    if (found >= 0) onGoto(found);
  };
  const go = (dir: 1 | -1) => {
    const to = nextMatch(matches, current, dir);
    if (to >= 0) onGoto(to);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      go(e.shiftKey ? -1 : 1);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };
  const none = matches.length === 0;
  return (
    <div className="step-find" role="search" data-testid="step-find" ref={band}>
      <div className="step-find-inner">
        <input
          ref={input}
          type="search"
          className="input step-find-input"
          placeholder="Find in the steps"
          aria-label="Find in the steps"
          value={query}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          data-testid="step-find-input"
        />
        <span className="step-find-count muted small" aria-live="polite" data-testid="step-find-count">
          {matchCountText(matches, current, query)}
        </span>
        <button type="button" className="btn btn-sm" disabled={none} onClick={() => go(-1)} title="Previous (⇧⏎)" aria-label="Previous match">
          ↑
        </button>
        <button type="button" className="btn btn-sm" disabled={none} onClick={() => go(1)} title="Next (⏎)" aria-label="Next match">
          ↓
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onClose} title="Close (Esc)" aria-label="Close find" data-testid="step-find-close">
          <IconX width={14} height={14} />
        </button>
      </div>
    </div>
  );
}
