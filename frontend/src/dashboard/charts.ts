/** Pure helpers for the dashboard's inline SVG charts: scales, ticks, colours, series. */
import type { ProjectMetrics, ThroughputRow } from "../api";

/** A linear map from [d0, d1] onto [r0, r1] (a flat domain maps to the range's middle). */
export function linear(domain: [number, number], range: [number, number]): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
}

/** About `count` round tick values from 0 (or min) up to at least `max`. */
export function niceTicks(max: number, count = 4, min = 0): number[] {
  if (!(max > min)) return [min, min + 1];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v < max + step - 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/** Agreement-like values (−1..1, kappa; 0..1, accuracy) as a colour: red below 0, amber near
 * chance, green towards 1. Null is grey. */
export function agreementColor(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return "#f2f3f5";
  const v = Math.max(-1, Math.min(1, value));
  if (v < 0) {
    const t = -v; // 0..1 towards strong disagreement
    return mix([254, 243, 199], [239, 68, 68], Math.min(1, 0.35 + t));
  }
  if (v < 0.4) return mix([254, 243, 199], [253, 186, 116], v / 0.4);
  return mix([220, 252, 231], [22, 163, 74], (v - 0.4) / 0.6);
}

/** Dark text on light cells, white on dark ones. */
export function textOn(value: number | null | undefined): string {
  return value != null && Number.isFinite(value) && value >= 0.8 ? "#fff" : "#111827";
}

function mix(a: number[], b: number[], t: number): string {
  const c = a.map((x, i) => Math.round(x + (b[i] - x) * Math.max(0, Math.min(1, t))));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

export function fmt(value: number | null | undefined, digits = 2): string {
  if (value == null || !Number.isFinite(value)) return "–";
  return value.toFixed(digits);
}

export function pct(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return "–";
  return `${Math.round(value * 100)}%`;
}

/** The symmetric pair matrix: names in order, cell(i, j) the pair's row (null on the diagonal
 * and for pairs that share no step). */
export function pairMatrix(pairs: ProjectMetrics["pairs"]): { names: string[]; cell: (i: number, j: number) => ProjectMetrics["pairs"][number] | null } {
  const names = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].sort();
  const byKey = new Map(pairs.map((p) => [`${p.a}\u0000${p.b}`, p]));
  return {
    names,
    cell: (i, j) => {
      if (i === j) return null;
      const [a, b] = [names[i], names[j]].sort();
      return byKey.get(`${a}\u0000${b}`) ?? null;
    },
  };
}

export interface Series {
  name: string;
  values: number[];
}

/** Per annotator, one value per day (missing days are 0), days ascending and contiguous. */
export function dailySeries(rows: ThroughputRow[], metric: "steps" | "solutions"): { days: string[]; series: Series[] } {
  const dayList = [...new Set(rows.map((r) => r.day).filter((d): d is string => !!d))].sort();
  const days = dayList.length ? fillDays(dayList[0], dayList[dayList.length - 1]) : [];
  const names = [...new Set(rows.map((r) => r.annotator ?? "?"))].sort();
  const series = names.map((name) => {
    const byDay = new Map(rows.filter((r) => (r.annotator ?? "?") === name).map((r) => [r.day, r[metric]]));
    return { name, values: days.map((d) => byDay.get(d) ?? 0) };
  });
  return { days, series };
}

/** Every day from `first` to `last` (YYYY-MM-DD), at most 400. */
export function fillDays(first: string, last: string): string[] {
  const out: string[] = [];
  const d = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || Number.isNaN(end.getTime())) return [first];
  while (d <= end && out.length < 400) {
    out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** "Jun 3" from "2025-06-03". */
export function shortDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

export const SERIES_COLORS = ["#4f46e5", "#0891b2", "#d97706", "#db2777", "#16a34a", "#7c3aed", "#dc2626", "#475569"];

export const RATING_COLORS = { wrong: "#dc2626", neutral: "#d97706", correct: "#16a34a", unrated: "#d1d5db" };
