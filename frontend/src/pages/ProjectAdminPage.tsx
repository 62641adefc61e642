import { useCallback, useEffect, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import * as api from "../api";
import { AssignmentsTab } from "../admin/AssignmentsTab";
import { AutolabelTab } from "../admin/AutolabelTab";
import { ExportTab } from "../admin/ExportTab";
import { GoldTab } from "../admin/GoldTab";
import { ImportTab } from "../admin/ImportTab";
import { MembersTab } from "../admin/MembersTab";
import { OverviewTab } from "../admin/OverviewTab";
import { SettingsTab } from "../admin/SettingsTab";
import { TrainingTab } from "../admin/TrainingTab";
import { WebhooksTab } from "../admin/WebhooksTab";
import { SolutionsExplorer } from "../explorer/SolutionsExplorer";
import { AppHeader } from "../components/AppHeader";
import { ErrorBox, Spinner } from "../components/ui";

type TabId =
  | "overview"
  | "solutions"
  | "import"
  | "autolabel"
  | "export"
  | "training"
  | "assignments"
  | "gold"
  | "members"
  | "webhooks"
  | "settings";
// `reviewers`: also shown to reviewers (the API lets them too).
const TABS: Array<{ id: TabId; label: string; adminOnly: boolean; reviewers?: boolean }> = [
  { id: "overview", label: "Overview", adminOnly: false },
  { id: "solutions", label: "Solutions", adminOnly: true },
  { id: "import", label: "Import", adminOnly: true },
  { id: "autolabel", label: "Auto-label", adminOnly: true },
  { id: "export", label: "Export", adminOnly: true, reviewers: true },
  { id: "training", label: "Training", adminOnly: true, reviewers: true },
  { id: "assignments", label: "Assignments", adminOnly: true },
  { id: "gold", label: "Gold", adminOnly: true },
  { id: "members", label: "Members", adminOnly: true },
  { id: "webhooks", label: "Webhooks", adminOnly: true },
  { id: "settings", label: "Settings", adminOnly: true },
];

export function ProjectAdminPage() {
  const projectId = Number(useParams().projectId);
  const [params, setParams] = useSearchParams();
  const [project, setProject] = useState<api.Project | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api
      .getProject(projectId)
      .then((p) => {
        setProject(p);
        document.title = `${p.name} · steplab`;
      })
      .catch((e: Error) => setError(e.message));
  }, [projectId]);
  useEffect(reload, [reload]);

  const isAdmin = project?.role === "admin";
  const isReviewer = project?.role === "reviewer";
  const tabs = TABS.filter((t) => isAdmin || !t.adminOnly || (isReviewer && t.reviewers));
  const requested = (params.get("tab") as TabId) || "overview";
  const tab = tabs.some((t) => t.id === requested) ? requested : "overview";

  return (
    <>
      <AppHeader crumbs={[{ label: "Projects", to: "/projects" }, { label: project?.name ?? "…" }]} />
      <main className="page">
        {error && <ErrorBox>{error}</ErrorBox>}
        {!project && !error && <Spinner />}
        {project && (
          <>
            <div className="page-head">
              <div>
                <h1 className="page-title">{project.name}</h1>
                <p className="muted">{project.description || "No description"}</p>
              </div>
              <div className="page-actions">
                {(isAdmin || isReviewer) && (
                  <>
                    <Link className="btn" to={`/projects/${project.id}/dashboard`} data-testid="open-dashboard">
                      Dashboard
                    </Link>
                    <Link className="btn" to={`/projects/${project.id}/review`} data-testid="open-review">
                      Review queue
                    </Link>
                  </>
                )}
                <Link className="btn btn-primary" to={`/projects/${project.id}/label`}>
                  Start labeling
                </Link>
              </div>
            </div>
            <div className="tabs" role="tablist">
              {tabs.map((t) => (
                <button
                  key={t.id}
                  type="button"
                  role="tab"
                  aria-selected={tab === t.id}
                  className={`tab${tab === t.id ? " tab-active" : ""}`}
                  // A history entry per tab (Back returns to the tab before), none for the open one.
                  onClick={() => t.id !== tab && setParams(t.id === "overview" ? {} : { tab: t.id })}
                  data-testid={`tab-${t.id}`}
                >
                  {t.label}
                </button>
              ))}
            </div>
            <div className="tab-panel" role="tabpanel">
              {tab === "overview" && <OverviewTab project={project} />}
              {tab === "solutions" && <SolutionsExplorer project={project} />}
              {tab === "import" && <ImportTab project={project} onImported={reload} />}
              {tab === "autolabel" && <AutolabelTab project={project} />}
              {tab === "export" && <ExportTab project={project} />}
              {tab === "training" && <TrainingTab project={project} />}
              {tab === "assignments" && <AssignmentsTab project={project} />}
              {tab === "gold" && <GoldTab project={project} />}
              {tab === "members" && <MembersTab project={project} />}
              {tab === "webhooks" && <WebhooksTab project={project} />}
              {tab === "settings" && <SettingsTab project={project} onSaved={setProject} />}
            </div>
          </>
        )}
      </main>
    </>
  );
}
