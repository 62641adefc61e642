import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { AutolabelEngine, EngineParam } from "../api";
import { FakeApi } from "../test/fakeApi";
import { makeProject } from "../test/fixtures";
import { PluginParamsForm } from "./PluginParamsForm";
import { formProblems, pluginDefaults, pluginRequestParams, pluginsForDomain, type FormValues } from "./pluginParams";

const SCHEMA: EngineParam[] = [
  { name: "verdict", type: "choice", default: "evidence", label: "A hedging step gets", help: "evidence or neutral", choices: ["evidence", "neutral"] },
  { name: "min_hits", type: "int", default: 1, label: "Hedges needed", help: "", minimum: 1, maximum: 20 },
  { name: "density", type: "float", default: 0, label: "Per 100 words", help: "", minimum: 0, maximum: 100 },
  { name: "extra_phrases", type: "string", default: "", label: "More phrases", help: "Comma-separated.", max_length: 10 },
  { name: "case_sensitive", type: "bool", default: false, label: "Case-sensitive", help: "" },
];

const HEDGES: AutolabelEngine = {
  name: "hedges",
  label: "Hedging language",
  description: "Flags steps whose author hedges.",
  queue: "default",
  builtin: false,
  plugin: "steplab-plugin-example 0.1.0",
  domains: [],
  params: SCHEMA,
};

function Harness({ onValues }: { onValues?: (v: FormValues) => void }) {
  const [values, setValues] = useState(pluginDefaults(SCHEMA));
  return (
    <PluginParamsForm
      source="hedges"
      params={SCHEMA}
      values={values}
      disabled={false}
      onChange={(v) => {
        setValues(v);
        onValues?.(v);
      }}
    />
  );
}

const field = (name: string) => screen.getByTestId(`plugin-param-hedges-${name}`) as HTMLInputElement & HTMLSelectElement;

afterEach(() => vi.unstubAllGlobals());

describe("a plug-in's parameters form, from its schema", () => {
  it("renders each type as its input, with bounds, defaults, labels and help", () => {
    render(<Harness />);
    expect(field("verdict").tagName).toBe("SELECT");
    expect([...field("verdict").options].map((o) => o.value)).toEqual(["evidence", "neutral"]);
    expect(field("verdict").value).toBe("evidence");
    expect(field("min_hits").type).toBe("number");
    expect([field("min_hits").min, field("min_hits").max, field("min_hits").step, field("min_hits").value]).toEqual(["1", "20", "1", "1"]);
    expect(field("density").step).toBe("any");
    expect(field("extra_phrases").type).toBe("text");
    expect(field("extra_phrases").maxLength).toBe(10);
    expect(field("case_sensitive").type).toBe("checkbox");
    expect(field("case_sensitive").checked).toBe(false);
    expect(screen.getByLabelText(/Hedges needed/)).toBe(field("min_hits"));
    expect(screen.getByText("Comma-separated.")).toBeTruthy();
  });

  it("says what is out of bounds, field by field", () => {
    render(<Harness />);
    fireEvent.change(field("min_hits"), { target: { value: "0" } });
    expect(screen.getByTestId("plugin-param-hedges-min_hits-problem").textContent).toBe("Hedges needed: from 1 to 20.");
    fireEvent.change(field("min_hits"), { target: { value: "2.5" } });
    expect(screen.getByTestId("plugin-param-hedges-min_hits-problem").textContent).toBe("Hedges needed: enter a whole number.");
    fireEvent.change(field("min_hits"), { target: { value: "3" } });
    expect(screen.queryByTestId("plugin-param-hedges-min_hits-problem")).toBeNull();
    fireEvent.change(field("density"), { target: { value: "" } });
    expect(screen.getByTestId("plugin-param-hedges-density-problem").textContent).toBe("Per 100 words: enter a number.");
  });

  it("sends only what differs from the defaults, typed", () => {
    let last: FormValues = {};
    render(<Harness onValues={(v) => (last = v)} />);
    fireEvent.change(field("verdict"), { target: { value: "neutral" } });
    fireEvent.change(field("min_hits"), { target: { value: "2" } });
    fireEvent.click(field("case_sensitive"));
    expect(pluginRequestParams(SCHEMA, last)).toEqual({ verdict: "neutral", min_hits: 2, case_sensitive: true });
    expect(formProblems(SCHEMA, last)).toEqual({});
    expect(formProblems(SCHEMA, { ...last, extra_phrases: "x".repeat(11), verdict: "other" })).toEqual({
      extra_phrases: "More phrases: at most 10 characters (11 now).",
      verdict: "A hedging step gets: choose one of evidence, neutral.",
    });
  });

  it("offers a plug-in only in the domains it names", () => {
    const code = { ...HEDGES, name: "lint", domains: ["code"] };
    const builtin = { ...HEDGES, name: "symbolic", builtin: true };
    expect(pluginsForDomain([HEDGES, code, builtin], "math").map((e) => e.name)).toEqual(["hedges"]);
    expect(pluginsForDomain([HEDGES, code, builtin], "code").map((e) => e.name)).toEqual(["hedges", "lint"]);
    expect(pluginsForDomain([HEDGES, code, builtin], "mixed").map((e) => e.name)).toEqual(["hedges", "lint"]);
  });
});

describe("plug-ins in the Auto-label tab", () => {
  function mount() {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: true };
    api.project = makeProject();
    api.engines = [{ ...HEDGES, name: "symbolic", label: "Symbolic check", builtin: true, plugin: null, params: null }, HEDGES];
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=autolabel"]}>
        <App />
      </MemoryRouter>,
    );
    return api;
  }

  it("lists an installed plug-in, blocks a bad value and sends its params", async () => {
    const api = mount();
    await screen.findByTestId("autolabel-form", {}, { timeout: 10000 });
    await screen.findByTestId("autolabel-plugin-hedges", {}, { timeout: 5000 });
    expect(screen.getByTestId("autolabel-plugin-hedges").textContent).toContain("plug-in · steplab-plugin-example 0.1.0");
    expect(screen.getAllByTestId("autolabel-source-symbolic")).toHaveLength(1); // a built-in is not listed twice
    fireEvent.click(screen.getByTestId("autolabel-source-hedges"));
    fireEvent.click(screen.getByTestId("autolabel-params-toggle-hedges"));
    fireEvent.change(field("min_hits"), { target: { value: "50" } });
    const start = screen.getByTestId("autolabel-start") as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId("autolabel-plugin-problem").textContent).toBe("Hedges needed: from 1 to 20.");
    fireEvent.change(field("min_hits"), { target: { value: "2" } });
    fireEvent.change(field("verdict"), { target: { value: "neutral" } });
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(api.callsTo("POST", "/autolabel-runs/")).toHaveLength(1));
    expect(api.callsTo("POST", "/autolabel-runs/")[0].body).toEqual({
      sources: ["hedges"],
      params: { hedges: { verdict: "neutral", min_hits: 2 } },
      filter: { only_unlabeled: false },
    });
    // The run and the history name the plug-in by its label.
    await waitFor(() => expect(screen.getByTestId("autolabel-progress").textContent).toContain("Run 1 · Hedging language"));
    expect(screen.getByTestId("autolabel-history").textContent).toContain("Hedging language");
  }, 30000); // the whole App mounts: slow on a loaded machine
});
