/**
 * How a machine suggestion reads on a step: a short badge per source, a compact detail (MC 3/8,
 * PRM 0.82), and the evidence worth showing (a refuted equation, a judge's rationale).
 *
 * Evidence is free-form JSON from the workers; everything here is defensive about its shape.
 */
import type { Rating, Suggestion } from "../api";

export const SOURCE_BADGE: Record<string, string> = {
  symbolic: "∑",
  rollout: "MC",
  judge: "judge",
  prm: "PRM",
  import: "import",
  consensus: "✓✓",
  answer: "answer",
  code: "code",
  graph: "graph",
  citation: "cite",
  subgoal: "subgoal",
};

export const SOURCE_NAME: Record<string, string> = {
  symbolic: "Symbolic check",
  rollout: "Monte-Carlo rollouts",
  judge: "LLM judge",
  prm: "Process reward model",
  import: "Imported label",
  consensus: "Source consensus",
  answer: "Final-answer check",
  code: "Code execution",
  graph: "Graph check",
  citation: "Citation check",
  subgoal: "Subgoal log check",
  prediction: "Predictions",
};

export const VALUE_WORD: Record<string, string> = { "-1": "wrong (−1)", "0": "neutral (0)", "1": "correct (+1)" };

export type Tone = "neg" | "neu" | "pos" | "none";

export function toneOf(value: Rating | null): Tone {
  return value === -1 ? "neg" : value === 0 ? "neu" : value === 1 ? "pos" : "none";
}

export interface RefutedClaim {
  /** The claim as written in the step, when the engine gives it. */
  claim: string | null;
  /** "lhs = a ≠ b" parts, when the engine computed the values (all null otherwise). */
  lhs: string | null;
  lhsValue: string | null;
  rhsValue: string | null;
}

/**
 * What an evidence-only suggestion (no value, `evidence.kind` set by the engine) says: a check
 * that passed, shown on the step but never a rating. A symbolic "verified" is one: on labeled
 * data a step whose arithmetic checks out is correct no more often than any step.
 */
export interface EvidenceView {
  /** "arithmetic checks out", "tests pass". */
  label: string;
  /** The checked claims (or the test summary), for hover and the expanded list. */
  items: string[];
  /** How many claims were checked, when the engine says. */
  checked: number | null;
  /** What this kind of evidence was measured to be worth (`calibrationText`), if measured. */
  measured?: string | null;
}

export const EVIDENCE_LABEL: Record<string, string> = {
  "checks out": "arithmetic checks out",
  doubtful: "looks wrong, not refuted",
  "tests pass": "tests pass",
  "contradicts outcome": "contradicts the outcome",
};

/** Where a source's evidence means something else than the symbolic check's. */
const SOURCE_EVIDENCE_LABEL: Record<string, Record<string, string>> = {
  subgoal: { "checks out": "log checks out" },
  graph: { "checks out": "claims check out" },
  // The citation checker's "checks out" is about the sources, not arithmetic.
  citation: { "checks out": "citations check out" },
};

/** The last line of an evidence chip's hover text: what the evidence does not prove. */
const EVIDENCE_CAVEAT: Record<string, string> = {
  subgoal: "A logged success does not make the step a good one: rate the decision.",
  graph: "True claims about the graph do not make a step right: rate the reasoning.",
  citation: "A quote that is there does not make the step right: read what it says.",
};

export interface SuggestionView {
  badge: string;
  /** Short text after the badge: "3/8", "62%", "0.82"; null when there is nothing to add. */
  detail: string | null;
  /** The value mark: ✓ / ✗ for symbolic, else + / 0 / −, "?" for no value. */
  mark: string;
  tone: Tone;
  refuted: RefutedClaim | null;
  rationale: string | null;
  /** Set for evidence-only suggestions: shown as evidence, never accepted as a rating. */
  evidence: EvidenceView | null;
  /** A checker's one-line finding shown under the step (subgoal: "precondition … not satisfied"). */
  note?: string | null;
  /** A symbolic "doubtful": failed claims of kinds that have not earned a −1, shown under the step. */
  doubtful?: DoubtfulClaim[] | null;
  /** Hover text: what it is, who made it, what it says. */
  title: string;
}

type Obj = Record<string, unknown>;

function asObj(v: unknown): Obj | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null;
}

