/**
 * Step dependencies on the labeling page (pure): which earlier steps a step uses, toggled with
 * `d` then a step number, shown as "uses 1, 3" chips. Indices are 0-based in data, 1-based on
 * screen. An annotator's marks (StepLabel.uses) replace the step's own (imported or detected)
 * once they touch them; null means "not marked", so the step's own stand.
 */

/** The dependencies a step shows: the annotator's marks, else the step's own. */
export function effectiveUses(marked: number[] | null | undefined, own: number[] | undefined): number[] {
  return marked ?? own ?? [];
}

/** The same steps in the same order (uses are kept ascending). */
export function sameUses(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** `uses` with `target` added or removed (ascending); targets at or after `index` are refused. */
export function toggleUse(uses: readonly number[], target: number, index: number): number[] | null {
  if (!Number.isInteger(target) || target < 0 || target >= index) return null;
  const set = new Set(uses);
  if (set.has(target)) set.delete(target);
  else set.add(target);
  return [...set].sort((a, b) => a - b);
}

/**
 * The `d` prompt's state after a typed digit: the step number typed so far (1-based) and whether
 * it is final. It is final as soon as no further digit could name an earlier step (step 3 of a
 * 9-step solution: "2" is final; step 14: "1" waits for a second digit or Enter).
 */
export function typeDigit(buffer: string, digit: string, index: number): { buffer: string; done: boolean } {
  const next = `${buffer}${digit}`.replace(/^0+/, "");
  const highest = index; // 1-based number of the step just before this one
  return { buffer: next, done: next !== "" && Number(next) * 10 > highest };
}

/** "uses 1, 3" for 0-based [0, 2]. */
export function usesText(uses: readonly number[]): string {
  return `uses ${uses.map((k) => k + 1).join(", ")}`;
}
