import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TokenDialog } from "./TokenDialog";

/** A fake /api/auth/tokens/ that keeps one token, as the server does. */
function serve(initial: { prefix: string; created: string } | null) {
  let current = initial;
  const calls: string[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    calls.push(`${method} ${url}`);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    if (method === "GET") return json(200, current ? [current] : []);
    if (method === "POST") {
      current = { prefix: "abcd1234", created: "2026-12-03T07:00:00Z" };
      return json(201, { ...current, token: "abcd1234" + "f".repeat(32) });
    }
    current = null;
    return new Response(null, { status: 204 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("TokenDialog", () => {
  it("creates a token, shows the key once with Copy, and revokes it", async () => {
    const calls = serve(null);
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    render(<TokenDialog onClose={() => {}} />);
    expect((await screen.findByTestId("token-none")).textContent).toContain("no API token");

    fireEvent.click(screen.getByTestId("token-create"));
    const key = "abcd1234" + "f".repeat(32);
    expect(((await screen.findByTestId("token-value")) as HTMLInputElement).value).toBe(key);
    expect(screen.getByTestId("token-current").textContent).toContain("abcd1234…");
    fireEvent.click(screen.getByTestId("token-copy"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(key));
    expect(screen.getByTestId("token-copy").textContent).toBe("Copied");

    fireEvent.click(screen.getByTestId("token-revoke"));
    await screen.findByTestId("token-none");
    expect(screen.queryByTestId("token-value")).toBeNull();
    expect(calls).toEqual(["GET /api/auth/tokens/", "POST /api/auth/tokens/", "DELETE /api/auth/tokens/"]);
  });

  it("shows an existing token by its prefix only", async () => {
    serve({ prefix: "99887766", created: "2026-12-01T10:00:00Z" });
    render(<TokenDialog onClose={() => {}} />);
    expect((await screen.findByTestId("token-current")).textContent).toContain("99887766…");
    expect(screen.queryByTestId("token-value")).toBeNull();
    expect(screen.getByTestId("token-create").textContent).toBe("Create a new token");
  });
});
