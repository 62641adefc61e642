import type * as api from "../api";
import { formatDate } from "../components/ui";
import { metric, modelMetrics } from "./training";

const KIND_HELP: Record<string, string> = {
  pointwise: "Trained on step labels (correct / wrong per step)",
  pairwise: "Trained on pairs of next steps (Bradley-Terry)",
  implicit: "Trained on final-answer outcomes only (implicit PRM)",
};

/** The project's registered PRMs; admins may delete one (after a confirm). */
export function PrmModelsTable({
  models,
  onDelete,
  deleting,
}: {
  models: api.PrmModel[];
  onDelete?: (model: api.PrmModel) => void;
  deleting?: number | null;
}) {
  if (models.length === 0) return <div className="card-pad muted">No models yet.</div>;
  return (
    <table className="table" data-testid="prm-models">
      <thead>
        <tr>
          <th>Name</th>
          <th>Kind</th>
          <th>Path</th>
          <th className="num">From run</th>
          <th className="num">Accuracy</th>
          <th className="num">F1</th>
          <th>Created</th>
          {onDelete && <th />}
        </tr>
      </thead>
      <tbody>
        {models.map((m) => {
          const shown = modelMetrics(m);
          return (
            <tr key={m.id}>
              <td>{m.name}</td>
              <td>
                <span className="tag" title={KIND_HELP[m.kind ?? "pointwise"]}>
                  {m.kind ?? "pointwise"}
                </span>
              </td>
              <td className="mono small">{m.path}</td>
              <td className="num">{m.training_run ?? "—"}</td>
              <td className="num">{metric(shown?.record.accuracy)}</td>
              <td className="num">
                {metric(shown?.record.f1)}
                {shown && <span className="subtle small"> {shown.split}</span>}
              </td>
              <td className="small muted">{formatDate(m.created_at)}</td>
              {onDelete && (
                <td>
                  <button
                    type="button"
                    className="btn btn-sm btn-danger-ghost"
                    disabled={deleting === m.id}
                    onClick={() => onDelete(m)}
                    aria-label={`Delete model ${m.name}`}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
