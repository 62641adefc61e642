/**
 * The DOM side of a windowed list in the page's own scroll (the window scrolls, not the list):
 * which rows are rendered for the scroll position, their measured heights, the place of a row
 * that changed height above the viewport kept (so a KaTeX render or a font load does not move
 * what the reader is looking at), and the keyboard's row scrolled into view even when it was not
 * rendered. The arithmetic is in virtualWindow.ts.
 *
 * Contract with the list that uses it: between its two spacers, each rendered row is exactly one
 * element, in row order (VirtualList.tsx renders it so).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { keepInView, topInset } from "./StepParts";
import {
  anchorShift,
  estimateOf,
  heightsFor,
  offsetsOf,
  rangeAround,
  rangeFor,
  sameRange,
  scrollTopFor,
  spacersFor,
  type Range,
  type RowKey,
} from "./virtualWindow";

const SPACER = "virtual-spacer";
/** How many rows are rendered before the first scroll position is read. */
const FIRST_ROWS = 30;

interface Anchor {
  el: Element;
  top: number;
  scrollY: number;
}

export function useVirtualRows({
  keys,
  windowed,
  focus,
}: {
  /** One stable key per row (a step's id): measured heights follow the row, not its place. */
  keys: readonly RowKey[];
  /** false: every row is rendered and nothing here runs. */
  windowed: boolean;
  /** The row the keyboard is on: scrolled into view whenever it changes (−1: none). */
  focus: number;
}) {
  const n = keys.length;
  const listRef = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<RowKey, number>());
  const [tick, setTick] = useState(0);
  const offsets = useMemo(() => {
    void tick; // a measurement changed
    return offsetsOf(heightsFor(keys, measured.current, estimateOf(measured.current)));
  }, [keys, tick]);
  const [stored, setRange] = useState<Range>({ start: 0, end: Math.min(n, FIRST_ROWS) });
  const range: Range = windowed
    ? { start: Math.min(stored.start, n), end: Math.min(Math.max(stored.end, stored.start), n) }
    : { start: 0, end: n };

  const live = useRef({ offsets, range, keys, windowed });
  useLayoutEffect(() => {
    live.current = { offsets, range, keys, windowed };
  });
  const anchor = useRef<Anchor | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  const lastFocus = useRef<{ focus: number; keys: readonly RowKey[] } | null>(null);
  const pendingFocus = useRef<number | null>(null);

  /** The rendered rows' elements, in row order (range.start first). */
  const rowElements = useCallback((): Element[] => {
    const list = listRef.current;
    if (!list) return [];
    return Array.from(list.children).filter((el) => !el.classList.contains(SPACER));
  }, []);

  const rowElement = useCallback(
    (index: number): Element | null => {
      const { start, end } = live.current.range;
      if (index < start || index >= end) return null;
      return rowElements()[index - start] ?? null;
    },
    [rowElements],
  );

  /** Read the rendered rows' heights; true when one differs from what the offsets hold. */
  const measure = useCallback((): boolean => {
    const { range: r, keys: k } = live.current;
    let changed = false;
    rowElements().forEach((el, j) => {
      const key = k[r.start + j];
      const h = el.getBoundingClientRect().height;
      if (key === undefined || h === 0) return; // not laid out (hidden, or a test's DOM)
      const before = measured.current.get(key);
      if (before === undefined || Math.abs(before - h) > 0.5) {
        measured.current.set(key, h);
        changed = true;
      }
    });
    return changed;
  }, [rowElements]);

  /** The first rendered row still below the viewport's top, and where it is now. */
  const recordAnchor = useCallback(() => {
    const el = rowElements().find((row) => row.getBoundingClientRect().bottom > 0);
    anchor.current = el ? { el, top: el.getBoundingClientRect().top, scrollY: window.scrollY } : null;
  }, [rowElements]);

  /** A layout change (rows above measured, a spacer resized) moved the anchor row while the
   * window did not scroll: scroll by as much, so the reader's place stays. */
  const compensate = useCallback(() => {
    const a = anchor.current;
    if (a && a.el.isConnected) {
      const shift = anchorShift(a, { top: a.el.getBoundingClientRect().top, scrollY: window.scrollY });
      if (shift) window.scrollBy(0, shift);
    }
    recordAnchor();
  }, [recordAnchor]);

  /** The rows the viewport (and the overscan) meets now. */
  const update = useCallback(() => {
    const list = listRef.current;
    if (!list || !live.current.windowed) return;
    const top = -list.getBoundingClientRect().top;
    const next = rangeFor(live.current.offsets, top, top + window.innerHeight);
    setRange((prev) => (sameRange(prev, next) ? prev : next));
  }, []);

  // Scrolling and resizing move the window over the rows.
  useEffect(() => {
    if (!windowed) return;
    const onScroll = () => {
      recordAnchor();
      update();
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", update);
    };
  }, [windowed, update, recordAnchor]);

  // A row that changes height later (an image, a font, an editor opened) is measured again.
  useEffect(() => {
    if (!windowed || typeof ResizeObserver === "undefined") return;
    const seen = observed.current;
    const ro = new ResizeObserver(() => {
      if (measure()) setTick((t) => t + 1);
      compensate();
    });
    observer.current = ro;
    return () => {
      ro.disconnect();
      seen.clear();
      observer.current = null;
    };
  }, [windowed, measure, compensate]);

  // A new list (the next solution, a re-segmented one): forget the heights of rows it lacks.
  useEffect(() => {
    const present = new Set(keys);
    for (const key of measured.current.keys()) if (!present.has(key)) measured.current.delete(key);
  }, [keys]);

  // After every render: measure what was rendered, keep the reader's place, follow the focus.
  useLayoutEffect(() => {
    if (!windowed) return;
    const ro = observer.current;
    const rows = new Set(rowElements());
    if (ro) {
      for (const el of observed.current) if (!rows.has(el)) ro.unobserve(el);
      for (const el of rows) if (!observed.current.has(el)) ro.observe(el);
      observed.current = rows;
    }
    if (measure()) setTick((t) => t + 1);
    compensate();
    if (pendingFocus.current !== null) {
      const el = rowElement(pendingFocus.current);
      if (el) {
        pendingFocus.current = null;
        keepInView(el as HTMLElement);
        recordAnchor();
      }
    }
    update();
  });

  // The keyboard's row: into view when it changes (or the list does), rendered first if needed.
  useLayoutEffect(() => {
    if (!windowed || focus < 0 || focus >= n) {
      lastFocus.current = null;
      return;
    }
    const last = lastFocus.current;
    if (last && last.focus === focus && last.keys === keys) return;
    lastFocus.current = { focus, keys };
    const el = rowElement(focus);
    if (el) {
      keepInView(el as HTMLElement);
      recordAnchor();
      return;
    }
    const list = listRef.current;
    if (!list) return;
    pendingFocus.current = focus;
    const listTop = list.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, scrollTopFor(live.current.offsets, focus, listTop, topInset()));
    anchor.current = null; // the reader moved: nothing to keep in place
    const top = -list.getBoundingClientRect().top;
    const next = rangeFor(live.current.offsets, top, top + window.innerHeight);
    // The focused row is rendered whatever the estimates said about where the scroll went.
    const inside = next.start <= focus && focus < next.end;
    setRange(inside ? next : rangeAround(live.current.offsets, focus, window.innerHeight));
  }, [focus, keys, n, windowed, rowElement, recordAnchor]);

  return { listRef, range, spacers: spacersFor(offsets, range) };
}
