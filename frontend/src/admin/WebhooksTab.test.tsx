import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { WebhookDelivery, WebhookEndpoint } from "../api";
import { FakeApi } from "../test/fakeApi";
import { makeProject } from "../test/fixtures";

// The first render loads the lazy admin page: slower than findBy's default second on a busy machine.
const SLOW = { timeout: 10_000 };

const EVENTS = [
  { type: "import.finished", description: "An import job finished." },
  { type: "export.ready", description: "An export was built." },
  { type: "annotation.submitted", description: "An annotator submitted." },
];

const endpoint = (id: number, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  url: `https://hooks.example.org/${id}`,
  events: ["export.ready"],
  active: true,
  description: "",
  disabled_reason: "",
  secret_hint: "whsec_AbCd…",
  created_at: "2026-12-01T10:00:00Z",
  updated_at: "2026-12-01T10:00:00Z",
  secret_rotated_at: null,
  ...extra,
});

const delivery = (id: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  event_type: "webhook.test",
  message_id: `msg_${id}`,
  status: "delivered",
  attempts: 1,
  status_code: 200,
  duration_ms: 42,
  error: "",
  created_at: "2026-12-01T10:00:00Z",
  next_attempt_at: null,
  finished_at: "2026-12-01T10:00:01Z",
  payload: {},
  ...extra,
});

