import { useState } from "react";
import type { Rating, Suggestion } from "../api";
import { Markdown } from "../components/Markdown";
import { IconCheck, IconX } from "../components/icons";
import {
  describeSuggestion,
  doubtText,
  looksLikeTex,
  refutedReason,
  texSource,
  type DoubtfulClaim,
  type EvidenceView,
  type RefutedClaim,
  type SuggestionView,
} from "./suggestions";

export interface ChipProps {
  suggestion: Suggestion;
  /** Whether clicking sets the rating (the value fits the scale and the step can be rated). */
  acceptable: boolean;
  /** The step's rating already equals this suggestion's value. */
  agrees: boolean;
  /** The value is not on this project's scale (a 0 in a binary project). */
  offScale?: boolean;
  onAccept: (value: Rating) => void;
}

/**
 * One suggestion beside a step: badge, detail and value, coloured by the value. Clicking it
 * accepts it for the step (undo with Ctrl+Z). Disabled via aria-disabled, so the hover text
 * still shows.
 */
export function SuggestionChip({ suggestion, acceptable, agrees, offScale, onAccept }: ChipProps) {
  const view = describeSuggestion(suggestion);
  if (view.evidence) return <EvidenceChip suggestion={suggestion} view={view} />;
  const value = suggestion.value;
  const clickable = acceptable && value !== null;
  const title = clickable
    ? `${view.title}\nClick to accept`
    : offScale
      ? `${view.title}\nNot on this project's scale`
      : view.title;
  return (
    <button
      type="button"
      className={`chip chip-${view.tone} chip-src-${suggestion.source}${agrees ? " chip-agrees" : ""}${clickable ? " chip-clickable" : ""}`}
      title={title}
      aria-label={title.replace(/\n/g, ". ")}
      aria-disabled={!clickable}
      onClick={() => clickable && value !== null && onAccept(value)}
      data-testid="suggestion-chip"
      data-source={suggestion.source}
      data-value={value === null ? "" : String(value)}
    >
      <span className="chip-source">{view.badge}</span>
      {view.detail && <span className="chip-detail">{view.detail}</span>}
      <span className="chip-value" aria-hidden="true" data-mark={view.mark}>
        {view.mark === "✓" ? (
          <IconCheck width={10} height={10} strokeWidth={3.5} />
        ) : view.mark === "✗" ? (
          <IconX width={10} height={10} strokeWidth={3.5} />
        ) : (
          view.mark
        )}
      </span>
    </button>
  );
}

/**
 * Evidence beside a step, not a rating ("∑ arithmetic checks out"): outlined and dashed, no
 * value mark, never accepted (neither by click nor by "accept suggestions"). Hover shows the
 * checked claims; a click opens them as a list under the chip.
 */
function EvidenceChip({ suggestion, view }: { suggestion: Suggestion; view: SuggestionView }) {
  const [open, setOpen] = useState(false);
  const evidence = view.evidence as EvidenceView;
  const expandable = evidence.items.length > 0;
  return (
    <span className="chip-evidence-wrap">
      <button
        type="button"
        className={`chip chip-evidence chip-src-${suggestion.source}${expandable ? " chip-expandable" : ""}`}
        title={view.title}
        aria-label={view.title.replace(/\n/g, ". ")}
        aria-expanded={expandable ? open : undefined}
        onClick={() => expandable && setOpen((v) => !v)}
        data-testid="evidence-chip"
        data-source={suggestion.source}
        data-kind={String((suggestion.evidence as { kind?: unknown }).kind ?? "")}
      >
        <span className="chip-source">{view.badge}</span>
        <span className="chip-evidence-label">{evidence.label}</span>
        {expandable && (
          <span className="chip-evidence-caret" aria-hidden="true">
            ▾
          </span>
        )}
      </button>
      {open && (
        <div className="evidence-popover" role="note" data-testid="evidence-items">
          <div className="evidence-popover-head">Checked · evidence, not a rating</div>
          <ul>
            {evidence.items.map((item, i) => (
              <li key={i}>
                <MathText text={item} />
              </li>
            ))}
          </ul>
          {evidence.measured && <div className="evidence-popover-foot">{evidence.measured}</div>}
        </div>
      )}
    </span>
  );
}

/** Text that may be LaTeX: KaTeX when it looks like it, else as it is in a code-ish font. */
export function MathText({ text }: { text: string }) {
  if (looksLikeTex(text)) return <Markdown source={texSource(text)} inline className="math-text" />;
  return <span className="math-text mono">{text}</span>;
}

