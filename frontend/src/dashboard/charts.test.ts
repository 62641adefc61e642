import { describe, expect, it } from "vitest";
import { makeMetrics } from "../test/fakeReview";
import { agreementColor, dailySeries, fillDays, linear, niceTicks, pairMatrix, pct } from "./charts";

describe("chart helpers", () => {
  it("maps linearly, and a flat domain to the middle", () => {
    const x = linear([0, 10], [100, 200]);
    expect(x(0)).toBe(100);
    expect(x(5)).toBe(150);
    expect(linear([3, 3], [0, 10])(3)).toBe(5);
  });

  it("makes round ticks that reach the maximum", () => {
    expect(niceTicks(100, 4)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(7, 4)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0)).toEqual([0, 1]);
    const t = niceTicks(1234, 4);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(1234);
  });

  it("builds a symmetric pair matrix with empty diagonal", () => {
    const { names, cell } = pairMatrix(makeMetrics().pairs);
    expect(names).toEqual(["alice", "bob", "carol"]);
    expect(cell(0, 1)?.cohen_kappa).toBe(0.62);
    expect(cell(1, 0)?.cohen_kappa).toBe(0.62);
    expect(cell(0, 0)).toBeNull();
    expect(cell(1, 2)).toBeNull();
  });

  it("fills missing days with zeros per annotator", () => {
    const { days, series } = dailySeries(makeMetrics().throughput.by_annotator_day, "steps");
    expect(days).toEqual(["2025-06-01", "2025-06-02", "2025-06-03"]);
    expect(series).toEqual([
      { name: "alice", values: [30, 0, 50] },
      { name: "bob", values: [0, 40, 0] },
    ]);
    expect(fillDays("2025-02-27", "2025-03-01")).toEqual(["2025-02-27", "2025-02-28", "2025-03-01"]);
  });

  it("colours agreement from red through amber to green, grey for none", () => {
    expect(agreementColor(null)).toBe("#f2f3f5");
    const green = (c: string) => Number(c.match(/\d+/g)?.[1]);
    const red = (c: string) => Number(c.match(/\d+/g)?.[0]);
    expect(red(agreementColor(-0.8))).toBeGreaterThan(red(agreementColor(0.9)));
    expect(agreementColor(1)).toBe("rgb(22, 163, 74)");
    expect(green(agreementColor(0.9))).toBeLessThan(green(agreementColor(0.5)));
    expect(pct(0.815)).toBe("82%");
    expect(pct(null)).toBe("–");
  });
});