function mount(initial: WebhookEndpoint[] = []) {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: false };
  api.project = makeProject({ role: "admin" });
  let endpoints = [...initial];
  let deliveries: WebhookDelivery[] = [delivery(1, { event_type: "export.ready", status: "failed", status_code: 500, attempts: 5, error: "HTTP 500: boom" })];
  api.overrides.push((call) => {
    const { method, path, body } = call;
    if (method === "GET" && path === "/api/webhook-events/") return { status: 200, body: EVENTS };
    if (method === "GET" && path === "/api/projects/1/webhooks/") return { status: 200, body: endpoints };
    if (method === "POST" && path === "/api/projects/1/webhooks/") {
      if (String(body.url).includes("169.254"))
        return { status: 400, body: { error: { code: "validation_error", message: "169.254.169.254 is a link-local address; webhooks go to public addresses.", details: { field: "url" } } } };
      const made = endpoint(9, { url: body.url, events: body.events, description: body.description, active: body.active });
      endpoints = [...endpoints, made];
      return { status: 201, body: { endpoint: made, secret: "whsec_c2VjcmV0LXNob3duLW9uY2U=" } };
    }
    const detail = path.match(/^\/api\/projects\/1\/webhooks\/(\d+)\/(.*)$/);
    if (!detail) return undefined;
    const id = Number(detail[1]);
    const rest = detail[2];
    if (method === "PATCH" && rest === "") {
      endpoints = endpoints.map((e) => (e.id === id ? { ...e, ...body } : e));
      return { status: 200, body: endpoints.find((e) => e.id === id) };
    }
    if (method === "DELETE" && rest === "") {
      endpoints = endpoints.filter((e) => e.id !== id);
      return { status: 204 };
    }
    if (method === "POST" && rest === "rotate-secret/")
      return { status: 200, body: { endpoint: endpoints.find((e) => e.id === id), secret: "whsec_bmV3LXNlY3JldA==" } };
    if (method === "POST" && rest === "test/") {
      const sent = delivery(2);
      deliveries = [sent, ...deliveries];
      return { status: 202, body: { ...sent, status: "pending", attempts: 0, status_code: null } };
    }
    if (method === "GET" && rest.startsWith("deliveries/")) return { status: 200, body: deliveries };
    return undefined;
  });
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1?tab=webhooks"]}>
      <App />
    </MemoryRouter>,
  );
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe("Webhooks tab", () => {
  it("adds a webhook and shows its signing secret once", async () => {
    const api = mount();
    expect(await screen.findByTestId("webhooks-empty", {}, SLOW)).toBeTruthy();
    fireEvent.change(screen.getByTestId("webhook-url"), { target: { value: "https://ci.example.org/hook" } });
    fireEvent.change(screen.getByTestId("webhook-description"), { target: { value: "CI" } });
    const submit = screen.getByTestId("webhook-submit") as HTMLButtonElement;
    expect(submit.disabled).toBe(true); // no event chosen yet
    fireEvent.click(await screen.findByTestId("webhook-event-export.ready"));
    fireEvent.click(screen.getByTestId("webhook-event-import.finished"));
    fireEvent.click(submit);
    const secret = (await screen.findByTestId("webhook-secret")) as HTMLInputElement;
    expect(secret.value).toBe("whsec_c2VjcmV0LXNob3duLW9uY2U=");
    const [call] = api.callsTo("POST", "/api/projects/1/webhooks/");
    expect(call.body).toEqual({
      url: "https://ci.example.org/hook",
      description: "CI",
      events: ["export.ready", "import.finished"],
      active: true,
    });
    const row = await screen.findByTestId("webhook-row-9");
    expect(within(row).getByText("https://ci.example.org/hook")).toBeTruthy();
    expect(within(row).getByText("import.finished")).toBeTruthy();
  });

  it("shows the server's refusal of a private URL", async () => {
    mount();
    fireEvent.change(await screen.findByTestId("webhook-url", {}, SLOW), { target: { value: "http://169.254.169.254/x" } });
    fireEvent.click(await screen.findByTestId("webhook-event-export.ready"));
    fireEvent.click(screen.getByTestId("webhook-submit"));
    expect((await screen.findByTestId("webhook-form-error")).textContent).toContain("link-local");
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
  });

  it("sends a test event and shows the delivery log", async () => {
    const api = mount([endpoint(3)]);
    fireEvent.click(await screen.findByTestId("webhook-test-3", {}, SLOW));
    const log = await screen.findByTestId("webhook-log-table");
    await waitFor(() => expect(within(log).getByTestId("delivery-2")).toBeTruthy());
    const failed = within(log).getByTestId("delivery-1");
    expect(failed.textContent).toContain("failed");
    expect(failed.textContent).toContain("500");
    expect(failed.textContent).toContain("HTTP 500: boom");
    expect(within(log).getByTestId("delivery-2").textContent).toContain("42 ms");
    expect(api.callsTo("POST", "/api/projects/1/webhooks/3/test/")).toHaveLength(1);
  });

  it("edits, pauses, rotates the secret of and deletes a webhook", async () => {
    const api = mount([endpoint(3), endpoint(4, { active: false, disabled_reason: "The receiver answered 410 Gone." })]);
    expect((await screen.findByTestId("webhook-disabled-4", {}, SLOW)).textContent).toContain("receiver gone");
    fireEvent.click(screen.getByTestId("webhook-edit-3"));
    const url = screen.getByTestId("webhook-url") as HTMLInputElement;
    expect(url.value).toBe("https://hooks.example.org/3");
    fireEvent.change(url, { target: { value: "https://hooks.example.org/new" } });
    fireEvent.click(screen.getByTestId("webhook-submit"));
    await waitFor(() => expect(screen.getByText("https://hooks.example.org/new")).toBeTruthy());
    expect(api.callsTo("PATCH", "/api/projects/1/webhooks/3/")[0].body.url).toBe("https://hooks.example.org/new");

    fireEvent.click(screen.getByTestId("webhook-toggle-3"));
    await waitFor(() => expect(api.callsTo("PATCH", "/api/projects/1/webhooks/3/")).toHaveLength(2));
    expect(api.callsTo("PATCH", "/api/projects/1/webhooks/3/")[1].body).toEqual({ active: false });

    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(screen.getByTestId("webhook-rotate-3"));
    expect(((await screen.findByTestId("webhook-secret")) as HTMLInputElement).value).toBe("whsec_bmV3LXNlY3JldA==");

    fireEvent.click(screen.getByTestId("webhook-delete-4"));
    await waitFor(() => expect(screen.queryByTestId("webhook-row-4")).toBeNull());
    expect(api.callsTo("DELETE", "/api/projects/1/webhooks/4/")).toHaveLength(1);
  });
});
