import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api";
import { isRetryable, newRequestId, retrySameWrite } from "./idempotentWrite";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

describe("newRequestId", () => {
  it("is a fresh UUID each time", () => {
    const ids = new Set(Array.from({ length: 50 }, newRequestId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID4);
  });

  it("works where crypto.randomUUID is missing (plain http on a LAN address)", () => {
    const real = globalThis.crypto;
    vi.stubGlobal("crypto", { getRandomValues: (a: Uint8Array) => real.getRandomValues(a) });
    expect(globalThis.crypto.randomUUID).toBeUndefined();
    const a = newRequestId();
    const b = newRequestId();
    expect(a).toMatch(UUID4);
    expect(a).not.toBe(b);
  });
});

describe("retrySameWrite", () => {
  it("retries network and server errors, never a refusal", () => {
    expect(isRetryable(new ApiError(0, "network_error", "offline"))).toBe(true);
    expect(isRetryable(new ApiError(503, "database_unavailable", "down"))).toBe(true);
    expect(isRetryable(new ApiError(429, "throttled", "slow down"))).toBe(true);
    expect(isRetryable(new ApiError(409, "conflict", "changed"))).toBe(false);
    expect(isRetryable(new ApiError(400, "validation_error", "bad"))).toBe(false);
    expect(isRetryable(new Error("bug"))).toBe(false);
  });

  it("sends again until an answer comes, waiting between tries", async () => {
    const waits: number[] = [];
    let n = 0;
    const result = await retrySameWrite(
      async () => {
        n += 1;
        if (n < 4) throw new ApiError(n === 2 ? 503 : 0, n === 2 ? "database_unavailable" : "network_error", "x");
        return "ok";
      },
      { delaysMs: [10, 20], wait: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe("ok");
    expect(waits).toEqual([10, 20, 20]);
  });

  it("stops at a definite answer and when cancelled", async () => {
    await expect(
      retrySameWrite(async () => {
        throw new ApiError(409, "conflict", "already submitted");
      }),
    ).rejects.toMatchObject({ status: 409 });
    let cancelled = false;
    let tries = 0;
    await expect(
      retrySameWrite(
        async () => {
          tries += 1;
          throw new ApiError(0, "network_error", "offline");
        },
        { wait: async () => void (cancelled = true), cancelled: () => cancelled },
      ),
    ).rejects.toMatchObject({ code: "network_error" });
    expect(tries).toBe(1);
  });
});
