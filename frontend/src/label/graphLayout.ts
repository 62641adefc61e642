/**
 * Where a graph problem's nodes go in its drawing (GraphFigure): pure and deterministic, so a
 * graph looks the same on every load and on the review page. Nodes start on a circle in their
 * listed order; a force layout (Fruchterman–Reingold, fixed iterations, no randomness) then
 * pulls joined nodes together and pushes the others apart, and the result is fitted to the box.
 */

export interface GraphSpec {
  directed: boolean;
  weighted: boolean;
  nodes: string[];
  /** [u, v] or [u, v, weight]. */
  edges: (string | number)[][];
  task?: { kind?: string; source?: string; target?: string; algorithm?: string };
}

export interface Point {
  x: number;
  y: number;
}

export interface Layout {
  width: number;
  height: number;
  radius: number;
  positions: Record<string, Point>;
}

/** More nodes than this are listed, not drawn. */
export const MAX_DRAWN_NODES = 40;

/** Every node: the listed ones, then any an edge names that the list lacks. */
export function graphNodes(graph: GraphSpec): string[] {
  const nodes = graph.nodes.map(String);
  const seen = new Set(nodes);
  for (const edge of graph.edges) {
    for (const end of edge.slice(0, 2).map(String)) {
      if (!seen.has(end)) {
        seen.add(end);
        nodes.push(end);
      }
    }
  }
  return nodes;
}

export function shouldDraw(graph: GraphSpec): boolean {
  const n = graphNodes(graph).length;
  return n > 0 && n <= MAX_DRAWN_NODES;
}

/** The node circle's radius: room for the longest name (capped). */
export function nodeRadius(nodes: string[]): number {
  const longest = Math.max(1, ...nodes.map((n) => n.length));
  return Math.min(26, 12 + 3.5 * longest);
}

export function circleLayout(nodes: string[], width: number, height: number, margin: number): Record<string, Point> {
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.max(0, Math.min(width, height) / 2 - margin);
  const out: Record<string, Point> = {};
  nodes.forEach((node, i) => {
    // Start at the top and go clockwise, so a small graph reads left to right.
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, nodes.length);
    out[node] = nodes.length === 1 ? { x: cx, y: cy } : { x: cx + r * Math.cos(angle), y: cy + r * Math.sin(angle) };
  });
  return out;
}

function forceLayout(nodes: string[], edges: [string, string][], width: number, height: number, margin: number): Record<string, Point> {
  const pos = circleLayout(nodes, width, height, margin);
  const area = (width - 2 * margin) * (height - 2 * margin);
  const k = Math.sqrt(area / Math.max(1, nodes.length));
  let temperature = width / 8;
  const iterations = 200;
  for (let it = 0; it < iterations; it++) {
    const disp: Record<string, Point> = Object.fromEntries(nodes.map((n) => [n, { x: 0, y: 0 }]));
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const a = pos[nodes[i]];
        const b = pos[nodes[j]];
        let dx = a.x - b.x;
        let dy = a.y - b.y;
        let d = Math.hypot(dx, dy);
        if (d < 0.01) {
          // Two nodes on one spot: part them along a fixed direction (no randomness).
          dx = 0.01 * (i + 1);
          dy = 0.01 * (j + 1);
          d = Math.hypot(dx, dy);
        }
        // Repulsion only nearby (FR's grid variant): far parts, other components, do not fly
        // apart and leave each one squeezed when the drawing is fitted to the box.
        if (d > 2.5 * k) continue;
        const f = (k * k) / d;
        disp[nodes[i]].x += (dx / d) * f;
        disp[nodes[i]].y += (dy / d) * f;
        disp[nodes[j]].x -= (dx / d) * f;
        disp[nodes[j]].y -= (dy / d) * f;
      }
    }
    for (const [u, v] of edges) {
      if (u === v) continue;
      const a = pos[u];
      const b = pos[v];
      const dx = a.x - b.x;
      const dy = a.y - b.y;
      const d = Math.max(0.01, Math.hypot(dx, dy));
      const f = (d * d) / k;
      disp[u].x -= (dx / d) * f;
      disp[u].y -= (dy / d) * f;
      disp[v].x += (dx / d) * f;
      disp[v].y += (dy / d) * f;
    }
    for (const n of nodes) {
      // A weak pull to the centre keeps separate components in the box.
      disp[n].x += (width / 2 - pos[n].x) * 0.05;
      disp[n].y += (height / 2 - pos[n].y) * 0.05;
      const d = Math.max(0.01, Math.hypot(disp[n].x, disp[n].y));
      const step = Math.min(d, temperature);
      pos[n] = { x: pos[n].x + (disp[n].x / d) * step, y: pos[n].y + (disp[n].y / d) * step };
    }
    temperature = Math.max(0.5, temperature * 0.97);
  }
  return pos;
}

