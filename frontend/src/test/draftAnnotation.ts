import type { Annotation } from "../api";

/** A draft annotation with no labels, as the draft endpoint answers, for saver tests. */
export function draftAnnotation(id: number, version: number): Annotation {
  return {
    id,
    solution_id: 1,
    status: "draft",
    version,
    finish_reason: "",
    finish_reason_text: "",
    time_spent_ms: 0,
    labels: [],
    updated_at: "",
  };
}
