import { useEffect, useRef, useState } from "react";
import * as api from "../api";
import { Markdown } from "../components/Markdown";
import { ErrorBox, Spinner } from "../components/ui";
import { useEscape } from "../lib/useEscape";
import { FORMAT_LABEL, splitFrontMatter } from "./exportOptions";

function CardBody({ card }: { card: string }) {
  const { meta, body } = splitFrontMatter(card);
  return (
    <>
      {meta && (
        <details className="export-card-meta" data-testid="export-card-meta">
          <summary className="small">Hub metadata (YAML front matter)</summary>
          <pre className="mono small">{meta}</pre>
        </details>
      )}
      <Markdown source={body} className="export-card-md" />
    </>
  );
}

/** An export's dataset card (Markdown), fetched when opened; Esc or a click outside closes it. */
export function ExportCardDialog({ exp, onClose }: { exp: api.Export; onClose: () => void }) {
  const [card, setCard] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let alive = true;
    api
      .getExportCard(exp.id)
      .then((text) => alive && setCard(text))
      .catch((e: api.ApiError) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [exp.id]);

  useEscape(onClose);
  useEffect(() => ref.current?.focus(), []);

  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className="dialog export-card-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={`Dataset card of export ${exp.id}`}
        tabIndex={-1}
        data-testid="export-card-dialog"
      >
        <div className="dialog-head">
          <h2 className="dialog-title">
            Dataset card <span className="muted">· export {exp.id} · {FORMAT_LABEL[exp.format] ?? exp.format}</span>
          </h2>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} aria-label="Close" data-testid="export-card-close">
            Esc
          </button>
        </div>
        <div className="export-card-body">
          {error && <ErrorBox testId="export-card-error">{error}</ErrorBox>}
          {!error && card === null && <Spinner />}
          {card !== null && <CardBody card={card} />}
        </div>
        <div className="dialog-actions">
          <span className="muted small">Ship it as the dataset's README.md.</span>
          <div className="dialog-buttons">
            {exp.card_url && (
              <a className="btn btn-sm" href={exp.card_url} download={`README-export-${exp.id}.md`} data-testid="export-card-download">
                Download .md
              </a>
            )}
            <button type="button" className="btn btn-sm btn-primary" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
