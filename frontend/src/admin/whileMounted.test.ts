import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api";
import { requestWhileMounted } from "./whileMounted";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("requestWhileMounted", () => {
  it("is busy during the request, then hands over the value and clears busy", async () => {
    const alive = { current: true };
    const busy: boolean[] = [];
    const onDone = vi.fn();
    const d = deferred<number>();
    const done = requestWhileMounted(alive, (b) => busy.push(b), () => d.promise, onDone, vi.fn());
    expect(busy).toEqual([true]);
    d.resolve(7);
    await done;
    expect(onDone).toHaveBeenCalledWith(7);
    expect(busy).toEqual([true, false]);
  });

  it("hands a failure to onError", async () => {
    const onError = vi.fn();
    const err = new ApiError(400, "bad", "bad input");
    await requestWhileMounted({ current: true }, vi.fn(), () => Promise.reject(err), vi.fn(), onError);
    expect(onError).toHaveBeenCalledWith(err);
  });

  it("after unmount, touches no state at all", async () => {
    const alive = { current: true };
    const busy: boolean[] = [];
    const onDone = vi.fn();
    const onError = vi.fn();
    const ok = deferred<number>();
    const first = requestWhileMounted(alive, (b) => busy.push(b), () => ok.promise, onDone, onError);
    const bad = deferred<number>();
    const second = requestWhileMounted(alive, (b) => busy.push(b), () => bad.promise, onDone, onError);
    alive.current = false;
    ok.resolve(1);
    bad.reject(new Error("gone"));
    await Promise.all([first, second]);
    expect(onDone).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    expect(busy).toEqual([true, true]);
  });
});
