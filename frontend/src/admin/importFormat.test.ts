import { describe, expect, it } from "vitest";
import type { ImportJob } from "../api";
import { formatImportError, importFraction } from "./importFormat";

describe("formatImportError", () => {
  it("names the line and field", () => {
    expect(formatImportError({ message: "expected a string", line: 3, field: "steps[1]" })).toBe(
      "Line 3, field `steps[1]`: expected a string",
    );
  });
  it("includes the file inside an archive", () => {
    expect(formatImportError({ message: "bad JSON", file: "a/b.jsonl", line: 9 })).toBe("File a/b.jsonl, line 9: bad JSON");
  });
  it("does not repeat the uploaded file's own name", () => {
    expect(formatImportError({ message: "expected a string, got null", file: "bad.jsonl", line: 2, field: "steps[1]" }, "bad.jsonl")).toBe(
      "Line 2, field `steps[1]`: expected a string, got null",
    );
  });
  it("falls back to the message alone", () => {
    expect(formatImportError({ message: "unknown format" })).toBe("Unknown format");
    expect(formatImportError({ message: "no label", field: "label" })).toBe("Field `label`: no label");
    expect(formatImportError({})).toBe("The import failed");
  });
});

describe("importFraction", () => {
  const job = (p: Partial<ImportJob>) => ({ status: "running", bytes_total: 100, bytes_done: 50, ...p }) as ImportJob;
  it("spans upload then server progress", () => {
    expect(importFraction("upload", 0.5, null)).toBeCloseTo(0.15);
    expect(importFraction("server", 1, job({}))).toBeCloseTo(0.65);
    expect(importFraction("server", 1, job({ status: "done", bytes_done: 10 }))).toBe(1);
    expect(importFraction("server", 1, job({ bytes_total: 0 }))).toBeCloseTo(0.3);
  });
});
