import { Kbd } from "../components/ui";
import { RequiredTextDialog } from "../components/RequiredTextDialog";

/** Reject an annotation: the comment is required and is what its annotator sees. */
export function RejectDialog({
  annotator,
  busy,
  onConfirm,
  onCancel,
}: {
  annotator: string;
  busy: boolean;
  onConfirm: (comment: string) => void;
  onCancel: () => void;
}) {
  return (
    <RequiredTextDialog
      name="reject"
      title={<>Send back to {annotator}</>}
      help={
        <>
          The annotation returns first in {annotator}&rsquo;s queue with its labels and this comment at the top. Say what to look at again.
        </>
      }
      placeholder="e.g. Step 3 divides by zero when x = 1; it should be −1"
      missing="A rejection needs a comment."
      keys={
        <>
          <Kbd>⏎</Kbd> send back · <Kbd>⇧⏎</Kbd> new line · <Kbd>Esc</Kbd> cancel
        </>
      }
      confirmLabel="Reject"
      busyLabel="Sending…"
      confirmClass="btn-reject-solid"
      testIds={{ dialog: "reject-dialog", input: "reject-comment", confirm: "reject-confirm" }}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
