/** The project's guidelines on the labeling page: folded away until asked for (`l`). */
import { Markdown } from "../components/Markdown";
import { IconBook, IconChevron } from "../components/icons";
import { Kbd } from "../components/ui";

export function GuidelinesPanel({
  guidelines,
  open,
  onToggle,
}: {
  guidelines: string;
  open: boolean;
  onToggle: () => void;
}) {
  if (!guidelines?.trim()) return null;
  return (
    <section className={`card guidelines-panel${open ? " is-open" : ""}`}>
      <button type="button" className="guidelines-toggle" onClick={onToggle} aria-expanded={open} data-testid="guidelines-toggle">
        <IconChevron className="chevron" />
        <IconBook />
        <span>Guidelines</span>
        <span className="grow" />
        <Kbd>l</Kbd>
      </button>
      {open && <Markdown source={guidelines} className="guidelines-body" prose />}
    </section>
  );
}
