import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import * as api from "../api";
import type { Rating } from "../api";
import { Markdown } from "../components/Markdown";
import { ErrorBox, Spinner } from "../components/ui";
import { useEscape } from "../lib/useEscape";
import { RatingMark } from "../review/ReviewStepRow";

const STATUS_NOTE: Record<string, string> = { draft: "draft", rejected: "rejected", submitted: "" };

/** One solution, read-only: the problem and every step with its math rendered, and per step each
 * annotator's label, the resolution, gold and the machine sources' verdicts. */
export function SolutionDrawer({ solutionId, onClose }: { solutionId: number; onClose: () => void }) {
  const [detail, setDetail] = useState<api.ReviewDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setDetail(null);
    setError(null);
    api
      .getReview(solutionId)
      .then((d) => live && setDetail(d))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [solutionId]);

  useEscape(onClose);

  const math = detail?.problem.domain !== "text";
  const annotators = new Map((detail?.annotations ?? []).map((a) => [a.id, a]));
  return (
    <div className="explorer-drawer-backdrop" onClick={onClose}>
      <aside
        className="explorer-drawer"
        role="dialog"
        aria-label={`Solution ${solutionId}`}
        data-testid="solution-drawer"
        onClick={(e) => e.stopPropagation()}
      >
        <div className="explorer-drawer-head">
          <div>
            <div className="card-title">Solution #{solutionId}</div>
            {detail && (
              <div className="muted small">
                {detail.solution.generator || "unknown generator"}
                {detail.solution.is_gold && <span className="badge badge-amber explorer-gap">Gold</span>}
                {detail.resolution && <span className="badge badge-green explorer-gap">Reviewed</span>}
              </div>
            )}
          </div>
          <div className="explorer-drawer-actions">
            <Link className="btn btn-sm" to={`/projects/${detail?.project.id ?? ""}/review/${solutionId}`} hidden={!detail}>
              Open in review
            </Link>
            <button type="button" className="btn btn-sm btn-ghost" onClick={onClose} data-testid="drawer-close" aria-label="Close">
              ✕
            </button>
          </div>
        </div>
        {error && <ErrorBox>{error}</ErrorBox>}
        {!detail && !error && <Spinner />}
        {detail && (
          <div className="explorer-drawer-body">
            <section>
              <div className="explorer-label">Problem</div>
              <Markdown source={detail.problem.text} className="explorer-problem" math={math} />
              {detail.problem.answer && (
                <div className="small muted">
                  Reference answer: <Markdown source={detail.problem.answer} inline math={math} />
                  {detail.solution.final_answer && (
                    <>
                      {" · "}this solution: <Markdown source={detail.solution.final_answer} inline math={math} />
                    </>
                  )}
                </div>
              )}
            </section>
            <section>
              <div className="explorer-label">
                Steps · {detail.annotations.length} annotation{detail.annotations.length === 1 ? "" : "s"}
              </div>
              <ol className="explorer-steps">
                {detail.steps.map((step) => (
                  <li key={step.id} className="explorer-step" data-testid={`drawer-step-${step.index}`}>
                    <span className="explorer-step-n">{step.index + 1}</span>
                    <div className="explorer-step-main">
                      <Markdown source={step.text} math={math} />
                      <div className="explorer-step-labels">
                        {step.labels.map((l) => {
                          const who = annotators.get(l.annotation_id);
                          const note = who ? STATUS_NOTE[who.status] ?? who.status : "";
                          return (
                            <span key={l.annotation_id} className="explorer-chip" title={l.comment || undefined}>
                              {who?.annotator ?? `#${l.annotation_id}`}
                              {note && <span className="subtle"> ({note})</span>} <RatingMark rating={l.rating} />
                              {l.unsure && <span className="text-amber"> ?</span>}
                            </span>
                          );
                        })}
                        {step.resolved_rating !== null && (
                          <span className="explorer-chip explorer-chip-resolved">
                            resolved <RatingMark rating={step.resolved_rating} />
                          </span>
                        )}
                        {step.gold_rating !== null && (
                          <span className="explorer-chip explorer-chip-gold">
                            gold <RatingMark rating={step.gold_rating} />
                          </span>
                        )}
                        {step.suggestions.map((s) => (
                          <span
                            key={`${s.source}:${s.agent}`}
                            className="explorer-chip explorer-chip-machine"
                            title={`${s.source} · ${s.agent}${s.score !== null ? ` · score ${s.score.toFixed(2)}` : ""}`}
                          >
                            {s.source} <RatingMark rating={s.value as Rating | null} />
                          </span>
                        ))}
                      </div>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        )}
      </aside>
    </div>
  );
}
