import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { EmptyState, ErrorBox, ProgressBar, Spinner, formatDate } from "../components/ui";
import { nextPollDelay } from "../dashboard/pollDelay";
import { STRATEGIES, buildRequest, emptyForm, type AssignForm } from "./assignments";
import "../styles/assign.css";

type Preview = { solutions: number; new: Record<string, number> };

/** Admins give solutions to particular annotators (assigned ones come first in their queue,
 * and only to them) and follow how far each annotator got. */
export function AssignmentsTab({ project }: { project: api.Project }) {
  const [members, setMembers] = useState<api.Member[] | null>(null);
  const [sources, setSources] = useState<api.ProblemSource[]>([]);
  // A large project's counts are stored: how old they are, and whether a count is under way.
  const [counts, setCounts] = useState<{ asOf: string | null; refreshing: boolean }>({ asOf: null, refreshing: false });
  const poll = useRef<{ delay: number | null; asOf: string | null }>({ delay: null, asOf: null });
  const [summary, setSummary] = useState<api.AssignmentSummaryRow[] | null>(null);
  const [form, setForm] = useState<AssignForm>(emptyForm);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0); // bumped when assignments change: preview again

  const loadSources = useCallback(() => {
    api
      .listProblemSources(project.id)
      .then((answer) => {
        setSources(answer.sources);
        setCounts({ asOf: answer.as_of, refreshing: answer.refreshing });
      })
      .catch(() => setSources([]));
  }, [project.id]);

  const reload = useCallback(() => {
    api
      .listAssignments(project.id)
      .then(setSummary)
      .catch((e: Error) => setError(e.message));
    loadSources();
  }, [project.id, loadSources]);

  // While the counts are behind (a count under way, or due once the server's refresh interval
  // passes) ask again: after 2 s, doubling to 30 s while the same counts come back (as the
  // dashboard polls its metrics); a read of stored counts is cheap.
  useEffect(() => {
    const p = poll.current;
    if (!counts.refreshing && counts.asOf === null) {
      p.delay = null;
      return;
    }
    p.delay = nextPollDelay(p.delay, counts.asOf === p.asOf);
    p.asOf = counts.asOf;
    const timer = window.setTimeout(loadSources, p.delay);
    return () => window.clearTimeout(timer);
  }, [counts, loadSources]);

  useEffect(() => {
    api
      .listAllMembers(project.id)
      .then(setMembers)
      .catch((e: Error) => setError(e.message));
    reload();
  }, [project.id, reload]);

  const built = useMemo(() => buildRequest(form), [form]);
  const requestKey = "request" in built ? JSON.stringify(built.request) : null;

  // A preview of what Assign would do, a moment after the form stops changing.
  useEffect(() => {
    setPreview(null);
    setPreviewError(null);
    if (!requestKey) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api
        .previewAssignments(project.id, JSON.parse(requestKey) as api.AssignmentRequest, { signal: controller.signal })
        .then(setPreview)
        .catch((e: Error) => {
          if (e.name !== "AbortError") setPreviewError(e.message);
        });
    }, 250);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [project.id, requestKey, version]);

  const set = <K extends keyof AssignForm>(key: K, value: AssignForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setNotice(null);
  };
  const toggleUser = (id: number) =>
    set("userIds", form.userIds.includes(id) ? form.userIds.filter((u) => u !== id) : [...form.userIds, id]);

  const names = useMemo(() => new Map((members ?? []).map((m) => [m.user.id, m.user.username])), [members]);
  // Annotators first: they are who assignments are for; reviewers and admins label too.
  const people = useMemo(
    () => [...(members ?? [])].sort((a, b) => Number(a.role !== "annotator") - Number(b.role !== "annotator")),
    [members],
  );

  async function assign(e: FormEvent) {
    e.preventDefault();
    if (!("request" in built)) return;
    setBusy(true);
    setError(null);
    try {
      const { created } = await api.createAssignments(project.id, built.request);
      const total = Object.values(created).reduce((a, b) => a + b, 0);
      const parts = Object.entries(created).map(([id, n]) => `${names.get(Number(id)) ?? id} ${n}`);
      setNotice(`Assigned ${total} solution${total === 1 ? "" : "s"}: ${parts.join(", ")}.`);
      reload();
      // Same form again: the preview now says what is left (only-unassigned skips these).
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function clear(row: api.AssignmentSummaryRow | null) {
    const who = row ? row.username : "every annotator";
    if (!window.confirm(`Remove the assignments of ${who}? Their solutions go back to everyone.`)) return;
    setError(null);
    try {
      const { deleted } = await api.clearAssignments(project.id, row ? { user_ids: [row.user_id] } : {});
      setNotice(`Removed ${deleted} assignment${deleted === 1 ? "" : "s"}.`);
      reload();
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const totalAssigned = (summary ?? []).reduce((a, r) => a + r.assigned, 0);
  const chosen = sources.find((s) => s.source === form.source);

  return (
    <div className="stack">
      <form className="card assign-form" onSubmit={assign} data-testid="assign-form">
        <h2 className="card-title">Assign solutions</h2>
        <p className="muted small">
          Assigned solutions are served to their annotators before any other work, and to nobody else. Overlap still
          applies ({project.overlap} per solution).
        </p>

        <div className="assign-grid">
          <section className="assign-section">
            <div className="assign-section-title">1 · Solutions</div>
            <div className="segmented" role="radiogroup" aria-label="Choose solutions">
              {(["filter", "list"] as const).map((mode) => (
                <button
                  key={mode}
                  type="button"
                  role="radio"
                  aria-checked={form.mode === mode}
                  className={form.mode === mode ? "on" : ""}
                  onClick={() => set("mode", mode)}
                  data-testid={`assign-mode-${mode}`}
                >
                  {mode === "filter" ? "By filter" : "By id list"}
                </button>
              ))}
            </div>
            {form.mode === "filter" ? (
              <div className="assign-fields">
                <label className="field">
                  <span className="field-label">Problem source</span>
                  <select className="input" value={form.source} onChange={(e) => set("source", e.target.value)} data-testid="assign-source">
                    <option value="">All sources</option>
                    {sources.map((s) => (
                      <option key={s.source} value={s.source}>
                        {s.source || "(no source)"} · {s.open} open, {s.unassigned} unassigned
                      </option>
                    ))}
                  </select>
                  {(counts.asOf || counts.refreshing) && (
                    <span className="field-help" data-testid="assign-source-age">
                      {counts.asOf ? `Counts as of ${formatDate(counts.asOf)}${counts.refreshing ? " · updating…" : ""}` : "Counting the sources…"}
                    </span>
                  )}
                </label>
                <label className="field">
                  <span className="field-label">How many</span>
                  <input
                    className="input"
                    inputMode="numeric"
                    placeholder={chosen ? `All (${chosen.solutions})` : "All matching"}
                    value={form.count}
                    onChange={(e) => set("count", e.target.value)}
                    data-testid="assign-count"
                  />
                  <span className="field-help">The first ones by id.</span>
                </label>
                <label className="check">
                  <input type="checkbox" checked={form.onlyOpen} onChange={(e) => set("onlyOpen", e.target.checked)} data-testid="assign-only-open" />
                  <span>Only open solutions (fewer than {project.overlap} submission{project.overlap === 1 ? "" : "s"})</span>
                </label>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={form.onlyUnassigned}
                    onChange={(e) => set("onlyUnassigned", e.target.checked)}
                    data-testid="assign-only-unassigned"
                  />
                  <span>Only solutions nobody is assigned yet</span>
                </label>
              </div>
            ) : (
              <label className="field assign-fields">
                <span className="field-label">Solution ids</span>
                <textarea
                  className="input mono"
                  rows={4}
                  placeholder="12, 13, 57 (commas, spaces or new lines)"
                  value={form.idsText}
                  onChange={(e) => set("idsText", e.target.value)}
                  data-testid="assign-ids"
                />
              </label>
            )}
          </section>

          <section className="assign-section">
            <div className="assign-section-title">2 · Annotators</div>
            {!members && <Spinner />}
            {members && (
              <div className="assign-people" role="group" aria-label="Annotators">
                {people.map((m) => {
                  const on = form.userIds.includes(m.user.id);
                  return (
                    <div key={m.user.id} className={`assign-person${on ? " is-on" : ""}`}>
                      <label className="check">
                        <input type="checkbox" checked={on} onChange={() => toggleUser(m.user.id)} data-testid={`assign-user-${m.user.username}`} />
                        <span>
                          {m.user.username} {m.role !== "annotator" && <span className="muted small">{m.role}</span>}
                        </span>
                      </label>
                      {on && form.strategy === "weighted" && (
                        <input
                          className="input input-sm assign-weight"
                          inputMode="decimal"
                          aria-label={`Weight of ${m.user.username}`}
                          value={form.weights[m.user.id] ?? "1"}
                          onChange={(e) => set("weights", { ...form.weights, [m.user.id]: e.target.value })}
                          data-testid={`assign-weight-${m.user.username}`}
                        />
                      )}
                      {on && preview && (
                        <span className="assign-gets" data-testid={`assign-gets-${m.user.username}`}>
                          +{preview.new[String(m.user.id)] ?? 0}
                        </span>
                      )}
                    </div>
                  );
                })}
              </div>
            )}
          </section>

          <section className="assign-section">
            <div className="assign-section-title">3 · Strategy</div>
            <div className="assign-strategies" role="radiogroup" aria-label="Strategy">
              {STRATEGIES.map((s) => (
                <label key={s.value} className={`assign-strategy${form.strategy === s.value ? " is-on" : ""}`}>
                  <input
                    type="radio"
                    name="strategy"
                    checked={form.strategy === s.value}
                    onChange={() => set("strategy", s.value)}
                    data-testid={`assign-strategy-${s.value}`}
                  />
                  <span>
                    <strong>{s.label}</strong>
                    <span className="muted small"> {s.help}</span>
                  </span>
                </label>
              ))}
            </div>
            {form.strategy !== "each" && (
              <label className="field">
                <span className="field-label">Annotators per solution</span>
                <input
                  className="input input-auto"
                  inputMode="numeric"
                  placeholder={`${project.overlap} (overlap)`}
                  value={form.perSolution}
                  onChange={(e) => set("perSolution", e.target.value)}
                  data-testid="assign-per-solution"
                />
              </label>
            )}
          </section>
        </div>

        <div className="assign-footer">
          <div className="assign-preview" data-testid="assign-preview" aria-live="polite">
            {"error" in built ? (
              <span className="muted">{built.error}</span>
            ) : previewError ? (
              <span className="text-red">{previewError}</span>
            ) : preview ? (
              <span>
                <strong>{preview.solutions}</strong> solution{preview.solutions === 1 ? "" : "s"} chosen ·{" "}
                <strong>{Object.values(preview.new).reduce((a, b) => a + b, 0)}</strong> new assignment
                {Object.values(preview.new).reduce((a, b) => a + b, 0) === 1 ? "" : "s"}
              </span>
            ) : (
              <span className="muted">Counting…</span>
            )}
          </div>
          {notice && (
            <span className="text-green small" data-testid="assign-notice">
              {notice}
            </span>
          )}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !preview || Object.values(preview.new).every((n) => n === 0)}
            data-testid="assign-submit"
          >
            {busy ? "Assigning…" : "Assign"}
          </button>
        </div>
      </form>

      {error && <ErrorBox>{error}</ErrorBox>}

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Current assignments</span>
          {summary && summary.length > 0 && (
            <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void clear(null)} data-testid="assign-clear-all">
              Clear all ({totalAssigned})
            </button>
          )}
        </div>
        {!summary && !error && <Spinner />}
        {summary && summary.length === 0 && (
          <EmptyState title="No assignments" testId="assign-empty">
            Every open solution goes to whoever asks for work next.
          </EmptyState>
        )}
        {summary && summary.length > 0 && (
          <table className="table" data-testid="assign-table">
            <thead>
              <tr>
                <th>Annotator</th>
                <th className="num">Assigned</th>
                <th className="num">Done</th>
                <th className="num">Pending</th>
                <th className="assign-progress-col">Progress</th>
                <th className="num" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {summary.map((r) => (
                <tr key={r.user_id} data-testid={`assign-row-${r.username}`}>
                  <td>
                    <span className="avatar avatar-sm" aria-hidden="true">
                      {r.username.slice(0, 1).toUpperCase()}
                    </span>
                    {r.username}
                  </td>
                  <td className="num">{r.assigned}</td>
                  <td className="num">{r.submitted}</td>
                  <td className="num">{r.assigned - r.submitted}</td>
                  <td className="assign-progress-col">
                    <ProgressBar value={r.submitted} max={r.assigned} tone="green" label={`${r.username}: ${r.submitted} of ${r.assigned} done`} />
                  </td>
                  <td className="num">
                    <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void clear(r)} data-testid={`assign-remove-${r.username}`}>
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