/** A refuted claim under the step; `reason` (the graph checker's words) says why when no
 * "a ≠ b" values do (a traversal, an order, a cycle). */
function Refuted({ refuted, badge, reason }: { refuted: RefutedClaim; badge: string; reason?: string | null }) {
  const hasValues = refuted.lhsValue != null && refuted.rhsValue != null;
  const lhs = refuted.lhs && refuted.lhs !== refuted.lhsValue ? refuted.lhs : null;
  // "lhs = a ≠ b" says all the claim says, so the claim is shown only when there is no lhs.
  const showClaim = !!refuted.claim && !(hasValues && lhs);
  return (
    <div
      className="suggestion-note suggestion-note-neg"
      title={refuted.claim ? `Refuted: ${refuted.claim}` : undefined}
      data-testid="symbolic-refuted"
    >
      <span className={`suggestion-note-badge${/^\w+$/.test(badge) ? " suggestion-note-badge-word" : ""}`}>
        {badge} <IconX width={10} height={10} strokeWidth={3.5} />
      </span>
      {showClaim && <MathText text={refuted.claim as string} />}
      {hasValues && (
        <span className="suggestion-note-values">
          {showClaim && <span className="subtle">·</span>}
          {lhs && (
            <>
              <MathText text={lhs} /> =
            </>
          )}
          <span className="mono">{refuted.lhsValue}</span>≠<span className="mono">{refuted.rhsValue}</span>
        </span>
      )}
      {reason && !hasValues && (
        <span className="suggestion-note-reason" data-testid="refuted-reason">
          <span className="subtle">·</span> {reason}
        </span>
      )}
    </div>
  );
}

function Rationale({ text, agent }: { text: string; agent: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="suggestion-note suggestion-note-judge" data-testid="judge-rationale">
      <button type="button" className="disclosure" aria-expanded={open} onClick={() => setOpen((v) => !v)} title={open ? undefined : text}>
        <span className="disclosure-caret" aria-hidden="true">
          ▸
        </span>
        Judge{agent ? ` (${agent})` : ""}: why
      </button>
      {open && <Markdown source={text} className="suggestion-rationale" prose />}
    </div>
  );
}

/** Failed claims of kinds that have not earned a −1: "∑ ? 3·4 = 13 looks wrong (kind arithmetic,
 * 91% precision), not refuted", one line each, in a neutral tone (evidence, not a rating). */
function Doubtful({ claims, badge }: { claims: DoubtfulClaim[]; badge: string }) {
  return (
    <div className="suggestion-note suggestion-note-doubt" data-testid="symbolic-doubtful">
      <span className="suggestion-note-badge">{badge} ?</span>
      {claims.slice(0, 3).map((d, i) => (
        <span key={i} className="suggestion-note-values" data-kind={d.kind ?? ""}>
          <MathText text={d.claim} /> <span>{doubtText(d)}</span>
        </span>
      ))}
      {claims.length > 3 && <span className="subtle">… and {claims.length - 3} more</span>}
    </div>
  );
}

/** The evidence worth reading under a step's text: refuted equations, doubtful claims, judges'
 * rationales. */
export function SuggestionNotes({ suggestions }: { suggestions: Suggestion[] }) {
  const notes = suggestions
    .map((s, i) => ({ s, i, view: describeSuggestion(s) }))
    .filter(({ view }) => view.refuted || view.rationale || view.note || view.doubtful?.length);
  if (notes.length === 0) return null;
  return (
    <div className="suggestion-notes">
      {notes.map(({ s, i, view }) =>
        view.note ? (
          <div key={i} className="suggestion-note suggestion-note-neg" data-testid="checker-note">
            <span className="suggestion-note-badge checker-note-badge">
              {view.badge} <IconX width={10} height={10} strokeWidth={3.5} />
            </span>
            <span>{view.note}</span>
          </div>
        ) : view.doubtful?.length ? (
          <Doubtful key={i} claims={view.doubtful} badge={view.badge} />
        ) : view.refuted ? (
          <Refuted key={i} refuted={view.refuted} badge={view.badge} reason={s.source === "graph" ? refutedReason(s.evidence) : null} />
        ) : (
          <Rationale key={i} text={view.rationale as string} agent={s.agent} />
        ),
      )}
    </div>
  );
}
