import { useEffect, useRef, type MouseEvent } from "react";
import type { Domain, Rating, TaskStep } from "../api";
import { Markdown } from "../components/Markdown";
import { AgentStepBody, isAgentStep } from "./AgentStep";
import { CitedEvidence } from "./CitedEvidence";
import { EmbodiedStepBody, isEmbodiedStep } from "./EmbodiedStep";
import { ImageStrip } from "./ImageStrip";
import { useRatingNames } from "./ratingNames";

/** What the labeling page's step rows and the review page's share. */

export const RATING_META: Record<string, { sign: string; label: string; keys: string; tone: string }> = {
  "-1": { sign: "−", label: "Wrong", keys: "1 or −", tone: "neg" },
  "0": { sign: "0", label: "Neutral", keys: "2 or 0", tone: "neu" },
  "1": { sign: "+", label: "Correct", keys: "3 or +", tone: "pos" },
};

/** The class names that are set, joined. */
export function classNames(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

/** How far to scroll (px, + down) so a row of `rect` sits between the fixed header (`top`
 * px) and the fixed bottom bar (`bottom` px) of a `height` px viewport; 0 when it does. A row
 * taller than the space between is aligned at its top. */
export function scrollDelta(
  rect: { top: number; bottom: number },
  view: { height: number; top: number; bottom: number },
): number {
  const low = view.height - view.bottom;
  if (rect.top < view.top) return rect.top - view.top;
  if (rect.bottom > low) return Math.min(rect.bottom - low, rect.top - view.top);
  return 0;
}

const GAP = 16; // px kept free between the row and the fixed bars

/** The space the fixed header (and the labeling page's find bar, when open, under it) takes at
 * the viewport's top, with the gap kept below it (px). */
export function topInset(): number {
  const header = document.querySelector<HTMLElement>(".app-header");
  const find = document.querySelector<HTMLElement>(".step-find");
  // The review grid's sticky annotators' header: below the app header once the page scrolls.
  const head = document.querySelector<HTMLElement>(".review-head");
  const below = Math.max(
    header?.getBoundingClientRect().height ?? 0,
    find?.getBoundingClientRect().bottom ?? 0,
    head?.getBoundingClientRect().bottom ?? 0,
  );
  return below + GAP;
}

/** Scroll the row into the space the fixed header and the labeling page's FinishBar leave
 * (their real heights: the bar grows when its buttons wrap on a narrow window). */
export function keepInView(el: HTMLElement): void {
  const rect = el.getBoundingClientRect();
  if (rect.height === 0) return; // not laid out (hidden, or a test's DOM)
  const bar = document.querySelector<HTMLElement>(".finish-bar");
  const delta = scrollDelta(rect, {
    height: window.innerHeight,
    top: topInset(),
    bottom: (bar?.getBoundingClientRect().height ?? 0) + GAP,
  });
  if (delta !== 0) window.scrollBy({ top: delta });
}

/** A row's ref that scrolls it into view whenever it becomes the current one. */
export function useScrollIntoView<T extends HTMLElement>(isCurrent: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (isCurrent && ref.current) keepInView(ref.current);
  }, [isCurrent]);
  return ref;
}

/** A click on a row selects it, unless it was on a control inside the row. */
export function selectOnClick(onSelect: (index: number) => void, index: number) {
  return (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest("button, a, textarea, input")) return;
    onSelect(index);
  };
}

/**
 * Whether a domain's text is typeset as math: everything but prose tasks (`text`) and
 * evidence-cited steps (reports, filings), where a `$` is a currency sign. The problem's domain
 * decides, so a many-domains project renders a math problem with KaTeX and a text problem as
 * plain prose.
 */
export function rendersMath(domain: Domain | undefined): boolean {
  return domain !== "text" && domain !== "evidence";
}

/** The step itself, as its problem's domain shows it: an embodied step on its timeline, an agent
 * step's card or the Markdown text (math typeset unless a text task), then its images (an
 * embodied step's frames) and what it cites (evidence-cited problems, inside a SourcesProvider). */
export function StepContent({
  step,
  index,
  domain,
}: {
  step: Pick<TaskStep, "text" | "meta" | "images">;
  index: number;
  domain?: Domain;
}) {
  return (
    <>
      {isEmbodiedStep(step) ? (
        <EmbodiedStepBody step={step} />
      ) : isAgentStep(step) ? (
        <AgentStepBody step={step} />
      ) : (
        <Markdown source={step.text} className="step-text" math={rendersMath(domain)} />
      )}
      {step.images && step.images.length > 0 && <ImageStrip urls={step.images} label={`Step ${index + 1}`} />}
      <CitedEvidence citations={step.meta?.citations} />
    </>
  );
}

/** One button per value of the scale; `verb` names the group ("Rate step 2"). */
export function RatingButtons({
  values,
  selected,
  index,
  verb,
  small = false,
  disabled,
  testId,
  onRate,
}: {
  values: Rating[];
  selected: Rating | null;
  index: number;
  verb: string;
  small?: boolean;
  disabled: boolean;
  testId: (value: Rating) => string;
  onRate: (index: number, value: Rating) => void;
}) {
  const names = useRatingNames();
  return (
    <div className="rating-group" role="group" aria-label={`${verb} step ${index + 1}`}>
      {values.map((v) => {
        const meta = RATING_META[String(v)];
        const name = names[String(v)] ?? meta.label;
        const on = selected === v;
        return (
          <button
            key={v}
            type="button"
            className={`rating-btn${small ? " rating-btn-sm" : ""} rating-${meta.tone}${on ? " is-selected" : ""}`}
            aria-pressed={on}
            title={`${name} (${meta.keys})`}
            aria-label={`${name}, step ${index + 1}`}
            disabled={disabled}
            onClick={() => onRate(index, v)}
            data-testid={testId(v)}
          >
            {meta.sign}
          </button>
        );
      })}
    </div>
  );
}
