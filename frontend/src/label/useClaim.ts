/**
 * The labeling page's claim: the task it holds, the DraftSaver that autosaves it, and the
 * annotator's progress. `loadNext` claims the next task (the annotator's own unexpired draft
 * first) and starts a saver for it; labels this browser kept because the server never confirmed
 * them are restored and saved again. The saver saves after every change, and with keepalive when
 * the page is hidden or closed.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type Dispatch, type RefObject } from "react";
import type { ApiError } from "../api/client";
import {
  getProgress,
  listRejectionsToRework,
  nextTask,
  saveDraft,
  type Annotation,
  type DraftPayload,
  type Progress,
  type Rejection,
  type Task,
} from "../api/labeling";
import { reopenAnnotation } from "../api/myWork";
import { getProject } from "../api/projects";
import { DraftSaver, readStoredDraft, type SaveInfo } from "./draftSaver";
import { labelsForDraft, type LabelAction, type LabelState } from "./labelState";

export type Phase = "loading" | "ready" | "empty" | "error";
export type Busy = null | "submit" | "skip" | "next";

/** A submission reopened for a change (My work, Back): resubmitted whole, never autosaved. */
export function isEditing(task: Task | null | undefined): boolean {
  return task?.annotation.status === "submitted";
}

/** The saver's write while a submission is edited: kept in the page, confirmed at once. */
function keepInPage(task: Task) {
  return async (_id: number, payload: DraftPayload): Promise<Annotation> => ({
    ...task.annotation,
    labels: payload.labels,
    version: payload.version,
  });
}

export function useClaim({
  projectId,
  stateRef,
  revision,
  dispatch,
  elapsedMs,
  resetTimer,
  onClaim,
  openId,
  onOpenFailed,
}: {
  projectId: number;
  /** The labels as they are now (the saver reads them when it writes). */
  stateRef: RefObject<LabelState>;
  /** The reducer's revision: every change to the labels schedules a save. */
  revision: number;
  dispatch: Dispatch<LabelAction>;
  elapsedMs: () => number;
  resetTimer: (ms: number) => void;
  /** Called when a claim comes back, before the task is shown: reset the page's own state. */
  onClaim: () => void;
  /** An annotation to open first (My work's "Open"), instead of the queue's next task. */
  openId?: number | null;
  /** Opening `openId` failed (taken by others since, not yours): the queue's next is shown. */
  onOpenFailed?: (err: ApiError) => void;
}) {
  const [phase, setPhase] = useState<Phase>("loading");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [task, setTask] = useState<Task | null>(null);
  const [saveInfo, setSaveInfo] = useState<SaveInfo>({ status: "saved" });
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const saverRef = useRef<DraftSaver | null>(null);
  const taskRef = useRef(task);
  const lastSentTime = useRef(0);
  useLayoutEffect(() => {
    taskRef.current = task;
  });

  // The project's name for the top bar, also when the queue is empty (no task to carry it).
  const [projectName, setProjectName] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    getProject(projectId)
      .then((p) => alive && setProjectName(p.name))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [projectId]);

  // Annotations a reviewer sent back that wait for rework (all of them, however many), shown
  // while another one is open.
  const [rejections, setRejections] = useState<Rejection[]>([]);
  const refreshProgress = useCallback(() => {
    getProgress(projectId)
      .then(setProgress)
      .catch(() => undefined);
    listRejectionsToRework(projectId)
      .then((rows) => setRejections(Array.isArray(rows) ? rows : []))
      .catch(() => undefined);
  }, [projectId]);

  /** Show the next task: `claimed` when a submit's answer brought it (null: none left), else
   * claimed here. */
  const loadNext = useCallback(async (claimed?: Task | null) => {
    saverRef.current?.stop();
    saverRef.current = null;
    setBusy("next");
    try {
      const next = claimed !== undefined ? claimed : await nextTask(projectId);
      refreshProgress();
      onClaim();
      setSaveInfo({ status: "saved" });
      if (!next) {
        setTask(null);
        setPhase("empty");
        document.title = "All done · steplab";
        return;
      }
      setTask(next);
      // A submission reopened from My work or Back is edited here and sent whole by a resubmit:
      // nothing is autosaved to the server (it is no draft), so its "saves" stay in the page.
      const editing = isEditing(next);
      // Labels this browser kept because the server never confirmed them (offline, server down).
      const stored = editing ? null : readStoredDraft(next.annotation.id, next.annotation.version);
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
        save: editing ? keepInPage(next) : saveDraft,
        onChange: setSaveInfo,
        ...(editing ? { storage: null } : {}),
      });
      if (stored) saverRef.current.schedule();
      setPhase("ready");
      document.title = `${next.project.name} · steplab`;
      window.scrollTo({ top: 0 });
    } catch (e) {
      const err = e as ApiError;
      if (err.code !== "not_authenticated") {
        setLoadError(err.isNetwork ? "Cannot reach the server. Check your connection and reload." : err.message);
        setPhase("error");
      }
    } finally {
      setBusy(null);
    }
  }, [projectId, refreshProgress, onClaim, dispatch, elapsedMs, resetTimer, stateRef]);

  /** Open a task another request brings (Back, My work's Open) in place of the current one:
   * the current draft's last change is sent first (keepalive). False when there was none. */
  const openTask = useCallback(
    async (fetchTask: () => Promise<Task | null>): Promise<boolean> => {
      const opened = await fetchTask();
      if (!opened) return false;
      saverRef.current?.close();
      saverRef.current = null;
      await loadNext(opened);
      return true;
    },
    [loadNext],
  );

  const started = useRef<number | null>(null);
  useEffect(() => {
    if (started.current === projectId) return; // StrictMode runs effects twice in development
    started.current = projectId;
    if (openId) {
      // My work's "Open": that annotation (reopened; a skip is claimed again), else the queue.
      reopenAnnotation(openId)
        .then((t) => loadNext(t))
        .catch((e: ApiError) => {
          onOpenFailed?.(e);
          void loadNext();
        });
      return;
    }
    void loadNext();
  }, [projectId, loadNext, openId, onOpenFailed]);

  // Autosave after every change to the labels.
  useEffect(() => {
    if (revision > 0) saverRef.current?.schedule();
  }, [revision]);

  // Save with keepalive when the page is hidden or closed; retry as soon as the network is back.
  useEffect(() => {
    const hide = () => {
      const saver = saverRef.current;
      if (!saver) return;
      if (elapsedMs() - lastSentTime.current > 5000) saver.schedule();
      saver.flushOnHide();
    };
    const onVisibility = () => document.hidden && hide();
    const online = () => saverRef.current?.retryNow();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", hide);
    window.addEventListener("online", online);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", hide);
      window.removeEventListener("online", online);
      saverRef.current?.close();
    };
  }, [elapsedMs]);

  return {
    phase,
    loadError,
    task,
    taskRef,
    saveInfo,
    progress,
    rejections,
    projectName,
    busy,
    setBusy,
    saverRef,
    loadNext,
    openTask,
  };
}
