/**
 * Writes the server applies at most once: each logical write (a draft save, a submit, a skip)
 * carries a `request_id` made once and sent again on every retry of that same write. When a
 * write reached the server but its response was lost (connection reset, proxy timeout, a laptop
 * lid closed), the retry is answered with the success it was instead of a false 409.
 */
import { ApiError } from "../api";

/** A random (version 4) UUID; `crypto.randomUUID` exists only on HTTPS and localhost. */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The write may or may not have reached the server and the same write can be sent again:
 * no answer at all, a server error (503 while the database is down) or rate limiting.
 */
export function isRetryable(e: unknown): boolean {
  return e instanceof ApiError && (e.isNetwork || e.status >= 500 || e.status === 429);
}

export interface RetryOptions {
  /** Waits between attempts; the last one repeats. */
  delaysMs?: number[];
  /** Called before each wait with the error that made the write unknown. */
  onRetry?: (error: ApiError, attempt: number) => void;
  /** The page went away: stop and throw the last error. */
  cancelled?: () => boolean;
  /** How to wait (a page also wakes up when the network is back); setTimeout by default. */
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends `send` until the server answers something other than a retryable failure. `send` must
 * send the same write every time (same body, same `request_id`), so that a retry of a write the
 * server already applied is answered as that write's success.
 */
export async function retrySameWrite<T>(send: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const delays = opts.delaysMs ?? [1000, 2000, 4000, 8000, 15000];
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (e) {
      if (!isRetryable(e) || opts.cancelled?.()) throw e;
      opts.onRetry?.(e as ApiError, attempt + 1);
      await (opts.wait ?? sleep)(delays[Math.min(attempt, delays.length - 1)]);
      if (opts.cancelled?.()) throw e;
    }
  }
}
