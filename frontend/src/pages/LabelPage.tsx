/**
 * The labeling page: one solution at a time, every step rated from the keyboard.
 *
 * State lives in the labelState reducer; the DraftSaver autosaves it (debounced, versioned) and
 * is the only path for writes, so submit/skip never race a save. Keys are mapped in keyboard.ts.
 */
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type MouseEvent } from "react";
import { Link, useParams } from "react-router-dom";
import * as api from "../api";
import { EmptyState, Spinner } from "../components/ui";
import { IconCheck } from "../components/icons";
import { DraftSaver, readStoredDraft, type SaveInfo } from "../label/draftSaver";
import { FinishBar } from "../label/FinishBar";
import { commandForKey, type Command } from "../label/keyboard";
import { LabelTopBar } from "../label/LabelTopBar";
import {
  finishReasonFor,
  firstErrorIndex,
  firstUnrated,
  isComplete,
  isDimmed,
  labelReducer,
  labelsForDraft,
  labelsForSubmit,
  ratedCount,
  requiredCount,
  type LabelState,
} from "../label/labelState";
import { newRequestId } from "../label/idempotentWrite";
import { GuidelinesPanel, ProblemPanel } from "../label/ProblemPanel";
import { ReasonDialog, type ReasonKind } from "../label/ReasonDialog";
import { PendingRework, ReworkBanner } from "../label/ReworkBanner";
import { ShortcutsOverlay } from "../label/ShortcutsOverlay";
import { StepRow, type EditorKind } from "../label/StepRow";
import { keepKeyboardFlow, useKeyCommands } from "../label/useKeyCommands";
import { useWorkTimer } from "../label/useWorkTimer";

const EMPTY: LabelState = {
  stepIds: [],
  labels: [],
  suggested: [],
  current: 0,
  firstErrorMode: false,
  ratingValues: [-1, 0, 1],
  history: [],
  revision: 0,
};

type Phase = "loading" | "ready" | "empty" | "error";
interface Notice {
  /** `pending`: a write whose answer was lost is being retried; it stays until it settles. */
  tone: "error" | "success" | "info" | "pending";
  text: string;
}

/** Which row a submit error points at: the server's `step_index`, else "Step N" in the text. */
function stepFromError(err: api.ApiError, task: api.Task): number {
  const steps = task.solution.steps;
  const raw = err.details?.step_index;
  if (typeof raw === "number") {
    const pos = steps.findIndex((s) => s.index === raw);
    return pos >= 0 ? pos : Math.min(raw, steps.length - 1);
  }
  const m = /step (\d+)/i.exec(err.message);
  return m ? Math.min(Number(m[1]) - 1, steps.length - 1) : -1;
}

