/** Webhooks: the project's endpoints (URL, events, active), their one-time secrets, a test
 * send and the delivery log. The server signs each POST per the Standard Webhooks spec. */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import * as api from "../api";
import { ErrorBox, formatDate, Spinner } from "../components/ui";
import { OneTimeSecret } from "./OneTimeSecret";
import "../styles/people.css";
import "../styles/webhooks.css";

const LOG_SIZE = 50;

export function WebhooksTab({ project }: { project: api.Project }) {
  const [events, setEvents] = useState<api.WebhookEvent[]>([]);
  const [endpoints, setEndpoints] = useState<api.WebhookEndpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [editing, setEditing] = useState<api.WebhookEndpoint | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const [logVersion, setLogVersion] = useState(0);

  useEffect(() => {
    api
      .listWebhookEvents()
      .then(setEvents)
      .catch((e: Error) => setError(e.message));
    api
      .listWebhooks(project.id)
      .then(setEndpoints)
      .catch((e: Error) => setError(e.message));
  }, [project.id]);

  const replace = (updated: api.WebhookEndpoint) =>
    setEndpoints((list) => (list ?? []).map((x) => (x.id === updated.id ? updated : x)));

  async function act(work: () => Promise<void>) {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const remove = (e: api.WebhookEndpoint) =>
    act(async () => {
      if (!window.confirm(`Delete the webhook to ${e.url}? Its delivery log goes with it.`)) return;
      await api.deleteWebhook(project.id, e.id);
      setEndpoints((list) => (list ?? []).filter((x) => x.id !== e.id));
      if (logOf === e.id) setLogOf(null);
      if (editing?.id === e.id) setEditing(null);
    });

  const rotate = (e: api.WebhookEndpoint) =>
    act(async () => {
      if (!window.confirm("Make a new signing secret? The current one stops working at once.")) return;
      const made = await api.rotateWebhookSecret(project.id, e.id);
      replace(made.endpoint);
      setSecret({ label: `New signing secret of ${e.url} (shown once)`, value: made.secret });
    });

  const sendTest = (e: api.WebhookEndpoint) =>
    act(async () => {
      await api.sendWebhookTest(project.id, e.id);
      setLogOf(e.id);
      setLogVersion((v) => v + 1);
    });

  const toggle = (e: api.WebhookEndpoint) =>
    act(async () => replace(await api.updateWebhook(project.id, e.id, { active: !e.active })));

  return (
    <div className="stack">
      <div className="people-grid">
        {editing ? (
          <EndpointForm
            key={`edit-${editing.id}`}
            events={events}
            initial={editing}
            title="Edit webhook"
            submitLabel="Save"
            onCancel={() => setEditing(null)}
            onSubmit={async (data) => {
              replace(await api.updateWebhook(project.id, editing.id, data));
              setEditing(null);
            }}
          />
        ) : (
          <EndpointForm
            key="create"
            events={events}
            title="Add a webhook"
            submitLabel="Add webhook"
            onSubmit={async (data) => {
              const made = await api.createWebhook(project.id, data);
              setEndpoints((list) => [...(list ?? []), made.endpoint]);
              setSecret({ label: `Signing secret of ${made.endpoint.url} (shown once)`, value: made.secret });
            }}
          />
        )}
        <div className="card webhooks-help">
          <h2 className="card-title">How receivers check a webhook</h2>
          <p className="muted small people-hint">
            Each event is a JSON POST <code>{'{"type", "timestamp", "data"}'}</code> signed per the Standard Webhooks spec
            (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Verify it with
            the secret, e.g. <code>standardwebhooks.Webhook(secret).verify(body, headers)</code>.
          </p>
          <p className="muted small people-hint">
            A 2xx answer delivers it; anything else is retried with growing waits (5 attempts). A 410 Gone answer turns the
            webhook off. Redirects are not followed.
          </p>
          {secret && <OneTimeSecret label={secret.label} value={secret.value} testId="webhook-secret" />}
        </div>
      </div>
      {error && <ErrorBox testId="webhooks-error">{error}</ErrorBox>}
      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Webhooks</span>
          {endpoints && <span className="muted">{endpoints.length}</span>}
        </div>
        {!endpoints && !error && <Spinner />}
        {endpoints && endpoints.length === 0 && (
          <p className="muted card-pad" data-testid="webhooks-empty">
            No webhooks yet: add one above to hear when imports, runs and exports finish.
          </p>
        )}
        {endpoints && endpoints.length > 0 && (
          <table className="table" data-testid="webhooks-table">
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>State</th>
                <th className="num" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => (
                <tr key={e.id} data-testid={`webhook-row-${e.id}`} className={logOf === e.id ? "webhooks-selected" : undefined}>
                  <td className="webhooks-url">
                    <span className="mono">{e.url}</span>
                    {e.description && <div className="muted small">{e.description}</div>}
                    <div className="muted small">secret {e.secret_hint}</div>
                  </td>
                  <td>
                    <span className="webhooks-events">
                      {e.events.map((t) => (
                        <span key={t} className="badge">
                          {t}
                        </span>
                      ))}
                    </span>
                  </td>
                  <td>
                    <StateBadge endpoint={e} />
                  </td>
                  <td className="num">
                    <span className="webhooks-actions">
                      <button type="button" className="btn btn-sm" onClick={() => void sendTest(e)} data-testid={`webhook-test-${e.id}`}>
                        Send test
                      </button>
                      <button type="button" className="btn btn-sm" onClick={() => setLogOf(logOf === e.id ? null : e.id)} data-testid={`webhook-log-${e.id}`}>
                        {logOf === e.id ? "Hide log" : "Deliveries"}
                      </button>
                      <button type="button" className="btn btn-sm" onClick={() => setEditing(e)} data-testid={`webhook-edit-${e.id}`}>
                        Edit
                      </button>
                      <button type="button" className="btn btn-sm" onClick={() => void toggle(e)} data-testid={`webhook-toggle-${e.id}`}>
                        {e.active ? "Pause" : "Turn on"}
                      </button>
                      <button type="button" className="btn btn-sm" onClick={() => void rotate(e)} data-testid={`webhook-rotate-${e.id}`}>
                        New secret
                      </button>
                      <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void remove(e)} data-testid={`webhook-delete-${e.id}`}>
                        Delete
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {logOf !== null && endpoints?.some((e) => e.id === logOf) && (
        <DeliveryLog projectId={project.id} endpoint={endpoints.find((e) => e.id === logOf)!} version={logVersion} />
      )}
    </div>
  );
}

function StateBadge({ endpoint }: { endpoint: api.WebhookEndpoint }) {
  if (endpoint.active) return <span className="badge badge-green">active</span>;
  if (endpoint.disabled_reason)
    return (
      <span className="badge badge-red" title={endpoint.disabled_reason} data-testid={`webhook-disabled-${endpoint.id}`}>
        turned off: receiver gone
      </span>
    );
  return <span className="badge badge-amber">paused</span>;
}

function EndpointForm({
  events,
  initial,
  title,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  events: api.WebhookEvent[];
  initial?: api.WebhookEndpoint;
  title: string;
  submitLabel: string;
  onSubmit: (data: api.WebhookEndpointInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [chosen, setChosen] = useState<Set<api.WebhookEventType>>(new Set(initial?.events ?? []));
  const [active, setActive] = useState(initial?.active ?? true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function flip(type: api.WebhookEventType) {
    setChosen((old) => {
      const next = new Set(old);
      if (next.has(type)) next.delete(type);
      else next.add(type);
      return next;
    });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ url: url.trim(), description: description.trim(), events: [...chosen], active });
      if (!initial) {
        setUrl("");
        setDescription("");
        setChosen(new Set());
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card people-form" onSubmit={submit} data-testid="webhook-form">
      <h2 className="card-title">{title}</h2>
      {error && (
        <div className="callout callout-error" role="alert" data-testid="webhook-form-error">
          {error}
        </div>
      )}
      <input
        className="input"
        type="url"
        placeholder="https://example.org/steplab-hook"
        value={url}
        maxLength={2000}
        onChange={(e) => setUrl(e.target.value)}
        aria-label="URL"
        data-testid="webhook-url"
      />
      <input
        className="input"
        placeholder="Description (optional)"
        value={description}
        maxLength={500}
        onChange={(e) => setDescription(e.target.value)}
        aria-label="Description"
        data-testid="webhook-description"
      />
      <fieldset className="webhooks-choices">
        <legend className="small muted">Events</legend>
        {events.map((ev) => (
          <label key={ev.type} className="webhooks-choice" title={ev.description}>
            <input type="checkbox" checked={chosen.has(ev.type)} onChange={() => flip(ev.type)} data-testid={`webhook-event-${ev.type}`} />
            <span className="mono small">{ev.type}</span>
            <span className="muted small">{ev.description}</span>
          </label>
        ))}
      </fieldset>
      <label className="webhooks-choice">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} data-testid="webhook-active" />
        <span className="small">Active</span>
      </label>
      <div className="people-row">
        <button type="submit" className="btn btn-primary" disabled={busy || !url.trim() || chosen.size === 0} data-testid="webhook-submit">
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function DeliveryLog({ projectId, endpoint, version }: { projectId: number; endpoint: api.WebhookEndpoint; version: number }) {
  const [rows, setRows] = useState<api.WebhookDelivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .listWebhookDeliveries(projectId, endpoint.id, LOG_SIZE)
      .then((r) => {
        setRows(r);
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  }, [projectId, endpoint.id]);

  // Reload now, and while a delivery is pending (a test just sent, a retry waiting).
  useEffect(load, [load, version]);
  const pending = rows?.some((r) => r.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(load, 2000);
    return () => window.clearTimeout(timer);
  }, [pending, rows, load]);

  return (
    <div className="card card-flush" data-testid="webhook-log">
      <div className="card-row card-pad">
        <span className="card-title">
          Deliveries to <span className="mono">{endpoint.url}</span>
        </span>
        <button type="button" className="btn btn-sm" onClick={load} data-testid="webhook-log-refresh">
          Refresh
        </button>
      </div>
      {error && <ErrorBox>{error}</ErrorBox>}
      {!rows && !error && <Spinner />}
      {rows && rows.length === 0 && <p className="muted card-pad">Nothing sent yet.</p>}
      {rows && rows.length > 0 && (
        <table className="table" data-testid="webhook-log-table">
          <thead>
            <tr>
              <th>Event</th>
              <th>Result</th>
              <th className="num">Status code</th>
              <th className="num">Attempts</th>
              <th className="num">Duration</th>
              <th>Error</th>
              <th>Sent</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-testid={`delivery-${d.id}`}>
                <td className="mono small">{d.event_type}</td>
                <td>
                  <DeliveryBadge delivery={d} />
                </td>
                <td className="num">{d.status_code ?? "—"}</td>
                <td className="num">{d.attempts}</td>
                <td className="num">{d.duration_ms === null ? "—" : `${d.duration_ms} ms`}</td>
                <td className="webhooks-error small" title={d.error}>
                  {d.error || "—"}
                </td>
                <td className="small">{formatDate(d.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function DeliveryBadge({ delivery }: { delivery: api.WebhookDelivery }) {
  if (delivery.status === "delivered") return <span className="badge badge-green">delivered</span>;
  if (delivery.status === "failed") return <span className="badge badge-red">failed</span>;
  const when = delivery.attempts > 0 && delivery.next_attempt_at ? ` · retry ${formatDate(delivery.next_attempt_at)}` : "";
  return <span className="badge badge-amber">pending{when}</span>;
}
