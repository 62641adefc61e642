import type { ImportErrorInfo, ImportFormat, ImportJob, LabelsAs } from "../api";

export const FORMATS: Array<{ value: ImportFormat; label: string }> = [
  { value: "auto", label: "Detect automatically" },
  { value: "prm800k", label: "PRM800K" },
  { value: "processbench", label: "ProcessBench" },
  { value: "prmbench", label: "PRMBench" },
  { value: "math_shepherd", label: "Math-Shepherd" },
  { value: "trl", label: "TRL stepwise supervision" },
  { value: "gsm8k", label: "GSM8K" },
  { value: "math", label: "MATH" },
  { value: "steplab", label: "steplab export" },
  { value: "messages", label: "Agent trajectories (OpenAI messages)" },
  { value: "embodied", label: "Robotics / embodied episodes (subgoal trajectories)" },
  { value: "graphsilo", label: "GraphSilo (graph problems in prose)" },
  { value: "finqa", label: "FinQA (report text, table and gold program)" },
];

export const LABELS_AS: Array<{ value: LabelsAs; label: string }> = [
  { value: "suggestions", label: "Suggestions (annotators confirm them)" },
  { value: "annotations", label: "Annotations (count as submitted labels)" },
  { value: "none", label: "Ignore labels in the file" },
];

/**
 * "Line 3, field `steps[1]`: expected a string". The file is named only when it is not the
 * uploaded file itself (a member of an archive).
 */
export function formatImportError(error: ImportErrorInfo | null | undefined, uploaded?: string): string {
  if (!error) return "The import failed.";
  const where: string[] = [];
  const base = (name: string) => name.split(/[\\/]/).pop() ?? name;
  if (error.file && (!uploaded || base(error.file) !== base(uploaded))) where.push(`File ${error.file}`);
  if (error.line != null) where.push(where.length ? `line ${error.line}` : `Line ${error.line}`);
  if (error.field) where.push(where.length ? `field \`${error.field}\`` : `Field \`${error.field}\``);
  const message = error.message || "the import failed";
  return where.length ? `${where.join(", ")}: ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
}

/** 0..1 over the whole import: the upload is the first 30 %, the server's parsing the rest. */
export function importFraction(phase: "upload" | "server", uploaded: number, job: ImportJob | null): number {
  if (phase === "upload") return 0.3 * uploaded;
  if (!job) return 0.3;
  if (job.status === "done") return 1;
  const server = job.bytes_total > 0 ? Math.min(1, job.bytes_done / job.bytes_total) : 0;
  return 0.3 + 0.7 * server;
}

export function isFinished(job: ImportJob): boolean {
  return job.status === "done" || job.status === "failed";
}
