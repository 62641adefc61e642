import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiToken } from "../api";
import { TokenDialog } from "./TokenDialog";
import { fakePage } from "../test/fakePage";

const SECRET = "stp_Zx9" + "q".repeat(37);

function token(id: number, name: string, extra: Partial<ApiToken> = {}): ApiToken {
  return {
    id,
    name,
    prefix: `stp_${String(id).padStart(4, "0")}`,
    created_at: "2026-11-20T10:00:00Z",
    expires_at: null,
    last_used_at: null,
    expired: false,
    ...extra,
  };
}

/** A fake /api/auth/tokens/ that keeps a list, as the server does; records calls and bodies. */
function serve(initial: ApiToken[], options: { createError?: string } = {}) {
  let list = [...initial];
  let nextId = 100;
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    calls.push(`${method} ${url}`);
    if (method === "GET") return json(200, fakePage(list, url));
    if (method === "POST") {
      const body = JSON.parse(String(init.body)) as { name: string; expires_in_days: number | null };
      bodies.push(body);
      if (options.createError) {
        return json(400, { error: { code: "validation_error", message: options.createError, details: {} } });
      }
      const expires = body.expires_in_days === null ? null : "2026-12-10T07:00:00Z";
      const made = token(nextId++, body.name, { prefix: SECRET.slice(0, 8), expires_at: expires, created_at: "2026-12-03T07:00:00Z" });
      list = [made, ...list];
      return json(201, { ...made, token: SECRET });
    }
    const id = Number(url.split("/").filter(Boolean).pop());
    list = list.filter((t) => t.id !== id);
    return new Response(null, { status: 204 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, bodies };
}

afterEach(() => vi.unstubAllGlobals());

const rows = () => screen.getAllByTestId("token-row");

describe("TokenDialog", () => {
  it("lists tokens with name, prefix, created, expiry and last use, never a secret", async () => {
    serve([
      token(1, "training box", { expires_at: "2027-01-15T12:00:00Z", last_used_at: "2026-12-01T09:30:00Z" }),
      token(2, "CI export"),
      token(3, "old laptop", { expires_at: "2026-11-01T12:00:00Z", expired: true }),
    ]);
    render(<TokenDialog onClose={() => {}} />);
    await screen.findByTestId("token-list");
    expect(rows()).toHaveLength(3);
    const [first, second, third] = rows().map((r) => r.textContent ?? "");
    expect(first).toContain("training box");
    expect(first).toContain("stp_0001…");
    expect(first).toContain("Nov 20, 2026"); // created
    expect(first).toContain("Jan 15, 2027");
    expect(first).toContain("Dec 1");
    expect(second).toContain("CI export");
    expect(second.match(/Never/g)).toHaveLength(2); // never expires, never used
    expect(third).toContain("Expired Nov 1, 2026");
    expect(screen.queryByTestId("token-value")).toBeNull();
  });

  it("creates a named token with the chosen expiry and shows the secret once, with Copy", async () => {
    const { calls, bodies } = serve([token(1, "laptop")]);
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    render(<TokenDialog onClose={() => {}} />);
    await screen.findByTestId("token-list");
    const createButton = screen.getByTestId("token-create") as HTMLButtonElement;
    expect(createButton.disabled).toBe(true); // no name yet

    fireEvent.change(screen.getByTestId("token-name"), { target: { value: "  training box " } });
    fireEvent.change(screen.getByTestId("token-expiry"), { target: { value: "7" } });
    expect(createButton.disabled).toBe(false);
    fireEvent.click(createButton);

    expect(((await screen.findByTestId("token-value")) as HTMLInputElement).value).toBe(SECRET);
    expect(screen.getByTestId("token-created").textContent).toContain("will not be shown again");
    expect(screen.getByTestId("token-created").textContent).toContain("training box");
    expect(bodies).toEqual([{ name: "training box", expires_in_days: 7 }]);
    expect(rows()).toHaveLength(2);
    expect(rows()[0].textContent).toContain("training box");
    expect(rows()[0].textContent).toContain(`${SECRET.slice(0, 8)}…`);
    expect(screen.getByTestId("token-list").textContent).not.toContain(SECRET);
    expect((screen.getByTestId("token-name") as HTMLInputElement).value).toBe("");

    fireEvent.click(screen.getByTestId("token-copy"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(screen.getByTestId("token-copy").textContent).toBe("Copied");

    fireEvent.change(screen.getByTestId("token-name"), { target: { value: "forever" } });
    fireEvent.change(screen.getByTestId("token-expiry"), { target: { value: "never" } });
    fireEvent.click(createButton);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(bodies[1]).toEqual({ name: "forever", expires_in_days: null });
    expect(calls).toEqual(["GET /api/auth/tokens/?limit=50", "POST /api/auth/tokens/", "POST /api/auth/tokens/"]);
  });

  it("defaults to 30 days", async () => {
    const { bodies } = serve([]);
    render(<TokenDialog onClose={() => {}} />);
    expect((await screen.findByTestId("token-none")).textContent).toContain("no API tokens");
    fireEvent.change(screen.getByTestId("token-name"), { target: { value: "ci" } });
    fireEvent.submit(screen.getByTestId("token-name").closest("form")!);
    await screen.findByTestId("token-value");
    expect(bodies).toEqual([{ name: "ci", expires_in_days: 30 }]);
  });

  it("revokes one token after confirming; Cancel keeps it", async () => {
    const { calls } = serve([token(1, "laptop"), token(2, "CI export")]);
    render(<TokenDialog onClose={() => {}} />);
    await screen.findByTestId("token-list");

    fireEvent.click(within(rows()[1]).getByTestId("token-revoke"));
    expect(screen.getByTestId("token-confirm").textContent).toContain("Revoke “CI export” (stp_0002…)?");
    fireEvent.click(screen.getByTestId("token-revoke-cancel"));
    expect(screen.queryByTestId("token-confirm")).toBeNull();
    expect(rows()).toHaveLength(2);
    expect(calls).toEqual(["GET /api/auth/tokens/?limit=50"]);

    fireEvent.click(within(rows()[1]).getByTestId("token-revoke"));
    fireEvent.click(screen.getByTestId("token-revoke-confirm"));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0].textContent).toContain("laptop");
    expect(screen.queryByTestId("token-confirm")).toBeNull();
    expect(calls).toEqual(["GET /api/auth/tokens/?limit=50", "DELETE /api/auth/tokens/2/"]);
  });

  it("shows the server's error and keeps the form", async () => {
    serve([], { createError: "name: at most 100 characters." });
    render(<TokenDialog onClose={() => {}} />);
    await screen.findByTestId("token-none");
    fireEvent.change(screen.getByTestId("token-name"), { target: { value: "x" } });
    fireEvent.click(screen.getByTestId("token-create"));
    expect((await screen.findByTestId("token-error")).textContent).toBe("name: at most 100 characters.");
    expect((screen.getByTestId("token-name") as HTMLInputElement).value).toBe("x");
    expect(screen.queryByTestId("token-value")).toBeNull();
  });

  it("closes on Escape", async () => {
    serve([]);
    const onClose = vi.fn();
    render(<TokenDialog onClose={onClose} />);
    await screen.findByTestId("token-none");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });
});
