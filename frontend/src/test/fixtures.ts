import type { Project, Rating, Suggestion, Task } from "../api";

export function makeTask(
  opts: {
    steps?: number;
    firstErrorMode?: boolean;
    ratingValues?: Rating[];
    showSuggestions?: boolean;
    suggestions?: Array<Suggestion[]>;
    labels?: Array<Rating | null>;
    version?: number;
    annotationId?: number;
  } = {},
): Task {
  const n = opts.steps ?? 4;
  const steps = Array.from({ length: n }, (_, i) => ({
    id: 100 + i,
    index: i,
    text: i === 1 ? "So $x^2 = 4$, hence $x = 2$." : `Step text ${i + 1}`,
    alternatives_count: 0,
    suggestions: opts.suggestions?.[i] ?? [],
  }));
  return {
    annotation: {
      id: opts.annotationId ?? 7,
      solution_id: 55,
      status: "draft",
      version: opts.version ?? 1,
      finish_reason: "",
      finish_reason_text: "",
      time_spent_ms: 0,
      labels: (opts.labels ?? []).map((rating, i) => ({
        step_id: 100 + i,
        rating,
        unsure: false,
        comment: "",
        alternative_text: "",
      })),
      updated_at: "2025-01-01T00:00:00Z",
    },
    solution: { id: 55, generator: "gpt-4", final_answer: "7", answer_correct: false, steps },
    problem: { id: 3, text: "What is $\\frac{14}{2}$?", answer: "7", source: "MATH" },
    lock_expires_at: "2099-01-01T00:00:00Z",
    project: {
      id: 1,
      name: "Demo project",
      guidelines: "Rate **every** step.",
      first_error_mode: !!opts.firstErrorMode,
      rating_values: opts.ratingValues ?? [-1, 0, 1],
      show_suggestions: opts.showSuggestions ?? true,
    },
  };
}

export function suggestion(value: Rating | null, source = "import", score: number | null = null): Suggestion {
  return { source, agent: "prm800k", value, score, evidence: { message: `because ${value}` } };
}

export function makeProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 1,
    name: "Demo project",
    description: "",
    guidelines: "",
    label_scale: "prm800k",
    first_error_mode: false,
    overlap: 1,
    lock_ttl_seconds: 1800,
    show_suggestions: true,
    step_split: "line",
    step_split_regex: "",
    auto_resolve: false,
    gold_rate: 0,
    screening_size: 0,
    screening_pass_rate: 0.8,
    rating_values: [-1, 0, 1],
    role: "admin",
    stats: { problems: 3, solutions: 10, steps: 40, submitted_annotations: 0, complete_solutions: 0 },
    stats_computed_at: null,
    created_at: "2025-01-01T00:00:00Z",
    ...overrides,
  };
}
