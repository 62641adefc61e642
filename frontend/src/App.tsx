import { lazy, Suspense } from "react";
import { Link, Route, Routes } from "react-router-dom";
import { AuthProvider, RequireAuth } from "./auth";
import { AppHeader } from "./components/AppHeader";
import { EmptyState, Spinner } from "./components/ui";
import { LabelPage } from "./pages/LabelPage";
import { LoginPage } from "./pages/LoginPage";
import { ProjectsPage } from "./pages/ProjectsPage";

// The annotator's pages (projects, labeling) are in the first download; the admin, review and
// dashboard pages load when first opened, so an annotator never downloads them.
const ProjectAdminPage = lazy(() => import("./pages/ProjectAdminPage").then((m) => ({ default: m.ProjectAdminPage })));
const ReviewQueuePage = lazy(() => import("./review/ReviewQueuePage").then((m) => ({ default: m.ReviewQueuePage })));
const ReviewPage = lazy(() => import("./review/ReviewPage").then((m) => ({ default: m.ReviewPage })));
const MyWorkPage = lazy(() => import("./mywork/MyWorkPage").then((m) => ({ default: m.MyWorkPage })));
// Pages a signed-out person opens from a link (invite, password reset) load when opened, too.
const InvitePage = lazy(() => import("./pages/InvitePage").then((m) => ({ default: m.InvitePage })));
const ForgotPasswordPage = lazy(() => import("./pages/ForgotPasswordPage").then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import("./pages/ResetPasswordPage").then((m) => ({ default: m.ResetPasswordPage })));
const DashboardPage = lazy(() => import("./dashboard/DashboardPage").then((m) => ({ default: m.DashboardPage })));

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
      <Suspense fallback={<Spinner label="Loading the page…" />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset/:uid/:token" element={<ResetPasswordPage />} />
        <Route path="/invite/:token" element={<InvitePage />} />
        <Route path="/" element={<RequireAuth><ProjectsPage /></RequireAuth>} />
        <Route path="/projects" element={<RequireAuth><ProjectsPage /></RequireAuth>} />
        <Route path="/projects/:projectId" element={<RequireAuth><ProjectAdminPage /></RequireAuth>} />
        <Route path="/projects/:projectId/label" element={<RequireAuth><LabelPage /></RequireAuth>} />
        <Route path="/projects/:projectId/my-work" element={<RequireAuth><MyWorkPage /></RequireAuth>} />
        <Route path="/projects/:projectId/review" element={<RequireAuth><ReviewQueuePage /></RequireAuth>} />
        <Route path="/projects/:projectId/review/:solutionId" element={<RequireAuth><ReviewPage /></RequireAuth>} />
        <Route path="/projects/:projectId/dashboard" element={<RequireAuth><DashboardPage /></RequireAuth>} />
        <Route path="*" element={<RequireAuth><NotFound /></RequireAuth>} />
      </Routes>
      </Suspense>
    </AuthProvider>
  );
}
