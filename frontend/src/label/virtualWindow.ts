/**
 * Windowed rendering of a long list of rows of different heights, as pure functions: which
 * rows are in the DOM for a scroll position, and how much space the others take.
 *
 * A row's height is its measured height once it has been rendered, else an estimate. Offsets
 * are the prefix sums of the heights (offsets[i] = where row i starts, offsets[n] = the total),
 * rebuilt in O(n) when a measurement changes (a batch of them at a time) and searched in
 * O(log n) per scroll. useVirtualRows.ts does the DOM side (scrolling, measuring).
 */

/** Lists of more rows than this are windowed; smaller ones render whole. */
export const VIRTUALIZE_ABOVE = 200;
/** The height a row is taken to have before it was ever rendered (px): a one-line step. */
export const DEFAULT_ROW_PX = 72;
/** Rows rendered beyond each edge of the viewport (px): keyboard moves rarely wait on a render. */
export const OVERSCAN_PX = 800;

export type RowKey = string | number;

/** Whether a list of `count` rows is windowed (`renderAll`: the annotator asked for every row). */
export function isWindowed(count: number, renderAll = false, above = VIRTUALIZE_ABOVE): boolean {
  return !renderAll && count > above;
}

/** The estimate for rows not measured yet: the mean of those measured (fonts, KaTeX and the
 * page's width decide what a row takes), else `fallback`. */
export function estimateOf(measured: ReadonlyMap<RowKey, number>, fallback = DEFAULT_ROW_PX): number {
  if (measured.size === 0) return fallback;
  let sum = 0;
  for (const h of measured.values()) sum += h;
  return sum / measured.size;
}

/** Each row's height: measured, else `estimate`. */
export function heightsFor(keys: readonly RowKey[], measured: ReadonlyMap<RowKey, number>, estimate: number): Float64Array {
  const heights = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) heights[i] = measured.get(keys[i]) ?? estimate;
  return heights;
}

/** Prefix sums: offsets[i] is where row i starts, offsets[n] the whole list's height. */
export function offsetsOf(heights: ArrayLike<number>): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + heights[i];
  return offsets;
}

/** The row that holds position `y` (px from the list's top), clamped to the rows; −1 for none. */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return -1;
  if (y <= 0) return 0;
  if (y >= offsets[n]) return n - 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Rows [start, end) in the DOM. */
export interface Range {
  start: number;
  end: number;
}

/** The rows that meet [top − overscan, bottom + overscan] (px from the list's top: the
 * viewport's edges), always at least one when there are rows. */
export function rangeFor(offsets: Float64Array, top: number, bottom: number, overscan = OVERSCAN_PX): Range {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const start = rowAt(offsets, top - overscan);
  const end = Math.max(start + 1, rowAt(offsets, bottom + overscan) + 1);
  return { start, end: Math.min(n, end) };
}

/** The rows a viewport of `height` px centred on row `index` meets (with the overscan): where a
 * jump to a row not rendered renders, whatever the estimates said about the scroll position. */
export function rangeAround(offsets: Float64Array, index: number, height: number, overscan = OVERSCAN_PX): Range {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const i = Math.max(0, Math.min(n - 1, index));
  const middle = (offsets[i] + offsets[i + 1]) / 2;
  const range = rangeFor(offsets, middle - height / 2, middle + height / 2, overscan);
  return { start: Math.min(range.start, i), end: Math.max(range.end, i + 1) };
}

export function sameRange(a: Range, b: Range): boolean {
  return a.start === b.start && a.end === b.end;
}

/** The space the rows before and after the range take (the spacers' heights). */
export function spacersFor(offsets: Float64Array, range: Range): { top: number; bottom: number } {
  const n = offsets.length - 1;
  if (n <= 0) return { top: 0, bottom: 0 };
  return { top: offsets[range.start], bottom: offsets[n] - offsets[range.end] };
}

/**
 * Where to scroll the window (its scrollY) so that row `index` starts `inset` px below the
 * viewport's top: `listTop` is the list's top in the document (px from the page's top).
 */
export function scrollTopFor(offsets: Float64Array, index: number, listTop: number, inset: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  const i = Math.max(0, Math.min(n - 1, index));
  return Math.max(0, listTop + offsets[i] - inset);
}

/** How far a row that was at `before` px (from the viewport's top) has moved to `after`, when
 * the window did not scroll between the two readings: what to scroll by to put it back. Null
 * when the window did scroll (the move was the reader's, not a layout change). */
export function anchorShift(
  before: { top: number; scrollY: number },
  after: { top: number; scrollY: number },
  tolerance = 0.5,
): number | null {
  if (Math.abs(after.scrollY - before.scrollY) > tolerance) return null;
  const shift = after.top - before.top;
  return Math.abs(shift) > tolerance ? shift : 0;
}
