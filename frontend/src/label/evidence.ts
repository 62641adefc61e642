import type { Citation, EvidenceDocument, EvidenceTable } from "../api";

/** An evidence-cited problem's sources, looked up by id. */
export interface Sources {
  documents: EvidenceDocument[];
  tables: EvidenceTable[];
}

/** Where a citation points, resolved against the problem's sources. */
export type CitationTarget =
  | { kind: "passage"; doc: EvidenceDocument; start: number; end: number; quote: string | null }
  | { kind: "quote-missing"; doc: EvidenceDocument; quote: string }
  | { kind: "cell"; table: EvidenceTable; row: number; column: number }
  | { kind: "unknown"; id: string };

const TRANSLATE: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
  "\u00a0": " ",
};

/** The text case-folded, quotes and dashes unified, whitespace runs one space; with, per
 * character of the result, its offset in `text` (the checker's normalisation). */
export function normalizeWithMap(text: string): { norm: string; map: number[] } {
  let norm = "";
  const map: number[] = [];
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (/\s/.test(ch) || ch === "\u00a0") {
      if (!space) {
        norm += " ";
        map.push(i);
        space = true;
      }
      continue;
    }
    const piece = (TRANSLATE[ch] ?? ch).toLowerCase();
    for (const p of piece) {
      norm += p;
      map.push(i);
    }
    space = false;
  }
  return { norm, map };
}

/** [start, end) of the quote in the text: exact, else normalised (parts around "..." in
 * order); null when it is not there. */
export function locateQuote(text: string, quote: string): [number, number] | null {
  const exact = text.indexOf(quote);
  if (exact >= 0) return [exact, exact + quote.length];
  const { norm, map } = normalizeWithMap(text);
  const parts = quote
    .split(/\s*(?:\.\.\.|…|\[\.\.\.\])\s*/)
    .map((p) => normalizeWithMap(p).norm.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  let pos = 0;
  let first = -1;
  for (const part of parts) {
    const at = norm.indexOf(part, pos);
    if (at < 0) return null;
    if (first < 0) first = at;
    pos = at + part.length;
  }
  return [map[first], map[pos - 1] + 1];
}

export function isCellCitation(c: Citation): c is { table: string; row: number; column: number } {
  return "table" in c;
}

export function resolveCitation(c: Citation, sources: Sources): CitationTarget {
  if (isCellCitation(c)) {
    const table = sources.tables.find((t) => t.id === c.table);
    if (!table || !table.rows[c.row] || c.column >= table.columns.length) return { kind: "unknown", id: c.table };
    return { kind: "cell", table, row: c.row, column: c.column };
  }
  const doc = sources.documents.find((d) => d.id === c.doc);
  if (!doc) return { kind: "unknown", id: c.doc };
  if ("quote" in c) {
    const at = locateQuote(doc.text, c.quote);
    if (!at) return { kind: "quote-missing", doc, quote: c.quote };
    return { kind: "passage", doc, start: at[0], end: at[1], quote: c.quote };
  }
  const start = Math.max(0, Math.min(c.start, doc.text.length));
  const end = Math.max(start, Math.min(c.end, doc.text.length));
  return { kind: "passage", doc, start, end, quote: null };
}

/** The passage with some context around it, cut at word boundaries. */
export function passageContext(
  text: string,
  start: number,
  end: number,
  radius = 140,
): { before: string; match: string; after: string; cutBefore: boolean; cutAfter: boolean } {
  let from = Math.max(0, start - radius);
  let to = Math.min(text.length, end + radius);
  if (from > 0) {
    const space = text.indexOf(" ", from);
    if (space >= 0 && space < start) from = space + 1;
  }
  if (to < text.length) {
    const space = text.lastIndexOf(" ", to);
    if (space > end) to = space;
  }
  return {
    before: text.slice(from, start),
    match: text.slice(start, end),
    after: text.slice(end, to),
    cutBefore: from > 0,
    cutAfter: to < text.length,
  };
}

/** The rows of a table to show around a cited cell: all of a short table, else a window. */
export function rowWindow(table: EvidenceTable, rows: number[], max = 8): number[] {
  const all = table.rows.map((_, i) => i);
  if (table.rows.length <= max) return all;
  const keep = new Set<number>();
  for (const r of rows) for (let i = r - 1; i <= r + 1; i++) if (i >= 0 && i < table.rows.length) keep.add(i);
  return [...keep].sort((a, b) => a - b);
}

/** The problem's sources, or null when it has none (not an evidence-cited problem). */
export function sourcesOf(problem: { documents?: EvidenceDocument[]; tables?: EvidenceTable[] }): Sources | null {
  const documents = problem.documents ?? [];
  const tables = problem.tables ?? [];
  return documents.length || tables.length ? { documents, tables } : null;
}
