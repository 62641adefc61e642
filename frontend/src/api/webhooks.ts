/** Webhooks: a project's endpoints (project admins), their secrets and delivery log. */
import { get, post, request } from "./client";

export type WebhookEventType =
  | "import.finished"
  | "autolabel_run.finished"
  | "export.ready"
  | "export.failed"
  | "annotation.submitted"
  | "review.resolved";

export interface WebhookEvent {
  type: WebhookEventType;
  description: string;
}

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  description: string;
  /** Why the server turned it off (the receiver answered 410 Gone); "" otherwise. */
  disabled_reason: string;
  /** The secret's first characters ("whsec_AbCd…"): the whole one is shown once. */
  secret_hint: string;
  created_at: string;
  updated_at: string;
  secret_rotated_at: string | null;
}

export interface WebhookEndpointWithSecret {
  endpoint: WebhookEndpoint;
  /** Shown once: the receiver verifies signatures with it. */
  secret: string;
}

export interface WebhookEndpointInput {
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
}

export interface WebhookDelivery {
  id: number;
  event_type: string;
  message_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  status_code: number | null;
  duration_ms: number | null;
  error: string;
  created_at: string;
  next_attempt_at: string | null;
  finished_at: string | null;
  payload: unknown;
}

const base = (projectId: number) => `/api/projects/${projectId}/webhooks/`;

export const listWebhookEvents = () => get<WebhookEvent[]>("/api/webhook-events/");
export const listWebhooks = (projectId: number) => get<WebhookEndpoint[]>(base(projectId));
export const createWebhook = (projectId: number, data: WebhookEndpointInput) =>
  post<WebhookEndpointWithSecret>(base(projectId), data);
export const updateWebhook = (projectId: number, id: number, data: Partial<WebhookEndpointInput>) =>
  request<WebhookEndpoint>("PATCH", `${base(projectId)}${id}/`, data);
export const deleteWebhook = (projectId: number, id: number) =>
  request<void>("DELETE", `${base(projectId)}${id}/`);
export const rotateWebhookSecret = (projectId: number, id: number) =>
  post<WebhookEndpointWithSecret>(`${base(projectId)}${id}/rotate-secret/`);
/** Sends a `webhook.test` event now; its delivery shows in the log. */
export const sendWebhookTest = (projectId: number, id: number) =>
  post<WebhookDelivery>(`${base(projectId)}${id}/test/`);
/** The endpoint's latest deliveries, newest first (at most 100). */
export const listWebhookDeliveries = (projectId: number, id: number, limit = 50) =>
  get<WebhookDelivery[]>(`${base(projectId)}${id}/deliveries/?limit=${limit}`);
