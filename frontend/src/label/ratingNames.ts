import { createContext, useContext } from "react";
import type { Domain, Rating } from "../api";

/**
 * The words for −1 / 0 / +1 on the rating buttons, their hover titles and the shortcut help.
 * Evidence-cited projects store the same scale but name it by what the sources say:
 * supported (+1), unsupported (0: nothing cited backs it), wrong (−1: the sources contradict it).
 */
export const RATING_NAMES: Record<string, string> = { "-1": "Wrong", "0": "Neutral", "1": "Correct" };
export const EVIDENCE_RATING_NAMES: Record<string, string> = { "-1": "Wrong", "0": "Unsupported", "1": "Supported" };

export function ratingNamesFor(domain: Domain | undefined): Record<string, string> {
  return domain === "evidence" ? EVIDENCE_RATING_NAMES : RATING_NAMES;
}

export function ratingName(names: Record<string, string>, value: Rating): string {
  return names[String(value)] ?? String(value);
}

/** The names the page's rating controls use (the default scale's unless a page provides others). */
export const RatingNamesContext = createContext<Record<string, string>>(RATING_NAMES);

export function useRatingNames(): Record<string, string> {
  return useContext(RatingNamesContext);
}
