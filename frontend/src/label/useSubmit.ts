/**
 * Submit and skip on the labeling page. Both go through the DraftSaver's `exclusive`, so they
 * never race a save, and both retry a write whose answer was lost with the same request id (the
 * server answers a retry of an applied write as the success it was). A retry's wait ends early
 * when the network is back, and the retries stop when the page goes away.
 */
import { useCallback, useEffect, useRef, type Dispatch, type RefObject } from "react";
import type { ApiError } from "../api/client";
import { skipAnnotation, submitAnnotation, type FinishReason, type Submitted, type Task } from "../api/labeling";
import { resubmitAnnotation } from "../api/myWork";
import type { Notice } from "../components/PageNotices";
import { PROJECT_DELETED, type DraftSaver } from "./draftSaver";
import { newRequestId } from "./idempotentWrite";
import {
  finishReasonFor,
  firstUnrated,
  isComplete,
  labelsForSubmit,
  ratedCount,
  requiredCount,
  type LabelAction,
  type LabelState,
} from "./labelState";
import type { ReasonKind } from "./ReasonDialog";
import { isEditing, type Busy } from "./useClaim";

/** Which row a submit error points at: the server's `step_index`, else "Step N" in the text. */
export function stepFromError(err: ApiError, task: Task): number {
  const steps = task.solution.steps;
  const raw = err.details?.step_index;
  if (typeof raw === "number") {
    const pos = steps.findIndex((s) => s.index === raw);
    return pos >= 0 ? pos : Math.min(raw, steps.length - 1);
  }
  const m = /step (\d+)/i.exec(err.message);
  return m ? Math.min(Number(m[1]) - 1, steps.length - 1) : -1;
}

/** A wait between retries that the `online` event ends early, and whether the page is gone. */
function useRetryWait() {
  const wake = useRef<(() => void) | null>(null);
  const unmounted = useRef(false);
  const wait = useCallback(
    (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          if (wake.current === done) wake.current = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake.current = done;
      }),
    [],
  );
  useEffect(() => {
    unmounted.current = false; // StrictMode mounts, unmounts and mounts again in development
    const online = () => wake.current?.();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      unmounted.current = true;
    };
  }, []);
  const cancelled = useCallback(() => unmounted.current, []);
  return { wait, cancelled };
}

/** The project was deleted under the annotator (410 `project_deleted`): nothing more saves. */
export const projectDeletedNotice: Notice = { tone: "error", text: PROJECT_DELETED };

/** What the page says while a submit or skip whose answer was lost is tried again. */
function retryNotice(err: ApiError, done: "submitted" | "skipped"): Notice {
  return {
    tone: "pending",
    text: err.isNetwork
      ? `The connection dropped; checking whether it was ${done}…`
      : `${err.message} Checking whether it was ${done}…`,
  };
}

function withoutNext<T extends { next?: boolean }>(body: T): Omit<T, "next"> {
  const { next: _next, ...rest } = body;
  return rest;
}

