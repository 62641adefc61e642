import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import * as api from "../api";
import { ErrorBox } from "../components/ui";

/** The settings tab's last card: delete the project, after typing its name. */
export function DeleteProject({ project }: { project: api.Project }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove(e: FormEvent) {
    e.preventDefault();
    if (typed.trim() !== project.name) return;
    setBusy(true);
    setError(null);
    try {
      await api.deleteProject(project.id);
      navigate("/projects", { replace: true });
    } catch (err) {
      setError((err as api.ApiError).message);
      setBusy(false);
    }
  }

  return (
    <form className="card stack" onSubmit={remove} data-testid="project-delete">
      <h2 className="card-title">Delete this project</h2>
      <p className="muted small">
        Its solutions, labels, reviews and exports are deleted for good. Annotators working in it are told it
        was deleted; the rows go in the background.
      </p>
      {open ? (
        <>
          <label className="field">
            <span className="field-label">
              Type <strong>{project.name}</strong> to confirm
            </span>
            <input
              className="input"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              maxLength={200}
              autoFocus
              data-testid="project-delete-name"
            />
          </label>
          {error && <ErrorBox>{error}</ErrorBox>}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </button>
            <button
              type="submit"
              className="btn btn-danger-ghost"
              disabled={busy || typed.trim() !== project.name}
              data-testid="project-delete-confirm"
            >
              {busy ? "Deleting…" : "Delete project"}
            </button>
          </div>
        </>
      ) : (
        <div className="form-actions">
          <button type="button" className="btn btn-danger-ghost" onClick={() => setOpen(true)} data-testid="project-delete-open">
            Delete project…
          </button>
        </div>
      )}
    </form>
  );
}
