import { useEffect, useState, type FormEvent } from "react";
import * as api from "../api";
import { useAuth } from "../auth";
import { ErrorBox, Spinner } from "../components/ui";
import "../styles/assign.css";

const ROLES: Array<{ value: api.Role; label: string }> = [
  { value: "annotator", label: "Annotator" },
  { value: "reviewer", label: "Reviewer" },
  { value: "admin", label: "Admin" },
];

export function MembersTab({ project }: { project: api.Project }) {
  const { user } = useAuth();
  const [members, setMembers] = useState<api.Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<api.Role>("annotator");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .listMembers(project.id)
      .then(setMembers)
      .catch((e: Error) => setError(e.message));
  }, [project.id]);

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!username.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const m = await api.addMember(project.id, username.trim(), role);
      setMembers((list) => [...(list ?? []).filter((x) => x.user.id !== m.user.id), m]);
      setUsername("");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function changeRole(m: api.Member, next: api.Role) {
    setError(null);
    try {
      const updated = await api.updateMember(project.id, m.user.id, next);
      setMembers((list) => (list ?? []).map((x) => (x.user.id === m.user.id ? { ...x, role: updated?.role ?? next } : x)));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function retake(m: api.Member) {
    setError(null);
    try {
      const updated = await api.resetScreening(project.id, m.user.id);
      setMembers((list) => (list ?? []).map((x) => (x.user.id === m.user.id ? { ...x, ...updated } : x)));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function remove(m: api.Member) {
    if (!window.confirm(`Remove ${m.user.username} from ${project.name}?`)) return;
    setError(null);
    try {
      await api.removeMember(project.id, m.user.id);
      setMembers((list) => (list ?? []).filter((x) => x.user.id !== m.user.id));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const screened = project.screening_size > 0;
  return (
    <div className="stack">
      <form className="card member-add" onSubmit={add}>
        <h2 className="card-title">Add a member</h2>
        <div className="inline-form">
          <input
            className="input"
            placeholder="Username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid="member-username"
          />
          <select className="input input-auto" value={role} onChange={(e) => setRole(e.target.value as api.Role)} data-testid="member-role">
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-primary" disabled={busy || !username.trim()} data-testid="member-add">
            Add
          </button>
        </div>
      </form>
      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Members</span>
          {members && <span className="muted">{members.length}</span>}
        </div>
        {!members && !error && <Spinner />}
        {members && (
          <table className="table" data-testid="members-table">
            <thead>
              <tr>
                <th>User</th>
                <th>Role</th>
                {screened && <th>Screening</th>}
                <th className="num" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.user.id}>
                  <td>
                    <span className="avatar avatar-sm" aria-hidden="true">
                      {m.user.username.slice(0, 1).toUpperCase()}
                    </span>
                    {m.user.username}
                    {m.user.id === user?.id && <span className="muted small"> (you)</span>}
                  </td>
                  <td>
                    <select
                      className="input input-auto input-sm"
                      value={m.role}
                      onChange={(e) => void changeRole(m, e.target.value as api.Role)}
                      aria-label={`Role of ${m.user.username}`}
                    >
                      {ROLES.map((r) => (
                        <option key={r.value} value={r.value}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                  </td>
                  {screened && (
                    <td data-testid={`screening-${m.user.username}`}>
                      <ScreeningCell member={m} size={project.screening_size} onRetake={() => void retake(m)} />
                    </td>
                  )}
                  <td className="num">
                    <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void remove(m)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** A member's screening: answered k of n, passed, or failed (with a retake for admins). Only
 * annotators are screened. */
function ScreeningCell({ member, size, onRetake }: { member: api.Member; size: number; onRetake: () => void }) {
  if (member.role !== "annotator") return <span className="muted small">not screened</span>;
  const answered = member.screening_answered ?? 0;
  if (member.screening === "passed") return <span className="badge badge-green">passed</span>;
  if (member.screening === "failed")
    return (
      <span className="screening-cell">
        <span className="badge badge-red">failed</span>
        <button
          type="button"
          className="btn btn-sm"
          onClick={onRetake}
          title="Clear the verdict: they answer new gold questions and are judged on those"
          data-testid={`screening-retake-${member.user.username}`}
        >
          Let retake
        </button>
      </span>
    );
  return (
    <span className="badge badge-amber" title="Gold answers that count for the screening">
      in screening · {Math.min(answered, size)}/{size}
    </span>
  );
}
