/**
 * The labeling page's list rows: one per step, except that a run of reasoning steps
 * (thinkingRuns.ts) is led by its fold bar and, while folded, is that bar alone. The virtual list
 * (VirtualList.tsx) windows these rows; `rowOf` says which row shows a step (its run's bar when
 * folded), so the keyboard's step can be scrolled to. Linear in the steps.
 */
import type { ThinkingRun } from "./thinkingRuns";

export type ListRow =
  | { kind: "step"; index: number; key: number }
  | { kind: "fold"; run: ThinkingRun; key: string };

export function listRows(
  stepIds: readonly number[],
  runs: readonly ThinkingRun[],
  open: ReadonlySet<number>,
): { rows: ListRow[]; rowOf: Int32Array } {
  const rows: ListRow[] = [];
  const rowOf = new Int32Array(stepIds.length);
  let r = 0; // runs come in step order
  for (let i = 0; i < stepIds.length; i++) {
    const run = runs[r];
    if (run && run.start === i) {
      r++;
      const bar = rows.push({ kind: "fold", run, key: `fold-${run.key}` }) - 1;
      if (!open.has(run.key)) {
        rowOf.fill(bar, run.start, run.end);
        i = run.end - 1;
        continue;
      }
    }
    rowOf[i] = rows.push({ kind: "step", index: i, key: stepIds[i] }) - 1;
  }
  return { rows, rowOf };
}
