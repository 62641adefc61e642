/**
 * Find in the steps: what stands in for the browser's find on a long solution, whose steps are
 * mostly not in the DOM (a windowed list). Searches each step's text as written (Markdown and
 * LaTeX source, so `\frac` finds a fraction) and the annotator's corrected step and comment,
 * ignoring case.
 */

/** The query as compared: trimmed, lower case; "" finds nothing. */
export function normalizeQuery(query: string): string {
  return query.trim().toLowerCase();
}

/** The steps (0-based, in order) whose text or notes hold `query`. `texts` are the steps' texts
 * in lower case (made once per solution); `notes(i)` the step's corrected text and comment. */
export function findMatches(
  texts: readonly string[],
  query: string,
  notes: (index: number) => string = () => "",
): number[] {
  const q = normalizeQuery(query);
  if (!q) return [];
  const out: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (texts[i].includes(q) || notes(i).toLowerCase().includes(q)) out.push(i);
  }
  return out;
}

/** The match to go to from step `from`: the first after it (`dir` 1) or before it (−1),
 * wrapping around; `from` itself only when it is the one match. −1 when there is none. */
export function nextMatch(matches: readonly number[], from: number, dir: 1 | -1): number {
  if (matches.length === 0) return -1;
  if (dir === 1) {
    for (const m of matches) if (m > from) return m;
    return matches[0];
  }
  for (let k = matches.length - 1; k >= 0; k--) if (matches[k] < from) return matches[k];
  return matches[matches.length - 1];
}

/** The first match at or after `from` (wrapping): where typing a query goes. */
export function firstMatchFrom(matches: readonly number[], from: number): number {
  if (matches.length === 0) return -1;
  for (const m of matches) if (m >= from) return m;
  return matches[0];
}

/** "3 of 17" when step `current` is a match, "17 steps" otherwise, "No step" for none. */
export function matchCountText(matches: readonly number[], current: number, query: string): string {
  if (!normalizeQuery(query)) return "";
  if (matches.length === 0) return "No step has it";
  const at = matches.indexOf(current);
  const steps = `${matches.length.toLocaleString("en-US")} step${matches.length === 1 ? "" : "s"}`;
  return at >= 0 ? `${(at + 1).toLocaleString("en-US")} of ${steps}` : steps;
}
