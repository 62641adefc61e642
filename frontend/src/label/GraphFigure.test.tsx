import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Suggestion } from "../api";
import { GraphFigure } from "./GraphFigure";
import { SuggestionChip, SuggestionNotes } from "./SuggestionChip";
import { describeSuggestion } from "./suggestions";

describe("graph figure", () => {
  it("draws every node and edge, weights, arrows when directed, the task's ends marked", () => {
    render(
      <GraphFigure
        graph={{
          directed: true,
          weighted: true,
          nodes: ["S", "A", "T"],
          edges: [
            ["S", "A", 3],
            ["A", "S", 1],
            ["A", "T", 2],
          ],
          task: { kind: "shortest_path", source: "S", target: "T" },
        }}
      />,
    );
    const figure = screen.getByTestId("graph-figure");
    expect(figure.getAttribute("data-drawn")).toBe("true");
    expect(screen.getAllByTestId("graph-node").map((n) => n.getAttribute("data-node"))).toEqual(["S", "A", "T"]);
    expect(screen.getAllByTestId("graph-edge")).toHaveLength(3);
    expect(figure.querySelectorAll("marker")).toHaveLength(1);
    expect(figure.querySelectorAll("path[marker-end]")).toHaveLength(3);
    // S->A and A->S are both drawn: bent, not on top of each other.
    expect(figure.querySelectorAll("path.graph-edge")[0].getAttribute("d")).toContain("Q");
    expect(Array.from(figure.querySelectorAll(".graph-weight")).map((t) => t.textContent)).toEqual(["3", "1", "2"]);
    expect(screen.getByTestId("graph-task").textContent).toBe("Shortest path from S to T");
    const roles = screen.getAllByTestId("graph-node").map((n) => n.getAttribute("data-role"));
    expect(roles).toEqual(["source", null, "target"]);
  });

  it("draws an undirected graph without arrows", () => {
    render(<GraphFigure graph={{ directed: false, weighted: false, nodes: ["a", "b"], edges: [["a", "b"]], task: { kind: "cycle" } }} />);
    expect(screen.getByTestId("graph-figure").querySelectorAll("marker")).toHaveLength(0);
    expect(screen.queryAllByText(/^\d+$/)).toHaveLength(0);
  });

  it("lists the edges instead of drawing a graph too big to draw", () => {
    const nodes = Array.from({ length: 45 }, (_, i) => String(i));
    const edges = nodes.slice(1).map((n, i) => [String(i), n]);
    render(<GraphFigure graph={{ directed: true, weighted: false, nodes, edges, task: { kind: "topological_order" } }} />);
    expect(screen.getByTestId("graph-figure").getAttribute("data-drawn")).toBe("false");
    expect(screen.queryAllByTestId("graph-node")).toHaveLength(0);
    const list = screen.getByTestId("graph-edge-list");
    expect(within(list).getAllByRole("listitem")).toHaveLength(44);
    expect(list.textContent).toContain("0 → 1");
  });
});

const refuted: Suggestion = {
  source: "graph",
  agent: "networkx/graph-1.0",
  value: -1,
  score: null,
  evidence: {
    checker: "graph",
    verdict: "refuted",
    claims: [],
    failed: [
      { text: "the distance from S to C is 6", kind: "distance", lhs: "dist(S, C)", rhs: "6", lhs_value: "4", rhs_value: "6", holds: false, reason: "the distance is 4" },
    ],
  },
};

describe("graph checker suggestions", () => {
  it("shows a refuted claim with the true value, or the reason when there is no value", () => {
    render(<SuggestionNotes suggestions={[refuted]} />);
    const note = screen.getByTestId("symbolic-refuted");
    expect(note.textContent).toContain("graph");
    expect(note.textContent).toContain("4≠6");
    expect(screen.queryByTestId("refuted-reason")).toBeNull(); // "4 ≠ 6" says it
    expect(describeSuggestion(refuted).title).toContain("Graph check");
  });

  it("says why an order is wrong", () => {
    const order: Suggestion = {
      ...refuted,
      evidence: {
        failed: [{ text: "order so far: A, B, E, C, F", kind: "topo_prefix", lhs: "topological order so far", rhs: "A, B, E, C, F", lhs_value: "", rhs_value: "A, B, E, C, F", holds: false, reason: "F comes before its predecessor D" }],
      },
    };
    render(<SuggestionNotes suggestions={[order]} />);
    expect(screen.getByTestId("symbolic-refuted").textContent).toContain("order so far: A, B, E, C, F");
    expect(screen.getByTestId("refuted-reason").textContent).toContain("F comes before its predecessor D");
  });

  it("shows checked claims as evidence, never a rating", () => {
    const ok: Suggestion = {
      source: "graph",
      agent: "networkx/graph-1.0",
      value: null,
      score: null,
      evidence: {
        kind: "checks out",
        checked: 1,
        claims: [{ text: "D is reachable from A", lhs: "D reachable from A", rhs: "yes", holds: true }],
      },
    };
    render(<SuggestionChip suggestion={ok} acceptable agrees={false} onAccept={() => {}} />);
    const chip = screen.getByTestId("evidence-chip");
    expect(chip.textContent).toContain("claims check out");
    expect(chip.getAttribute("title")).toContain("True claims about the graph do not make a step right");
  });
});
