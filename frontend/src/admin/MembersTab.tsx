import { useEffect, useState, type FormEvent } from "react";
import * as api from "../api";
import { useAuth } from "../auth";
import { LoadMore } from "../components/LoadMore";
import { ErrorBox, formatDate, Spinner } from "../components/ui";
import { usePagedList } from "../components/usePagedList";
import "../styles/assign.css";
import "../styles/people.css";
import { OneTimeSecret } from "./OneTimeSecret";
import { TemporaryPasswordDialog } from "./TemporaryPasswordDialog";

const ROLES: Array<{ value: api.Role; label: string }> = [
  { value: "annotator", label: "Annotator" },
  { value: "reviewer", label: "Reviewer" },
  { value: "admin", label: "Admin" },
];

export function MembersTab({ project }: { project: api.Project }) {
  const { user } = useAuth();
  // A page of members at a time, by username; "Load more" reads the next.
  const list = usePagedList<api.Member>(api.membersPath(project.id));
  const members = list.items;
  const setMembers = list.setItems;
  const [error, setError] = useState<string | null>(null);
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<api.Role>("annotator");
  const [busy, setBusy] = useState(false);
  const [invites, setInvites] = useState<api.Invite[]>([]);
  const [everyone, setEveryone] = useState<api.UserRow[]>([]);
  const [reissuing, setReissuing] = useState<api.Member | null>(null);

  useEffect(() => {
    api
      .listInvites(project.id)
      .then(setInvites)
      .catch((e: Error) => setError(e.message));
  }, [project.id]);

  // Staff pick from every account (the server answers at most 50 per search).
  const isStaff = !!user?.is_staff;
  useEffect(() => {
    if (!isStaff) return;
    const timer = window.setTimeout(() => {
      api
        .listUsers(username.trim())
        .then(setEveryone)
        .catch(() => setEveryone([]));
    }, 200);
    return () => window.clearTimeout(timer);
  }, [isStaff, username]);

  const memberIds = new Set((members ?? []).map((m) => m.user.id));

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!username.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const m = await api.addMember(project.id, username.trim(), role);
      setMembers((list) => [...(list ?? []), m]);
      list.setCount((n) => n + 1);
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
      list.setCount((n) => n - 1);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const screened = project.screening_size > 0;
  return (
    <div className="stack">
      <div className="people-grid">
      <form className="card member-add" onSubmit={add}>
        <h2 className="card-title">Add an existing user</h2>
        <p className="muted small people-hint">
          {isStaff ? "Pick from every account, or type a username." : "Their username, in any case."} Someone already
          a member keeps their role: change it in the table.
        </p>
        <div className="people-row">
          <input
            className="input"
            placeholder="Username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            list={isStaff ? "all-users" : undefined}
            data-testid="member-username"
          />
          {isStaff && (
            <datalist id="all-users" data-testid="all-users">
              {everyone
                .filter((u) => !memberIds.has(u.id))
                .map((u) => (
                  <option key={u.id} value={u.username}>
                    {u.email}
                  </option>
                ))}
            </datalist>
          )}
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
      <CreateUserCard
        project={project}
        onCreated={(m) => {
          setMembers((list) => [...(list ?? []), m]);
          list.setCount((n) => n + 1);
        }}
      />
      <InviteCard project={project} onCreated={(i) => setInvites((list) => [i, ...list])} />
      </div>
      {(error ?? list.error) && <ErrorBox testId="members-error">{error ?? list.error}</ErrorBox>}
      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Members</span>
          {members && <span className="muted">{list.count}</span>}
        </div>
        {!members && !error && !list.error && <Spinner />}
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
                    {m.temporary_password && (
                      <span
                        className="badge badge-amber people-badge"
                        title="Has not signed in and chosen a password yet"
                        data-testid={`temporary-${m.user.username}`}
                      >
                        temporary password
                      </span>
                    )}
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
                    {m.temporary_password_reissue && (
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost"
                        onClick={() => setReissuing(m)}
                        title="They lost the temporary password: issue a new one (the old one stops working)"
                        data-testid={`reissue-${m.user.username}`}
                      >
                        New temporary password
                      </button>
                    )}
                    <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void remove(m)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <LoadMore list={list} noun="members" testId="members-more" />
      </div>
      {reissuing && (
        <TemporaryPasswordDialog
          project={project}
          member={reissuing}
          onIssued={(updated) => setMembers((list) => (list ?? []).map((x) => (x.user.id === updated.user.id ? { ...x, ...updated } : x)))}
          onClose={() => setReissuing(null)}
        />
      )}
      {invites.length > 0 && (
        <PendingInvites
          invites={invites}
          onRevoke={async (invite) => {
            setError(null);
            try {
              await api.revokeInvite(project.id, invite.id);
              setInvites((list) => list.filter((x) => x.id !== invite.id));
            } catch (err) {
              setError((err as Error).message);
            }
          }}
        />
      )}
    </div>
  );
}

