/**
 * The one way the SPA talks to the steplab REST API: fetch with the session, errors, CSRF.
 *
 * Session auth: Django sets a `csrftoken` cookie on the SPA page; every non-GET request sends it
 * back as `X-CSRFToken`. Errors always come as `{"error": {code, message, details}}` and are
 * thrown as `ApiError`. A `not_authenticated` error anywhere calls the handler set with
 * `setUnauthenticatedHandler` (the app redirects to /login). Idempotent writes carry a
 * `request_id` in their body (see label/idempotentWrite.ts), and the submits also the same id as
 * the `Idempotency-Key` header (`idempotencyKey`); this module sends them as they are.
 */

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** An error response from the API, or a network failure (`code` "network_error"). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** The server's Retry-After (a 429 or 503), in milliseconds; null when it sent none. */
  retryAfterMs: number | null = null;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }

  get isNetwork(): boolean {
    return this.code === "network_error";
  }
}

let onUnauthenticated: (() => void) | null = null;

/** Called (once per failing request) when the API says the session is gone. */
export function setUnauthenticatedHandler(handler: (() => void) | null): void {
  onUnauthenticated = handler;
}

export function csrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function writeHeaders(json: boolean): Record<string, string> {
  const headers: Record<string, string> = { "X-CSRFToken": csrfToken(), Accept: "application/json" };
  if (json) headers["Content-Type"] = "application/json";
  return headers;
}

/** Turns a non-2xx response body into an ApiError (whatever the body is). */
export function errorFrom(status: number, body: unknown): ApiError {
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (err && typeof err === "object") {
    return new ApiError(
      status,
      typeof err.code === "string" ? err.code : `http_${status}`,
      typeof err.message === "string" ? err.message : `Request failed (${status}).`,
      err.details && typeof err.details === "object" ? (err.details as Record<string, unknown>) : {},
    );
  }
  const generic: Record<number, string> = {
    403: "You do not have permission to do this.",
    404: "Not found.",
    500: "The server had an error. Try again in a moment.",
    502: "The server is not reachable right now.",
    503: "The server is not reachable right now.",
  };
  return new ApiError(status, `http_${status}`, generic[status] ?? `Request failed (${status}).`);
}

/**
 * The ApiError for a failed response, after telling the unauthenticated handler when the session
 * is gone. Every path that reads a response (fetch, the upload's XMLHttpRequest) ends here.
 */
export function failure(status: number, body: unknown): ApiError {
  const error = errorFrom(status, body);
  if (error.code === "not_authenticated") onUnauthenticated?.();
  return error;
}

export interface RequestOptions {
  keepalive?: boolean;
  signal?: AbortSignal;
  /** Sent as the `Idempotency-Key` header: made once per write, the same on its retries. */
  idempotencyKey?: string;
}

/** Under the 64 KiB browsers allow the bodies of keepalive requests (UTF-8: up to 4x). */
export const KEEPALIVE_MAX_CHARS = 16_000;

export async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const form = body instanceof FormData; // multipart: the browser sets Content-Type
  const headers: Record<string, string> = method === "GET" ? { Accept: "application/json" } : writeHeaders(body !== undefined && !form);
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  const init: RequestInit = {
    method,
    credentials: "same-origin",
    headers,
    keepalive: options.keepalive,
    signal: options.signal,
  };
  if (body !== undefined) init.body = form ? body : JSON.stringify(body);
  // Browsers refuse a keepalive request whose body passes 64 KiB (a long solution's draft): send
  // it as a plain request, which may still finish; the draft is kept in localStorage anyway.
  if (init.keepalive && typeof init.body === "string" && init.body.length > KEEPALIVE_MAX_CHARS) {
    init.keepalive = false;
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    if ((e as Error)?.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", "You appear to be offline.");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = failure(response.status, data);
    error.retryAfterMs = retryAfterMs(response.headers.get("Retry-After"));
    throw error;
  }
  return data as T;
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from now; null if none. */
export function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export const get = <T>(url: string, options?: RequestOptions) => request<T>("GET", url, undefined, options);
export const post = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  request<T>("POST", url, body, options);
