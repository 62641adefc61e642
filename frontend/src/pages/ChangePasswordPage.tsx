import { useAuth } from "../auth";
import { AuthCard } from "../components/AuthCard";
import { ChangePasswordForm } from "../components/ChangePasswordForm";

/** Shown instead of every page while the user's password is a temporary one an admin made:
 * the server refuses their other writes until it is changed. */
export function ChangePasswordPage() {
  const { user, setUser, logout } = useAuth();
  return (
    <AuthCard
      title="Choose your password"
      sub={`Welcome, ${user?.username ?? ""}. You signed in with a temporary password; choose your own to continue.`}
      testId="forced-password"
    >
      <ChangePasswordForm
        currentLabel="Temporary password"
        submitLabel="Save and continue"
        onDone={(u) => setUser(u ?? (user ? { ...user, must_change_password: false } : null))}
      />
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout()}>
        Sign out
      </button>
    </AuthCard>
  );
}
