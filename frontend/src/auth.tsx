/** Who is logged in, for the whole app; a 403 not_authenticated anywhere sends them to /login. */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import * as api from "./api";
import { Spinner } from "./components/ui";
import { ChangePasswordPage } from "./pages/ChangePasswordPage";

interface AuthValue {
  user: api.User | null;
  loading: boolean;
  setUser: (user: api.User | null) => void;
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

export function loginPath(next: string): string {
  return next && next !== "/" && !next.startsWith("/login")
    ? `/login?next=${encodeURIComponent(next)}`
    : "/login";
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<api.User | null>(null);
  const [loading, setLoading] = useState(true);
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    let alive = true;
    api
      .me()
      .then((u) => alive && setUser(u))
      .catch(() => alive && setUser(null))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, []);

  const here = location.pathname + location.search;
  useEffect(() => {
    api.setUnauthenticatedHandler(() => {
      setUser(null);
      if (!window.location.pathname.startsWith("/login")) navigate(loginPath(here), { replace: true });
    });
    return () => api.setUnauthenticatedHandler(null);
  }, [navigate, here]);

  // A full page load of /login, not a client-side navigate: nothing the last user's session
  // fetched stays in memory, and no render in between sees "no user" on the old page (React
  // Router runs navigations as transitions, so setUser(null) committed first and RequireAuth
  // sent the page to /login?next=<the page>, racing the navigate).
  const logout = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      window.location.replace("/login");
    }
  }, []);

  const value = useMemo(() => ({ user, loading, setUser, logout }), [user, loading, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth outside AuthProvider");
  return value;
}

/** Renders its children for a logged-in user, else redirects to /login?next=... A user signed
 * in with a temporary password sees only the change-password form (the server refuses their
 * other writes) and then the page they asked for. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner />;
  if (!user) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  if (user.must_change_password) return <ChangePasswordPage />;
  return <>{children}</>;
}
