/** Inline SVG charts (no chart library): labeled axes, legends, tooltips through <title>. */
import { SERIES_COLORS, agreementColor, linear, niceTicks, shortDay, textOn, type Series } from "./charts";

export interface Part {
  key: string;
  name: string;
  value: number;
  color: string;
}

export function Legend({ items }: { items: Array<{ name: string; color: string }> }) {
  return (
    <div className="chart-legend">
      {items.map((i) => (
        <span key={i.name} className="chart-legend-item">
          <span className="chart-swatch" style={{ background: i.color }} />
          {i.name}
        </span>
      ))}
    </div>
  );
}

/** One horizontal bar per row, split into parts; each row's total at its end. */
export function StackedBars({
  rows,
  testId,
  unit = "steps",
  share = false,
}: {
  rows: Array<{ label: string; parts: Part[] }>;
  testId?: string;
  unit?: string;
  /** Bars as shares of their own total (100% wide) instead of on one count axis. */
  share?: boolean;
}) {
  const W = 540;
  const labelW = 96;
  const totalW = 52;
  const barH = 20;
  const gap = 10;
  const top = 6;
  const H = top + rows.length * (barH + gap) + 22;
  const max = Math.max(1, ...rows.map((r) => r.parts.reduce((s, p) => s + p.value, 0)));
  const ticks = share ? [0, 0.25, 0.5, 0.75, 1] : niceTicks(max, 4);
  const axisMax = share ? 1 : ticks[ticks.length - 1];
  const x = linear([0, axisMax], [labelW, W - totalW]);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart" role="img" data-testid={testId} aria-label={`Stacked bars of ${unit}`}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={top - 2} y2={H - 20} className="chart-grid" />
          <text x={x(t)} y={H - 6} className="chart-tick" textAnchor="middle">
            {share ? `${Math.round(t * 100)}%` : t.toLocaleString("en-US")}
          </text>
        </g>
      ))}
      {rows.map((r, i) => {
        const y = top + i * (barH + gap);
        const total = r.parts.reduce((s, p) => s + p.value, 0);
        let acc = 0;
        return (
          <g key={r.label}>
            <text x={labelW - 8} y={y + barH / 2 + 4} className="chart-label" textAnchor="end">
              <title>{r.label}</title>
              {r.label.length > 14 ? `${r.label.slice(0, 13)}…` : r.label}
            </text>
            {r.parts.map((p) => {
              const from = share ? (total ? acc / total : 0) : acc;
              acc += p.value;
              const to = share ? (total ? acc / total : 0) : acc;
              if (p.value <= 0) return null;
              return (
                <rect key={p.key} x={x(from)} y={y} width={Math.max(0.5, x(to) - x(from))} height={barH} fill={p.color} rx={2}>
                  <title>{`${r.label} · ${p.name}: ${p.value.toLocaleString("en-US")} ${unit}${total ? ` (${Math.round((p.value / total) * 100)}%)` : ""}`}</title>
                </rect>
              );
            })}
            <text x={W - totalW + 6} y={y + barH / 2 + 4} className="chart-value">
              {total.toLocaleString("en-US")}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface HeatCell {
  value: number | null;
  text: string;
  title: string;
}

/** A matrix of coloured cells (agreement per annotator pair, annotator vs source). */
export function Heatmap({
  rows,
  cols,
  cell,
  testId,
  caption,
}: {
  rows: string[];
  cols: string[];
  cell: (i: number, j: number) => HeatCell | null;
  testId?: string;
  caption: string;
}) {
  const labelW = 110;
  const headH = 64;
  const size = Math.max(40, Math.min(56, Math.floor(420 / Math.max(1, cols.length))));
  const W = labelW + cols.length * size + 4;
  const H = headH + rows.length * size + 4;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart chart-heatmap" style={{ maxWidth: W }} role="img" aria-label={caption} data-testid={testId}>
      {cols.map((c, j) => (
        <text
          key={c}
          className="chart-label"
          transform={`translate(${labelW + j * size + size / 2 + 4}, ${headH - 8}) rotate(-35)`}
          textAnchor="start"
        >
          <title>{c}</title>
          {c.length > 12 ? `${c.slice(0, 11)}…` : c}
        </text>
      ))}
      {rows.map((r, i) => (
        <g key={r}>
          <text x={labelW - 8} y={headH + i * size + size / 2 + 4} className="chart-label" textAnchor="end">
            <title>{r}</title>
            {r.length > 14 ? `${r.slice(0, 13)}…` : r}
          </text>
          {cols.map((c, j) => {
            const v = cell(i, j);
            const x = labelW + j * size;
            const y = headH + i * size;
            return (
              <g key={c} data-testid="heat-cell" data-value={v?.value ?? ""}>
                <rect x={x + 1} y={y + 1} width={size - 2} height={size - 2} rx={4} fill={v ? agreementColor(v.value) : "#fafafb"} stroke="#e5e7eb">
                  <title>{v ? v.title : `${r} / ${c}: no shared steps`}</title>
                </rect>
                <text x={x + size / 2} y={y + size / 2 + 4} textAnchor="middle" className="chart-cell" fill={v ? textOn(v.value) : "#9ca3af"} pointerEvents="none">
                  {v ? v.text : "·"}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

/** The heatmap's colour key, from −1 to 1. */
export function HeatLegend({ label }: { label: string }) {
  const stops = [-0.5, 0, 0.2, 0.4, 0.6, 0.8, 1];
  return (
    <div className="chart-legend">
      <span className="muted small">{label}</span>
      {stops.map((s) => (
        <span key={s} className="chart-legend-item">
          <span className="chart-swatch" style={{ background: agreementColor(s) }} />
          {s}
        </span>
      ))}
    </div>
  );
}

/** Up to this many days the throughput chart draws grouped bars, beyond it lines. */
export const BAR_DAYS = 7;

/** Values per day, one series per annotator: lines with dots (grouped bars for a few days),
 * a <title> per point. */
export function LineChart({ days, series, unit, testId }: { days: string[]; series: Series[]; unit: string; testId?: string }) {
  const W = 540;
  const H = 220;
  const left = 44;
  const right = 12;
  const top = 12;
  const bottom = 40;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const ticks = niceTicks(max, 4);
  const y = linear([0, ticks[ticks.length - 1]], [H - bottom, top]);
  const x = linear([0, Math.max(1, days.length - 1)], [left + 10, W - right - 10]);
  const every = Math.max(1, Math.ceil(days.length / 8));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart" role="img" aria-label={`${unit} per day`} data-testid={testId}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={left} x2={W - right} y1={y(t)} y2={y(t)} className="chart-grid" />
          <text x={left - 6} y={y(t) + 4} className="chart-tick" textAnchor="end">
            {t.toLocaleString("en-US")}
          </text>
        </g>
      ))}
      <line x1={left} x2={W - right} y1={H - bottom} y2={H - bottom} className="chart-axis" />
      {days.map((d, i) =>
        i % every === 0 || i === days.length - 1 ? (
          <text
            key={d}
            x={days.length <= BAR_DAYS ? left + ((W - right - left) / days.length) * (i + 0.5) : x(i)}
            y={H - bottom + 16}
            className="chart-tick"
            textAnchor="middle"
          >
            {shortDay(d)}
          </text>
        ) : null,
      )}
      <text x={12} y={(top + H - bottom) / 2} className="chart-axis-title" textAnchor="middle" transform={`rotate(-90, 12, ${(top + H - bottom) / 2})`}>
        {unit} / day
      </text>
      {days.length <= BAR_DAYS &&
        days.map((d, i) => {
          // Few days: grouped bars (lines through one or two points say little).
          const slot = (W - right - left) / days.length;
          const bw = Math.min(28, (slot * 0.7) / Math.max(1, series.length));
          const x0 = left + slot * i + (slot - bw * series.length) / 2;
          return series.map((s, k) => (
            <rect
              key={`${d}-${s.name}`}
              x={x0 + k * bw}
              y={y(s.values[i])}
              width={bw - 2}
              height={Math.max(0, H - bottom - y(s.values[i]))}
              fill={SERIES_COLORS[k % SERIES_COLORS.length]}
              rx={2}
            >
              <title>{`${s.name} · ${shortDay(d)}: ${s.values[i].toLocaleString("en-US")} ${unit}`}</title>
            </rect>
          ));
        })}
      {days.length > BAR_DAYS && series.map((s, k) => {
        const color = SERIES_COLORS[k % SERIES_COLORS.length];
        const px = (i: number) => (days.length === 1 ? (left + W - right) / 2 : x(i));
        const d = s.values.map((v, i) => `${i ? "L" : "M"}${px(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
        return (
          <g key={s.name}>
            {s.values.length > 1 && <path d={d} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" />}
            {s.values.map((v, i) => (
              <circle key={i} cx={px(i)} cy={y(v)} r={3.5} fill="#fff" stroke={color} strokeWidth={2}>
                <title>{`${s.name} · ${shortDay(days[i])}: ${v.toLocaleString("en-US")} ${unit}`}</title>
              </circle>
            ))}
          </g>
        );
      })}
    </svg>
  );
}

/** Horizontal bars of values in 0..1 (accuracy), grouped per row, one colour per measure. */
export function ShareBars({
  rows,
  measures,
  testId,
}: {
  rows: Array<{ label: string; values: Array<number | null>; notes: string[] }>;
  measures: Array<{ name: string; color: string }>;
  testId?: string;
}) {
  const W = 540;
  const labelW = 96;
  const barH = 12;
  const group = measures.length * (barH + 3) + 12;
  const H = 6 + rows.length * group + 22;
  const x = linear([0, 1], [labelW, W - 56]);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart" role="img" aria-label="Accuracy per annotator" data-testid={testId}>
      {[0, 0.25, 0.5, 0.75, 1].map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={4} y2={H - 20} className="chart-grid" />
          <text x={x(t)} y={H - 6} className="chart-tick" textAnchor="middle">
            {Math.round(t * 100)}%
          </text>
        </g>
      ))}
      {rows.map((r, i) => {
        const y0 = 6 + i * group;
        return (
          <g key={r.label}>
            <text x={labelW - 8} y={y0 + (measures.length * (barH + 3)) / 2 + 3} className="chart-label" textAnchor="end">
              {r.label.length > 14 ? `${r.label.slice(0, 13)}…` : r.label}
            </text>
            {measures.map((m, k) => {
              const v = r.values[k];
              const y = y0 + k * (barH + 3);
              return (
                <g key={m.name}>
                  <rect x={labelW} y={y} width={x(1) - labelW} height={barH} fill="#f2f3f5" rx={2} />
                  {v != null && (
                    <rect x={labelW} y={y} width={Math.max(1, x(v) - labelW)} height={barH} fill={m.color} rx={2}>
                      <title>{`${r.label} · ${m.name}: ${Math.round(v * 100)}% (${r.notes[k]})`}</title>
                    </rect>
                  )}
                  <text x={x(1) + 6} y={y + barH - 2} className="chart-value">
                    {v == null ? "–" : `${Math.round(v * 100)}%`}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}
