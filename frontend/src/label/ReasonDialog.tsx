import { Kbd } from "../components/ui";
import { RequiredTextDialog } from "../components/RequiredTextDialog";

export type ReasonKind = "give_up" | "bad_problem";

const COPY: Record<ReasonKind, { title: string; help: string; confirm: string; placeholder: string }> = {
  give_up: {
    title: "Give up on this solution",
    help: "Say why you cannot finish it (too long, needs knowledge you do not have, cannot follow the notation…).",
    confirm: "Give up",
    placeholder: "e.g. I cannot verify the contour integral in step 4",
  },
  bad_problem: {
    title: "Report a bad problem",
    help: "Say what is wrong with the problem itself: ambiguous, unsolvable, or its reference answer is wrong.",
    confirm: "Report problem",
    placeholder: "e.g. The reference answer should be 12, not 14",
  },
};

export function ReasonDialog({
  kind,
  busy,
  onConfirm,
  onCancel,
}: {
  kind: ReasonKind;
  busy: boolean;
  onConfirm: (text: string) => void;
  onCancel: () => void;
}) {
  const copy = COPY[kind];
  return (
    <RequiredTextDialog
      name="reason"
      title={copy.title}
      help={copy.help}
      placeholder={copy.placeholder}
      missing="A reason is required."
      keys={
        <>
          <Kbd>⏎</Kbd> confirm · <Kbd>Esc</Kbd> cancel
        </>
      }
      confirmLabel={copy.confirm}
      busyLabel="Submitting…"
      confirmClass="btn-primary"
      className="dialog reason-dialog"
      testIds={{ dialog: "reason-dialog", input: "reason-input", confirm: "reason-confirm" }}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
