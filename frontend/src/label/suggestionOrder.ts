import type { Suggestion } from "../api";

/**
 * Which suggestion comes first on a step: people before machines, exact checks before
 * estimates. Chips are shown in this order and `A` accepts the first one that fits the scale,
 * so the leftmost chip is what `A` takes.
 */
export const SOURCE_PRIORITY = ["consensus", "import", "symbolic", "graph", "rollout", "prm", "prediction", "judge", "code"];

export function orderSuggestions(list: readonly Suggestion[]): Suggestion[] {
  const rank = (s: Suggestion) => {
    const i = SOURCE_PRIORITY.indexOf(s.source);
    return i < 0 ? SOURCE_PRIORITY.length : i;
  };
  // Array.prototype.sort is stable: the server's order stays within a source.
  return [...list].sort((a, b) => rank(a) - rank(b));
}
