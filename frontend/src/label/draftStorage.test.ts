import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, type Annotation, type DraftPayload } from "../api";
import { draftAnnotation } from "../test/draftAnnotation";
import { DraftSaver, draftStorageKey, readStoredDraft, type SaveInfo } from "./draftSaver";

const annotation = (version: number): Annotation => draftAnnotation(9, version);

const label = (rating: -1 | 0 | 1) => [{ step_id: 5, rating, unsure: false, comment: "", alternative_text: "" }];

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe("DraftSaver keeps unsaved drafts in localStorage", () => {
  it("stores the draft while the server is unreachable, shows the retry state, and clears it once saved", async () => {
    let down = true;
    const states: SaveInfo[] = [];
    const calls: DraftPayload[] = [];
    const saver = new DraftSaver({
      annotationId: 9,
      version: 3,
      payload: () => ({ labels: label(-1), time_spent_ms: 500 }),
      save: async (_id, p) => {
        calls.push(p);
        if (down) throw new ApiError(0, "network_error", "You appear to be offline.");
        return annotation(p.version + 1);
      },
      onChange: (info) => states.push(info),
      debounceMs: 10,
      retryDelaysMs: [1000],
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    expect(states.at(-1)).toEqual({ status: "offline", message: "Offline — retrying" });
    expect(readStoredDraft(9, 3)?.payload.labels).toEqual(label(-1));
    expect(readStoredDraft(9, 4)).toBeNull(); // another version is not replayed

    down = false;
    saver.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(states.at(-1)?.status).toBe("saved");
    expect(calls.at(-1)).toMatchObject({ version: 3, labels: label(-1) });
    expect(localStorage.getItem(draftStorageKey(9))).toBeNull();
  });

  it("a server error (database down) is a retry state with the message and keeps the draft", async () => {
    const states: SaveInfo[] = [];
    const saver = new DraftSaver({
      annotationId: 9,
      version: 1,
      payload: () => ({ labels: label(1), time_spent_ms: 0 }),
      save: async () => {
        throw new ApiError(503, "service_unavailable", "The database is unavailable.");
      },
      onChange: (info) => states.push(info),
      debounceMs: 10,
      retryDelaysMs: [1000],
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    expect(states.at(-1)?.status).toBe("error");
    expect(states.at(-1)?.message).toContain("Retrying");
    expect(readStoredDraft(9, 1)?.payload.labels).toEqual(label(1));
    saver.stop();
  });

  it("a submit through exclusive() clears the stored draft", async () => {
    let down = true;
    const saver = new DraftSaver({
      annotationId: 9,
      version: 1,
      payload: () => ({ labels: label(0), time_spent_ms: 0 }),
      save: async (_id, p) => {
        if (down) throw new ApiError(0, "network_error", "offline");
        return annotation(p.version + 1);
      },
      onChange: () => undefined,
      debounceMs: 10,
      retryDelaysMs: [100000],
    });
    saver.schedule();
    await vi.advanceTimersByTimeAsync(20);
    expect(readStoredDraft(9, 1)).not.toBeNull();
    down = false;
    // The unanswered save is settled first (it may have landed), then the submit runs.
    const versions: number[] = [];
    await saver.exclusive(async (version) => {
      versions.push(version);
      return annotation(version + 1);
    });
    expect(versions).toEqual([2]);
    expect(readStoredDraft(9, 1)).toBeNull();
    saver.stop();
  });
});