/**
 * Scale and centre the points into the box, `margin` from every side. Each axis is scaled on
 * its own (up to 1.6 times the other's scale), so a tall layout still uses a wide box.
 */
function fit(pos: Record<string, Point>, width: number, height: number, margin: number): Record<string, Point> {
  const pts = Object.values(pos);
  if (pts.length === 0) return pos;
  const minX = Math.min(...pts.map((p) => p.x));
  const maxX = Math.max(...pts.map((p) => p.x));
  const minY = Math.min(...pts.map((p) => p.y));
  const maxY = Math.max(...pts.map((p) => p.y));
  const spanX = Math.max(maxX - minX, 1e-6);
  const spanY = Math.max(maxY - minY, 1e-6);
  const fitX = (width - 2 * margin) / spanX;
  const fitY = (height - 2 * margin) / spanY;
  const scaleX = Math.min(fitX, 1.6 * fitY);
  const scaleY = Math.min(fitY, 1.6 * fitX);
  const offX = (width - scaleX * spanX) / 2;
  const offY = (height - scaleY * spanY) / 2;
  const out: Record<string, Point> = {};
  for (const [n, p] of Object.entries(pos)) {
    out[n] = {
      x: pts.length === 1 ? width / 2 : offX + (p.x - minX) * scaleX,
      y: pts.length === 1 ? height / 2 : offY + (p.y - minY) * scaleY,
    };
  }
  return out;
}

/**
 * Push apart circles closer than `gap` (a few rounds, fixed order), kept `margin` inside the
 * box: the force layout leaves dense graphs' nodes touching.
 */
function separate(pos: Record<string, Point>, nodes: string[], gap: number, width: number, height: number, margin: number): void {
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const a = pos[nodes[i]];
        const b = pos[nodes[j]];
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d = Math.hypot(dx, dy);
        if (d >= gap) continue;
        if (d < 1e-6) {
          dx = 1;
          dy = (j - i) % 2 ? 1 : -1;
          d = Math.hypot(dx, dy);
        }
        const push = (gap - d) / 2;
        a.x -= (dx / d) * push;
        a.y -= (dy / d) * push;
        b.x += (dx / d) * push;
        b.y += (dy / d) * push;
        moved = true;
      }
    }
    for (const n of nodes) {
      pos[n].x = Math.min(width - margin, Math.max(margin, pos[n].x));
      pos[n].y = Math.min(height - margin, Math.max(margin, pos[n].y));
    }
    if (!moved) break;
  }
}

export function layoutGraph(graph: GraphSpec): Layout {
  const nodes = graphNodes(graph);
  const width = 560;
  const height = nodes.length > 12 ? 420 : 300;
  // Dense drawings get smaller circles (a two-digit name still fits).
  const radius = nodes.length > 16 ? Math.min(nodeRadius(nodes), 15) : nodeRadius(nodes);
  const margin = radius + 14;
  const edges = graph.edges.map((e) => [String(e[0]), String(e[1])] as [string, string]);
  const raw = nodes.length <= 3 ? circleLayout(nodes, width, height, margin) : forceLayout(nodes, edges, width, height, margin);
  const positions = fit(raw, width, height, margin);
  separate(positions, nodes, 2 * radius + 8, width, height, margin);
  for (const n of nodes) positions[n] = { x: Math.round(positions[n].x * 10) / 10, y: Math.round(positions[n].y * 10) / 10 };
  return { width, height, radius, positions };
}

/** One sentence for the task: "Shortest path from A to F". */
export function taskText(task: GraphSpec["task"]): string {
  const kind = task?.kind ?? "";
  const from = task?.source;
  const to = task?.target;
  switch (kind) {
    case "shortest_path":
      return from && to ? `Shortest path from ${from} to ${to}` : "Shortest path";
    case "connectivity":
      return from && to ? `Connectivity: is there a path from ${from} to ${to}?` : "Connectivity";
    case "cycle":
      return "Cycle detection";
    case "topological_order":
      return "Topological order";
    case "bipartite_matching":
      return "Bipartite matching";
    case "traversal": {
      const algo = task?.algorithm ? task.algorithm.toUpperCase() : "Traversal";
      return from ? `${algo} order from ${from}` : `${algo} order`;
    }
    default:
      return kind ? kind.replace(/_/g, " ") : "";
  }
}