export function LabelPage() {
  const projectId = Number(useParams().projectId);
  const [phase, setPhase] = useState<Phase>("loading");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [task, setTask] = useState<api.Task | null>(null);
  const [state, dispatch] = useReducer(labelReducer, EMPTY);
  const [saveInfo, setSaveInfo] = useState<SaveInfo>({ status: "saved" });
  const [progress, setProgress] = useState<api.Progress | null>(null);
  const [showAnswer, setShowAnswer] = useState(false);
  const [guidelinesOpen, setGuidelinesOpen] = useState(false);
  const [showHelp, setShowHelp] = useState(false);
  const [editor, setEditor] = useState<{ index: number; kind: EditorKind } | null>(null);
  const [reason, setReason] = useState<ReasonKind | null>(null);
  const [busy, setBusy] = useState<null | "submit" | "skip" | "next">(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const { elapsed: elapsedMs, reset: resetTimer, display: timerDisplay } = useWorkTimer();
  const saverRef = useRef<DraftSaver | null>(null);
  const stateRef = useRef(state);
  const taskRef = useRef(task);
  const lastSentTime = useRef(0);
  // Submit and skip retry a write whose answer was lost; the wait ends early when the network
  // is back, and the retries stop when the page goes away.
  const wakeRetry = useRef<(() => void) | null>(null);
  const unmounted = useRef(false);
  const retryWait = useCallback(
    (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          if (wakeRetry.current === done) wakeRetry.current = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wakeRetry.current = done;
      }),
    [],
  );
  useLayoutEffect(() => {
    stateRef.current = state;
    taskRef.current = task;
  });

  const conflict = saveInfo.status === "conflict";
  const readOnly = conflict || busy !== null;

  // The project's name for the top bar, also when the queue is empty (no task to carry it).
  const [projectName, setProjectName] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    api
      .getProject(projectId)
      .then((p) => alive && setProjectName(p.name))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [projectId]);

  // Annotations a reviewer sent back (their rework drafts), shown while another one is open.
  const [rejections, setRejections] = useState<api.Rejection[]>([]);
  const refreshProgress = useCallback(() => {
    api
      .getProgress(projectId)
      .then(setProgress)
      .catch(() => undefined);
    api
      .listRejections(projectId)
      .then((rows) => setRejections(Array.isArray(rows) ? rows : []))
      .catch(() => undefined);
  }, [projectId]);

  const loadNext = useCallback(async () => {
    saverRef.current?.stop();
    saverRef.current = null;
    setBusy("next");
    try {
      const next = await api.nextTask(projectId);
      refreshProgress();
      setEditor(null);
      setReason(null);
      setShowAnswer(false);
      setSaveInfo({ status: "saved" });
      if (!next) {
        setTask(null);
        setPhase("empty");
        document.title = "All done · steplab";
        return;
      }
      setTask(next);
      // Labels this browser kept because the server never confirmed them (offline, server down).
      const stored = readStoredDraft(next.annotation.id, next.annotation.version);
      const loaded = stored
        ? { ...next, annotation: { ...next.annotation, labels: stored.payload.labels } }
        : next;
      dispatch({ type: "load", task: loaded });
      resetTimer(next.annotation.time_spent_ms);
      lastSentTime.current = next.annotation.time_spent_ms;
      saverRef.current = new DraftSaver({
        annotationId: next.annotation.id,
        version: next.annotation.version,
        payload: () => {
          const ms = elapsedMs();
          lastSentTime.current = ms;
          return { labels: labelsForDraft(stateRef.current), time_spent_ms: ms };
        },
        save: api.saveDraft,
        onChange: setSaveInfo,
      });
      if (stored) saverRef.current.schedule();
      setPhase("ready");
      document.title = `${next.project.name} · steplab`;
      window.scrollTo({ top: 0 });
    } catch (e) {
      const err = e as api.ApiError;
      if (err.code !== "not_authenticated") {
        setLoadError(err.isNetwork ? "Cannot reach the server. Check your connection and reload." : err.message);
        setPhase("error");
      }
    } finally {
      setBusy(null);
    }
  }, [projectId, refreshProgress, elapsedMs, resetTimer]);

  const started = useRef<number | null>(null);
  useEffect(() => {
    if (started.current === projectId) return; // StrictMode runs effects twice in development
    started.current = projectId;
    void loadNext();
  }, [projectId, loadNext]);

  // Autosave after every change to the labels.
  useEffect(() => {
    if (state.revision > 0) saverRef.current?.schedule();
  }, [state.revision]);

  // Save with keepalive when the page is hidden or closed; retry as soon as the network is back.
  useEffect(() => {
    unmounted.current = false; // StrictMode mounts, unmounts and mounts again in development
    const hide = () => {
      const saver = saverRef.current;
      if (!saver) return;
      if (elapsedMs() - lastSentTime.current > 5000) saver.schedule();
      saver.flushOnHide();
    };
    const onVisibility = () => document.hidden && hide();
    const online = () => {
      saverRef.current?.retryNow();
      wakeRetry.current?.();
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", hide);
    window.addEventListener("online", online);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", hide);
      window.removeEventListener("online", online);
      saverRef.current?.close();
      unmounted.current = true;
    };
  }, [elapsedMs]);

  useEffect(() => {
    if (!notice || notice.tone === "error" || notice.tone === "pending") return;
    const t = setTimeout(() => setNotice(null), 2500);
    return () => clearTimeout(t);
  }, [notice]);

  const submit = useCallback(
    async (finish: api.FinishReason | null, text = "") => {
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
      };
      try {
        await saver.exclusive((version) => api.submitAnnotation(t.annotation.id, { ...body, version }), {
          wait: retryWait,
          cancelled: () => unmounted.current,
          onRetry: (err) =>
            setNotice({
              tone: "pending",
              text: err.isNetwork
                ? "The connection dropped; checking whether it was submitted…"
                : `${err.message} Checking whether it was submitted…`,
            }),
        });
        saver.stop();
        setReason(null);
        setBusy(null);
        setNotice({
          tone: "success",
          text: reasonCode === "give_up" ? "Gave up on the solution" : reasonCode === "bad_problem" ? "Problem reported" : "Submitted",
        });
        await loadNext();
      } catch (e) {
        const err = e as api.ApiError;
        setBusy(null);
        if (err.code === "conflict" || err.status === 409) return; // the banner says it
        if (err.code === "not_authenticated") return;
        if (err.code === "validation_error") {
          setNotice({ tone: "error", text: err.message });
          const i = stepFromError(err, t);
          if (i >= 0) dispatch({ type: "goto", index: i });
          if (finish === "give_up" || finish === "bad_problem") return;
          setReason(null);
          return;
        }
        setNotice({ tone: "error", text: `Not submitted: ${err.message}` });
      }
    },
    [busy, loadNext, elapsedMs, retryWait],
  );

  const skip = useCallback(async () => {
    const t = taskRef.current;
    const saver = saverRef.current;
    if (!t || !saver || busy || saver.status === "conflict") return;
    setBusy("skip");
    setNotice(null);
    const requestId = newRequestId(); // the same on every retry of this skip
    try {
      await saver.exclusive(() => api.skipAnnotation(t.annotation.id, requestId), {
        wait: retryWait,
        cancelled: () => unmounted.current,
        onRetry: (err) =>
          setNotice({
            tone: "pending",
            text: err.isNetwork
              ? "The connection dropped; checking whether it was skipped…"
              : `${err.message} Checking whether it was skipped…`,
          }),
      });
      saver.stop();
      setBusy(null);
      setNotice({ tone: "info", text: "Skipped" });
      await loadNext();
    } catch (e) {
      const err = e as api.ApiError;
      setBusy(null);
      if (err.status !== 409 && err.code !== "not_authenticated") {
        setNotice({ tone: "error", text: `Not skipped: ${err.message}` });
      }
    }
  }, [busy, loadNext, retryWait]);

  // --- row callbacks (stable, so StepRow's memo holds) --------------------------------------
  const onRate = useCallback((index: number, value: api.Rating) => dispatch({ type: "rate", index, value }), []);
  const onAcceptSuggestion = useCallback(
    (index: number, value: api.Rating) => dispatch({ type: "acceptSuggestion", index, value }),
    [],
  );
  const onSelect = useCallback((index: number) => dispatch({ type: "goto", index }), []);
  const onToggleUnsure = useCallback((index: number) => dispatch({ type: "toggleUnsure", index }), []);
  const onOpenEditor = useCallback((index: number, kind: EditorKind) => {
    dispatch({ type: "goto", index });
    setEditor({ index, kind });
  }, []);
  const closeEditor = useCallback(() => {
    setEditor(null);
    (document.activeElement as HTMLElement | null)?.blur?.();
  }, []);
  const onSaveEditor = useCallback(
    (index: number, kind: EditorKind, text: string) => {
      const step = taskRef.current?.solution.steps[index];
      // Saving the untouched step text as the "correction" would record a change that isn't one.
      const value = kind === "alternative" && step && text.trim() === step.text.trim() ? "" : text;
      dispatch(kind === "comment" ? { type: "setComment", index, text: value } : { type: "setAlternative", index, text: value });
      closeEditor();
    },
    [closeEditor],
  );

  // --- keyboard -------------------------------------------------------------------------------
  const handle = useCallback(
    (cmd: Command): boolean => {
      if (showHelp) {
        if (cmd.type === "toggleHelp" || cmd.type === "escape") {
          setShowHelp(false);
          return true;
        }
        return false;
      }
      if (reason) {
        if (cmd.type === "escape") {
          setReason(null);
          return true;
        }
        return false;
      }
      if (cmd.type === "toggleHelp") {
        setShowHelp(true);
        return true;
      }
      if (cmd.type === "escape") {
        if (notice) setNotice(null);
        return !!notice;
      }
      if (phase !== "ready" || !taskRef.current) return false;
      const n = stateRef.current.labels.length;
      switch (cmd.type) {
        case "move":
          dispatch({ type: "move", delta: cmd.delta });
          return true;
        case "first":
          dispatch({ type: "goto", index: 0 });
          return true;
        case "last":
          dispatch({ type: "goto", index: n - 1 });
          return true;
        case "toggleAnswer":
          setShowAnswer((v) => !v);
          return true;
        case "toggleGuidelines":
          setGuidelinesOpen((v) => !v);
          return true;
        default:
          break;
      }
      if (readOnly) return cmd.type !== "undo"; // swallow edits while busy or in conflict
      switch (cmd.type) {
        case "rate":
          dispatch({ type: "rate", value: cmd.value });
          return true;
        case "clear":
          dispatch({ type: "clearRating" });
          return true;
        case "toggleUnsure":
          dispatch({ type: "toggleUnsure" });
          return true;
        case "undo":
          dispatch({ type: "undo" });
          return true;
        case "acceptSuggestions":
          dispatch({ type: "acceptSuggestions" });
          return true;
        case "editAlternative":
          setEditor({ index: stateRef.current.current, kind: "alternative" });
          return true;
        case "editComment":
          setEditor({ index: stateRef.current.current, kind: "comment" });
          return true;
        case "submit":
          void submit(null);
          return true;
        case "skip":
          void skip();
          return true;
        case "giveUp":
          setReason("give_up");
          return true;
        case "badProblem":
          setReason("bad_problem");
          return true;
        default:
          return false;
      }
    },
    [notice, phase, readOnly, reason, showHelp, skip, submit],
  );

  useKeyCommands((e) => commandForKey(e, stateRef.current.ratingValues), handle);
  const onMouseDown = (e: MouseEvent) => keepKeyboardFlow(e, ".label-main button, .finish-bar button");

  // --- render ---------------------------------------------------------------------------------
  const fe = firstErrorIndex(state);
  const binary = !state.ratingValues.includes(0);
  const hasSuggestions = !!task?.project.show_suggestions && state.suggested.some((v, i) => v !== null && state.labels[i]?.rating === null);

  return (
    <div className="label-page" onMouseDown={onMouseDown}>
      <LabelTopBar
        projectId={projectId}
        projectName={task?.project.name ?? projectName}
        progress={progress}
        timeMs={phase === "ready" ? timerDisplay : null}
        onHelp={() => setShowHelp(true)}
      />

      {conflict && (
        <div className="conflict-banner" role="alert" data-testid="conflict-banner">
          <div className="conflict-text">
            <strong>This solution was changed in another tab or window.</strong> Reload to get the latest version — nothing
            here will be saved over it.
            {saveInfo.message && !/another tab/i.test(saveInfo.message) && (
              <div className="conflict-detail">{saveInfo.message}</div>
            )}
          </div>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()} data-testid="conflict-reload">
            Reload
          </button>
        </div>
      )}

      {phase === "loading" && (
        <main className="label-main">
          <Spinner label="Loading the next solution…" />
        </main>
      )}

      {phase === "error" && (
        <main className="label-main">
          <EmptyState title="Could not load a solution">
            <p>{loadError}</p>
            <button type="button" className="btn" onClick={() => void loadNext()}>
              Try again
            </button>
          </EmptyState>
        </main>
      )}

      {phase === "empty" && (
        <main className="label-main">
          <EmptyState
            title="All done — nothing left to label in this project"
            icon={<IconCheck width={28} height={28} />}
            testId="queue-empty"
          >
            <p>
              {progress
                ? `You submitted ${progress.done_today} ${progress.done_today === 1 ? "solution" : "solutions"} today. New work appears here when it is imported.`
                : "New work appears here when it is imported."}
            </p>
            <Link to="/projects" className="btn btn-primary">
              Back to projects
            </Link>
          </EmptyState>
        </main>
      )}

      {phase === "ready" && task && (
        <>
          <main className={`label-main${busy === "next" ? " is-loading" : ""}`}>
            {task.rework && <ReworkBanner rework={task.rework} />}
            <PendingRework
              items={rejections.filter((r) => r.rework_status === "draft" && r.rework_id !== task.annotation.id)}
            />
            <ProblemPanel task={task} showAnswer={showAnswer} onToggleAnswer={() => setShowAnswer((v) => !v)} />
            <GuidelinesPanel
              guidelines={task.project.guidelines}
              open={guidelinesOpen}
              onToggle={() => setGuidelinesOpen((v) => !v)}
            />
            <section className="card steps-panel" aria-label="Solution steps">
              <div className="panel-head steps-head">
                <span className="eyebrow">Solution</span>
                {task.solution.generator && <span className="tag mono">{task.solution.generator}</span>}
                <span className="muted small">
                  {state.labels.length} steps
                  {state.firstErrorMode && " · stop at the first wrong step"}
                </span>
                <div className="grow" />
                {hasSuggestions && (
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() => dispatch({ type: "acceptSuggestions" })}
                    disabled={readOnly}
                    data-testid="accept-suggestions"
                  >
                    Accept suggestions <span className="kbd">A</span>
                  </button>
                )}
              </div>
              <div className="steps" role="list">
                {task.solution.steps.map((step, i) => (
                  <StepRow
                    key={step.id}
                    step={step}
                    label={state.labels[i]}
                    index={i}
                    isCurrent={state.current === i}
                    dimmed={isDimmed(state, i)}
                    isFirstError={fe === i}
                    ratingValues={state.ratingValues}
                    showSuggestions={task.project.show_suggestions}
                    editor={editor?.index === i ? editor.kind : null}
                    readOnly={readOnly}
                    onRate={onRate}
                    onAcceptSuggestion={onAcceptSuggestion}
                    onSelect={onSelect}
                    onToggleUnsure={onToggleUnsure}
                    onOpenEditor={onOpenEditor}
                    onSaveEditor={onSaveEditor}
                    onCancelEditor={closeEditor}
                  />
                ))}
              </div>
              {fe >= 0 && fe < state.labels.length - 1 && (
                <div className="stopped-note">
                  Stopped at step {fe + 1}: the steps after the first wrong one are not rated.
                </div>
              )}
            </section>
          </main>
          <FinishBar
            saveInfo={saveInfo}
            rated={ratedCount(state)}
            required={requiredCount(state)}
            stoppedAt={fe}
            binary={binary}
            busy={busy}
            disabled={readOnly}
            onSubmit={() => void submit(null)}
            onSkip={() => void skip()}
            onGiveUp={() => setReason("give_up")}
            onBadProblem={() => setReason("bad_problem")}
          />
        </>
      )}

      {notice && (
        <div
          className={`toast toast-${notice.tone}`}
          role={notice.tone === "error" ? "alert" : "status"}
          data-testid="notice"
          data-tone={notice.tone}
        >
          {notice.tone === "pending" && <span className="toast-spinner" aria-hidden="true" />}
          <span>{notice.text}</span>
          {notice.tone === "error" && (
            <button type="button" className="toast-close" onClick={() => setNotice(null)} aria-label="Dismiss">
              ×
            </button>
          )}
        </div>
      )}
      {showHelp && <ShortcutsOverlay binary={binary} onClose={() => setShowHelp(false)} />}
      {reason && (
        <ReasonDialog
          kind={reason}
          busy={busy === "submit"}
          onCancel={() => setReason(null)}
          onConfirm={(text) => void submit(reason, text)}
        />
      )}
    </div>
  );
}
