import { Link, Route, Routes } from "react-router-dom";
import { AuthProvider, RequireAuth } from "./auth";
import { AppHeader } from "./components/AppHeader";
import { DashboardPage } from "./dashboard/DashboardPage";
import { EmptyState } from "./components/ui";
import { LabelPage } from "./pages/LabelPage";
import { LoginPage } from "./pages/LoginPage";
import { ProjectAdminPage } from "./pages/ProjectAdminPage";
import { ProjectsPage } from "./pages/ProjectsPage";
import { ReviewPage } from "./review/ReviewPage";
import { ReviewQueuePage } from "./review/ReviewQueuePage";

function NotFound() {
  return (
    <>
      <AppHeader />
      <main className="page">
        <EmptyState title="Page not found">
          <Link to="/projects" className="btn">
            Back to projects
          </Link>
        </EmptyState>
      </main>
    </>
  );
}

export function App() {
  return (
    <AuthProvider>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<RequireAuth><ProjectsPage /></RequireAuth>} />
        <Route path="/projects" element={<RequireAuth><ProjectsPage /></RequireAuth>} />
        <Route path="/projects/:projectId" element={<RequireAuth><ProjectAdminPage /></RequireAuth>} />
        <Route path="/projects/:projectId/label" element={<RequireAuth><LabelPage /></RequireAuth>} />
        <Route path="/projects/:projectId/review" element={<RequireAuth><ReviewQueuePage /></RequireAuth>} />
        <Route path="/projects/:projectId/review/:solutionId" element={<RequireAuth><ReviewPage /></RequireAuth>} />
        <Route path="/projects/:projectId/dashboard" element={<RequireAuth><DashboardPage /></RequireAuth>} />
        <Route path="*" element={<RequireAuth><NotFound /></RequireAuth>} />
      </Routes>
    </AuthProvider>
  );
}
