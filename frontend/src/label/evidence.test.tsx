import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Citation, Rating, TaskStep } from "../api";
import { SOURCES as AUTOLABEL_SOURCES, sourcesForDomain } from "../admin/autolabel";
import { describeSuggestion } from "./suggestions";
import { locateQuote, passageContext, resolveCitation, rowWindow, sourcesOf, type Sources } from "./evidence";
import { reviewShortcuts } from "../review/keyboard";
import { labelShortcuts } from "./keyboard";
import { EVIDENCE_RATING_NAMES, RatingNamesContext, ratingNamesFor } from "./ratingNames";
import { SourcesPanel } from "./SourcesPanel";
import { SourcesProvider } from "./SourcesContext";
import { StepRow } from "./StepRow";

const NOTE = "Creatinine rose to 2.1 mg/dL on day 3.\nPotassium stayed normal.";
const SOURCES: Sources = {
  documents: [{ id: "note", title: "Discharge note", text: NOTE }],
  tables: [{ id: "labs", title: "Labs", columns: ["Test", "Day 1", "Day 3"], rows: [["Creatinine", "1.0", "2.1"], ["Potassium", 4.1, null]] }],
};

describe("citations resolved against the sources", () => {
  it("finds a quote exactly, after normalising case, spaces and dashes, or with elisions", () => {
    expect(locateQuote(NOTE, "rose to 2.1")).toEqual([11, 22]);
    const [a, b] = locateQuote(NOTE, "CREATININE   rose to 2.1")!;
    expect(NOTE.slice(a, b)).toBe("Creatinine rose to 2.1");
    const [c, d] = locateQuote(NOTE, "rose … day 3")!;
    expect(NOTE.slice(c, d)).toBe("rose to 2.1 mg/dL on day 3");
    expect(locateQuote("a 1–2 b", "1-2")).toEqual([2, 5]);
    expect(locateQuote(NOTE, "fell to 0.9")).toBeNull();
  });

  it("resolves each kind and says what is missing", () => {
    expect(resolveCitation({ doc: "note", quote: "day 3" }, SOURCES)).toMatchObject({ kind: "passage", start: 32, end: 37 });
    expect(resolveCitation({ doc: "note", start: 0, end: 10 }, SOURCES)).toMatchObject({ kind: "passage", quote: null });
    expect(resolveCitation({ doc: "note", quote: "day 4" }, SOURCES).kind).toBe("quote-missing");
    expect(resolveCitation({ table: "labs", row: 1, column: 1 }, SOURCES)).toMatchObject({ kind: "cell", row: 1, column: 1 });
    expect(resolveCitation({ table: "labs", row: 5, column: 1 }, SOURCES).kind).toBe("unknown");
    expect(resolveCitation({ doc: "memo", quote: "x" }, SOURCES)).toEqual({ kind: "unknown", id: "memo" });
  });

  it("cuts context at words and windows long tables around the cited rows", () => {
    const text = "one two three four five six seven";
    const ctx = passageContext(text, 14, 18, 8);
    expect([ctx.before, ctx.match, ctx.after]).toEqual(["three ", "four", " five"]);
    expect([ctx.cutBefore, ctx.cutAfter]).toEqual([true, true]);
    const long = { ...SOURCES.tables[0], rows: Array.from({ length: 20 }, (_, i) => [`r${i}`, "1", "2"]) };
    expect(rowWindow(long, [10, 11])).toEqual([9, 10, 11, 12]);
    expect(rowWindow(SOURCES.tables[0], [0])).toEqual([0, 1]);
    expect(sourcesOf({})).toBeNull();
  });
});

const rowProps = {
  label: { step_id: 1, rating: null, unsure: false, comment: "", alternative_text: "" },
  index: 0,
  isCurrent: false,
  dimmed: false,
  isFirstError: false,
  ratingValues: [-1, 0, 1] as Rating[],
  showSuggestions: true,
  editor: null,
  readOnly: false,
  onRate: () => {},
  onAcceptSuggestion: () => {},
  onSelect: () => {},
  onToggleUnsure: () => {},
  onOpenEditor: () => {},
  onSaveEditor: () => {},
  onCancelEditor: () => {},
};

function cited(citations: Citation[]): TaskStep {
  return { id: 1, index: 0, text: "Creatinine doubled.", alternatives_count: 0, suggestions: [], meta: { citations } };
}

