/**
 * A key to the marks beside steps that say nothing by themselves: the source badges (∑ is the
 * symbolic check, MC the rollouts, ...), the fork mark (other versions of a step in the data
 * set) and, on the review page, the disagreement marks. Only the marks the page shows are
 * listed, so the key stays one short line.
 */
import type { Suggestion } from "../api";
import { IconBranch } from "../components/icons";
import { SOURCE_BADGE, SOURCE_NAME, predictionBadge } from "./suggestions";

interface StepLike {
  alternatives_count: number;
  suggestions?: Suggestion[];
}

export interface LegendItem {
  key: string;
  mark: string;
  text: string;
}

/** The legend's entries for these steps; `review` adds the review page's own marks. */
export function legendItems(steps: StepLike[], review?: { humans: boolean; machine: boolean }): LegendItem[] {
  const sources = new Set<string>();
  const predicted = new Set<string>(); // uploaded predictions: their chips name the model
  for (const step of steps) {
    for (const s of step.suggestions ?? []) {
      sources.add(s.source);
      if (s.source === "prediction") predicted.add(s.agent);
    }
  }
  const items: LegendItem[] = [...sources]
    .filter((src) => SOURCE_BADGE[src])
    .sort()
    .map((src) => ({ key: `src-${src}`, mark: SOURCE_BADGE[src], text: SOURCE_NAME[src] ?? src }));
  for (const agent of [...predicted].sort()) {
    items.push({ key: `src-prediction-${agent}`, mark: predictionBadge(agent), text: "uploaded predictions" });
  }
  if (steps.some((s) => s.alternatives_count > 0)) {
    items.push({ key: "fork", mark: "fork", text: "other versions of the step in the data set" });
  }
  if (review?.humans) items.push({ key: "humans", mark: "Ratings differ", text: "annotators disagree" });
  if (review?.machine) {
    items.push({ key: "machine", mark: "human ≠ machine", text: "a machine source differs from the annotators" });
  }
  return items;
}

export function MarkLegend({ items }: { items: LegendItem[] }) {
  if (!items.length) return null;
  return (
    <div className="mark-legend muted small" role="note" aria-label="Key to the marks" data-testid="mark-legend">
      <span className="mark-legend-title">Key:</span>
      {items.map((item) => (
        <span key={item.key} className="mark-legend-item" data-key={item.key}>
          <span className={`mark-legend-mark mark-legend-${item.key.startsWith("src-") ? "src" : item.key}`}>
            {item.mark === "fork" ? <IconBranch width={12} height={12} aria-label="fork" /> : item.mark}
          </span>{" "}
          {item.text}
        </span>
      ))}
    </div>
  );
}
