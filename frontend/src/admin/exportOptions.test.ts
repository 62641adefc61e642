import { describe, expect, it } from "vitest";
import { ApiError } from "../api";
import { finished, makeExport } from "../test/fakeExports";
import { DEFAULT_FORM, autoSourcesTicked, autoSourcesToggled, splitFrontMatter, buildExportRequest, errorField, errorLines, exportFraction, finalLabelsOf, formProblems, listOf, optionsSummary, percent, shortSha } from "./exportOptions";

describe("export options", () => {
  it("sends the server's defaults for the default form", () => {
    const body = buildExportRequest(DEFAULT_FORM);
    // Final labels are the default: review, else the annotators' majority; no machine labels.
    expect(body.filters).toEqual({ label_source: "final", min_agreement: 0, unsure: "drop", include_gold: false });
    expect(body.label_policy).not.toHaveProperty("combine"); // final is one row per solution
    expect(body.split_policy).toEqual({ mode: "hash", train: 0.9, validation: 0.05, test: 0.05 });
    expect(formProblems(DEFAULT_FORM)).toEqual({});
  });

  it("sends a minimum machine-label score only for machine label sources", () => {
    const auto = { ...DEFAULT_FORM, labelSource: "auto_consensus" as const, minScore: "0.9" };
    expect(buildExportRequest(auto).filters?.min_score).toBe(0.9);
    expect(buildExportRequest({ ...auto, minScore: "" }).filters).not.toHaveProperty("min_score");
    // Annotations carry no machine score: the field is not sent (the server would refuse it).
    expect(buildExportRequest({ ...auto, labelSource: "human" }).filters).not.toHaveProperty("min_score");
    expect(formProblems({ ...auto, minScore: "1.5" })).toHaveProperty(["filters.min_score"]);
    expect(formProblems({ ...auto, minScore: "-0.1" })).toHaveProperty(["filters.min_score"]);
    expect(formProblems({ ...auto, labelSource: "human", minScore: "1.5" })).toEqual({});
    expect(optionsSummary(makeExport({ filters: { label_source: "auto_any", min_score: 0.8 } }))).toContain("machine score ≥ 0.8");
  });

  it("sends machine labels, their sources and score only for final labels that ask for them", () => {
    const asked = { ...DEFAULT_FORM, machineLabels: true, minScore: "0.7", autoSources: ["consensus", "symbolic"] };
    const filters = buildExportRequest(asked).filters;
    expect(filters).toMatchObject({ label_source: "final", machine_labels: true, min_score: 0.7 });
    expect(filters?.auto_sources).toEqual(["consensus", "symbolic"]);
    // Untouched, the server's default holds: nothing is sent.
    expect(buildExportRequest({ ...asked, autoSources: null }).filters).not.toHaveProperty("auto_sources");
    expect(buildExportRequest({ ...DEFAULT_FORM, minScore: "0.7" }).filters).not.toHaveProperty("min_score");
    expect(buildExportRequest({ ...asked, labelSource: "annotations" }).filters).not.toHaveProperty("machine_labels");
    expect(formProblems({ ...asked, autoSources: [] })).toHaveProperty(["filters.auto_sources"]);
    expect(buildExportRequest({ ...DEFAULT_FORM, annotators: "alice" }).filters?.annotators).toEqual(["alice"]);
    expect(optionsSummary(makeExport({ filters: { label_source: "final", machine_labels: true } }))).toContain(
      "final labels · with machine labels",
    );
  });

  it("reads an export's final-label counts, and nothing from other stats", () => {
    const counts = {
      solutions: { review: 1, agreement: 2, single: 3, machine: 0, tie: 1, no_label: 4 },
      steps: { review: 3, agreement: 5, single: 6, machine: 0, tie: 2, no_label: 0 },
    };
    expect(finalLabelsOf({ rows: 3, final_labels: counts })).toEqual(counts);
    expect(finalLabelsOf({ rows: 3 })).toBeNull();
    expect(finalLabelsOf({ final_labels: "x" })).toBeNull();
    expect(finalLabelsOf(null)).toBeNull();
  });

  it("flags what the server would refuse", () => {
    expect(formProblems({ ...DEFAULT_FORM, minAgreement: "1.5" })).toHaveProperty(["filters.min_agreement"]);
    expect(formProblems({ ...DEFAULT_FORM, minAgreement: "" })).toHaveProperty(["filters.min_agreement"]);
    expect(formProblems({ ...DEFAULT_FORM, labelSource: "auto_any", autoSources: [] })).toHaveProperty(["filters.auto_sources"]);
    expect(formProblems({ ...DEFAULT_FORM, test: "abc" }).split_policy).toBe("Each fraction is a number from 0 to 1.");
    // 0.7 + 0.2 + 0.1 is 0.9999999999999999 in floating point: fine.
    expect(formProblems({ ...DEFAULT_FORM, train: "0.7", validation: "0.2", test: "0.1" })).toEqual({});
    expect(formProblems({ ...DEFAULT_FORM, splitMode: "none", train: "5" })).toEqual({});
  });

  it("splits comma lists without blanks or repeats", () => {
    expect(listOf(" a, b,,a , c ")).toEqual(["a", "b", "c"]);
    expect(listOf("")).toEqual([]);
  });

  it("flattens nested DRF details and finds the option an error names", () => {
    const drf = new ApiError(400, "validation_error", "filters: min_agreement: Too big.", {
      filters: { min_agreement: ["Too big."], unsure: ["Bad."] },
    });
    expect(errorLines(drf)).toEqual(["filters: min_agreement: Too big.", "filters.unsure: Bad."]);
    expect(errorField(drf)).toBe("filters.min_agreement");
    const service = new ApiError(400, "validation_error", "split_policy: train + validation + test must add up to 1; got 1.1.", {
      field: "split_policy",
    });
    expect(errorLines(service)).toEqual([service.message]);
    expect(errorField(service)).toBe("split_policy");
    expect(errorField(new ApiError(500, "http_500", "The server had an error."))).toBeNull();
  });

  it("never reads 100% before done", () => {
    expect(percent(0.999)).toBe("99%");
    expect(percent(1)).toBe("100%");
    const running = makeExport({ status: "running", progress: { solutions_done: 3, solutions_total: 4, fraction: 0.75 } });
    expect(exportFraction(running)).toBe(0.75);
    expect(exportFraction(finished(running, 4))).toBe(1);
  });

  it("summarizes the options that differ from the defaults", () => {
    expect(optionsSummary(makeExport())).toBe("all annotations");
    const e = makeExport({
      filters: { label_source: "human", min_agreement: 0.8, unsure: "keep", annotators: ["a"], problem_sources: [] },
      label_policy: { neutral: "negative", truncate_after_first_error: false, soft_labels: true },
      split_policy: { mode: "none" },
    });
    expect(optionsSummary(e)).toBe("human annotators · agreement ≥ 0.8 · unsure: keep · 1 annotator · neutral → wrong · not truncated · soft labels · no split");
    expect(shortSha("abcdef0123456789")).toBe("abcdef012345");
  });

  it("sends a problem domain filter and summarizes it", () => {
    const request = buildExportRequest({ ...DEFAULT_FORM, domains: "math, text" });
    expect(request.filters?.domains).toEqual(["math", "text"]);
    expect(buildExportRequest(DEFAULT_FORM).filters?.domains).toBeUndefined();
    expect(optionsSummary(makeExport({ filters: { label_source: "annotations", domains: ["math"] } }))).toBe("all annotations · domains: math");
  });

  it("takes the YAML front matter off a card", () => {
    expect(splitFrontMatter("---\nlicense: mit\n---\n\n# Title\n")).toEqual({ meta: "license: mit", body: "\n# Title\n" });
    expect(splitFrontMatter("# No meta\n---\n")).toEqual({ meta: null, body: "# No meta\n---\n" });
  });
});

