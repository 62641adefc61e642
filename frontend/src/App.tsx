import { Link, Route, Routes } from "react-router-dom";
import { AuthProvider, RequireAuth } from "./auth";
import { AppHeader } from "./components/AppHeader";
import { EmptyState } from "./components/ui";
import { LabelPage } from "./pages/LabelPage";
import { LoginPage } from "./pages/LoginPage";
import { ProjectAdminPage } from "./pages/ProjectAdminPage";
import { ProjectsPage } from "./pages/ProjectsPage";

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
        <Route path="*" element={<RequireAuth><NotFound /></RequireAuth>} />
      </Routes>
    </AuthProvider>
  );
}