function str(v: unknown): string | null {
  if (typeof v === "string") return v.trim() ? v.trim() : null;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

function num(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The first refuted claim of a symbolic suggestion (`evidence.failed[0]`), if it has one. */
export function refutedClaim(evidence: unknown): RefutedClaim | null {
  const e = asObj(evidence);
  if (!e) return null;
  const list = e.failed ?? e.refuted;
  const first = Array.isArray(list) ? list[0] : list;
  if (first == null) return null;
  if (typeof first === "string") {
    return first.trim() ? { claim: first.trim(), lhs: null, lhsValue: null, rhsValue: null } : null;
  }
  const f = asObj(first);
  if (!f) return null;
  const lhs = str(f.lhs);
  const rhs = str(f.rhs);
  const claim = str(f.claim) ?? str(f.text) ?? str(f.equation) ?? (lhs && rhs ? `${lhs} = ${rhs}` : null);
  const lhsValue = str(f.lhs_value);
  // Without a computed right side, the written one is what the left side fails to equal.
  const rhsValue = str(f.rhs_value) ?? (lhsValue != null ? rhs : null);
  const hasValues = lhsValue != null && rhsValue != null;
  if (!claim && !hasValues) return null;
  return {
    claim,
    lhs: hasValues ? lhs : null,
    lhsValue: hasValues ? lhsValue : null,
    rhsValue: hasValues ? rhsValue : null,
  };
}

/** Why the first refuted claim fails, in the engine's words ("F comes before its predecessor D"). */
export function refutedReason(evidence: unknown): string | null {
  const list = asObj(evidence)?.failed;
  const first = Array.isArray(list) ? asObj(list[0]) : null;
  return first ? str(first.reason) : null;
}

/** "lhs = a ≠ b" (or "a ≠ b" without the lhs) as plain text, for hover text. */
export function valuesText(r: RefutedClaim): string | null {
  if (r.lhsValue == null || r.rhsValue == null) return null;
  const lhsPart = r.lhs && r.lhs !== r.lhsValue ? `${r.lhs} = ` : "";
  return `${lhsPart}${r.lhsValue} ≠ ${r.rhsValue}`;
}

/** Some text out of other evidence, for the hover text. */
export function evidenceText(evidence: unknown): string {
  if (evidence == null) return "";
  if (typeof evidence === "string") return clip(evidence, 600);
  const e = asObj(evidence);
  if (e) {
    for (const key of ["rationale", "message", "reason", "explanation", "text", "detail"]) {
      const v = str(e[key]);
      if (v) return clip(v, 600);
    }
    if (Object.keys(e).length === 0) return "";
    return clip(JSON.stringify(evidence), 600);
  }
  return clip(String(evidence), 600);
}

/**
 * One checked claim as text: its two sides ("52 - 8 = 44"; the found text may carry a note,
 * "52 - 8 = 44 (both equal …)"), with the computed value when it adds one.
 */
function claimText(c: Obj): string | null {
  const lhs = str(c.lhs);
  const rhs = str(c.rhs);
  const text = (lhs && rhs ? `${lhs} = ${rhs}` : null) ?? str(c.text) ?? str(c.claim);
  if (!text) return null;
  const value = str(c.lhs_value);
  return value != null && value !== rhs && !text.includes(value) ? `${text}  (= ${value})` : text;
}

/**
 * A failed claim of a symbolic "doubtful" suggestion: the checker found it false, but claims of its
 * kind have not been right often enough on the dev set to refute a step (precision below 95%, or
 * too few cases), so it is evidence for the annotator, not a −1.
 */
export interface DoubtfulClaim {
  claim: string;
  kind: string | null;
  /** The kind's measured precision (0–1), null when never measured for this checker version. */
  precision: number | null;
  /** How many refutations of the kind it was measured on. */
  n: number | null;
}

export const DOUBTFUL = "doubtful";

/** The failed claims of a "doubtful" suggestion with their kinds' measured precision. */
export function doubtfulClaims(evidence: unknown): DoubtfulClaim[] {
  const e = asObj(evidence);
  if (!e || str(e.kind) !== DOUBTFUL || !Array.isArray(e.failed)) return [];
  const measured = new Map<string, Obj>();
  const gate = asObj(e.gate);
  if (gate && Array.isArray(gate.kinds)) {
    for (const k of gate.kinds) {
      const cell = asObj(k);
      const name = cell ? str(cell.kind) : null;
      if (cell && name) measured.set(name, cell);
    }
  }
  const out: DoubtfulClaim[] = [];
  for (const f of e.failed) {
    const c = asObj(f);
    const claim = c ? (str(c.text) ?? str(c.claim) ?? (str(c.lhs) && str(c.rhs) ? `${str(c.lhs)} = ${str(c.rhs)}` : null)) : null;
    if (!c || !claim) continue;
    const kind = str(c.kind);
    const cell = kind ? measured.get(kind) : undefined;
    const known = cell && cell.measured !== false;
    out.push({ claim: clip(claim, 200), kind, precision: known ? num(cell.precision) : null, n: known ? num(cell.n) : null });
  }
  return out;
}

/** "looks wrong (kind arithmetic, 91% precision), not refuted" */
export function doubtText(d: DoubtfulClaim): string {
  const precision = d.precision != null ? `${pct(d.precision)} precision` : "precision not measured";
  return `looks wrong (${d.kind ? `kind ${d.kind}, ` : ""}${precision}), not refuted`;
}

/** The evidence view of an evidence-only suggestion; null when it is a rating (or no kind). */
export function evidenceOf(s: Suggestion): EvidenceView | null {
  const e = asObj(s.evidence);
  const kind = e ? str(e.kind) : null;
  if (s.value !== null || !e || !kind) return null;
  const items: string[] = [];
  if (kind === DOUBTFUL) {
    for (const d of doubtfulClaims(e)) items.push(d.claim);
  } else if (Array.isArray(e.claims)) {
    for (const c of e.claims) {
      const claim = asObj(c);
      if (claim && claim.holds === true) {
        const text = claimText(claim);
        if (text) items.push(clip(text, 200));
      }
    }
  }
  const summary = str(e.summary);
  if (items.length === 0 && summary) items.push(summary);
  if (items.length === 0 && typeof e.message === "string" && e.message.trim()) items.push(e.message.trim());
  const label = SOURCE_EVIDENCE_LABEL[s.source]?.[kind] ?? EVIDENCE_LABEL[kind] ?? kind;
  return { label, items, checked: num(e.checked) };
}

const VERDICT_VERB: Record<string, string> = { "-1": "refutes", "0": "neutral", "1": "supports" };

function pct(v: number): string {
  return `${Math.round(v * 100)}%`;
}

/** "0.8–1" from a score bin's edges. */
function range(lo: number, hi: number): string {
  const short = (v: number) => String(Math.round(v * 100) / 100);
  return `${short(lo)}–${short(hi)}`;
}

/**
 * What the verdict was measured to be worth (`evidence.calibration`, autolabel/calibration):
 * "refutes: right 80% of 25 times on ProcessBench sample"; for a model's score mapped through
 * its bin (rollout, judge, prm), "supports: right 83% of 120 times at model scores 0.8–1 on …
 * (model's own: 0.93)"; for evidence without a rating, "the step was correct 91% of 499 times
 * (all steps: 92%) on …"; for a model never measured (`{"measured": false}`), "supports: score
 * 0.93 is the model's own estimate, not measured". Null when there is nothing to say.
 */
export function calibrationText(s: Suggestion, label?: string): string | null {
  const c = asObj(asObj(s.evidence)?.calibration);
  if (!c) return null;
  const verb = VERDICT_VERB[String(s.value)] ?? "rates";
  if (c.measured === false) {
    const own = scoreText(num(asObj(s.evidence)?.raw_score) ?? s.score, false);
    return `${verb}: ${own != null ? `score ${own} is ` : ""}the model's own estimate, not measured`;
  }
  const n = num(c.n);
  const on = str(c.on);
  const where = on ? ` on ${on}` : "";
  const right = num(c.right);
  if (s.value !== null && right != null && n != null) {
    const lo = num(c.lo);
    const hi = num(c.hi);
    const raw = num(c.raw);
    const bin = lo != null && hi != null ? ` at model scores ${range(lo, hi)}` : "";
    const own = raw != null ? ` (model's own: ${scoreText(raw, false)})` : "";
    return `${verb}: right ${pct(right)} of ${n} times${bin}${where}${own}`;
  }
  const correct = num(c.step_correct);
  if (s.value === null && correct != null && n != null) {
    const base = num(c.base_rate);
    const all = base != null ? ` (all steps: ${pct(base)})` : "";
    return `${label ?? "evidence"}: the step was correct ${pct(correct)} of ${n} times${all}${where}`;
  }
  return null;
}

function scoreText(score: number | null, percentWhenUnit: boolean): string | null {
  if (score == null || !Number.isFinite(score)) return null;
  if (percentWhenUnit && score >= 0 && score <= 1) return `${Math.round(score * 100)}%`;
  return Math.abs(score) >= 10 ? score.toFixed(0) : score.toFixed(2);
}

/** A −1 whose finding is a sentence (subgoal): the chip as usual, the sentence under the step. */
function withNote(s: Suggestion, extra: string[], note: string): SuggestionView {
  const who = `${SOURCE_NAME[s.source] ?? s.source}${s.agent ? ` · ${s.agent}` : ""}`;
  const measured = calibrationText(s);
  const title = [`${who}: ${VALUE_WORD[String(s.value)]}`, ...(measured ? [measured] : []), ...extra].join("\n");
  return { badge: SOURCE_BADGE[s.source] ?? s.source, detail: null, mark: "−", tone: "neg", refuted: null, rationale: null, evidence: null, note, title };
}

export function describeSuggestion(s: Suggestion): SuggestionView {
  const source = s.source || "?";
  const e = asObj(s.evidence) ?? {};
  const tone = toneOf(s.value);
  const sign = s.value === null ? "?" : s.value === 1 ? "+" : s.value === 0 ? "0" : "−";
  let detail: string | null = null;
  let mark = sign;
  let refuted: RefutedClaim | null = null;
  let rationale: string | null = null;
  const evidence = evidenceOf(s);
  const extra: string[] = [];

  switch (source) {
    case "graph":
    case "symbolic": {
      mark = s.value === 1 ? "✓" : s.value === -1 ? "✗" : sign;
      if (s.value === -1) refuted = refutedClaim(s.evidence);
      if (refuted) {
        const values = valuesText(refuted);
        extra.push(`Refuted: ${[refuted.claim, values].filter(Boolean).join(" — ")}`);
        const first = Array.isArray(e.failed) ? asObj(e.failed[0]) : null;
        const why = first ? str(first.reason) : null;
        if (why) extra.push(why);
      } else if (s.value === 1) {
        const checked = num(e.checked) ?? (Array.isArray(e.verified) ? e.verified.length : null);
        extra.push(checked != null ? `Verified ${checked} ${checked === 1 ? "claim" : "claims"}` : "Verified");
      }
      break;
    }
    case "rollout": {
      const correct = num(e.correct);
      const total = num(e.total);
      if (correct != null && total != null && total > 0) {
        detail = `${correct}/${total}`;
        extra.push(`${correct} of ${total} rollouts from this step reached the right answer`);
      } else {
        // The share itself: once calibrated, `score` is how often such a verdict was right.
        detail = scoreText(num(e.raw_score) ?? s.score, true);
        if (detail) extra.push(`${detail} of the rollouts from this step reached the right answer`);
      }
      if (e.inferred === true) extra.push("Inferred from the steps around it (binary search), not rolled out");
      if (e.cached === true) extra.push("From the rollout cache");
      break;
    }
    case "subgoal": {
      const message = str(e.message);
      if (message) extra.push(message);
      if (s.value === -1 && message) return withNote(s, extra, message);
      break;
    }
    case "judge": {
      rationale = str(e.rationale) ?? str(e.reason) ?? str(e.explanation);
      if (rationale) extra.push(clip(rationale, 600));
      break;
    }
    case "code": {
      const summary = str(e.summary);
      if (e.check === "tests") {
        // "2/3 tests passed" → "2/3"
        const counts = summary?.match(/^(\d+\/\d+)/);
        detail = counts ? counts[1] : str(e.verdict);
        if (summary) extra.push(summary);
        const first = Array.isArray(e.failures) ? asObj(e.failures[0]) : null;
        if (first) {
          const why = [str(first.reason), str(first.name)].filter(Boolean).join(" · ");
          if (why) extra.push(`First failure: ${why}`);
          const expected = str(first.expected);
          const got = str(first.stdout);
          if (expected != null) extra.push(`Expected: ${clip(expected, 200)}`);
          if (got != null) extra.push(`Printed: ${clip(got, 200)}`);
        }
      } else {
        detail = str(e.verdict);
        if (summary) extra.push(summary);
        const trace = str(e.traceback);
        const last = trace?.split("\n").filter((line) => line.trim()).pop();
        if (last) extra.push(clip(last, 300));
        if (typeof e.error_in_step === "number") extra.push(`The traceback points at step ${e.error_in_step + 1}`);
      }
      break;
    }
    case "prediction": {
      // A team's own model's uploaded labels: the chip names the model (name@version), its
      // score is a probability the step is correct.
      detail = scoreText(s.score, true);
      const upload = str(e.upload) ?? str(e.file);
      const line = num(e.line);
      const at = str(e.at);
      if (upload) extra.push(`Uploaded in ${upload}${line != null ? `, line ${line}` : ""}${at ? ` (${at.slice(0, 10)})` : ""}`);
      return predictionView(s, detail, extra);
    }
    default: {
      detail = scoreText(s.score, false);
      const text = evidenceText(s.evidence);
      if (text) extra.push(text);
    }
  }

  const who = `${SOURCE_NAME[source] ?? source}${s.agent ? ` · ${s.agent}` : ""}`;
  if (evidence) {
    const doubtful = source === "symbolic" ? doubtfulClaims(s.evidence) : [];
    if (doubtful.length) {
      const lines = [
        `${who}: ${evidence.label}: evidence, not a rating`,
        ...doubtful.slice(0, 12).map((d) => `  ${d.claim} ${doubtText(d)}`),
        "Claims of this kind have not earned a −1 on the ProcessBench dev set: check the step yourself.",
      ];
      return { badge: SOURCE_BADGE[source], detail: null, mark: "", tone: "none", refuted: null, rationale: null, evidence, doubtful, title: lines.join("\n") };
    }
    const count = evidence.checked ?? evidence.items.length;
    const measured = calibrationText(s, evidence.label);
    evidence.measured = measured;
    const lines = [
      `${who}: ${evidence.label}: evidence, not a rating`,
      ...(measured ? [measured] : []),
      ...((source === "symbolic" || source === "graph") && count ? [`Checked ${count} ${count === 1 ? "claim" : "claims"}:`] : []),
      ...evidence.items.slice(0, 12).map((item) => `  ${item}`),
      ...(evidence.items.length > 12 ? [`  … and ${evidence.items.length - 12} more`] : []),
      EVIDENCE_CAVEAT[source] ??
        (SOURCE_NAME[source] ? "Correct arithmetic does not make a step right: rate the reasoning." : "A note from an engine plug-in, not a rating: rate the step yourself."),
    ];
    return { badge: SOURCE_BADGE[source] ?? source, detail: null, mark: "", tone: "none", refuted: null, rationale: null, evidence, title: lines.join("\n") };
  }
  const says = s.value === null ? "no rating" : VALUE_WORD[String(s.value)];
  const measured = calibrationText(s);
  if (measured) {
    extra.unshift(measured);
    const right = num(asObj(e.calibration)?.right);
    // A PRM's detail is its score: once measured, the mapped probability replaces it.
    if (right != null && (!detail || source === "prm")) detail = pct(right);
  }
  const score = source !== "rollout" && s.score != null && !detail ? ` (score ${scoreText(s.score, false)})` : "";
  const title = [`${who}: ${says}${score}`, ...extra].join("\n");
  return { badge: SOURCE_BADGE[source] ?? source, detail, mark, tone, refuted, rationale, evidence: null, title };
}

/** The longest model name a prediction chip shows whole (the hover text has it all). */
export const PREDICTION_BADGE_MAX = 22;

/** An uploaded prediction: the badge is the source's name@version, clipped to fit a chip. */
export function predictionBadge(agent: string): string {
  const name = agent || "predictions";
  return name.length > PREDICTION_BADGE_MAX ? `${name.slice(0, PREDICTION_BADGE_MAX - 1)}…` : name;
}

function predictionView(s: Suggestion, detail: string | null, extra: string[]): SuggestionView {
  const agent = s.agent || "predictions";
  const badge = predictionBadge(agent);
  const says = s.value === null ? "no rating" : VALUE_WORD[String(s.value)];
  const sign = s.value === null ? "?" : s.value === 1 ? "+" : s.value === 0 ? "0" : "−";
  const score = s.score != null ? ` (P(correct) ${scoreText(s.score, true)})` : "";
  const title = [`${SOURCE_NAME.prediction} · ${agent}: ${says}${score}`, ...extra].join("\n");
  return { badge, detail, mark: sign, tone: toneOf(s.value), refuted: null, rationale: null, evidence: null, title };
}

export { looksLikeTex, texSource } from "./texText";
export { orderSuggestions, SOURCE_PRIORITY } from "./suggestionOrder";
