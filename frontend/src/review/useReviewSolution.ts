/**
 * The review page's data and status for one solution: the review detail and its loading phase,
 * the write in flight, a conflict (another reviewer resolved it: no more writes), the notice,
 * the queue's remaining count, the annotation being rejected and the reviewer's comment.
 * `load` (re)reads the detail and hands it to the page's reducer; useReviewWrites does the
 * writes through the setters here.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type Dispatch, type RefObject } from "react";
import * as api from "../api";
import type { Notice } from "../components/PageNotices";
import type { ReviewAction } from "./reviewState";

export type Phase = "loading" | "ready" | "error" | "done";
export type ReviewBusy = null | "adjudicate" | "accept" | "reject" | "gold" | "next";

export interface ReviewSolution {
  phase: Phase;
  setPhase: (phase: Phase) => void;
  loadError: string | null;
  detail: api.ReviewDetail | null;
  /** The detail as of the last render, for callbacks that must not go stale. */
  detailRef: RefObject<api.ReviewDetail | null>;
  setDetail: Dispatch<(d: api.ReviewDetail | null) => api.ReviewDetail | null>;
  busy: ReviewBusy;
  setBusy: (busy: ReviewBusy) => void;
  conflict: string | null;
  setConflict: (message: string | null) => void;
  notice: Notice | null;
  setNotice: (notice: Notice | null) => void;
  /** Unresolved items in the (filtered) queue, as shown ("1,000+" past the queue's cap). */
  remaining: string | null;
  setRemaining: (remaining: string) => void;
  /** The annotation being sent back (the reject dialog is open). */
  rejecting: api.ReviewAnnotation | null;
  setRejecting: (annotation: api.ReviewAnnotation | null) => void;
  /** The reviewer's comment, sent with a decision. */
  comment: string;
  setComment: (comment: string) => void;
  /** Conflict, busy or not loaded: no write starts. */
  readOnly: boolean;
  /** Read the detail again; `keepCursor`: the same solution, keep the step and column. */
  load: (keepCursor?: boolean) => Promise<void>;
}

export function useReviewSolution(solutionId: number, dispatch: Dispatch<ReviewAction>): ReviewSolution {
  const [phase, setPhase] = useState<Phase>("loading");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [detail, setDetail] = useState<api.ReviewDetail | null>(null);
  const [busy, setBusy] = useState<ReviewBusy>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [remaining, setRemaining] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<api.ReviewAnnotation | null>(null);
  const [comment, setComment] = useState("");

  const detailRef = useRef(detail);
  useLayoutEffect(() => {
    detailRef.current = detail;
  });

  const load = useCallback(
    async (keepCursor = false) => {
      try {
        const d = await api.getReview(solutionId);
        setDetail(d);
        dispatch({ type: "load", detail: d, keepCursor });
        setConflict(null);
        setComment("");
        setPhase("ready");
        document.title = `Review #${d.solution.id} · ${d.project.name} · steplab`;
      } catch (e) {
        const err = e as api.ApiError;
        if (err.code === "not_authenticated") return;
        setLoadError(err.status === 404 ? "This solution does not exist or is not in a project you review." : err.message);
        setPhase("error");
      }
    },
    [dispatch, solutionId],
  );

  // A notice that is not an error goes away by itself (later when it has a link to follow).
  useEffect(() => {
    if (!notice || notice.tone === "error") return;
    const t = setTimeout(() => setNotice(null), notice.link ? 6000 : 2500);
    return () => clearTimeout(t);
  }, [notice]);

  return {
    phase,
    setPhase,
    loadError,
    detail,
    detailRef,
    setDetail,
    busy,
    setBusy,
    conflict,
    setConflict,
    notice,
    setNotice,
    remaining,
    setRemaining,
    rejecting,
    setRejecting,
    comment,
    setComment,
    readOnly: conflict !== null || busy !== null || phase !== "ready",
    load,
  };
}
