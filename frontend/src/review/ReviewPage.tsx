/**
 * The review page: one solution, every annotation side by side per step, suggestions with
 * evidence, and the reviewer's decision per step. Keyboard-driven (keys in ./keyboard.ts).
 * A decision that resolves the solution (adjudicate, accept) opens the next item in the queue.
 * A 409 (another reviewer resolved it meanwhile) stops all writes behind a banner.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type MouseEvent } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import * as api from "../api";
import { AppHeader } from "../components/AppHeader";
import { IconCheck } from "../components/icons";
import { ConflictBanner, Toast } from "../components/PageNotices";
import { ProblemPanel, SolutionPanel } from "../components/SolutionHeader";
import { EmptyState, Spinner, formatCount } from "../components/ui";
import { EvidenceScope } from "../label/EvidenceScope";
import { ratingNamesFor } from "../label/ratingNames";
import { ShortcutsOverlay } from "../label/ShortcutsOverlay";
import { useLeaveGuard } from "../lib/useLeaveGuard";
import { keepKeyboardFlow, useKeyCommands } from "../label/useKeyCommands";
import { MarkLegend, legendItems } from "../label/MarkLegend";
import { UsePrompt, useUsePrompt } from "../label/useUsePrompt";
import { StepFind } from "../label/StepFind";
import { WindowedNote } from "../label/StepList";
import { useRenderAll } from "../label/VirtualList";
import { isWindowed } from "../label/virtualWindow";
import "../styles/review.css";
import { SelectedAnnotationBar } from "./AnnotatorBar";
import { reviewCommandForKey, reviewShortcuts, type ReviewCommand } from "./keyboard";
import { filterQuery, filtersFromParams } from "./queueFilters";
import { RejectDialog } from "./RejectDialog";
import { ReasonBadge } from "./ReviewNav";
import {
  EMPTY_REVIEW,
  isAfterFirstError,
  missingDecisions,
  reviewColumns,
  reviewReducer,
  stepFacts,
} from "./reviewState";
import { ActivityCard, CommentThread, DecisionCard, GoldCard, ResolutionCard } from "./ReviewSidebar";
import { ReviewStepGrid } from "./ReviewStepGrid";
import { useReviewSolution } from "./useReviewSolution";
import { useReviewWrites } from "./useReviewWrites";

/** From this many annotation columns the side column moves below the steps (room for text). */
const WIDE_FROM = 4;
/** The find bar searches step texts here (the annotators' notes are in their columns). */
const NO_LABELS: api.StepLabel[] = [];

