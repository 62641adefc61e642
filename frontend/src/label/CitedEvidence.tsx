import type { Citation, EvidenceTable } from "../api";
import { IconBook } from "../components/icons";
import { isCellCitation, passageContext, resolveCitation, rowWindow } from "./evidence";
import { useSources } from "./SourcesContext";

/** A table with its cited cells marked (their rows and columns tinted); `compact` shows only
 * the rows around them when the table is long. */
export function CellTable({ table, cells, compact }: { table: EvidenceTable; cells: [number, number][]; compact: boolean }) {
  const rows = compact ? rowWindow(table, cells.map(([r]) => r)) : table.rows.map((_, i) => i);
  const citedRows = new Set(cells.map(([r]) => r));
  const citedCols = new Set(cells.map(([, c]) => c));
  const isCited = (r: number, c: number) => cells.some(([cr, cc]) => cr === r && cc === c);
  return (
    <div className="cite-table-wrap">
      <table className="cite-table">
        <thead>
          <tr>
            {table.columns.map((c, i) => (
              <th key={i} className={citedCols.has(i) ? "is-cited-col" : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r} className={citedRows.has(r) ? "is-cited-row" : undefined}>
              {table.rows[r].map((cell, c) => {
                const cited = isCited(r, c);
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

function OpenSource({ citation, group, title }: { citation: Citation; group?: Citation[]; title: string }) {
  const { open, panel } = useSources();
  if (!panel) {
    return (
      <span className="cite-source cite-source-static">
        <IconBook width={12} height={12} />
        {title}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="cite-source"
      onClick={() => open(citation, group)}
      title={`Open ${title} in the sources panel`}
      data-testid="cite-open"
    >
      <IconBook width={12} height={12} />
      {title}
    </button>
  );
}

/** A step's cited cells of one table, in one rendering of the table. */
function TableCard({ table, cited }: { table: EvidenceTable; cited: { table: string; row: number; column: number }[] }) {
  const cells = cited.map((c) => [c.row, c.column] as [number, number]);
  return (
    <div className="cite-card" data-testid="citation" data-kind="cell">
      <div className="cite-head">
        <OpenSource citation={cited[0]} group={cited} title={table.title} />
        <span className="cite-where">
          {cited.map((c) => `${table.rows[c.row][0] ?? ""} · ${table.columns[c.column]}`).join("; ")}
        </span>
      </div>
      <CellTable table={table} cells={cells} compact />
    </div>
  );
}

function PassageCard({ citation }: { citation: Citation }) {
  const { sources } = useSources();
  if (!sources) return null;
  const target = resolveCitation(citation, sources);
  if (target.kind === "unknown" || target.kind === "cell") {
    return (
      <div className="cite-card cite-missing" data-testid="citation">
        <span className="badge badge-red">cites {target.kind === "cell" ? target.table.id : target.id}, which this problem does not have</span>
      </div>
    );
  }
  if (target.kind === "quote-missing") {
    return (
      <div className="cite-card cite-missing" data-testid="citation" data-kind="quote-missing">
        <div className="cite-head">
          <OpenSource citation={citation} title={target.doc.title} />
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
        <OpenSource citation={citation} title={target.doc.title} />
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
  const cellCitations = citations.filter(isCellCitation);
  const cells = cellCitations.length;
  // Cells of one table are shown in one copy of it, in the order the tables are first cited.
  const tables: { table: EvidenceTable | undefined; cited: typeof cellCitations }[] = [];
  for (const c of cellCitations) {
    const group = tables.find((g) => g.cited[0].table === c.table);
    if (group) group.cited.push(c);
    else tables.push({ table: sources.tables.find((t) => t.id === c.table), cited: [c] });
  }
  return (
    <div className="cite-list" data-testid="cited-evidence" aria-label="Cited evidence">
      <div className="cite-eyebrow">
        Cites {citations.length - cells > 0 && `${citations.length - cells} passage${citations.length - cells === 1 ? "" : "s"}`}
        {citations.length - cells > 0 && cells > 0 && " and "}
        {cells > 0 && `${cells} table cell${cells === 1 ? "" : "s"}`}
      </div>
      {citations.map((c, i) => (!isCellCitation(c) ? <PassageCard key={i} citation={c} /> : null))}
      {tables.map(({ table, cited }) =>
        table ? (
          <TableCard key={table.id} table={table} cited={cited} />
        ) : (
          <div key={cited[0].table} className="cite-card cite-missing" data-testid="citation">
            <span className="badge badge-red">cites a table {cited[0].table}, which this problem does not have</span>
          </div>
        ),
      )}
    </div>
  );
}
