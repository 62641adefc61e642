/**
 * Autosave for one annotation draft, independent of React.
 *
 * Every write names the version it read. Writes are strictly serialised (one in flight at a
 * time), so our own saves never race each other into a 409; a 409 therefore means another tab or
 * window saved, and the saver stops for good: it never sends over someone else's version.
 * Network failures, server errors and rate limiting (429) retry with backoff ("Offline —
 * retrying"), waiting at least the server's Retry-After.
 *
 * A save whose answer never came may still have been applied, so its retries send that same
 * write again (same payload, same `request_id`): the server answers a retry of the write it
 * applied as the success it was, never as a 409 from our own save. Labels changed meanwhile go
 * out in the next write, once that one is settled.
 *
 * Every payload is written to localStorage (`draftStorageKey(id)`) before it is sent and removed
 * once the server has it, so a draft that could not be saved (offline, server or database down)
 * survives a reload or a crashed tab; the page restores it with `readStoredDraft`.
 */
import { ApiError, type Annotation, type DraftPayload, type RequestOptions } from "../api";
import { isRetryable, newRequestId, retrySameWrite, type RetryOptions } from "./idempotentWrite";

/** What the labeling page says once the server answers 410 `project_deleted`. */
export const PROJECT_DELETED = "This project was deleted. Nothing more can be saved in it.";

export type SaveStatus = "saved" | "pending" | "saving" | "offline" | "error" | "conflict";

export interface SaveInfo {
  status: SaveStatus;
  message?: string;
  savedAt?: number;
}

export interface DraftSaverOptions {
  annotationId: number;
  version: number;
  /** Labels and timer as they are right now. */
  payload: () => Omit<DraftPayload, "version">;
  save: (id: number, payload: DraftPayload, options?: RequestOptions) => Promise<Annotation>;
  onChange: (info: SaveInfo) => void;
  onVersion?: (version: number) => void;
  debounceMs?: number;
  retryDelaysMs?: number[];
  /** Where unsaved payloads are kept; localStorage by default, null for none. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}

export interface StoredDraft {
  annotationId: number;
  /** The version the payload was written against. */
  version: number;
  payload: Omit<DraftPayload, "version">;
  storedAt: number;
}

export function draftStorageKey(annotationId: number): string {
  return `steplab:draft:${annotationId}`;
}

