import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import * as api from "../api";
import { useAuth } from "../auth";
import { AppHeader } from "../components/AppHeader";
import { LoadMore } from "../components/LoadMore";
import { EmptyState, ErrorBox, ProgressBar, Spinner, formatNumber } from "../components/ui";
import { usePagedList } from "../components/usePagedList";
import { DOMAINS, domainLabel } from "../lib/domains";

const ROLE_LABEL: Record<api.Role, string> = {
  annotator: "Annotator",
  reviewer: "Reviewer",
  admin: "Admin",
};

function ProjectCard({ project }: { project: api.Project }) {
  const s = project.stats;
  const canManage = project.role === "admin" || project.role === "reviewer";
  return (
    <article className="card project-card" data-testid="project-card">
      <div className="project-card-head">
        <h2 className="project-name">{project.name}</h2>
        <span className={`badge badge-role-${project.role}`}>{ROLE_LABEL[project.role] ?? project.role}</span>
      </div>
      <p className="project-desc">{project.description || <span className="subtle">No description</span>}</p>
      <div className="project-tags">
        <span className="tag tag-domain" data-testid="project-domain">
          {domainLabel(project.domain)}
        </span>
        <span className="tag">{project.label_scale === "binary" ? "Binary −1 / +1" : "−1 / 0 / +1"}</span>
        {project.first_error_mode && <span className="tag">Stop at first error</span>}
        {project.overlap > 1 && <span className="tag">Overlap ×{project.overlap}</span>}
      </div>
      <dl className="stat-row">
        <div>
          <dt>Solutions</dt>
          <dd>{formatNumber(s.solutions)}</dd>
        </div>
        <div>
          <dt>Complete</dt>
          <dd>{formatNumber(s.complete_solutions)}</dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>{formatNumber(s.submitted_annotations)}</dd>
        </div>
      </dl>
      <div className="project-progress">
        <ProgressBar value={s.complete_solutions} max={s.solutions} label="Complete solutions" tone="green" />
        <span className="muted small">
          {s.solutions > 0 ? Math.floor((s.complete_solutions / s.solutions) * 100) : 0}% complete
        </span>
      </div>
      <div className="project-actions">
        <Link className="btn btn-primary" to={`/projects/${project.id}/label`} data-testid="start-labeling">
          Start labeling
        </Link>
        <Link className="btn" to={`/projects/${project.id}/my-work`} data-testid="my-work">
          My work
        </Link>
        {canManage && (
          <Link className="btn" to={`/projects/${project.id}/review`} data-testid="review-project">
            Review
          </Link>
        )}
        {canManage && (
          <Link className="btn" to={`/projects/${project.id}`} data-testid="manage-project">
            {project.role === "admin" ? "Manage" : "Overview"}
          </Link>
        )}
      </div>
    </article>
  );
}

function NewProjectForm({ onCreated, onCancel }: { onCreated: (p: api.Project) => void; onCancel: () => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [labelScale, setLabelScale] = useState<api.LabelScale>("prm800k");
  const [domain, setDomain] = useState<api.Domain>("math");
  const [firstError, setFirstError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setError("Give the project a name.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onCreated(
        await api.createProject({
          name: name.trim(),
          description: description.trim(),
          domain,
          label_scale: labelScale,
          first_error_mode: firstError,
        }),
      );
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card new-project" onSubmit={submit} data-testid="new-project-form">
      <h2 className="card-title">New project</h2>
      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="form-grid">
        <label className="field">
          <span className="field-label">Name</span>
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} autoFocus data-testid="new-project-name" />
        </label>
        <label className="field">
          <span className="field-label">Domain</span>
          <select
            className="input"
            value={domain}
            onChange={(e) => setDomain(e.target.value as api.Domain)}
            data-testid="new-project-domain"
          >
            {DOMAINS.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
          <span className="field-help">{DOMAINS.find((d) => d.value === domain)?.help}</span>
        </label>
        <label className="field">
          <span className="field-label">Label scale</span>
          <select className="input" value={labelScale} onChange={(e) => setLabelScale(e.target.value as api.LabelScale)}>
            <option value="prm800k">Wrong / neutral / correct (−1, 0, +1)</option>
            <option value="binary">Wrong / correct (−1, +1)</option>
          </select>
        </label>
        <label className="field field-wide">
          <span className="field-label">Description</span>
          <textarea
            className="input"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="new-project-description"
          />
        </label>
        <label className="check field-wide">
          <input type="checkbox" checked={firstError} onChange={(e) => setFirstError(e.target.checked)} />
          <span>
            Stop at the first wrong step <span className="muted">(PRM800K phase 2)</span>
          </span>
        </label>
      </div>
      <div className="form-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="new-project-submit">
          {busy ? "Creating…" : "Create project"}
        </button>
      </div>
    </form>
  );
}

export function ProjectsPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  // A page at a time with "Load more": someone in more projects than a page reaches them all.
  const list = usePagedList<api.Project>(api.projectsPath);
  const projects = list.items;
  const error = list.error;
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    document.title = "Projects · steplab";
  }, []);

  return (
    <>
      <AppHeader crumbs={[{ label: "Projects" }]} />
      <main className="page">
        <div className="page-head">
          <div>
            <h1 className="page-title">Projects</h1>
            <p className="muted">Pick a project to label its solutions step by step.</p>
          </div>
          {user?.is_staff && !creating && (
            <button type="button" className="btn btn-primary" onClick={() => setCreating(true)} data-testid="new-project">
              New project
            </button>
          )}
        </div>
        {creating && (
          <NewProjectForm
            onCancel={() => setCreating(false)}
            onCreated={(p) => {
              setCreating(false);
              navigate(`/projects/${p.id}?tab=import`);
            }}
          />
        )}
        {error && <ErrorBox>{error}</ErrorBox>}
        {!projects && !error && <Spinner />}
        {projects && projects.length === 0 && (
          <EmptyState title="No projects yet">
            {user?.is_staff
              ? "Create a project, then import problems and solutions to label."
              : "Ask a project admin to add you to a project."}
          </EmptyState>
        )}
        {projects && projects.length > 0 && (
          <div className="project-grid">
            {projects.map((p) => (
              <ProjectCard key={p.id} project={p} />
            ))}
          </div>
        )}
        <LoadMore list={list} noun="projects" testId="projects-more" />
      </main>
    </>
  );
}
