/**
 * Every write on the review page: adjudicate, accept, reject, gold, comments, and going on to the
 * next item in the queue. A decision that resolves the solution opens the next item; a 409
 * (another reviewer resolved it meanwhile) sets the conflict, which stops all writes.
 * The state they change lives in useReviewSolution; its setters are useState's (stable, so left
 * out of the callbacks' dependencies).
 */
import { useCallback, type Dispatch, type RefObject } from "react";
import type { ApiError } from "../api/client";
import { formatCount } from "../components/ui";
import { setGold, unsetGold } from "../api/gold";
import type { Role } from "../api/projects";
import {
  acceptAnnotation,
  addComment,
  adjudicateSolution,
  getReviewQueue,
  rejectAnnotation,
  type ReviewAnnotation,
  type ReviewQueueFilters,
} from "../api/review";
import { adjudicationLabels, decidedRatings, missingDecisions, type ReviewAction, type ReviewState } from "./reviewState";
import type { ReviewSolution } from "./useReviewSolution";

export function useReviewWrites({
  session,
  projectId,
  solutionId,
  filters,
  query,
  navigate,
  stateRef,
  selected,
  role,
  dispatch,
}: {
  /** The solution's data and status (useReviewSolution): the writes set them. */
  session: ReviewSolution;
  projectId: number;
  solutionId: number;
  /** The queue's filters (from the URL): the next item is the next one in that queue. */
  filters: ReviewQueueFilters;
  /** The same filters as a query string, kept in the links. */
  query: string;
  navigate: (to: string) => void;
  stateRef: RefObject<ReviewState>;
  /** The annotation column the reviewer selected (accept and reject act on it). */
  selected: ReviewAnnotation | null;
  role: Role | null;
  dispatch: Dispatch<ReviewAction>;
}) {
  const { detailRef, readOnly, comment, load, rejecting, setBusy, setConflict, setNotice } = session;
  const { setDetail, setPhase, setRemaining, setRejecting } = session;
  const fail = useCallback((e: unknown, what: string) => {
    const err = e as ApiError;
    if (err.code === "not_authenticated") return;
    if (err.status === 409) {
      setConflict(err.message || "Another reviewer changed this solution while you were looking at it.");
      return;
    }
    setNotice({ tone: "error", text: err.isNetwork ? `You are offline: ${what} was not saved.` : `${what}: ${err.message}` });
  }, []);

  /** The item after this one in the (filtered) queue of unresolved items, wrapping around; after
   * a decision this one is resolved and left the queue, so that is the queue's first item. */
  const goNext = useCallback(
    async (resolvedText: string | null) => {
      setBusy("next");
      try {
        const page = await getReviewQueue(projectId, { ...filters, state: "unresolved", limit: 100, offset: 0 });
        const ids = page.results.map((r) => r.id);
        const at = ids.indexOf(solutionId);
        const nextId = at < 0 ? ids[0] : (ids[at + 1] ?? ids[0]);
        const next = nextId !== undefined && nextId !== solutionId ? nextId : null;
        setRemaining(formatCount(page.count, page.count_capped));
        if (!resolvedText && next === null) {
          setNotice({ tone: "info", text: "No other item in the queue" });
          return;
        }
        if (resolvedText) {
          setNotice({
            tone: "success",
            text: resolvedText,
            link: { to: `/projects/${projectId}/review/${solutionId}${query}`, label: "View" },
          });
        }
        if (next !== null) navigate(`/projects/${projectId}/review/${next}${query}`);
        else setPhase("done");
      } catch (e) {
        fail(e, "Loading the next item");
      } finally {
        setBusy(null);
      }
    },
    [fail, filters, navigate, projectId, query, solutionId],
  );

  const adjudicate = useCallback(async () => {
    const d = detailRef.current;
    const s = stateRef.current;
    if (!d || readOnly) return;
    const missing = missingDecisions(s);
    if (missing.length) {
      setNotice({
        tone: "error",
        text: `Step ${missing[0] + 1} has no decision. ${missing.length === 1 ? "1 step is" : `${missing.length} steps are`} left to decide.`,
        unratedStep: missing[0],
      });
      dispatch({ type: "goto", index: missing[0] });
      return;
    }
    setBusy("adjudicate");
    try {
      await adjudicateSolution(d.solution.id, {
        labels: adjudicationLabels(s),
        comment: comment.trim(),
        expected_resolution_id: d.resolution?.id ?? null,
      });
      setBusy(null);
      await goNext(`Resolved #${d.solution.id} (adjudicated)`);
    } catch (e) {
      setBusy(null);
      fail(e, "Not resolved");
    }
  }, [comment, fail, goNext, readOnly]);

  const accept = useCallback(async () => {
    const d = detailRef.current;
    if (!d || !selected || readOnly) return;
    if (selected.status !== "submitted") {
      setNotice({ tone: "error", text: `${selected.annotator}'s annotation is ${selected.status}; only submitted ones can be accepted.` });
      return;
    }
    setBusy("accept");
    try {
      await acceptAnnotation(selected.id, { comment: comment.trim(), expected_resolution_id: d.resolution?.id ?? null });
      setBusy(null);
      await goNext(`Resolved #${d.solution.id} (accepted ${selected.annotator}'s labels)`);
    } catch (e) {
      setBusy(null);
      fail(e, "Not accepted");
    }
  }, [comment, fail, goNext, readOnly, selected]);

  const startReject = useCallback(() => {
    if (!selected || readOnly) return;
    if (selected.status !== "submitted" || selected.imported) {
      setNotice({
        tone: "error",
        text: selected.imported
          ? "Imported labels have no annotator to send them back to."
          : `${selected.annotator}'s annotation is ${selected.status}; only submitted ones can be rejected.`,
      });
      return;
    }
    setRejecting(selected);
  }, [readOnly, selected]);

  const reject = useCallback(
    async (text: string) => {
      if (!rejecting) return;
      setBusy("reject");
      try {
        await rejectAnnotation(rejecting.id, text);
        setRejecting(null);
        setNotice({ tone: "success", text: `Sent back to ${rejecting.annotator}` });
        await load(true);
      } catch (e) {
        setRejecting(null);
        fail(e, "Not rejected");
      } finally {
        setBusy(null);
      }
    },
    [fail, load, rejecting],
  );

  const toggleGold = useCallback(async () => {
    const d = detailRef.current;
    if (!d || role !== "admin" || readOnly) return;
    setBusy("gold");
    try {
      if (d.solution.is_gold) {
        await unsetGold(d.solution.id);
        setNotice({ tone: "info", text: "No longer a gold question" });
      } else {
        const missing = missingDecisions(stateRef.current);
        if (missing.length) {
          setNotice({ tone: "error", text: `Decide step ${missing[0] + 1} first: gold labels name every step.` });
          dispatch({ type: "goto", index: missing[0] });
          return;
        }
        await setGold(d.solution.id, decidedRatings(stateRef.current));
        setNotice({ tone: "success", text: "Marked as a gold question" });
      }
      await load(true);
    } catch (e) {
      fail(e, "Gold not changed");
    } finally {
      setBusy(null);
    }
  }, [fail, load, readOnly, role]);

  const postComment = useCallback(
    async (body: string, stepId: number | null) => {
      const created = await addComment(solutionId, body, stepId);
      setDetail((d) => (d ? { ...d, comments: [...d.comments, created] } : d));
    },
    [solutionId],
  );

  return { goNext, adjudicate, accept, startReject, reject, toggleGold, postComment };
}
