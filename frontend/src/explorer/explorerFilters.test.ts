import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, bulkSummary, filtersFromParams, nextSort, pageFromParams, paramsWithFilters } from "./explorerFilters";

describe("explorer filters in the URL", () => {
  it("round-trips the set filters and keeps the other params", () => {
    const filters = { ...EMPTY_FILTERS, q: "x^2", state: "reviewed" as const, gold: "true" as const, sort: "-annotations" as const };
    const params = paramsWithFilters(new URLSearchParams("tab=solutions"), filters, 2);
    expect(params.toString()).toBe("tab=solutions&q=x%5E2&state=reviewed&gold=true&sort=-annotations&page=2");
    expect(filtersFromParams(params)).toEqual(filters);
    expect(pageFromParams(params)).toBe(2);
    expect(paramsWithFilters(params, EMPTY_FILTERS).toString()).toBe("tab=solutions");
  });

  it("drops values the API would refuse", () => {
    const f = filtersFromParams(new URLSearchParams(`state=sideways&sort=random&import_job=0&gold=maybe&q=${"a".repeat(300)}`));
    expect({ ...f, q: "" }).toEqual(EMPTY_FILTERS);
    expect(f.q).toHaveLength(200);
    expect(filtersFromParams(new URLSearchParams("import_job=12")).import_job).toBe("12");
    expect(pageFromParams(new URLSearchParams("page=-3"))).toBe(0);
  });

  it("sorts ascending first, then descending", () => {
    expect(nextSort("created", "annotations")).toBe("annotations");
    expect(nextSort("annotations", "annotations")).toBe("-annotations");
    expect(nextSort("-annotations", "annotations")).toBe("annotations");
  });

  it("says what a bulk action did and why it left some", () => {
    expect(bulkSummary({ action: "mark_gold", matched: 3, changed: 1, skipped: { not_reviewed: 2 } })).toBe(
      "1 of 3 marked gold; left: 2 not reviewed yet.",
    );
    expect(bulkSummary({ action: "requeue", matched: 2, changed: 2, reopened: 0, skipped: {} })).toBe("2 of 2 requeued.");
    expect(bulkSummary({ action: "requeue", matched: 4, changed: 3, reopened: 2, skipped: { gold: 1 } })).toBe(
      "3 of 4 requeued (2 complete, reopened for one more label); left: 1 gold question.",
    );
  });
});