describe("step dependencies option", () => {
  it("is sent only when asked for, and summarized", () => {
    expect(buildExportRequest(DEFAULT_FORM).label_policy?.dependency_policy).toBeUndefined();
    const body = buildExportRequest({ ...DEFAULT_FORM, dependencyPolicy: "inherit" });
    expect(body.label_policy?.dependency_policy).toBe("inherit");
    const summary = optionsSummary({ filters: {}, label_policy: { dependency_policy: "inherit" }, split_policy: {} } as never);
    expect(summary).toContain("errors passed on");
  });
});

describe("decontaminate", () => {
  it("sends benchmark files and Hub splits, one a line", () => {
    const form = { ...DEFAULT_FORM, decontaminate: "math500.jsonl\n\n hf://openai/gsm8k/main/test \nhf://HuggingFaceH4/MATH-500" };
    expect(buildExportRequest(form).filters?.decontaminate).toEqual([
      { file: "math500.jsonl" },
      { hub: "openai/gsm8k", config: "main", split: "test" },
      { hub: "HuggingFaceH4/MATH-500", config: "default", split: "test" },
    ]);
    expect(buildExportRequest(DEFAULT_FORM).filters?.decontaminate).toBeUndefined();
  });

  it("refuses a malformed Hub name and more than five sets", () => {
    expect(formProblems({ ...DEFAULT_FORM, decontaminate: "hf://openai/gsm8k/main" })["filters.decontaminate"]).toContain("hf://owner/name");
    const six = ["a", "b", "c", "d", "e", "f"].map((n) => `${n}.jsonl`).join("\n");
    expect(formProblems({ ...DEFAULT_FORM, decontaminate: six })["filters.decontaminate"]).toBe("At most 5 benchmarks.");
    expect(formProblems({ ...DEFAULT_FORM, decontaminate: "ok.jsonl" })["filters.decontaminate"]).toBeUndefined();
  });
});

describe("auto sources from the server", () => {
  const sources = [
    { name: "consensus", label: "Consensus", plugin: false, default: true },
    { name: "symbolic", label: "Symbolic check", plugin: false, default: true },
    { name: "graph", label: "Graph checker", plugin: false, default: false },
    { name: "hedges", label: "Hedging language", plugin: true, default: false },
  ];

  it("ticks the server's defaults until the form chooses, and keeps the listed order", () => {
    expect(autoSourcesTicked(sources, null)).toEqual(["consensus", "symbolic"]);
    expect(autoSourcesToggled(sources, null, "hedges", true)).toEqual(["consensus", "symbolic", "hedges"]);
    expect(autoSourcesToggled(sources, ["hedges"], "consensus", true)).toEqual(["consensus", "hedges"]);
    expect(autoSourcesToggled(sources, null, "consensus", false)).toEqual(["symbolic"]);
    expect(autoSourcesTicked(sources, [])).toEqual([]);
  });
});
