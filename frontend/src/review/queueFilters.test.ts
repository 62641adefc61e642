import { describe, expect, it } from "vitest";
import { reviewQueueQuery } from "../api";
import { dayEnd, dayStart, filterQuery, filtersFromParams } from "./queueFilters";

describe("queue filters", () => {
  it("reads the URL, dropping values the API would refuse", () => {
    const f = filtersFromParams(new URLSearchParams("state=bogus&reason=unsure&annotator=x&offset=50&source=MATH"));
    expect(f).toMatchObject({ state: "unresolved", reason: "unsure", annotator: null, offset: 50, source: "MATH", limit: 25 });
    expect(filtersFromParams(new URLSearchParams("reason=nope&state=resolved&annotator=7"))).toMatchObject({
      reason: "",
      state: "resolved",
      annotator: 7,
    });
  });

  it("makes the 'to' day inclusive", () => {
    const start = new Date(dayStart("2025-06-01") as string);
    const end = new Date(dayEnd("2025-06-01") as string);
    expect(end.getTime() - start.getTime()).toBe(24 * 3600 * 1000);
    expect(dayStart("June 1")).toBeUndefined();
  });

  it("keeps only the filter keys in links, and the API query skips empty values", () => {
    expect(filterQuery(new URLSearchParams("reason=unsure&offset=25&x=1"))).toBe("?reason=unsure");
    expect(filterQuery(new URLSearchParams(""))).toBe("");
    expect(reviewQueueQuery({ state: "unresolved", reason: "", annotator: null, source: "", limit: 25, offset: 0 })).toBe(
      "?state=unresolved&limit=25&offset=0",
    );
  });
});