function defaultStorage(): DraftSaverOptions["storage"] {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** A draft the server has not confirmed, for this annotation at this version, if any. */
export function readStoredDraft(
  annotationId: number,
  version: number,
  storage: DraftSaverOptions["storage"] = defaultStorage(),
): StoredDraft | null {
  try {
    const raw = storage?.getItem(draftStorageKey(annotationId));
    if (!raw) return null;
    const stored = JSON.parse(raw) as StoredDraft;
    // Written against another version: the server moved on (saved elsewhere); not ours to replay.
    return stored.annotationId === annotationId && stored.version === version ? stored : null;
  } catch {
    return null;
  }
}

export class DraftSaver {
  version: number;
  private readonly opts: DraftSaverOptions;
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private failures = 0;
  private stopped = false;
  private info: SaveInfo = { status: "saved" };
  /** The write sent without an answer (it may have been applied); retries resend it as is. */
  private unconfirmed: DraftPayload | null = null;

  private readonly storage: DraftSaverOptions["storage"];

  constructor(opts: DraftSaverOptions) {
    this.opts = opts;
    this.version = opts.version;
    this.storage = opts.storage === undefined ? defaultStorage() : opts.storage;
  }

  private store(payload: Omit<DraftPayload, "version">, version: number) {
    const stored: StoredDraft = { annotationId: this.opts.annotationId, version, payload, storedAt: Date.now() };
    try {
      this.storage?.setItem(draftStorageKey(this.opts.annotationId), JSON.stringify(stored));
    } catch {
      // Quota or disabled storage: the in-memory retry still holds the labels.
    }
  }

  private unstore() {
    try {
      this.storage?.removeItem(draftStorageKey(this.opts.annotationId));
    } catch {
      // ignore
    }
  }

  get status(): SaveStatus {
    return this.info.status;
  }

  get message(): string | undefined {
    return this.info.message;
  }

  get hasUnsaved(): boolean {
    return this.dirty || this.inFlight !== null;
  }

  private set(info: SaveInfo) {
    this.info = info;
    this.opts.onChange(info);
  }

  private clearTimer() {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** A label changed: save after the debounce. */
  schedule(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.info.status === "saved" || this.info.status === "error") this.set({ status: "pending" });
    this.arm(this.opts.debounceMs ?? 600);
  }

  private arm(delay: number) {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  /** Save now if anything is unsaved; resolves once everything known so far is saved (or failed). */
  async flush(requestOptions: RequestOptions = {}): Promise<void> {
    this.clearTimer();
    while (!this.stopped) {
      if (this.inFlight) {
        await this.inFlight;
        continue;
      }
      if (!this.dirty) return;
      const ok = await this.saveOnce(requestOptions);
      if (!ok) return;
    }
  }

  private saveOnce(requestOptions: RequestOptions): Promise<boolean> {
    this.dirty = false;
    this.set({ status: "saving" });
    const current = this.opts.payload();
    let payload: DraftPayload;
    if (this.unconfirmed && this.unconfirmed.version === this.version) {
      // A retry: the same write again. Newer labels follow once it is settled.
      payload = this.unconfirmed;
      if (JSON.stringify(current.labels) !== JSON.stringify(payload.labels)) this.dirty = true;
    } else {
      payload = { ...current, version: this.version, request_id: newRequestId() };
    }
    this.unconfirmed = payload;
    // The newest labels, so a reload restores them if the server never gets them.
    this.store({ labels: current.labels, time_spent_ms: current.time_spent_ms }, this.version);
    let ok = false;
    const run = (async () => {
      try {
        const annotation = await this.opts.save(this.opts.annotationId, payload, requestOptions);
        if (this.stopped) return;
        this.unconfirmed = null;
        this.version = annotation.version;
        this.opts.onVersion?.(annotation.version);
        this.failures = 0;
        ok = true;
        if (!this.dirty) {
          this.unstore();
          this.set({ status: "saved", savedAt: Date.now() });
        }
      } catch (e) {
        if (this.stopped) return;
        this.dirty = true;
        this.handleFailure(e);
      }
    })();
    this.inFlight = run.finally(() => {
      this.inFlight = null;
    });
    return this.inFlight.then(() => ok);
  }

  private handleFailure(e: unknown) {
    const err = e instanceof ApiError ? e : new ApiError(0, "network_error", String(e));
    const retryable = isRetryable(err);
    // A definite refusal: the write was not applied; the next one is a new write.
    if (!retryable) this.unconfirmed = null;
    if (err.code === "conflict" || err.status === 409) {
      this.stop();
      this.set({ status: "conflict", message: err.message });
      return;
    }
    if (err.code === "project_deleted") {
      // The project was deleted: no later save can land either; say so and stop.
      this.stop();
      this.set({ status: "error", message: PROJECT_DELETED });
      return;
    }
    if (!retryable) {
      // Validation or permission problems: retrying the same payload cannot help.
      this.set({ status: "error", message: err.message });
      return;
    }
    const delays = this.opts.retryDelaysMs ?? [1000, 2000, 4000, 8000, 15000];
    // The server's Retry-After (a throttled save, a database restarting) is the least wait.
    const delay = Math.max(delays[Math.min(this.failures, delays.length - 1)], err.retryAfterMs ?? 0);
    this.failures += 1;
    if (err.status === 429) {
      this.set({ status: "error", message: `Saving too often — retrying in ${Math.ceil(delay / 1000)} s…` });
      this.arm(delay);
      return;
    }
    this.set({
      status: err.isNetwork ? "offline" : "error",
      message: err.isNetwork ? "Offline — retrying" : `${err.message} Retrying…`,
    });
    this.arm(delay);
  }

  /** The page is being hidden or unloaded: send what is unsaved with `keepalive`. */
  flushOnHide(): void {
    if (this.stopped || !this.dirty || this.inFlight) return;
    void this.flush({ keepalive: true });
  }

  /** The network came back: retry at once instead of waiting out the backoff. */
  retryNow(): void {
    if (!this.stopped && this.dirty && !this.inFlight) void this.flush();
  }

  /**
   * Before a write that names the version: a save that got no answer is sent again (same write,
   * same request_id) so that its answer says which version is current. Throws what that save
   * got (a retryable error leaves it pending).
   */
  private async settlePending(): Promise<void> {
    const payload = this.unconfirmed;
    if (!payload || this.stopped) return;
    try {
      const annotation = await this.opts.save(this.opts.annotationId, payload);
      this.unconfirmed = null;
      this.failures = 0;
      this.version = annotation.version;
      this.opts.onVersion?.(annotation.version);
    } catch (e) {
      if (!isRetryable(e)) this.unconfirmed = null;
      throw e;
    }
  }

  /**
   * Runs a write that must follow every save in flight (submit, skip) with the current version.
   * The write carries the labels itself, so pending changes are not saved first; if it fails
   * they are autosaved again as usual (a 409 stops the saver instead).
   *
   * A save still unanswered is settled first (sent again as the same write), so `fn` gets the
   * version the server has. With `retry`, `fn` is called again after a network or server error
   * until it gets an answer, with no autosave in between: `fn` must send the same write each
   * time (same request_id); a write that landed but whose answer was lost is then answered as
   * its success.
   */
  async exclusive<T>(fn: (version: number) => Promise<T>, retry?: RetryOptions): Promise<T> {
    this.clearTimer();
    while (this.inFlight) await this.inFlight;
    if (this.stopped && this.info.status === "conflict") {
      throw new ApiError(409, "conflict", this.info.message ?? "Conflict");
    }
    const wasDirty = this.dirty;
    this.dirty = false;
    // Keep the labels this write carries: if it never gets an answer and the page is reloaded,
    // the draft is restored from them.
    if (wasDirty) {
      const current = this.opts.payload();
      this.store({ labels: current.labels, time_spent_ms: current.time_spent_ms }, this.version);
    }
    try {
      const attempt = async () => {
        await this.settlePending();
        return fn(this.version);
      };
      const result = retry ? await retrySameWrite(attempt, retry) : await attempt();
      this.unstore(); // the write carried the labels: nothing is left to replay
      return result;
    } catch (e) {
      if (e instanceof ApiError && (e.code === "conflict" || e.status === 409)) {
        this.stop();
        this.set({ status: "conflict", message: e.message });
      } else if (wasDirty && !this.stopped) {
        this.dirty = true;
        this.arm(this.opts.debounceMs ?? 600);
      }
      throw e;
    }
  }

  /** Forget the dirty flag (the caller now owns the labels, e.g. after a submit). */
  markClean(): void {
    this.dirty = false;
    this.clearTimer();
  }

  /** The page goes away (SPA navigation): one last keepalive save of unsaved work, then stop. */
  close(): void {
    if (this.stopped) return;
    this.clearTimer();
    if (this.dirty && !this.inFlight) void this.saveOnce({ keepalive: true });
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }
}
