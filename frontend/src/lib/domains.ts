import type { Domain } from "../api";

/** The project domains, in the order the forms list them (the server's Domain choices). */
export const DOMAINS: { value: Domain; label: string; help: string }[] = [
  { value: "math", label: "Math", help: "Step-by-step solutions with LaTeX; answer and symbolic checks." },
  { value: "code", label: "Code", help: "Code steps run in a sandbox against the problem's tests." },
  { value: "agent", label: "Agent trajectories", help: "Tool calls and observations shown as a timeline." },
  { value: "multimodal", label: "Multimodal", help: "Problems and steps with images." },
  { value: "text", label: "Text tasks", help: "QA, translation and other prose: judge and rollouts only." },
  { value: "graph", label: "Graph reasoning", help: "Problems about a given graph; each claim checked exactly." },
  { value: "embodied", label: "Robotics / embodied", help: "Subgoal trajectories with frames and logged success signals." },
  { value: "evidence", label: "Evidence-cited", help: "Steps cite passages of source documents and tables." },
  { value: "mixed", label: "Many domains", help: "Each problem names its domain; metrics per domain." },
];

export function domainLabel(domain: Domain | undefined): string {
  return DOMAINS.find((d) => d.value === (domain ?? "math"))?.label ?? String(domain);
}
