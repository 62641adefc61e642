import type { FinalLabelCounts as Counts } from "../api";
import { formatNumber } from "../components/ui";
import { FINAL_ORIGINS } from "./exportOptions";

/** Final labels by where they came from (review, majority, single annotator, machine) and what
 * was left out and why (tie, no label): solutions and steps, as the dataset card has them. */
export function FinalLabelCounts({ counts, caption, testId }: { counts: Counts; caption: string; testId: string }) {
  return (
    <table className="table export-final-counts" data-testid={testId}>
      <caption className="small muted">{caption}</caption>
      <thead>
        <tr>
          <th>Label from</th>
          <th className="num">Solutions</th>
          <th className="num">Steps</th>
        </tr>
      </thead>
      <tbody>
        {FINAL_ORIGINS.map((o) => (
          <tr key={o.key} className={o.leftOut ? "muted" : undefined} data-testid={`${testId}-${o.key}`}>
            <td>{o.label}</td>
            <td className="num">{formatNumber(counts.solutions[o.key] ?? 0)}</td>
            <td className="num">{formatNumber(counts.steps[o.key] ?? 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
