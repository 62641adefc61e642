import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeExports, makeExport } from "../test/fakeExports";
import { makeProject } from "../test/fixtures";
import { DEFAULT_FORM, FORMATS, buildExportRequest, formProblems, optionsSummary, skippedLines } from "./exportOptions";

describe("trainer formats: openrlhf and chat_template", () => {
  it("are in the format list", () => {
    expect(FORMATS.map((f) => f.value)).toEqual(expect.arrayContaining(["openrlhf", "chat_template"]));
  });

  it("send their own options only, soft labels where the format carries them", () => {
    const openrlhf = { ...DEFAULT_FORM, format: "openrlhf" as const, softLabels: true, labelSources: true };
    const policy = buildExportRequest(openrlhf).label_policy;
    expect(policy).toMatchObject({ placeholder_token: "ки", reward_tokens: ["+", "-"], soft_labels: true });
    expect(policy).not.toHaveProperty("label_sources"); // a TRL column
    expect(policy).not.toHaveProperty("tokenizer");
    const chat = { ...DEFAULT_FORM, format: "chat_template" as const, tokenizer: " /models/qwen ", softLabels: true };
    expect(buildExportRequest(chat).label_policy).toMatchObject({ tokenizer: "/models/qwen", step_separator: "<extra_0>", soft_labels: true });
    expect(buildExportRequest(chat).label_policy).not.toHaveProperty("system_prompt");
    expect(buildExportRequest(chat).label_policy).not.toHaveProperty("placeholder_token");
    expect(buildExportRequest({ ...DEFAULT_FORM, format: "processbench", softLabels: true }).label_policy).not.toHaveProperty("soft_labels");
  });

  it("flag what the server would refuse", () => {
    const openrlhf = { ...DEFAULT_FORM, format: "openrlhf" as const };
    expect(formProblems(openrlhf)).toEqual({});
    expect(formProblems({ ...openrlhf, placeholderToken: "" })).toHaveProperty(["label_policy.placeholder_token"]);
    expect(formProblems({ ...openrlhf, placeholderToken: "x".repeat(33) })).toHaveProperty(["label_policy.placeholder_token"]);
    expect(formProblems({ ...openrlhf, rewardNegative: "+" })["label_policy.reward_tokens"]).toMatch(/differ/);
    const chat = { ...DEFAULT_FORM, format: "chat_template" as const };
    expect(formProblems(chat)["label_policy.tokenizer"]).toMatch(/Required/);
    expect(formProblems({ ...chat, tokenizer: "t" })).toEqual({});
    expect(formProblems({ ...chat, tokenizer: "t", stepSeparator: "a\nb" })).toHaveProperty(["label_policy.step_separator"]);
    expect(formProblems({ ...chat, tokenizer: "t".repeat(301) })).toHaveProperty(["label_policy.tokenizer"]);
  });

  it("summarize the tokenizer and say why rows were left out", () => {
    const e = makeExport({ format: "chat_template", label_policy: { tokenizer: "/models/qwen-prm/" } });
    expect(optionsSummary(e)).toContain("tokenizer qwen-prm");
    expect(skippedLines({ skipped: { placeholder_in_text: 2 } })).toEqual(["2 for the placeholder token inside their text"]);
  });

  it("the export form shows each format's options and posts them", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: true };
    api.project = makeProject({ role: "admin" });
    const server = new FakeExports(api);
    api.install();
    server.installCard();
    render(
      <MemoryRouter initialEntries={["/projects/1?tab=export"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findByTestId("export-form", {}, { timeout: 10000 });
    expect(screen.queryByTestId("export-tokenizer")).toBeNull();
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "openrlhf" } });
    fireEvent.change(screen.getByTestId("export-reward-positive"), { target: { value: "good" } });
    expect(screen.queryByTestId("export-tokenizer")).toBeNull();
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "chat_template" } });
    expect(screen.queryByTestId("export-placeholder-token")).toBeNull();
    fireEvent.change(screen.getByTestId("export-tokenizer"), { target: { value: "/models/qwen" } });
    fireEvent.change(screen.getByTestId("export-system-prompt"), { target: { value: "Think." } });
    fireEvent.click(screen.getByTestId("export-soft-labels"));
    fireEvent.click(screen.getByTestId("export-create"));
    const posted = () => api.callsTo("POST", "/api/projects/1/exports/").filter((c) => !c.path.endsWith("/preview/"));
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0].body).toMatchObject({
      format: "chat_template",
      label_policy: { tokenizer: "/models/qwen", step_separator: "<extra_0>", system_prompt: "Think.", soft_labels: true },
    });
  }, 20000);
});
