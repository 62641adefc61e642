import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TaskStep } from "../api";
import { sourcesForDomain, SOURCES } from "../admin/autolabel";
import { AgentStepBody, formatArguments, formatObservation, isAgentStep } from "./AgentStep";
import { ImageStrip } from "./ImageStrip";
import { StepRow } from "./StepRow";

function step(text: string, meta: TaskStep["meta"] = {}, images: string[] = []): TaskStep {
  return { id: 1, index: 0, text, alternatives_count: 0, suggestions: [], meta, images };
}

describe("agent timeline", () => {
  it("shows a tool call as a card with the function name and pretty-printed arguments", () => {
    render(
      <AgentStepBody
        step={step('search({"q":"x"})', { kind: "tool_call", name: "search_flights", arguments: '{"origin":"LIS","date":"2025-03-14"}', tool_call_id: "call_1" })}
      />,
    );
    expect(screen.getByTestId("tool-call-name").textContent).toBe("search_flights");
    expect(screen.getByTestId("tool-call-arguments").textContent).toBe('{\n  "origin": "LIS",\n  "date": "2025-03-14"\n}');
    expect(screen.getByText("call_1")).toBeTruthy();
    expect(screen.queryByTestId("bad-arguments")).toBeNull();
  });

  it("marks arguments that are not JSON and shows them as written", () => {
    render(<AgentStepBody step={step("", { kind: "tool_call", name: "read_file", arguments: '{"path": "src/' })} />);
    expect(screen.getByTestId("bad-arguments").textContent).toContain("not valid JSON");
    expect(screen.getByTestId("tool-call-arguments").textContent).toBe('{"path": "src/');
  });

  it("shows observations as collapsible monospace output, long ones collapsed", () => {
    const short = render(<AgentStepBody step={step('{"status": 200}', { kind: "observation", tool_call_id: "c1" })} />);
    const details = short.getByTestId("observation") as HTMLDetailsElement;
    expect(details.tagName).toBe("DETAILS");
    expect(details.open).toBe(true);
    expect(short.getByTestId("observation-output").textContent).toBe('{\n  "status": 200\n}');
    short.unmount();
    const long = render(<AgentStepBody step={step(Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n"), { kind: "observation" })} />);
    const collapsed = long.getByTestId("observation") as HTMLDetailsElement;
    expect(collapsed.open).toBe(false);
    expect(within(collapsed).getByText("40 lines")).toBeTruthy();
  });

  it("renders assistant text as Markdown", () => {
    const { container } = render(<AgentStepBody step={step("Booked **IB3117**.", { kind: "message", role: "assistant" })} />);
    expect(container.querySelector("strong")?.textContent).toBe("IB3117");
    expect(screen.getByText("Assistant")).toBeTruthy();
  });

  it("formats helpers and tells agent steps from plain ones", () => {
    expect(formatArguments("").valid).toBe(false);
    expect(formatArguments("[1]").text).toBe("[\n  1\n]");
    expect(formatObservation("plain\ntext")).toBe("plain\ntext");
    expect(formatObservation("{broken")).toBe("{broken");
    // Multi-line strings keep their line breaks (stdout, tracebacks).
    expect(formatObservation('{"exit_code": 1, "stdout": "F\\nfailed\\n", "stderr": ""}')).toBe(
      'exit_code: 1\nstdout:\n  F\n  failed\nstderr: ""',
    );
    expect(isAgentStep(step("x", { kind: "observation" }))).toBe(true);
    expect(isAgentStep(step("x"))).toBe(false);
  });
});

const rowProps = {
  label: { step_id: 1, rating: null, unsure: false, comment: "", alternative_text: "" },
  index: 0,
  isCurrent: false,
  dimmed: false,
  isFirstError: false,
  ratingValues: [-1, 0, 1] as const,
  showSuggestions: true,
  editor: null,
  readOnly: false,
  onRate: () => {},
  onAcceptSuggestion: () => {},
  onSelect: () => {},
  onToggleUnsure: () => {},
  onOpenEditor: () => {},
  onSaveEditor: () => {},
  onCancelEditor: () => {},
};

describe("StepRow by domain", () => {
  it("keeps the math path for plain steps (KaTeX, no agent card)", () => {
    const { container } = render(<StepRow {...rowProps} ratingValues={[-1, 0, 1]} step={step("So $x^2 = 4$.")} />);
    expect(container.querySelector(".katex")).not.toBeNull();
    expect(screen.queryByTestId("tool-call")).toBeNull();
    expect(screen.queryByTestId("image-strip")).toBeNull();
  });

  it("renders a tool call step as a card and a step's images as thumbnails", () => {
    render(
      <StepRow
        {...rowProps}
        ratingValues={[-1, 0, 1]}
        step={step("f({})", { kind: "tool_call", name: "f", arguments: "{}" }, ["/api/projects/1/media/a.png"])}
      />,
    );
    expect(screen.getByTestId("tool-call-name").textContent).toBe("f");
    const img = screen.getByRole("img", { name: "Step 1 image 1" }) as HTMLImageElement;
    expect(img.getAttribute("src")).toBe("/api/projects/1/media/a.png");
  });
});

describe("ImageStrip", () => {
  it("zooms on click and closes on Escape or a click", () => {
    render(<ImageStrip urls={["/m/1.png", "/m/2.png"]} label="Problem" />);
    expect(screen.getAllByTestId("image-thumb")).toHaveLength(2);
    expect(screen.queryByTestId("image-zoom")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Zoom Problem image 2" }));
    const zoom = screen.getByTestId("image-zoom");
    expect(within(zoom).getByRole("img").getAttribute("src")).toBe("/m/2.png");
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("image-zoom")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Zoom Problem image 1" }));
    fireEvent.click(screen.getByTestId("image-zoom"));
    expect(screen.queryByTestId("image-zoom")).toBeNull();
  });

  it("renders nothing without images", () => {
    const { container } = render(<ImageStrip urls={[]} label="Problem" />);
    expect(container.innerHTML).toBe("");
  });
});

describe("sources by domain", () => {
  it("lists only the domain's sources, in its order", () => {
    expect(sourcesForDomain(SOURCES, ["agent", "judge", "prm"]).map((s) => s.name)).toEqual(["agent", "judge", "prm"]);
    expect(sourcesForDomain(SOURCES, undefined)).toBe(SOURCES);
  });
});
