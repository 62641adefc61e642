import { afterEach, describe, expect, it, vi } from "vitest";
import * as api from ".";
import { getExportCard } from "./exports";
import { uploadImport } from "./imports";

function stubFetch(status: number, body?: unknown) {
  const fn = vi.fn(async () =>
    status === 204 ? new Response(null, { status }) : new Response(body === undefined ? "" : JSON.stringify(body), { status }),
  );
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  api.setUnauthenticatedHandler(null);
});

describe("api", () => {
  it("sends the CSRF cookie on writes, with same-origin credentials", async () => {
    document.cookie = "csrftoken=abc%3D123";
    const fetchMock = stubFetch(200, { id: 1, version: 3 });
    await api.saveDraft(5, { version: 2, labels: [], time_spent_ms: 10 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/annotations/5/draft/");
    expect(init.method).toBe("PUT");
    expect(init.credentials).toBe("same-origin");
    expect((init.headers as Record<string, string>)["X-CSRFToken"]).toBe("abc=123");
    expect((init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(JSON.parse(String(init.body))).toEqual({ version: 2, labels: [], time_spent_ms: 10 });
  });

  it("sends a submit's request_id as its Idempotency-Key, and no key on a write without one", async () => {
    const fetchMock = stubFetch(200, { id: 5, version: 3 });
    const payload = { version: 2, labels: [], time_spent_ms: 0, finish_reason: "solution" as const, finish_reason_text: "" };
    await api.submitAnnotation(5, { ...payload, request_id: "0b8f5a8e-1d2c-4a57-9b1e-2f7c3d4e5f60" });
    await api.resubmitAnnotation(5, { ...payload, request_id: "1c8f5a8e-1d2c-4a57-9b1e-2f7c3d4e5f61" });
    await api.submitAnnotation(5, payload);
    const headers = fetchMock.mock.calls.map((call) => (call as unknown as [string, RequestInit])[1].headers as Record<string, string>);
    expect(headers.map((h) => h["Idempotency-Key"])).toEqual([
      "0b8f5a8e-1d2c-4a57-9b1e-2f7c3d4e5f60",
      "1c8f5a8e-1d2c-4a57-9b1e-2f7c3d4e5f61",
      undefined,
    ]);
  });

    it("GETs without a CSRF header", async () => {
    const fetchMock = stubFetch(200, { done_today: 1 });
    await api.getProgress(3);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/projects/3/progress/");
    expect(init.method).toBe("GET");
    expect((init.headers as Record<string, string>)["X-CSRFToken"]).toBeUndefined();
  });

  it("returns null from queue/next on 204", async () => {
    stubFetch(204);
    await expect(api.nextTask(1)).resolves.toBeNull();
  });

  it("throws ApiError with the server's code, message and details", async () => {
    stubFetch(400, { error: { code: "validation_error", message: "Step 3 has no rating", details: { step_index: 2 } } });
    const err = await api.submitAnnotation(1, { version: 1, labels: [], time_spent_ms: 0, finish_reason: "solution", finish_reason_text: "" }).catch((e) => e);
    expect(err).toBeInstanceOf(api.ApiError);
    expect(err).toMatchObject({ status: 400, code: "validation_error", message: "Step 3 has no rating", details: { step_index: 2 } });
  });

  it("reads Retry-After into the error (a throttled draft save)", async () => {
    const body = { error: { code: "throttled", message: "Saving too often.", details: {} } };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify(body), { status: 429, headers: { "Retry-After": "3" } })),
    );
    const err = await api.saveDraft(5, { version: 2, labels: [], time_spent_ms: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(api.ApiError);
    expect((err as api.ApiError).status).toBe(429);
    expect((err as api.ApiError).retryAfterMs).toBe(3000);
    stubFetch(500, {});
    const plain = await api.saveDraft(5, { version: 2, labels: [], time_spent_ms: 0 }).catch((e: unknown) => e);
    expect((plain as api.ApiError).retryAfterMs).toBeNull();
  });

  it("drops keepalive for a body browsers would refuse it for (a 10,000-step draft)", async () => {
    const fetchMock = stubFetch(200, { id: 1, version: 3 });
    const labels = Array.from({ length: 10_000 }, (_, i) => ({
      step_id: i + 1,
      rating: 1 as const,
      unsure: false,
      comment: "",
      alternative_text: "",
    }));
    await api.saveDraft(5, { version: 2, labels, time_spent_ms: 0 }, { keepalive: true });
    await api.saveDraft(5, { version: 2, labels: labels.slice(0, 3), time_spent_ms: 0 }, { keepalive: true });
    const inits = fetchMock.mock.calls.map((c) => (c as unknown as [string, RequestInit])[1]);
    expect(inits[0].keepalive).toBe(false);
    expect(JSON.parse(String(inits[0].body)).labels).toHaveLength(10_000); // whole, not cut
    expect(inits[1].keepalive).toBe(true);
  });

  it("copes with a non-JSON error page", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<html>502</html>", { status: 502 })));
    await expect(api.me()).rejects.toMatchObject({ status: 502, code: "http_502" });
  });

  it("reports a network failure as network_error", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const err = await api.me().catch((e) => e);
    expect(err.code).toBe("network_error");
    expect(err.isNetwork).toBe(true);
  });

  it("calls the unauthenticated handler on not_authenticated", async () => {
    const handler = vi.fn();
    api.setUnauthenticatedHandler(handler);
    stubFetch(403, { error: { code: "not_authenticated", message: "Log in", details: {} } });
    await expect(api.listProjects()).rejects.toMatchObject({ code: "not_authenticated" });
    expect(handler).toHaveBeenCalledTimes(1);
    stubFetch(403, { error: { code: "permission_denied", message: "No", details: {} } });
    await expect(api.listProjects()).rejects.toMatchObject({ code: "permission_denied" });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("sends keepalive when asked", async () => {
    const fetchMock = stubFetch(200, { version: 2 });
    await api.saveDraft(1, { version: 1, labels: [], time_spent_ms: 0 }, { keepalive: true });
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].keepalive).toBe(true);
  });

  it("tells the unauthenticated handler from the export card's text fetch", async () => {
    const handler = vi.fn();
    api.setUnauthenticatedHandler(handler);
    vi.stubGlobal("fetch", vi.fn(async () => new Response("# Card\n", { status: 200 })));
    await expect(getExportCard(4)).resolves.toBe("# Card\n");
    expect(handler).not.toHaveBeenCalled();
    stubFetch(403, { error: { code: "not_authenticated", message: "Log in", details: {} } });
    await expect(getExportCard(4)).rejects.toMatchObject({ status: 403, code: "not_authenticated", message: "Log in" });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("tells the unauthenticated handler from an upload's XMLHttpRequest", async () => {
    const handler = vi.fn();
    api.setUnauthenticatedHandler(handler);
    stubXhr(() => [403, { error: { code: "not_authenticated", message: "Log in", details: {} } }]);
    const file = new File(["{}"], "rows.jsonl");
    const { promise } = uploadImport(1, file, "auto", "suggestions", () => undefined);
    await expect(promise).rejects.toMatchObject({ status: 403, code: "not_authenticated" });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("sends detect_uses only when the detector is turned off", async () => {
    const sent: FormData[] = [];
    stubXhr((form) => {
      sent.push(form);
      return [202, { id: sent.length }];
    });
    const file = new File(["{}"], "rows.jsonl");
    await uploadImport(1, file, "auto", "suggestions", () => undefined).promise;
    await uploadImport(1, file, "auto", "suggestions", () => undefined, "", false).promise;
    expect(sent.map((form) => form.get("detect_uses"))).toEqual([null, "false"]);
  });
});

/** An XMLHttpRequest whose send answers what `answer` returns for the form sent. */
function stubXhr(answer: (form: FormData) => [number, unknown]) {
  class FakeXhr {
    status = 0;
    responseText = "";
    withCredentials = false;
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send(form: FormData) {
      const [status, body] = answer(form);
      this.status = status;
      this.responseText = JSON.stringify(body);
      this.onload?.();
    }
    abort() {}
  }
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
}