describe("an evidence-cited step", () => {
  it("shows its quote in context, its cells in one table, and a missing quote", () => {
    const citations: Citation[] = [
      { doc: "note", quote: "rose to 2.1" },
      { table: "labs", row: 0, column: 1 },
      { table: "labs", row: 0, column: 2 },
      { doc: "note", quote: "fell to 0.9" },
    ];
    render(
      <SourcesProvider sources={SOURCES}>
        <StepRow {...rowProps} step={cited(citations)} />
      </SourcesProvider>,
    );
    expect(screen.getByTestId("cited-passage").textContent).toBe("rose to 2.1");
    expect(screen.getAllByRole("table")).toHaveLength(1); // both cells in one copy of the table
    expect(screen.getAllByTestId("cited-cell").map((c) => c.textContent)).toEqual(["1.0", "2.1"]);
    expect(screen.getByTestId("quote-missing")).toBeTruthy();
    expect(screen.getByTestId("cited-evidence").textContent).toContain("Cites 2 passages and 2 table cells");
  });

  it("renders no citations outside an evidence page (no sources given)", () => {
    render(<StepRow {...rowProps} step={cited([{ doc: "note", quote: "x" }])} />);
    expect(screen.queryByTestId("cited-evidence")).toBeNull();
  });

  it("opens a citation in the sources panel, marked and focused", () => {
    const citations: Citation[] = [{ doc: "note", quote: "day 3" }, { table: "labs", row: 1, column: 1 }];
    render(
      <SourcesProvider sources={SOURCES}>
        <StepRow {...rowProps} step={cited(citations)} />
        <SourcesPanel cited={citations} />
      </SourcesProvider>,
    );
    const panel = screen.getByTestId("sources-panel");
    expect(within(panel).getAllByTestId("source-tab").map((t) => t.textContent)).toEqual(["Discharge note", "Labs"]);
    expect(within(panel).getByTestId("marked-passage").textContent).toBe("day 3");
    const [toDoc, toTable] = screen.getAllByTestId("cite-open");
    fireEvent.click(toTable);
    expect(within(panel).getByTestId("cited-cell").textContent).toBe("4.1");
    fireEvent.click(toDoc);
    expect(within(panel).getByTestId("focused-passage").textContent).toBe("day 3");
  });
});

describe("the evidence scale's words", () => {
  it("names the buttons supported / unsupported / wrong in evidence projects only", () => {
    expect(ratingNamesFor("evidence")).toBe(EVIDENCE_RATING_NAMES);
    expect(ratingNamesFor("math")["1"]).toBe("Correct");
    render(
      <RatingNamesContext.Provider value={ratingNamesFor("evidence")}>
        <StepRow {...rowProps} step={cited([])} />
      </RatingNamesContext.Provider>,
    );
    expect(screen.getByRole("button", { name: "Supported, step 1" }).getAttribute("title")).toBe("Supported (3 or +)");
    expect(screen.getByRole("button", { name: "Unsupported, step 1" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Wrong, step 1" })).toBeTruthy();
    const help = labelShortcuts(EVIDENCE_RATING_NAMES)[0].items.map((i) => i.label);
    expect(help.slice(0, 3)).toEqual(["Wrong (−1)", "Unsupported (0)", "Supported (+1)"]);
    const review = reviewShortcuts(EVIDENCE_RATING_NAMES)[0].items.map((i) => i.label);
    expect(review.slice(0, 3)).toEqual(["Wrong (−1)", "Unsupported (0)", "Supported (+1)"]);
    expect(reviewShortcuts()[0].items[2].label).toBe("Correct (+1)");
  });

  it("offers the citation check in evidence projects and says what a check that holds means", () => {
    expect(sourcesForDomain(AUTOLABEL_SOURCES, ["citation", "judge", "prm"]).map((s) => s.name)).toEqual(["citation", "judge", "prm"]);
    const view = describeSuggestion({
      source: "citation",
      agent: "citation-checker/v1",
      value: null,
      score: null,
      evidence: { kind: "checks out", checked: 1, claims: [{ text: "quote found in “Note”", holds: true }] },
    });
    expect(view.evidence?.label).toBe("citations check out");
    expect(view.evidence?.items).toEqual(["quote found in “Note”"]);
  });
});
