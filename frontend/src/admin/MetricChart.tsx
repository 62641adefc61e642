/** A small line chart of training metrics, drawn as inline SVG: train solid, eval dashed. */
import type { MetricRecord } from "../api";
import { domainOf, metric, pathOf, project, series, type Box, type Point } from "./training";

const BOX: Box = { width: 360, height: 180, pad: 28 };
const COLORS = ["var(--accent, #2563eb)", "#16a34a", "#d97706"];
const SPLITS = [
  { split: "train", dash: undefined },
  { split: "eval", dash: "5 4" },
];

export function MetricChart({
  id,
  title,
  history,
  keys,
  yRange,
}: {
  id: string;
  title: string;
  history: readonly MetricRecord[];
  keys: Array<{ key: string; label: string }>;
  /** Fixed bounds the axis always includes (accuracy and F1: 0..1). */
  yRange?: [number, number];
}) {
  const lines = keys.flatMap((k, i) =>
    SPLITS.map((s) => ({ ...s, ...k, color: COLORS[i % COLORS.length], points: series(history, s.split, k.key) })),
  ).filter((l) => l.points.length > 0);
  const domain = domainOf(
    lines.map((l) => l.points),
    yRange?.[0],
    yRange?.[1],
  );
  const corner = (p: Point) => project(p, domain, BOX);
  const origin = corner({ x: domain.x[0], y: domain.y[0] });
  const top = corner({ x: domain.x[0], y: domain.y[1] });
  const right = corner({ x: domain.x[1], y: domain.y[0] });
  return (
    <figure className="metric-chart" data-testid={`metric-chart-${id}`}>
      <figcaption className="small">
        <strong>{title}</strong>
        {lines.map((l) => (
          <span key={`${l.split}:${l.key}`} className="metric-legend">
            <svg width="18" height="8" aria-hidden="true">
              <line x1="0" y1="4" x2="18" y2="4" stroke={l.color} strokeWidth="2" strokeDasharray={l.dash} />
            </svg>
            {l.split} {l.label} {metric(l.points[l.points.length - 1].y)}
          </span>
        ))}
      </figcaption>
      {lines.length === 0 ? (
        <div className="metric-empty muted small">No {title.toLowerCase()} logged yet.</div>
      ) : (
        <svg
          viewBox={`0 0 ${BOX.width} ${BOX.height}`}
          role="img"
          aria-label={`${title} against the optimizer step`}
          className="metric-svg"
        >
          <line x1={origin.x} y1={origin.y} x2={right.x} y2={right.y} className="metric-axis" />
          <line x1={origin.x} y1={origin.y} x2={top.x} y2={top.y} className="metric-axis" />
          <text x={top.x - 4} y={top.y + 4} textAnchor="end" className="metric-tick">
            {metric(domain.y[1], 2)}
          </text>
          <text x={origin.x - 4} y={origin.y} textAnchor="end" className="metric-tick">
            {metric(domain.y[0], 2)}
          </text>
          <text x={origin.x} y={origin.y + 16} className="metric-tick">
            step {domain.x[0]}
          </text>
          <text x={right.x} y={right.y + 16} textAnchor="end" className="metric-tick">
            {domain.x[1]}
          </text>
          {lines.map((l) => (
            <g key={`${l.split}:${l.key}`}>
              <path
                d={pathOf(l.points, domain, BOX)}
                fill="none"
                stroke={l.color}
                strokeWidth="2"
                strokeDasharray={l.dash}
                data-series={`${l.split}:${l.key}`}
              />
              {l.points.length === 1 && (
                <circle cx={corner(l.points[0]).x} cy={corner(l.points[0]).y} r="3" fill={l.color} />
              )}
            </g>
          ))}
        </svg>
      )}
    </figure>
  );
}