export function ReviewPage() {
  const params = useParams();
  const projectId = Number(params.projectId);
  const solutionId = Number(params.solutionId);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const query = filterQuery(search);
  const filters = useMemo(() => filtersFromParams(search), [search]);

  const [role, setRole] = useState<api.Role | null>(null);
  const [state, dispatch] = useReducer(reviewReducer, EMPTY_REVIEW);
  useLeaveGuard(state.revision > 0); // decisions not sent yet live only in the page
  const session = useReviewSolution(solutionId, dispatch);
  const { phase, setPhase, loadError, detail, busy, conflict, notice, setNotice, readOnly, load } = session;
  const { remaining, setRemaining, rejecting, setRejecting, comment, setComment } = session;
  // The steps a hovered "uses" chip names: highlighted.
  const [hoverUses, setHoverUses] = useState<number[] | null>(null);
  const [showHelp, setShowHelp] = useState(false);
  const [showAnswer, setShowAnswer] = useState(false);
  const [commentOnStep, setCommentOnStep] = useState(false);
  // Long solutions render the rows near the view; find (`/`) searches every step.
  const [findOpen, setFindOpen] = useState(false);
  const [renderAll, setRenderAll] = useRenderAll();
  const commentRef = useRef<HTMLTextAreaElement>(null);

  const columns = useMemo(() => (detail ? reviewColumns(detail) : []), [detail]);
  const facts = useMemo(() => (detail ? stepFacts(detail) : []), [detail]);

  useEffect(() => {
    api
      .getProject(projectId)
      .then((p) => setRole(p.role))
      .catch(() => undefined);
  }, [projectId]);

  useEffect(() => {
    setPhase("loading");
    setShowAnswer(false);
    setFindOpen(false);
    usePrompt.close();
    void load();
    api
      .getReviewQueue(projectId, { ...filters, state: "unresolved", limit: 1, offset: 0 })
      .then((p) => setRemaining(formatCount(p.count, p.count_capped)))
      .catch(() => undefined);
    window.scrollTo({ top: 0 });
  }, [load, projectId, filters]);

  const stateRef = useRef(state);
  // "Step N has no decision" goes once that step is decided (or no longer needs a decision).
  useEffect(() => {
    const step = notice?.unratedStep;
    if (step === undefined) return;
    if (!missingDecisions(state).includes(step)) setNotice(null);
  }, [notice, state, setNotice]);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  // The `d` prompt: the current step uses the step whose number is typed next.
  const usePrompt = useUsePrompt({
    current: () => stateRef.current.current,
    onToggle: (target) => dispatch({ type: "toggleUse", target }),
    onRefuse: (text, tone) => setNotice({ tone, text }),
  });
  const selected = state.column >= 0 ? (columns[state.column] ?? null) : null;
  const { goNext, adjudicate, accept, startReject, reject, toggleGold, postComment } = useReviewWrites({
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
  });

  // --- keyboard -------------------------------------------------------------------------------
  const handle = useCallback(
    (cmd: ReviewCommand): boolean => {
      const prompted = usePrompt.handle(cmd);
      if (prompted !== null) return prompted;
      if (showHelp) {
        if (cmd.type === "toggleHelp" || cmd.type === "escape") {
          setShowHelp(false);
          return true;
        }
        return false;
      }
      if (rejecting) return false; // the dialog handles its own keys
      if (cmd.type === "toggleHelp") {
        setShowHelp(true);
        return true;
      }
      if (cmd.type === "escape") {
        if (notice) setNotice(null);
        return !!notice;
      }
      if (phase !== "ready") return false;
      const n = stateRef.current.decisions.length;
      switch (cmd.type) {
        case "move":
          dispatch({ type: "move", delta: cmd.delta });
          return true;
        case "first":
          dispatch({ type: "goto", index: 0 });
          return true;
        case "nextMarked":
          dispatch({ type: "nextMarked", delta: cmd.delta });
          return true;
        case "last":
          dispatch({ type: "goto", index: n - 1 });
          return true;
        case "column":
          dispatch({ type: "selectColumn", delta: cmd.delta });
          return true;
        case "toggleAnswer":
          setShowAnswer((v) => !v);
          return true;
        case "find":
          if (cmd.browserKey && !isWindowed(n, renderAll)) return false; // the browser's find sees every row
          setFindOpen(true);
          return true;
        case "comment": {
          setCommentOnStep(true);
          commentRef.current?.focus();
          commentRef.current?.scrollIntoView({ block: "nearest" });
          return true;
        }
        case "next":
          if (!readOnly) void goNext(null);
          return true;
        default:
          break;
      }
      if (readOnly) return true; // swallow edits while busy or in conflict
      switch (cmd.type) {
        case "rate":
          dispatch({ type: "rate", value: cmd.value });
          return true;
        case "clear":
          dispatch({ type: "clear" });
          return true;
        case "take":
          dispatch({ type: "take" });
          return true;
        case "takeColumn":
          dispatch({ type: "takeColumn" });
          return true;
        case "accept":
          void accept();
          return true;
        case "reject":
          startReject();
          return true;
        case "submit":
          void adjudicate();
          return true;
        case "gold":
          void toggleGold();
          return true;
        case "startUse":
          usePrompt.open();
          return true;
        default:
          return false;
      }
    },
    [accept, adjudicate, goNext, notice, phase, readOnly, rejecting, renderAll, showHelp, startReject, toggleGold, usePrompt.handle, usePrompt.open],
  );
  useKeyCommands((e) => reviewCommandForKey(e, stateRef.current.ratingValues, usePrompt.isOpen()), handle);
  const onMouseDown = (e: MouseEvent) => keepKeyboardFlow(e, ".review-grid button, .selected-bar button");

  // --- render ---------------------------------------------------------------------------------
  const onSelect = useCallback((index: number) => dispatch({ type: "goto", index }), []);
  const onSelectColumn = useCallback((column: number) => dispatch({ type: "setColumn", column }), []);
  const onRate = useCallback((index: number, value: api.Rating) => dispatch({ type: "rate", index, value }), []);
  const onTake = useCallback((index: number, annotationId: number, column: number) => {
    dispatch({ type: "setColumn", column });
    dispatch({ type: "goto", index });
    dispatch({ type: "take", index, annotationId });
  }, []);

  const missing = missingDecisions(state);
  const needed = state.needed.filter((v, i) => v && !isAfterFirstError(state, i)).length;
  const binary = !state.ratingValues.includes(0);
  const disagreeing = facts.filter((f) => f.disagrees).length;
  const machineDiffering = facts.filter((f) => f.machineDiffers.length > 0).length;
  const marked = facts.filter((f) => f.marked).length;
  const submittedCount = detail?.annotators_submitted ?? columns.filter((a) => a.status === "submitted").length;
  const drafts = detail?.annotations.filter((a) => a.status === "draft") ?? [];

  return (
    <div className="review-page" onMouseDown={onMouseDown}>
      <AppHeader
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: detail?.project.name ?? "…", to: `/projects/${projectId}` },
          { label: "Review", to: `/projects/${projectId}/review${query}` },
          { label: `#${solutionId}` },
        ]}
        actions={
          <>
            {remaining !== null && (
              <span className="topbar-progress" data-testid="queue-remaining">
                <strong>{remaining}</strong> to review
              </span>
            )}
            <button type="button" className="btn btn-sm btn-ghost help-button" onClick={() => setShowHelp(true)} title="Keyboard shortcuts (?)">
              <span className="kbd">?</span> Shortcuts
            </button>
          </>
        }
      />

      {conflict && (
        <ConflictBanner
          title="Another reviewer changed this solution while you were looking at it."
          detail={conflict}
          onReload={() => void load()}
        >
          Reload to see what they decided — nothing you do here is sent until then.
        </ConflictBanner>
      )}

      {phase === "loading" && (
        <main className="review-main">
          <Spinner label="Loading the solution…" />
        </main>
      )}
      {phase === "error" && (
        <main className="review-main">
          <EmptyState title="Could not load this solution">
            <p>{loadError}</p>
            <Link to={`/projects/${projectId}/review${query}`} className="btn">
              Back to the queue
            </Link>
          </EmptyState>
        </main>
      )}
      {phase === "done" && (
        <main className="review-main">
          <EmptyState title="The review queue is empty" icon={<IconCheck width={28} height={28} />} testId="review-done">
            <p>Every solution that matches the queue&rsquo;s filters has a resolved label.</p>
            <div className="empty-actions">
              <button
                type="button"
                className="btn"
                onClick={() => {
                  setPhase("loading");
                  void load();
                }}
                data-testid="see-again"
              >
                See #{solutionId} again
              </button>
              <Link to={`/projects/${projectId}/dashboard`} className="btn btn-primary">
                Open the dashboard
              </Link>
            </div>
          </EmptyState>
        </main>
      )}

      {phase === "ready" && detail && (
        // The problem's domain decides the scale's words; an evidence-cited problem's steps show
        // what they cite (no sources panel here: the sidebar holds the resolution).
        <EvidenceScope domain={detail.problem.domain ?? detail.project.domain} problem={detail.problem} panel={false}>
        <main
          className={`review-main review-layout${columns.length >= WIDE_FROM ? " review-layout-wide" : ""}${busy === "next" ? " is-loading" : ""}`}
        >
          <div className="review-content">
            <ProblemPanel task={{ problem: detail.problem, solution: detail.solution }} showDomain={detail.project.domain === "mixed"} showAnswer={showAnswer} onToggleAnswer={() => setShowAnswer((v) => !v)} />
            <SolutionPanel
              label="Annotations per step"
              title={`Solution #${detail.solution.id}`}
              generator={detail.solution.generator}
              lead={
                <>
                  {detail.solution.is_gold && <span className="badge badge-amber">Gold</span>}
                  <div className="reason-list" data-testid="review-state">
                    {detail.reasons.map((r) => (
                      <ReasonBadge key={r} reason={r} />
                    ))}
                    {/* "Annotators agree" only with two or more; one annotator is its own state. */}
                    {detail.reasons.length === 0 && submittedCount >= 2 && <ReasonBadge reason="rest" />}
                  </div>
                </>
              }
              trail={
                <span className="muted small">
                  {detail.steps.length} steps · {columns.length} {columns.length === 1 ? "annotation" : "annotations"}
                  <WindowedNote count={detail.steps.length} renderAll={renderAll} onRenderAll={setRenderAll} />
                  {disagreeing > 0 && (
                    <>
                      {" · "}
                      <span className="text-red" data-testid="disagreeing-steps">
                        {disagreeing} disagreeing
                      </span>
                    </>
                  )}
                  {machineDiffering > 0 && (
                    <>
                      {" · "}
                      <span className="text-machine" data-testid="machine-steps" title="Steps where a machine source differs from the annotators">
                        {machineDiffering} human ≠ machine
                      </span>
                    </>
                  )}
                  {marked > 0 && (
                    <>
                      {" · "}
                      <span className="kbd" title="Jump to the next marked step (M: previous)">m</span> next marked
                    </>
                  )}
                </span>
              }
            >
              {drafts.length > 0 && (
                <div className="review-drafts muted small">
                  Still labeling: {drafts.map((a) => `${a.annotator}${a.revises_id ? " (reworking)" : ""}`).join(", ")}
                </div>
              )}
              <MarkLegend
                items={legendItems(detail.steps, {
                  humans: disagreeing > 0,
                  machine: machineDiffering > 0,
                })}
              />
              <SelectedAnnotationBar
                annotation={selected}
                readOnly={readOnly}
                onAccept={() => void accept()}
                onReject={startReject}
                onTakeColumn={() => dispatch({ type: "takeColumn" })}
              />
              <ReviewStepGrid
                detail={detail}
                state={state}
                columns={columns}
                facts={facts}
                readOnly={readOnly}
                renderAll={renderAll}
                hoverUses={hoverUses}
                onHoverUses={setHoverUses}
                onSelectColumn={onSelectColumn}
                onSelect={onSelect}
                onRate={onRate}
                onTake={onTake}
              />
            </SolutionPanel>
          </div>
          <aside className="review-side" aria-label="Resolution, comments and history">
            <ResolutionCard detail={detail} />
            <DecisionCard
              title={detail.resolution ? "Change the resolution" : "Adjudicate"}
              decided={needed - missing.length}
              needed={needed}
              missing={missing}
              comment={comment}
              busy={busy === "adjudicate"}
              readOnly={readOnly}
              onComment={setComment}
              onSubmit={() => void adjudicate()}
            />
            {role === "admin" && (
              <GoldCard isGold={detail.solution.is_gold} busy={busy === "gold"} onSet={() => void toggleGold()} onUnset={() => void toggleGold()} />
            )}
            <CommentThread
              ref={commentRef}
              detail={detail}
              step={detail.steps[state.current] ?? null}
              onStep={commentOnStep}
              onTarget={setCommentOnStep}
              onPost={postComment}
            />
            <ActivityCard detail={detail} />
          </aside>
        </main>
        </EvidenceScope>
      )}

      {findOpen && phase === "ready" && detail && (
        <StepFind steps={detail.steps} labels={NO_LABELS} current={state.current} onGoto={onSelect} onClose={() => setFindOpen(false)} />
      )}
      {usePrompt.typed !== null && phase === "ready" && <UsePrompt typed={usePrompt.typed} step={state.current} />}
      {notice && <Toast notice={notice} onDismiss={() => setNotice(null)} />}
      {showHelp && (
        <ShortcutsOverlay
          binary={binary}
          groups={reviewShortcuts(ratingNamesFor(detail?.problem.domain ?? detail?.project.domain))}
          foot="Decisions start from the current resolution, else from the steps all annotators agree on. Rating a step moves to the next undecided one. Accepting or adjudicating opens the next item in the queue; rejecting keeps you here."
          onClose={() => setShowHelp(false)}
        />
      )}
      {rejecting && (
        <RejectDialog annotator={rejecting.annotator} busy={busy === "reject"} onConfirm={(t) => void reject(t)} onCancel={() => setRejecting(null)} />
      )}
    </div>
  );
}
