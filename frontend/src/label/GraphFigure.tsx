/**
 * A graph problem's graph (domain `graph`), drawn beside the problem on the labeling and review
 * pages: nodes where graphLayout puts them, edge weights, arrows when directed, the task's
 * source and target marked. Graphs over MAX_DRAWN_NODES nodes get the edge list instead.
 */
import { useId } from "react";
import { graphNodes, layoutGraph, shouldDraw, taskText, type GraphSpec, type Point } from "./graphLayout";

function edgeKey(u: string, v: string): string {
  return `${u}\u0000${v}`;
}

function weightText(w: string | number | undefined): string {
  return w === undefined ? "" : String(w);
}

interface DrawnEdge {
  u: string;
  v: string;
  w: string;
  path: string;
  label: Point;
}

/** The edge's path from circle to circle (bent when the reverse arc is drawn too). */
function drawEdge(a: Point, b: Point, r: number, bend: number, directed: boolean): { path: string; label: Point } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const d = Math.max(1e-6, Math.hypot(dx, dy));
  const nx = -dy / d;
  const ny = dx / d;
  const mid = { x: (a.x + b.x) / 2 + nx * bend, y: (a.y + b.y) / 2 + ny * bend };
  const towards = (p: Point, q: Point, by: number): Point => {
    const l = Math.max(1e-6, Math.hypot(q.x - p.x, q.y - p.y));
    return { x: p.x + ((q.x - p.x) / l) * by, y: p.y + ((q.y - p.y) / l) * by };
  };
  const start = towards(a, mid, r);
  const end = towards(b, mid, r + (directed ? 3 : 0));
  const f = (n: number) => n.toFixed(1);
  const path = bend
    ? `M${f(start.x)},${f(start.y)} Q${f(mid.x)},${f(mid.y)} ${f(end.x)},${f(end.y)}`
    : `M${f(start.x)},${f(start.y)} L${f(end.x)},${f(end.y)}`;
  // The weight sits beside the edge's middle, on the bend's side.
  const side = bend >= 0 ? 1 : -1;
  const label = bend
    ? { x: (a.x + b.x) / 2 + nx * bend * 0.55 + nx * 9 * side, y: (a.y + b.y) / 2 + ny * bend * 0.55 + ny * 9 * side }
    : { x: (a.x + b.x) / 2 + nx * 10, y: (a.y + b.y) / 2 + ny * 10 };
  return { path, label };
}

export function GraphFigure({ graph }: { graph: GraphSpec }) {
  const id = useId().replace(/[^a-zA-Z0-9]/g, "");
  const task = taskText(graph.task);
  const nodes = graphNodes(graph);
  const arrow = graph.directed ? "→" : "–";
  const edgeList = (
    <ul className="graph-edge-list" data-testid="graph-edge-list">
      {graph.edges.map((e, i) => (
        <li key={i} className="mono">
          {String(e[0])} {arrow} {String(e[1])}
          {graph.weighted && e.length > 2 ? <span className="muted"> ({weightText(e[2])})</span> : null}
        </li>
      ))}
    </ul>
  );
  const summary = `${graph.directed ? "Directed" : "Undirected"}${graph.weighted ? ", weighted" : ""} graph · ${nodes.length} nodes · ${graph.edges.length} edges`;
  const head = (
    <div className="graph-head">
      <span className="answer-label">Graph</span>
      <span className="muted graph-summary">{summary}</span>
      {task && (
        <span className="tag graph-task" data-testid="graph-task">
          {task}
        </span>
      )}
    </div>
  );
  if (!shouldDraw(graph)) {
    return (
      <div className="graph-figure" data-testid="graph-figure" data-drawn="false">
        {head}
        <p className="muted graph-note">Too many nodes to draw ({nodes.length}); the edges:</p>
        {edgeList}
      </div>
    );
  }
  const layout = layoutGraph(graph);
  const { positions: pos, radius } = layout;
  const arcs = new Set(graph.edges.map((e) => edgeKey(String(e[0]), String(e[1]))));
  const drawn: DrawnEdge[] = [];
  const loops: { u: string; w: string }[] = [];
  for (const e of graph.edges) {
    const u = String(e[0]);
    const v = String(e[1]);
    const w = graph.weighted ? weightText(e[2]) : "";
    if (u === v) {
      loops.push({ u, w });
      continue;
    }
    const bend = graph.directed && arcs.has(edgeKey(v, u)) ? 22 : 0;
    drawn.push({ u, v, w, ...drawEdge(pos[u], pos[v], radius, bend, graph.directed) });
  }
  const source = graph.task?.source;
  const target = graph.task?.target;
  return (
    <figure className="graph-figure" data-testid="graph-figure" data-drawn="true">
      {head}
      <svg
        className="graph-svg"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="img"
        aria-label={`${summary}${task ? `. ${task}` : ""}`}
      >
        {graph.directed && (
          <defs>
            <marker id={`arrow${id}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" className="graph-arrow" />
            </marker>
          </defs>
        )}
        {drawn.map((e, i) => (
          <g key={i} data-testid="graph-edge" data-edge={`${e.u}-${e.v}`}>
            <path d={e.path} className="graph-edge" markerEnd={graph.directed ? `url(#arrow${id})` : undefined} />
            {e.w !== "" && (
              <text x={e.label.x} y={e.label.y} className="graph-weight" textAnchor="middle" dominantBaseline="central">
                {e.w}
              </text>
            )}
          </g>
        ))}
        {loops.map((l, i) => {
          const p = pos[l.u];
          return (
            <g key={`loop${i}`} data-testid="graph-edge" data-edge={`${l.u}-${l.u}`}>
              <circle cx={p.x} cy={p.y - radius - 8} r={10} className="graph-edge graph-loop" />
              {l.w !== "" && (
                <text x={p.x} y={p.y - radius - 26} className="graph-weight" textAnchor="middle" dominantBaseline="central">
                  {l.w}
                </text>
              )}
            </g>
          );
        })}
        {nodes.map((n) => {
          const p = pos[n];
          const role = n === source ? "source" : n === target ? "target" : "";
          return (
            <g key={n} data-testid="graph-node" data-node={n} data-role={role || undefined}>
              <circle cx={p.x} cy={p.y} r={radius} className={`graph-node${role ? ` graph-node-${role}` : ""}`} />
              <text x={p.x} y={p.y} className="graph-label" textAnchor="middle" dominantBaseline="central">
                {n}
              </text>
            </g>
          );
        })}
      </svg>
      <details className="graph-edges">
        <summary>Edge list</summary>
        {edgeList}
      </details>
    </figure>
  );
}
