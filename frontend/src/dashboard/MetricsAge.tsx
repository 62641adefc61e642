/** When the dashboard's numbers were computed and, for a snapshot served while a team labels,
 * how many changes (submits, reviews, ...) it does not count yet. */
import type * as api from "../api";
import { formatDate } from "../components/ui";

export function MetricsAge({ m }: { m: api.ProjectMetrics }) {
  if (!m.computed_at) return null;
  const behind = m.changes_since ?? 0;
  const when = formatDate(m.computed_at);
  return (
    <span data-testid="metrics-computed">
      {" "}
      {behind > 0
        ? `As of ${when} (snapshot): ${behind.toLocaleString("en-US")} ${behind === 1 ? "change" : "changes"} since`
        : `Computed ${when}${m.cached ? " (snapshot)" : ""}`}
      {m.refreshing ? ", refreshing…" : ""}.
    </span>
  );
}
