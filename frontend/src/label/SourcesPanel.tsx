import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Citation, EvidenceDocument } from "../api";
import { CellTable } from "./CitedEvidence";
import { isCellCitation, resolveCitation } from "./evidence";
import { useSources } from "./SourcesContext";

/** A document with the cited passages of this solution marked, the focused one scrolled to. */
function DocumentView({ doc, marks, focused }: { doc: EvidenceDocument; marks: [number, number][]; focused: [number, number] | null }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "center" });
  }, [focused]);
  const spans = [...marks].sort((a, b) => a[0] - b[0]);
  const parts: ReactNode[] = [];
  let pos = 0;
  spans.forEach(([start, end], i) => {
    if (start < pos) return; // overlapping marks: the first one wins
    parts.push(doc.text.slice(pos, start));
    const isFocused = focused !== null && focused[0] === start && focused[1] === end;
    parts.push(
      <mark
        key={i}
        ref={isFocused ? ref : undefined}
        className={isFocused ? "is-focused" : undefined}
        data-testid={isFocused ? "focused-passage" : "marked-passage"}
      >
        {doc.text.slice(start, end)}
      </mark>,
    );
    pos = end;
  });
  parts.push(doc.text.slice(pos));
  return (
    <div className="source-doc" data-testid="source-document">
      {parts}
    </div>
  );
}

/**
 * The problem's documents and tables, one at a time behind tabs: every passage the solution's
 * steps cite is marked; opening a citation from a step (its source button) selects its
 * document or table and scrolls to the passage or cell.
 */
export function SourcesPanel({ cited }: { cited: Citation[] }) {
  const { sources, focus } = useSources();
  const ids = [...(sources?.documents ?? []).map((d) => d.id), ...(sources?.tables ?? []).map((t) => `table:${t.id}`)];
  const [tab, setTab] = useState<string>(ids[0] ?? "");
  const focusCitation = focus?.citation ?? null;
  useEffect(() => {
    if (!focusCitation) return;
    setTab(isCellCitation(focusCitation) ? `table:${focusCitation.table}` : focusCitation.doc);
  }, [focus, focusCitation]);
  if (!sources) return null;
  const current = ids.includes(tab) ? tab : ids[0];
  const doc = sources.documents.find((d) => d.id === current);
  const table = sources.tables.find((t) => `table:${t.id}` === current);
  const focused = focusCitation ? resolveCitation(focusCitation, sources) : null;
  const marks: [number, number][] = [];
  if (doc) {
    for (const c of cited) {
      const t = resolveCitation(c, sources);
      if (t.kind === "passage" && t.doc.id === doc.id) marks.push([t.start, t.end]);
    }
  }
  const focusedSpan: [number, number] | null =
    focused && focused.kind === "passage" && doc && focused.doc.id === doc.id ? [focused.start, focused.end] : null;
  // The table with every cell the solution cites in it marked.
  const cells: [number, number][] = [];
  if (table) {
    for (const c of cited) if (isCellCitation(c) && c.table === table.id) cells.push([c.row, c.column]);
  }
  const focusedCell: [number, number][] = [];
  if (focused?.kind === "cell" && table && focused.table.id === table.id) {
    for (const c of focus?.group ?? []) if (isCellCitation(c) && c.table === table.id) focusedCell.push([c.row, c.column]);
  }
  return (
    <aside className="sources-panel card" aria-label="Sources" data-testid="sources-panel">
      <div className="panel-head">
        <span className="eyebrow">Sources</span>
        <span className="muted small">
          {sources.documents.length} document{sources.documents.length === 1 ? "" : "s"}, {sources.tables.length} table
          {sources.tables.length === 1 ? "" : "s"}
        </span>
      </div>
      <div className="source-tabs" role="tablist">
        {sources.documents.map((d) => (
          <button
            key={d.id}
            type="button"
            role="tab"
            aria-selected={current === d.id}
            className={`source-tab${current === d.id ? " is-active" : ""}`}
            onClick={() => setTab(d.id)}
            data-testid="source-tab"
          >
            {d.title}
          </button>
        ))}
        {sources.tables.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={current === `table:${t.id}`}
            className={`source-tab source-tab-table${current === `table:${t.id}` ? " is-active" : ""}`}
            onClick={() => setTab(`table:${t.id}`)}
            data-testid="source-tab"
          >
            {t.title}
          </button>
        ))}
      </div>
      <div className="source-body" role="tabpanel">
        {doc && <DocumentView doc={doc} marks={marks} focused={focusedSpan} />}
        {table && (
          <>
            <div className="source-table-title">{table.title}</div>
            <CellTable table={table} cells={focusedCell.length ? focusedCell : cells} compact={false} />
          </>
        )}
      </div>
    </aside>
  );
}
