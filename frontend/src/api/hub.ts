/** Pushes of an export to a Hugging Face Hub dataset repo (labeling/api/hub.py), and the user's
 * own Hugging Face token they run with (labeling/api/hub_token.py). */
import { get, post, request } from "./client";

/** Whose token a push or a Hub import used: never the token itself. */
export type HubTokenKind = "user" | "server" | "given" | "none";

export interface HubPush {
  id: number;
  export: number;
  repo_id: string;
  private: boolean;
  status: "pending" | "running" | "done" | "failed";
  revision: string;
  tag: string;
  url: string;
  splits: Record<string, number>;
  error: string;
  /** Whose token the push used; empty until it runs. */
  token_kind: HubTokenKind | "";
  created_at: string;
  finished_at: string | null;
}

export const listHubPushes = (exportId: number) => get<HubPush[]>(`/api/exports/${exportId}/hub-pushes/`);
export const createHubPush = (exportId: number, data: { repo_id: string; private: boolean }) =>
  post<HubPush>(`/api/exports/${exportId}/hub-pushes/`, data);
export const getHubPush = (id: number) => get<HubPush>(`/api/hub-pushes/${id}/`);

/** owner/name as the Hub spells them (labeling/hub/connection.py REPO_ID). */
export const HUB_REPO_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

/** The signed-in user's Hugging Face token: whether one is set, never the token. */
export interface HubTokenStatus {
  set: boolean;
  /** The last four characters of the saved token; empty when none is set. */
  last4: string;
  /** The Hub account it belongs to, when it was checked with whoami. */
  hub_user: string;
  checked_at: string | null;
  updated_at: string | null;
  /** Whether the server has a token of its own (HF_TOKEN). */
  server_token: boolean;
  /** Whose token pushes and Hub imports the user starts use now: their own, the server's for
   * any repo (staff), the server's only for repos under `server_repos`, or none. */
  uses: "user" | "server" | "server_listed" | "none";
  /** The repo prefixes (owner/ or owner/name-prefix) the server's token covers for users who
   * saved no token (HUB_SERVER_TOKEN_REPOS). */
  server_repos: string[];
}

export const getHubToken = () => get<HubTokenStatus>("/api/auth/hub-token/");
export const saveHubToken = (token: string, check: boolean) =>
  request<HubTokenStatus>("PUT", "/api/auth/hub-token/", { token, check });
export const removeHubToken = () => request<void>("DELETE", "/api/auth/hub-token/");
