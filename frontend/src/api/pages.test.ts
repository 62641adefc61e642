import { afterEach, describe, expect, it, vi } from "vitest";
import { fakePage } from "../test/fakePage";
import { getAll, pagePath, withPage } from "./pages";

afterEach(() => vi.unstubAllGlobals());

describe("paginated lists", () => {
  it("reads every page of a list for a picker, following next", async () => {
    const rows = Array.from({ length: 450 }, (_, i) => ({ id: i }));
    const seen: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        seen.push(url);
        return new Response(JSON.stringify(fakePage(rows, url)), { status: 200 });
      }),
    );
    const all = await getAll<{ id: number }>("/api/projects/1/problem-sources/");
    expect(all.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(seen).toEqual([
      "/api/projects/1/problem-sources/?limit=200",
      "/api/projects/1/problem-sources/?limit=200&offset=200",
      "/api/projects/1/problem-sources/?limit=200&offset=400",
    ]);
  });

  it("stops at maxRows", async () => {
    const rows = Array.from({ length: 450 }, (_, i) => ({ id: i }));
    vi.stubGlobal("fetch", vi.fn(async (url: string) => new Response(JSON.stringify(fakePage(rows, url)), { status: 200 })));
    expect(await getAll("/api/x/", 200)).toHaveLength(200);
  });

  it("turns the server's absolute next link into a path and sets limit and offset", () => {
    expect(pagePath("http://testserver/api/auth/tokens/?limit=50&offset=50")).toBe("/api/auth/tokens/?limit=50&offset=50");
    expect(withPage("/api/x/?q=a", 20, 40)).toBe("/api/x/?q=a&limit=20&offset=40");
    expect(withPage("/api/x/?offset=9", 20)).toBe("/api/x/?limit=20");
  });
});
