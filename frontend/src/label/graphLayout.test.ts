import { describe, expect, it } from "vitest";
import { MAX_DRAWN_NODES, circleLayout, graphNodes, layoutGraph, shouldDraw, taskText, type GraphSpec } from "./graphLayout";

const dijkstra: GraphSpec = {
  directed: false,
  weighted: true,
  nodes: ["A", "B", "C", "D", "E", "F"],
  edges: [
    ["A", "B", 4],
    ["A", "C", 2],
    ["B", "C", 1],
    ["B", "D", 5],
    ["C", "D", 8],
    ["C", "E", 10],
    ["D", "E", 2],
    ["D", "F", 6],
    ["E", "F", 3],
  ],
  task: { kind: "shortest_path", source: "A", target: "F" },
};

function dist(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

describe("graph layout", () => {
  it("is deterministic: the same graph gets the same positions", () => {
    expect(layoutGraph(dijkstra)).toEqual(layoutGraph(structuredClone(dijkstra)));
  });

  it("keeps every node inside the box, a node's radius from the edge", () => {
    const { width, height, radius, positions } = layoutGraph(dijkstra);
    expect(Object.keys(positions).sort()).toEqual(["A", "B", "C", "D", "E", "F"]);
    for (const p of Object.values(positions)) {
      expect(p.x).toBeGreaterThanOrEqual(radius);
      expect(p.x).toBeLessThanOrEqual(width - radius);
      expect(p.y).toBeGreaterThanOrEqual(radius);
      expect(p.y).toBeLessThanOrEqual(height - radius);
    }
  });

  it("leaves room between nodes (no two circles overlap)", () => {
    const { radius, positions } = layoutGraph(dijkstra);
    const pts = Object.values(positions);
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) expect(dist(pts[i], pts[j])).toBeGreaterThan(2 * radius);
    }
  });

  it("keeps the circles of a dense 24-node graph apart and uses the box's width", () => {
    const nodes = Array.from({ length: 24 }, (_, i) => String(i));
    const edges = nodes.flatMap((n, i) => [1, 5, 11].map((d) => [n, String((i * 7 + d) % 24)])).filter(([a, b]) => a !== b);
    const { width, radius, positions } = layoutGraph({ directed: true, weighted: false, nodes, edges });
    const pts = Object.values(positions);
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) expect(dist(pts[i], pts[j])).toBeGreaterThan(2 * radius);
    }
    const xs = pts.map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(width / 2);
  });

  it("puts joined nodes nearer than unjoined ones on a path graph", () => {
    const path: GraphSpec = { directed: false, weighted: false, nodes: ["1", "2", "3", "4", "5", "6"], edges: [["1", "2"], ["2", "3"], ["3", "4"], ["4", "5"], ["5", "6"]] };
    const { positions: p } = layoutGraph(path);
    expect(dist(p["1"], p["2"])).toBeLessThan(dist(p["1"], p["6"]));
    expect(dist(p["3"], p["4"])).toBeLessThan(dist(p["1"], p["6"]) / 2);
  });

  it("keeps separate components apart and in the box", () => {
    const two: GraphSpec = {
      directed: false,
      weighted: false,
      nodes: ["A", "B", "C", "E", "F", "G"],
      edges: [["A", "B"], ["B", "C"], ["E", "F"], ["F", "G"], ["G", "E"]],
    };
    const { width, height, positions } = layoutGraph(two);
    for (const p of Object.values(positions)) {
      expect(p.x).toBeGreaterThan(0);
      expect(p.x).toBeLessThan(width);
      expect(p.y).toBeGreaterThan(0);
      expect(p.y).toBeLessThan(height);
    }
  });

  it("places up to three nodes on a circle, one node in the middle", () => {
    const one = layoutGraph({ directed: true, weighted: false, nodes: ["x"], edges: [] });
    expect(one.positions.x).toEqual({ x: one.width / 2, y: one.height / 2 });
    const circle = circleLayout(["a", "b", "c"], 200, 200, 20);
    expect(circle.a.x).toBeCloseTo(100);
    expect(circle.a.y).toBeCloseTo(20); // the first node at the top
  });

  it("takes nodes an edge names but the list lacks, and draws at most MAX_DRAWN_NODES", () => {
    expect(graphNodes({ directed: false, weighted: false, nodes: ["a"], edges: [["a", "b"], [1, 2]] })).toEqual(["a", "b", "1", "2"]);
    const big: GraphSpec = { directed: false, weighted: false, nodes: Array.from({ length: MAX_DRAWN_NODES + 1 }, (_, i) => `n${i}`), edges: [] };
    expect(shouldDraw(big)).toBe(false);
    expect(shouldDraw({ ...big, nodes: big.nodes.slice(0, MAX_DRAWN_NODES) })).toBe(true);
  });

  it("says the task in words", () => {
    expect(taskText(dijkstra.task)).toBe("Shortest path from A to F");
    expect(taskText({ kind: "connectivity", source: "4", target: "1" })).toBe("Connectivity: is there a path from 4 to 1?");
    expect(taskText({ kind: "bipartite_matching" })).toBe("Bipartite matching");
    expect(taskText({ kind: "traversal", source: "17", algorithm: "bfs" })).toBe("BFS order from 17");
    expect(taskText(undefined)).toBe("");
  });
});
