/**
 * Folding a solution's reasoning steps (`<think>` blocks; TaskStep.thinking) on the labeling
 * page: each run of consecutive thinking steps shows as one bar ("Reasoning · 42 steps") until
 * opened. The pure functions below decide what is visible and where keyboard moves land; the
 * hook keeps which runs are open (by the id of a run's first step, so a split or merge that
 * reloads the same solution keeps them open) and opens a run when the current step lands in it
 * by any way other than j/k (a rating's advance, Home/End with nothing else, a submit pointing
 * at an unrated step, a split or merge).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

/** A run of consecutive thinking steps: [start, end) indices, keyed by its first step's id. */
export interface ThinkingRun {
  start: number;
  end: number;
  key: number;
}

interface StepLike {
  id: number;
  thinking?: boolean;
}

/** No steps (before a task is loaded): one array, so the runs are not recomputed per render. */
export const NO_STEPS: readonly StepLike[] = [];

export function thinkingRuns(steps: readonly StepLike[]): ThinkingRun[] {
  const runs: ThinkingRun[] = [];
  for (let i = 0; i < steps.length; i++) {
    if (!steps[i].thinking) continue;
    const start = i;
    while (i + 1 < steps.length && steps[i + 1].thinking) i++;
    runs.push({ start, end: i + 1, key: steps[start].id });
  }
  return runs;
}

/** The run holding step `index`, if any. */
export function runOf(runs: readonly ThinkingRun[], index: number): ThinkingRun | undefined {
  return runs.find((r) => r.start <= index && index < r.end);
}

/** Step `index` is inside a folded run. */
export function isFolded(runs: readonly ThinkingRun[], open: ReadonlySet<number>, index: number): boolean {
  const run = runOf(runs, index);
  return !!run && !open.has(run.key);
}

/**
 * Where a move of `delta` (±1) from `from` lands, skipping folded steps; `from` itself when
 * no visible step lies that way.
 */
export function moveSkippingFolded(
  runs: readonly ThinkingRun[],
  open: ReadonlySet<number>,
  count: number,
  from: number,
  delta: number,
): number {
  const step = delta < 0 ? -1 : 1;
  for (let i = from + step; i >= 0 && i < count; i += step) {
    if (!isFolded(runs, open, i)) return i;
  }
  return from;
}

/** The first (or last, `fromEnd`) visible step, or -1 when every step is folded. */
export function firstVisible(
  runs: readonly ThinkingRun[],
  open: ReadonlySet<number>,
  count: number,
  fromEnd = false,
): number {
  for (let k = 0; k < count; k++) {
    const i = fromEnd ? count - 1 - k : k;
    if (!isFolded(runs, open, i)) return i;
  }
  return -1;
}

export interface ThinkingFoldState {
  runs: ThinkingRun[];
  open: ReadonlySet<number>;
  /** Open or fold one run (its bar was clicked). */
  toggle: (key: number) => void;
  /** `r`: open every run when any is folded (going to the first reasoning step), else fold all. */
  toggleAll: () => void;
  /** Where j/k from `from` lands. */
  move: (from: number, delta: number) => number;
  /** Home / End: the first or last visible step (opening the runs when none is visible). */
  edge: (last: boolean) => number;
}

export function useThinkingFold(args: {
  solutionId: number | undefined;
  steps: readonly StepLike[];
  current: number;
  goto: (index: number) => void;
}): ThinkingFoldState {
  const { solutionId, steps, current, goto } = args;
  const runs = useMemo(() => thinkingRuns(steps), [steps]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const seen = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (solutionId === undefined || runs.length === 0) return;
    if (seen.current !== solutionId) {
      // A new solution: every run folded; a current step inside one moves to the first
      // visible step (the answer's), or, with none visible, the reasoning stays open.
      seen.current = solutionId;
      const none = new Set<number>();
      if (!isFolded(runs, none, current)) {
        setOpen(none);
        return;
      }
      const first = firstVisible(runs, none, steps.length);
      if (first < 0) {
        setOpen(new Set(runs.map((r) => r.key)));
      } else {
        setOpen(none);
        goto(first);
      }
      return;
    }
    const run = runOf(runs, current);
    if (run && !open.has(run.key)) setOpen((o) => new Set(o).add(run.key));
  }, [solutionId, runs, current]); // not on `open`: a run folded by hand stays folded

  // Folding what holds the current step moves it to the next visible step (else the one
  // before); with no visible step left, nothing is folded.
  const fold = useCallback(
    (next: ReadonlySet<number>) => {
      if (isFolded(runs, next, current)) {
        const after = moveSkippingFolded(runs, next, steps.length, current, 1);
        const landing = after !== current ? after : moveSkippingFolded(runs, next, steps.length, current, -1);
        if (landing === current) return;
        goto(landing);
      }
      setOpen(next);
    },
    [runs, current, steps.length, goto],
  );
  const toggle = useCallback(
    (key: number) => {
      const next = new Set(open);
      if (next.delete(key)) fold(next);
      else setOpen(next.add(key));
    },
    [open, fold],
  );
  const toggleAll = useCallback(() => {
    if (runs.length === 0) return;
    if (runs.some((r) => !open.has(r.key))) {
      setOpen(new Set(runs.map((r) => r.key)));
      goto(runs[0].start);
    } else {
      fold(new Set());
    }
  }, [runs, open, goto, fold]);
  const move = useCallback(
    (from: number, delta: number) => moveSkippingFolded(runs, open, steps.length, from, delta),
    [runs, open, steps.length],
  );
  const edge = useCallback(
    (last: boolean) => {
      const i = firstVisible(runs, open, steps.length, last);
      return i >= 0 ? i : last ? steps.length - 1 : 0;
    },
    [runs, open, steps.length],
  );
  return useMemo(() => ({ runs, open, toggle, toggleAll, move, edge }), [runs, open, toggle, toggleAll, move, edge]);
}