export function useSubmit({
  stateRef,
  taskRef,
  saverRef,
  busy,
  setBusy,
  setNotice,
  setReason,
  dispatch,
  loadNext,
  elapsedMs,
}: {
  stateRef: RefObject<LabelState>;
  taskRef: RefObject<Task | null>;
  saverRef: RefObject<DraftSaver | null>;
  busy: Busy;
  setBusy: (busy: Busy) => void;
  setNotice: (notice: Notice | null) => void;
  setReason: (reason: ReasonKind | null) => void;
  dispatch: Dispatch<LabelAction>;
  loadNext: (claimed?: Task | null) => Promise<void>;
  elapsedMs: () => number;
}) {
  const { wait, cancelled } = useRetryWait();

  const submit = useCallback(
    async (finish: FinishReason | null, text = "") => {
      const s = stateRef.current;
      const t = taskRef.current;
      const saver = saverRef.current;
      if (!t || !saver || busy || saver.status === "conflict") return;
      const reasonCode = finish ?? finishReasonFor(s);
      if ((reasonCode === "solution" || reasonCode === "found_error") && !isComplete(s)) {
        const i = firstUnrated(s);
        const remaining = requiredCount(s) - ratedCount(s);
        setNotice({
          tone: "error",
          unratedStep: i,
          text: s.firstErrorMode
            ? `Step ${i + 1} has no rating. Rate each step until the first wrong one (or the end) before you submit.`
            : `Step ${i + 1} has no rating. ${remaining === 1 ? "1 step is" : `${remaining} steps are`} left to rate before you can submit.`,
        });
        dispatch({ type: "goto", index: i });
        return;
      }
      setBusy("submit");
      setNotice(null);
      // One submit, one id: a retry after a lost answer sends the same write, which the server
      // answers as the success it was if the first one landed.
      const requestId = newRequestId();
      const body = {
        labels: labelsForSubmit(s),
        finish_reason: reasonCode,
        finish_reason_text: text,
        time_spent_ms: elapsedMs(),
        request_id: requestId,
        next: true, // the answer brings the next task: no second request between tasks
      };
      const editing = isEditing(t);
      try {
        const done = await saver.exclusive(
          (version): Promise<Submitted> =>
            editing
              ? resubmitAnnotation(t.annotation.id, { ...withoutNext(body), version })
              : submitAnnotation(t.annotation.id, { ...body, version }),
          {
            wait,
            cancelled,
            onRetry: (err) => setNotice(retryNotice(err, "submitted")),
          },
        );
        saver.stop();
        setReason(null);
        setBusy(null);
        setNotice({
          tone: "success",
          text:
            reasonCode === "give_up"
              ? "Gave up on the solution"
              : reasonCode === "bad_problem"
                ? "Problem reported"
                : editing
                  ? "Resubmitted"
                  : "Submitted",
        });
        // A resubmit brings no next task: the queue's next (the draft left for Back first).
        await loadNext(editing ? undefined : done.next_task);
      } catch (e) {
        const err = e as ApiError;
        setBusy(null);
        if (err.code === "conflict" || err.status === 409) return; // the banner says it
        if (err.code === "not_authenticated") return;
        if (err.code === "project_deleted") {
          saver.stop();
          setNotice(projectDeletedNotice);
          return;
        }
        if (err.code === "validation_error") {
          const i = stepFromError(err, t);
          const unrated = i >= 0 && /no rating/i.test(err.message);
          setNotice({ tone: "error", text: err.message, ...(unrated ? { unratedStep: i } : {}) });
          if (i >= 0) dispatch({ type: "goto", index: i });
          if (finish === "give_up" || finish === "bad_problem") return;
          setReason(null);
          return;
        }
        setNotice({ tone: "error", text: `Not submitted: ${err.message}` });
      }
    },
    [busy, loadNext, elapsedMs, wait, cancelled, stateRef, taskRef, saverRef, setBusy, setNotice, setReason, dispatch],
  );

  const skip = useCallback(async () => {
    const t = taskRef.current;
    const saver = saverRef.current;
    if (!t || !saver || busy || saver.status === "conflict") return;
    if (isEditing(t)) {
      // A submission reopened for a change is not skipped: it is left as it was submitted.
      saver.stop();
      setNotice({ tone: "info", text: "Left as submitted" });
      await loadNext();
      return;
    }
    setBusy("skip");
    setNotice(null);
    const requestId = newRequestId(); // the same on every retry of this skip
    try {
      await saver.exclusive(() => skipAnnotation(t.annotation.id, requestId), {
        wait,
        cancelled,
        onRetry: (err) => setNotice(retryNotice(err, "skipped")),
      });
      saver.stop();
      setBusy(null);
      setNotice({ tone: "info", text: "Skipped" });
      await loadNext();
    } catch (e) {
      const err = e as ApiError;
      setBusy(null);
      if (err.code === "project_deleted") {
        saver.stop();
        setNotice(projectDeletedNotice);
      } else if (err.status !== 409 && err.code !== "not_authenticated") {
        setNotice({ tone: "error", text: `Not skipped: ${err.message}` });
      }
    }
  }, [busy, loadNext, wait, cancelled, taskRef, saverRef, setBusy, setNotice]);

  return { submit, skip };
}
