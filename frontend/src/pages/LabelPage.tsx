/**
 * The labeling page: one solution at a time, every step rated from the keyboard.
 *
 * State lives in the labelState reducer; the DraftSaver autosaves it (debounced, versioned) and
 * is the only path for writes, so submit/skip never race a save. Keys are mapped in keyboard.ts.
 * useClaim holds the task, its saver and the progress; useSubmit submits and skips.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type MouseEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import type { ApiError } from "../api/client";
import { myWorkBack } from "../api/myWork";
import type { Rating } from "../api/projects";
import { ConflictBanner, Toast, type Notice } from "../components/PageNotices";
import { ProblemPanel, SolutionPanel } from "../components/SolutionHeader";
import { EmptyState, Spinner } from "../components/ui";
import { IconCheck } from "../components/icons";
import { FinishBar } from "../label/FinishBar";
import { GuidelinesPanel } from "../label/GuidelinesPanel";
import { commandForKey, labelShortcuts, type Command } from "../label/keyboard";
import { LabelTopBar } from "../label/LabelTopBar";
import { MarkLegend, legendItems } from "../label/MarkLegend";
import { UsePrompt, useUsePrompt } from "../label/useUsePrompt";
import { firstErrorIndex, isDimmed, labelReducer, nextUnrated, ratedCount, requiredCount, type LabelState } from "../label/labelState";
import { ReasonDialog, type ReasonKind } from "../label/ReasonDialog";
import { PendingRework, ReworkBanner } from "../label/ReworkBanner";
import { EvidenceScope } from "../label/EvidenceScope";
import { sourcesOf } from "../label/evidence";
import { ratingNamesFor } from "../label/ratingNames";
import { ShortcutsOverlay } from "../label/ShortcutsOverlay";
import { SplitDialog } from "../label/SplitDialog";
import { useResegment } from "../label/useResegment";
import { SourcesPanel } from "../label/SourcesPanel";
import { StepFind } from "../label/StepFind";
import { StepList, WindowedNote } from "../label/StepList";
import type { EditorKind } from "../label/StepRow";
import { useRenderAll } from "../label/VirtualList";
import { isWindowed } from "../label/virtualWindow";
import { NO_STEPS, useThinkingFold } from "../label/thinkingRuns";
import { isEditing, useClaim } from "../label/useClaim";
import { useLeaveGuard } from "../lib/useLeaveGuard";
import { keepKeyboardFlow, useKeyCommands } from "../label/useKeyCommands";
import { useSubmit } from "../label/useSubmit";
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

export function LabelPage() {
  const projectId = Number(useParams().projectId);
  // My work's "Open": /projects/:id/label?open=<annotation id> (read once, on the first claim).
  const [search, setSearch] = useSearchParams();
  const openId = Number(search.get("open")) || null;
  const [state, dispatch] = useReducer(labelReducer, EMPTY);
  const [showAnswer, setShowAnswer] = useState(false);
  const [guidelinesOpen, setGuidelinesOpen] = useState(false);
  const [showHelp, setShowHelp] = useState(false);
  const [editor, setEditor] = useState<{ index: number; kind: EditorKind } | null>(null);
  const [reason, setReason] = useState<ReasonKind | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The steps a hovered "uses" chip names: highlighted.
  const [hoverUses, setHoverUses] = useState<number[] | null>(null);
  // Long solutions render the steps near the view; find (`/`) searches them all.
  const [findOpen, setFindOpen] = useState(false);
  const [renderAll, setRenderAll] = useRenderAll();

  const { elapsed: elapsedMs, reset: resetTimer, display: timerDisplay } = useWorkTimer();
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  // The `d` prompt: the current step uses the step whose number is typed next.
  const usePrompt = useUsePrompt({
    current: () => stateRef.current.current,
    onToggle: (target) => dispatch({ type: "toggleUse", target }),
    onRefuse: (text, tone) => setNotice({ tone, text }),
  });

  const onClaim = useCallback(() => {
    usePrompt.close();
    setFindOpen(false);
    setHoverUses(null);
    setEditor(null);
    setReason(null);
    setShowAnswer(false);
  }, []);
  const onOpenFailed = useCallback((err: ApiError) => {
    setNotice({ tone: "error", text: `Could not reopen it: ${err.message}` });
  }, []);
  const { phase, loadError, task, taskRef, saveInfo, progress, rejections, projectName, busy, setBusy, saverRef, loadNext, openTask } =
    useClaim({ projectId, stateRef, revision: state.revision, dispatch, elapsedMs, resetTimer, onClaim, openId, onOpenFailed });
  const { submit, skip } = useSubmit({
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
  });

  // Splitting and merging steps (S / m), where the project allows it.
  const gotoStep = useCallback((index: number) => dispatch({ type: "goto", index }), []);
  const resegment = useResegment({ taskRef, saverRef, busy, setNotice, openTask, goto: gotoStep });
  // Reasoning (`<think>`) steps folded into bars; j/k skip folded steps (label/thinkingRuns.ts).
  const fold = useThinkingFold({ solutionId: task?.solution.id, steps: task?.solution.steps ?? NO_STEPS, current: state.current, goto: gotoStep });

  const conflict = saveInfo.status === "conflict";
  const readOnly = conflict || busy !== null;
  const editing = isEditing(task);
  useLeaveGuard(editing && state.revision > 0);
  // Once opened, the address is the labeling page's own again (a reload claims as usual).
  useEffect(() => {
    if (openId && phase !== "loading") setSearch({}, { replace: true });
  }, [openId, phase, setSearch]);

  // Back (`o` and the top bar's button): reopen what was submitted or skipped last.
  const [backBusy, setBackBusy] = useState(false);
  const back = useCallback(async () => {
    if (backBusy || busy !== null) return;
    setBackBusy(true);
    try {
      const opened = await openTask(() => myWorkBack(projectId));
      setNotice(
        opened
          ? { tone: "info", text: "Reopened what you did last" }
          : { tone: "info", text: "Nothing to go back to: you have not submitted or skipped anything here yet." },
      );
    } catch (e) {
      const err = e as ApiError;
      if (err.code !== "not_authenticated") setNotice({ tone: "error", text: `Could not go back: ${err.message}` });
    } finally {
      setBackBusy(false);
    }
  }, [backBusy, busy, openTask, projectId]);

  // "Step N has no rating" goes once that step is rated (or no longer needs a rating).
  useEffect(() => {
    const step = notice?.unratedStep;
    if (step === undefined) return;
    if (state.labels[step]?.rating != null || isDimmed(state, step)) setNotice(null);
  }, [notice, state]);

  useEffect(() => {
    if (!notice || notice.tone === "error" || notice.tone === "pending") return;
    const t = setTimeout(() => setNotice(null), 2500);
    return () => clearTimeout(t);
  }, [notice]);

  // --- row callbacks (stable, so StepRow's memo holds) --------------------------------------
  const onRate = useCallback((index: number, value: Rating) => dispatch({ type: "rate", index, value }), []);
  const onAcceptSuggestion = useCallback(
    (index: number, value: Rating) => dispatch({ type: "acceptSuggestion", index, value }),
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
      const prompted = usePrompt.handle(cmd);
      if (prompted !== null) return prompted;
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
      if (cmd.type === "back") {
        if (phase === "loading") return false;
        void back();
        return true;
      }
      if (phase !== "ready" || !taskRef.current) return false;
      const n = stateRef.current.labels.length;
      switch (cmd.type) {
        case "move":
          dispatch({ type: "goto", index: fold.move(stateRef.current.current, cmd.delta) });
          return true;
        case "first":
        case "last":
          dispatch({ type: "goto", index: n ? fold.edge(cmd.type === "last") : 0 });
          return true;
        case "toggleReasoning":
          fold.toggleAll();
          return true;
        case "toggleAnswer":
          setShowAnswer((v) => !v);
          return true;
        case "toggleGuidelines":
          setGuidelinesOpen((v) => !v);
          return true;
        case "find":
          if (cmd.browserKey && !isWindowed(n, renderAll)) return false; // the browser's find sees every step
          setFindOpen(true);
          return true;
        case "nextUnrated": {
          const next = nextUnrated(stateRef.current, stateRef.current.current);
          if (next >= 0) dispatch({ type: "goto", index: next });
          else setNotice({ tone: "info", text: "Every step that needs a rating has one." });
          return true;
        }
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
        case "startUse":
          if (!readOnly) usePrompt.open();
          return true;
        case "splitStep":
          resegment.startSplit(stateRef.current.current);
          return true;
        case "mergeStep":
          void resegment.merge(stateRef.current.current);
          return true;
        default:
          return false;
      }
    },
    [usePrompt.handle, usePrompt.open, notice, phase, readOnly, reason, showHelp, skip, submit, back, resegment, renderAll, fold],
  );

  useKeyCommands((e) => commandForKey(e, stateRef.current.ratingValues, usePrompt.isOpen()), handle);
  const onMouseDown = (e: MouseEvent) => keepKeyboardFlow(e, ".label-main button, .finish-bar button, .sources-panel button");

  // --- render ---------------------------------------------------------------------------------
  const fe = firstErrorIndex(state);
  const stepCount = state.labels.length;
  const binary = !state.ratingValues.includes(0);
  const hasSuggestions = !!task?.project.show_suggestions && state.suggested.some((v, i) => v !== null && state.labels[i]?.rating === null);
  // Evidence-cited problems: their documents and tables (a side panel), the words of the scale.
  const domain = task ? (task.problem.domain ?? task.project.domain) : undefined;
  const sources = useMemo(() => (task ? sourcesOf(task.problem) : null), [task]);
  const cited = useMemo(() => (task?.solution.steps ?? []).flatMap((s) => s.meta?.citations ?? []), [task]);
  const shortcuts = useMemo(() => labelShortcuts(ratingNamesFor(domain)), [domain]);
  const legend = useMemo(() => legendItems(task?.solution.steps ?? []), [task]); // once a solution

  return (
    <div className={`label-page${phase === "ready" && sources ? " has-sources" : ""}`} onMouseDown={onMouseDown}>
      <LabelTopBar
        projectId={projectId}
        projectName={task?.project.name ?? projectName}
        progress={progress}
        timeMs={phase === "ready" ? timerDisplay : null}
        onHelp={() => setShowHelp(true)}
        onBack={() => void back()}
        backBusy={backBusy}
      />

      {conflict && (
        <ConflictBanner
          title="This solution was changed in another tab or window."
          detail={saveInfo.message && !/another tab/i.test(saveInfo.message) ? saveInfo.message : null}
          onReload={() => window.location.reload()}
        >
          Reload to get the latest version — nothing here will be saved over it.
        </ConflictBanner>
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
        <EvidenceScope domain={domain} problem={task.problem} panel>
          <main className={`label-main${busy === "next" ? " is-loading" : ""}`}>
            {task.rework && <ReworkBanner rework={task.rework} />}
            {editing && (
              <div className="card editing-banner" role="status" data-testid="editing-banner">
                <strong>You are changing a solution you submitted.</strong> Nothing is saved until you
                resubmit (a new version of your labels; a reviewed solution goes back to review).
                Skip leaves it as it was.
              </div>
            )}
            <PendingRework
              items={rejections.filter((r) => r.rework_status === "draft" && r.rework_id !== task.annotation.id)}
            />
            <ProblemPanel task={task} showDomain={task.project.domain === "mixed"} showAnswer={showAnswer} onToggleAnswer={() => setShowAnswer((v) => !v)} />
            <GuidelinesPanel
              guidelines={task.project.guidelines}
              open={guidelinesOpen}
              onToggle={() => setGuidelinesOpen((v) => !v)}
            />
            <SolutionPanel
              label="Solution steps"
              title="Solution"
              generator={task.solution.generator}
              lead={
                <span className="muted small">
                  {stepCount.toLocaleString("en-US")} steps
                  <WindowedNote count={stepCount} renderAll={renderAll} onRenderAll={setRenderAll} />
                  {state.firstErrorMode && " · stop at the first wrong step"}
                  {task.project.allow_resegment && !editing && (
                    <span data-testid="resegment-hint">
                      {" · "}
                      <span className="kbd">S</span> split a step · <span className="kbd">m</span> merge with the next
                    </span>
                  )}
                </span>
              }
              trail={
                hasSuggestions && (
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() => dispatch({ type: "acceptSuggestions" })}
                    disabled={readOnly}
                    data-testid="accept-suggestions"
                  >
                    Accept suggestions <span className="kbd">A</span>
                  </button>
                )
              }
            >
              <MarkLegend items={legend} />
              <StepList
                task={task}
                fold={fold}
                state={state}
                editor={editor}
                readOnly={readOnly}
                hoverUses={hoverUses}
                renderAll={renderAll}
                onHoverUses={setHoverUses}
                onRate={onRate}
                onAcceptSuggestion={onAcceptSuggestion}
                onSelect={onSelect}
                onToggleUnsure={onToggleUnsure}
                onOpenEditor={onOpenEditor}
                onSaveEditor={onSaveEditor}
                onCancelEditor={closeEditor}
              />
              {fe >= 0 && fe < state.labels.length - 1 && (
                <div className="stopped-note">
                  Stopped at step {fe + 1}: the steps after the first wrong one are not rated.
                </div>
              )}
            </SolutionPanel>
          </main>
          {sources && <SourcesPanel key={task.solution.id} cited={cited} />}
          <FinishBar
            saveInfo={saveInfo}
            rated={ratedCount(state)}
            required={requiredCount(state)}
            stoppedAt={fe}
            binary={binary}
            busy={busy}
            editing={editing}
            disabled={readOnly}
            onSubmit={() => void submit(null)}
            onSkip={() => void skip()}
            onGiveUp={() => setReason("give_up")}
            onBadProblem={() => setReason("bad_problem")}
          />
        </EvidenceScope>
      )}

      {usePrompt.typed !== null && phase === "ready" && <UsePrompt typed={usePrompt.typed} step={state.current} />}
      {findOpen && phase === "ready" && task && (
        <StepFind steps={task.solution.steps} labels={state.labels} current={state.current} onGoto={gotoStep} onClose={() => setFindOpen(false)} />
      )}
      {notice && <Toast notice={notice} onDismiss={() => setNotice(null)} />}
      {showHelp && <ShortcutsOverlay binary={binary} groups={shortcuts} onClose={() => setShowHelp(false)} />}
      {resegment.splitting !== null && task?.solution.steps[resegment.splitting] && (
        <SplitDialog
          stepNumber={resegment.splitting + 1}
          text={task.solution.steps[resegment.splitting].text}
          busy={resegment.busy}
          onConfirm={(offset) => void resegment.split(offset)}
          onCancel={resegment.cancelSplit}
        />
      )}
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
