import type { Citation } from "../api";
import { IconBook } from "../components/icons";
import { isCellCitation, passageContext, resolveCitation, rowWindow, type CitationTarget } from "./evidence";
import { useSources } from "./SourcesContext";

/** A cited cell in its table: the header, the rows around it, the cell marked. */
export function CellTable({ target, compact }: { target: Extract<CitationTarget, { kind: "cell" }>; compact: boolean }) {
  const { table, row, column } = target;
  const rows = compact ? rowWindow(table, [row]) : table.rows.map((_, i) => i);
  return (
    <div className="cite-table-wrap">
      <table className="cite-table">
        <thead>
          <tr>
            {table.columns.map((c, i) => (
              <th key={i} className={i === column ? "is-cited-col" : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r} className={r === row ? "is-cited-row" : undefined}>
              {table.rows[r].map((cell, c) => {
                const cited = r === row && c === column;
                return (
                  <td key={c} className={cited ? "is-cited" : undefined} data-testid={cited ? "cited-cell" : undefined}>
                    {cell === null ? "" : String(cell)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CitationCard({ citation }: { citation: Citation }) {
  const { sources, open } = useSources();
  if (!sources) return null;
  const target = resolveCitation(citation, sources);
  const openButton = (title: string) => (
    <button
      type="button"
      className="cite-source"
      onClick={() => open(citation)}
      title={`Open ${title} in the sources panel`}
      data-testid="cite-open"
    >
      <IconBook width={12} height={12} />
      {title}
    </button>
  );
  if (target.kind === "unknown") {
    return (
      <div className="cite-card cite-missing" data-testid="citation">
        <span className="badge badge-red">cites {target.id}, which this problem does not have</span>
      </div>
    );
  }
  if (target.kind === "cell") {
    const label = `${target.table.rows[target.row][0] ?? ""} · ${target.table.columns[target.column]}`;
    return (
      <div className="cite-card" data-testid="citation" data-kind="cell">
        <div className="cite-head">
          {openButton(target.table.title)}
          <span className="cite-where">{label}</span>
        </div>
        <CellTable target={target} compact />
      </div>
    );
  }
  if (target.kind === "quote-missing") {
    return (
      <div className="cite-card cite-missing" data-testid="citation" data-kind="quote-missing">
        <div className="cite-head">
          {openButton(target.doc.title)}
          <span className="badge badge-red" data-testid="quote-missing">
            quote not found in the document
          </span>
        </div>
        <blockquote className="cite-quote">“{target.quote}”</blockquote>
      </div>
    );
  }
  const ctx = passageContext(target.doc.text, target.start, target.end);
  return (
    <div className="cite-card" data-testid="citation" data-kind="passage">
      <div className="cite-head">
        {openButton(target.doc.title)}
        <span className="cite-where">{target.quote !== null ? "quote" : `characters ${target.start}–${target.end}`}</span>
      </div>
      <p className="cite-passage">
        {ctx.cutBefore && "… "}
        {ctx.before}
        <mark data-testid="cited-passage">{ctx.match}</mark>
        {ctx.after}
        {ctx.cutAfter && " …"}
      </p>
    </div>
  );
}

/** What a step cites, each in its context: a passage with the quote marked, a cell in its table. */
export function CitedEvidence({ citations }: { citations: Citation[] | undefined }) {
  const { sources } = useSources();
  if (!sources || !citations || citations.length === 0) return null;
  const cells = citations.filter(isCellCitation).length;
  return (
    <div className="cite-list" data-testid="cited-evidence" aria-label="Cited evidence">
      <div className="cite-eyebrow">
        Cites {citations.length - cells > 0 && `${citations.length - cells} passage${citations.length - cells === 1 ? "" : "s"}`}
        {citations.length - cells > 0 && cells > 0 && " and "}
        {cells > 0 && `${cells} table cell${cells === 1 ? "" : "s"}`}
      </div>
      {citations.map((c, i) => (
        <CitationCard key={i} citation={c} />
      ))}
    </div>
  );
}