function roleName(role: api.Role): string {
  return ROLES.find((r) => r.value === role)?.label ?? role;
}

/** Make an account here: the server makes a temporary password, shown once, which its owner
 * changes at first sign-in. */
function CreateUserCard({ project, onCreated }: { project: api.Project; onCreated: (m: api.Member) => void }) {
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<api.Role>("annotator");
  const [created, setCreated] = useState<api.CreatedUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const c = await api.createProjectUser(project.id, username.trim(), email.trim(), role);
      setCreated(c);
      onCreated(c.member);
      setUsername("");
      setEmail("");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card people-form" onSubmit={submit} data-testid="create-user">
      <h2 className="card-title">Create an account</h2>
      <p className="muted small people-hint">They sign in with a temporary password and choose their own at once.</p>
      {error && <div className="callout callout-error" role="alert" data-testid="create-user-error">{error}</div>}
      {created && (
        <OneTimeSecret
          label={`Temporary password of ${created.member.user.username} (shown once)`}
          value={created.temporary_password}
          testId="temporary-password"
        />
      )}
      <div className="people-row">
        <input className="input" placeholder="Username" value={username} onChange={(e) => setUsername(e.target.value)} data-testid="create-username" />
        <select className="input input-auto" value={role} onChange={(e) => setRole(e.target.value as api.Role)} data-testid="create-role">
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <div className="people-row">
        <input className="input" type="email" placeholder="E-mail (optional, for password resets)" value={email} onChange={(e) => setEmail(e.target.value)} data-testid="create-email" />
        <button type="submit" className="btn btn-primary" disabled={busy || !username.trim()} data-testid="create-submit">
          Create
        </button>
      </div>
    </form>
  );
}

const INVITE_DAYS = [1, 7, 30];

/** A single-use link that makes an account with the chosen role in this project. */
function InviteCard({ project, onCreated }: { project: api.Project; onCreated: (i: api.Invite) => void }) {
  const [role, setRole] = useState<api.Role>("annotator");
  const [days, setDays] = useState(7);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const c = await api.createInvite(project.id, role, days);
      setUrl(c.url);
      onCreated(c.invite);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card people-form" onSubmit={submit} data-testid="invite-create">
      <h2 className="card-title">Invite link</h2>
      <p className="muted small people-hint">Works once: the invitee picks a username and password and joins with this role.</p>
      {error && <div className="callout callout-error" role="alert">{error}</div>}
      {url && <OneTimeSecret label="Send this link (shown once)" value={url} testId="invite-url" />}
      <div className="people-row">
        <select className="input" value={role} onChange={(e) => setRole(e.target.value as api.Role)} data-testid="invite-role" aria-label="Role">
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <select className="input" value={days} onChange={(e) => setDays(Number(e.target.value))} data-testid="invite-days" aria-label="Expires in">
          {INVITE_DAYS.map((d) => (
            <option key={d} value={d}>
              {d === 1 ? "1 day" : `${d} days`}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="invite-submit">
          Create link
        </button>
      </div>
    </form>
  );
}

function PendingInvites({ invites, onRevoke }: { invites: api.Invite[]; onRevoke: (i: api.Invite) => Promise<void> }) {
  return (
    <div className="card card-flush">
      <div className="card-row card-pad">
        <span className="card-title">Pending invites</span>
        <span className="muted">{invites.length}</span>
      </div>
      <table className="table" data-testid="invites-table">
        <thead>
          <tr>
            <th>Role</th>
            <th>Made by</th>
            <th>Expires</th>
            <th className="num" aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {invites.map((i) => (
            <tr key={i.id} data-testid="invite-row">
              <td>{roleName(i.role)}</td>
              <td>{i.created_by ?? "—"}</td>
              <td>{formatDate(i.expires_at)}</td>
              <td className="num">
                <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void onRevoke(i)} data-testid={`invite-revoke-${i.id}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
