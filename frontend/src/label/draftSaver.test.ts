import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, type Annotation, type DraftPayload } from "../api";
import { draftAnnotation } from "../test/draftAnnotation";
import { DraftSaver, PROJECT_DELETED, type SaveInfo } from "./draftSaver";

const annotation = (version: number): Annotation => draftAnnotation(7, version);

function setup(save: (payload: DraftPayload) => Promise<Annotation>) {
  const states: SaveInfo["status"][] = [];
  const messages: (string | undefined)[] = [];
  const calls: DraftPayload[] = [];
  let labels = 0;
  const saver = new DraftSaver({
    annotationId: 7,
    version: 1,
    payload: () => ({ labels: [{ step_id: labels, rating: 1, unsure: false, comment: "", alternative_text: "" }], time_spent_ms: 1234 }),
    save: (_id, payload) => {
      calls.push(payload);
      return save(payload);
    },
    onChange: (info) => {
      states.push(info.status);
      messages.push(info.message);
    },
    debounceMs: 600,
    retryDelaysMs: [1000, 2000],
  });
  return { saver, states, messages, calls, bump: () => (labels += 1) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("DraftSaver", () => {
  it("debounces changes into one save with the version and the timer", async () => {
    const { saver, states, calls } = setup(async (p) => annotation(p.version + 1));
    saver.schedule();
    await vi.advanceTimersByTimeAsync(300);
    saver.schedule();
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(1);
    expect(calls[0].version).toBe(1);
    expect(calls[0].time_spent_ms).toBe(1234);
    expect(saver.version).toBe(2);
    expect(states).toEqual(["pending", "saving", "saved"]);
  });

  it("never has two saves in flight and sends the newest version each time", async () => {
    let release: (() => void) | null = null;
    const { saver, calls, bump } = setup(
      (p) =>
        new Promise((resolve) => {
          release = () => resolve(annotation(p.version + 1));
        }),
    );
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(1);
    bump();
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600); // debounce fires while the first save is in flight
    expect(calls).toHaveLength(1);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(calls[1].version).toBe(2);
    expect(calls[1].labels[0].step_id).toBe(1);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(saver.version).toBe(3);
    expect(saver.status).toBe("saved");
  });

  it("stops for good on a 409 and never sends over the other version", async () => {
    const { saver, calls, states } = setup(async () => {
      throw new ApiError(409, "conflict", "changed elsewhere");
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(saver.status).toBe("conflict");
    saver.schedule();
    await vi.advanceTimersByTimeAsync(10000);
    expect(calls).toHaveLength(1);
    expect(states.at(-1)).toBe("conflict");
    await expect(saver.exclusive(async () => "submitted")).rejects.toMatchObject({ status: 409 });
  });

  it("retries offline saves with backoff, then recovers", async () => {
    let fail = 2;
    const { saver, calls, states } = setup(async (p) => {
      if (fail-- > 0) throw new ApiError(0, "network_error", "offline");
      return annotation(p.version + 1);
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(saver.status).toBe("offline");
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(3);
    expect(saver.status).toBe("saved");
    expect(states).toContain("offline");
    expect(calls.every((c) => c.version === 1)).toBe(true);
  });

  it("backs off on a 429 for at least the server's Retry-After, then saves", async () => {
    let throttled = 1;
    const { saver, calls, messages } = setup(async (p) => {
      if (throttled-- > 0) {
        const e = new ApiError(429, "throttled", "Saving too often.");
        e.retryAfterMs = 5000;
        throw e;
      }
      return annotation(p.version + 1);
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(1);
    expect(saver.status).toBe("error");
    expect(messages).toContain("Saving too often — retrying in 5 s…");
    await vi.advanceTimersByTimeAsync(4999); // the 1 s backoff alone would have sent it
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(saver.status).toBe("saved");
  });

  it("retryNow skips the rest of the backoff", async () => {
    let fail = true;
    const { saver, calls } = setup(async (p) => {
      if (fail) {
        fail = false;
        throw new ApiError(0, "network_error", "offline");
      }
      return annotation(p.version + 1);
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    saver.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(saver.status).toBe("saved");
  });

  it("does not retry a validation error", async () => {
    const { saver, calls } = setup(async () => {
      throw new ApiError(400, "validation_error", "bad label");
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(10000);
    expect(calls).toHaveLength(1);
    expect(saver.status).toBe("error");
  });

  it("stops for good when the project was deleted and says so", async () => {
    const { saver, calls, bump } = setup(async () => {
      throw new ApiError(410, "project_deleted", "This project was deleted.");
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(10000);
    expect(calls).toHaveLength(1);
    expect(saver.status).toBe("error");
    expect(saver.message).toBe(PROJECT_DELETED);
    bump();
    saver.schedule();
    await vi.advanceTimersByTimeAsync(10000);
    expect(calls).toHaveLength(1); // nothing more is sent
  });

  it("runs submit after the save in flight, with the version that save returned", async () => {
    let release: (() => void) | null = null;
    const { saver } = setup(
      (p) =>
        new Promise((resolve) => {
          release = () => resolve(annotation(p.version + 1));
        }),
    );
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    const seen: number[] = [];
    const submitted = saver.exclusive(async (version) => {
      seen.push(version);
      return "ok";
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([]);
    release!();
    await expect(submitted).resolves.toBe("ok");
    expect(seen).toEqual([2]);
  });

  it("cancels a pending debounce when submitting; a failed submit autosaves again", async () => {
    const { saver, calls } = setup(async (p) => annotation(p.version + 1));
    saver.schedule();
    await expect(
      saver.exclusive(async () => {
        throw new ApiError(400, "validation_error", "Step 3 has no rating");
      }),
    ).rejects.toThrow("Step 3");
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(1);
  });

  it("flushOnHide sends unsaved work at once with keepalive", async () => {
    const options: unknown[] = [];
    const saver = new DraftSaver({
      annotationId: 7,
      version: 4,
      payload: () => ({ labels: [], time_spent_ms: 0 }),
      save: async (_id, p, o) => {
        options.push(o);
        return annotation(p.version + 1);
      },
      onChange: () => undefined,
    });
    saver.flushOnHide();
    expect(options).toHaveLength(0); // nothing unsaved
    saver.schedule();
    saver.flushOnHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(options).toEqual([{ keepalive: true }]);
    expect(saver.version).toBe(5);
  });
});

describe("DraftSaver.close", () => {
  it("sends unsaved work once with keepalive and never retries after", async () => {
    const calls: unknown[] = [];
    const saver = new DraftSaver({
      annotationId: 7,
      version: 1,
      payload: () => ({ labels: [], time_spent_ms: 0 }),
      save: async (_id, _p, o) => {
        calls.push(o);
        throw new ApiError(0, "network_error", "offline");
      },
      onChange: () => undefined,
    });
    saver.schedule();
    saver.close();
    await vi.advanceTimersByTimeAsync(60000);
    expect(calls).toEqual([{ keepalive: true }]);
  });
});

/**
 * A server that applies each write once: a retry of the write it last applied (same request_id)
 * is answered as its success; a stale version is a 409. `lose` drops the answer of the next
 * call after applying it, as a connection reset or a proxy timeout does.
 */
function idempotentServer() {
  const server = { version: 1, lastRequestId: undefined as string | undefined, applied: 0, lose: 0 };
  const save = async (payload: DraftPayload): Promise<Annotation> => {
    let answer: Annotation;
    if (payload.request_id && payload.request_id === server.lastRequestId) {
      answer = annotation(server.version);
    } else if (payload.version !== server.version) {
      throw new ApiError(409, "conflict", "This solution was changed in another tab or window.");
    } else {
      server.version += 1;
      server.applied += 1;
      server.lastRequestId = payload.request_id;
      answer = annotation(server.version);
    }
    if (server.lose > 0) {
      server.lose -= 1;
      throw new ApiError(0, "network_error", "You appear to be offline.");
    }
    return answer;
  };
  return { server, save };
}

describe("DraftSaver request ids (a save whose answer was lost)", () => {
  it("sends a retry as the same write with the same request_id; a new write gets a new id", async () => {
    let fail = 1;
    const { saver, calls, bump } = setup(async (p) => {
      if (fail-- > 0) throw new ApiError(0, "network_error", "offline");
      return annotation(p.version + 1);
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    expect(calls[0].request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(calls[1]).toEqual(calls[0]); // same id, version, labels and timer
    bump();
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(3);
    expect(calls[2].version).toBe(2);
    expect(calls[2].request_id).not.toBe(calls[0].request_id);
  });

  it("a save that landed but whose answer was lost is not a conflict on retry", async () => {
    const { server, save } = idempotentServer();
    const { saver, states } = setup(save);
    server.lose = 1;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(saver.status).toBe("offline");
    expect(server.applied).toBe(1); // it reached the server
    await vi.advanceTimersByTimeAsync(1000);
    expect(saver.status).toBe("saved");
    expect(states).not.toContain("conflict");
    expect(saver.version).toBe(2);
    expect(server.applied).toBe(1); // the retry applied nothing
  });

  it("labels changed meanwhile follow the resent write, as a new write", async () => {
    const { server, save } = idempotentServer();
    const { saver, calls, bump } = setup(save);
    server.lose = 1;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    bump(); // the annotator rates another step while the answer is missing
    saver.schedule();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(3);
    expect(calls[1]).toEqual(calls[0]);
    expect(calls[2]).toMatchObject({ version: 2, labels: [{ step_id: 1 }] });
    expect(calls[2].request_id).not.toBe(calls[0].request_id);
    expect(saver.status).toBe("saved");
    expect(server.version).toBe(3);
  });

  it("a refused save (400) is not retried as the same write", async () => {
    let refuse = true;
    const { saver, calls } = setup(async (p) => {
      if (refuse) throw new ApiError(400, "validation_error", "bad label");
      return annotation(p.version + 1);
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    refuse = false;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(2);
    expect(calls[1].request_id).not.toBe(calls[0].request_id);
  });

  it("a submit right after a lost save settles that save first, then retries itself with one id", async () => {
    const { server, save } = idempotentServer();
    const { saver, states } = setup(save);
    server.lose = 1;
    saver.schedule();
    await vi.advanceTimersByTimeAsync(600); // the save landed; its answer was lost
    const submits: { version: number; requestId: string }[] = [];
    let lostSubmit = true;
    const retries: number[] = [];
    const submitted = saver.exclusive(
      async (version) => {
        submits.push({ version, requestId: "submit-1" });
        if (lostSubmit) {
          lostSubmit = false;
          throw new ApiError(0, "network_error", "You appear to be offline.");
        }
        return "submitted";
      },
      { delaysMs: [500], onRetry: (_e, attempt) => retries.push(attempt) },
    );
    await vi.advanceTimersByTimeAsync(500);
    await expect(submitted).resolves.toBe("submitted");
    expect(submits).toEqual([
      { version: 2, requestId: "submit-1" },
      { version: 2, requestId: "submit-1" },
    ]);
    expect(retries).toEqual([1]);
    expect(server.applied).toBe(1);
    expect(states).not.toContain("conflict");
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.applied).toBe(1); // no autosave after the submit
  });
});
