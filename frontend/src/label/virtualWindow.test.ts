import { describe, expect, it } from "vitest";
import {
  DEFAULT_ROW_PX,
  VIRTUALIZE_ABOVE,
  anchorShift,
  estimateOf,
  heightsFor,
  isWindowed,
  offsetsOf,
  rangeAround,
  rangeFor,
  rowAt,
  scrollTopFor,
  spacersFor,
} from "./virtualWindow";

const uniform = (n: number, h = 100) => offsetsOf(new Array(n).fill(h));

describe("isWindowed", () => {
  it("renders small solutions whole and windows long ones, unless asked for all", () => {
    expect(isWindowed(VIRTUALIZE_ABOVE)).toBe(false);
    expect(isWindowed(VIRTUALIZE_ABOVE + 1)).toBe(true);
    expect(isWindowed(3000, true)).toBe(false);
    expect(isWindowed(0)).toBe(false);
  });
});

describe("heights and offsets", () => {
  it("uses the measured height of a row, else the mean of those measured", () => {
    const measured = new Map<number, number>([
      [11, 50],
      [13, 150],
    ]);
    expect(estimateOf(measured)).toBe(100);
    expect(estimateOf(new Map())).toBe(DEFAULT_ROW_PX);
    expect(Array.from(heightsFor([10, 11, 12, 13], measured, estimateOf(measured)))).toEqual([100, 50, 100, 150]);
  });

  it("follows a row by its key, not its place (a split step moves the ones after it)", () => {
    const measured = new Map<number, number>([[7, 300]]);
    expect(Array.from(heightsFor([1, 7], measured, 80))).toEqual([80, 300]);
    expect(Array.from(heightsFor([1, 2, 7], measured, 80))).toEqual([80, 80, 300]);
  });

  it("sums the heights before each row", () => {
    expect(Array.from(offsetsOf([10, 20, 30]))).toEqual([0, 10, 30, 60]);
    expect(Array.from(offsetsOf([]))).toEqual([0]);
  });
});

describe("rowAt", () => {
  const offsets = offsetsOf([10, 20, 30]); // rows at [0,10) [10,30) [30,60)
  it.each([
    [-5, 0],
    [0, 0],
    [9.9, 0],
    [10, 1],
    [29, 1],
    [30, 2],
    [59, 2],
    [60, 2],
    [1e9, 2],
  ])("y=%d is in row %d", (y, row) => {
    expect(rowAt(offsets, y)).toBe(row);
  });

  it("finds the row in a long list by bisection", () => {
    const long = uniform(20_000, 37);
    expect(rowAt(long, 37 * 12_345 + 1)).toBe(12_345);
    expect(rowAt(offsetsOf([]), 10)).toBe(-1);
  });
});

describe("rangeFor", () => {
  it("renders the rows the viewport and the overscan meet, a few of thousands", () => {
    const offsets = uniform(3000); // 100 px a row
    const range = rangeFor(offsets, 50_000, 50_900, 200); // rows 500..508, ±2 rows
    expect(range).toEqual({ start: 498, end: 512 });
    expect(range.end - range.start).toBeLessThan(20);
  });

  it("stays inside the list at both ends", () => {
    const offsets = uniform(3000);
    expect(rangeFor(offsets, 0, 900, 800)).toEqual({ start: 0, end: 18 });
    expect(rangeFor(offsets, 299_500, 300_400, 800)).toEqual({ start: 2987, end: 3000 });
    expect(rangeFor(offsetsOf([]), 0, 900)).toEqual({ start: 0, end: 0 });
  });

  it("renders at least the row under a viewport scrolled past the list", () => {
    const offsets = uniform(300);
    expect(rangeFor(offsets, 90_000, 91_000, 0)).toEqual({ start: 299, end: 300 });
  });

  it("takes variable heights (a KaTeX block, a long step)", () => {
    const offsets = offsetsOf([40, 40, 1000, 40, 40, 40]);
    expect(rangeFor(offsets, 100, 300, 0)).toEqual({ start: 2, end: 3 }); // inside the tall row
    expect(rangeFor(offsets, 1090, 1130, 0)).toEqual({ start: 3, end: 5 });
  });
});

describe("rangeAround", () => {
  it("renders the rows around a row jumped to (End on a long solution)", () => {
    const offsets = uniform(3000);
    const range = rangeAround(offsets, 2999, 900, 0);
    expect(range.end).toBe(3000);
    expect(range.start).toBeGreaterThan(2990);
    const middle = rangeAround(offsets, 1500, 900, 0);
    expect(middle.start).toBeLessThanOrEqual(1500);
    expect(middle.end).toBeGreaterThan(1500);
    expect(middle.end - middle.start).toBeLessThan(12);
  });
});

describe("spacersFor", () => {
  it("hold the height of the rows not rendered, so the scrollbar is the whole list's", () => {
    const offsets = offsetsOf([10, 20, 30, 40]);
    expect(spacersFor(offsets, { start: 1, end: 3 })).toEqual({ top: 10, bottom: 40 });
    expect(spacersFor(offsets, { start: 0, end: 4 })).toEqual({ top: 0, bottom: 0 });
    const both = spacersFor(offsets, { start: 1, end: 3 });
    expect(both.top + 20 + 30 + both.bottom).toBe(offsets[4]);
  });
});

describe("scrollTopFor", () => {
  it("puts a row below the header, never above the page's top", () => {
    const offsets = uniform(3000);
    expect(scrollTopFor(offsets, 2999, 400, 68)).toBe(400 + 299_900 - 68);
    expect(scrollTopFor(offsets, 0, 40, 68)).toBe(0);
    expect(scrollTopFor(offsets, 99_999, 0, 0)).toBe(299_900); // clamped to the last row
  });
});

describe("anchorShift", () => {
  it("scrolls by what a layout change moved the row the reader is on", () => {
    expect(anchorShift({ top: 100, scrollY: 5000 }, { top: 160, scrollY: 5000 })).toBe(60);
    expect(anchorShift({ top: 100, scrollY: 5000 }, { top: 70, scrollY: 5000 })).toBe(-30);
    expect(anchorShift({ top: 100, scrollY: 5000 }, { top: 100.2, scrollY: 5000 })).toBe(0);
  });

  it("leaves a move alone when the window scrolled (the reader's, not the layout's)", () => {
    expect(anchorShift({ top: 100, scrollY: 5000 }, { top: -200, scrollY: 5300 })).toBeNull();
  });
});
