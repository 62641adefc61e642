/** Pushes of an export to a Hugging Face Hub dataset repo (labeling/api/hub.py). */
import { get, post } from "./client";

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
  created_at: string;
  finished_at: string | null;
}

export const listHubPushes = (exportId: number) => get<HubPush[]>(`/api/exports/${exportId}/hub-pushes/`);
export const createHubPush = (exportId: number, data: { repo_id: string; private: boolean }) =>
  post<HubPush>(`/api/exports/${exportId}/hub-pushes/`, data);
export const getHubPush = (id: number) => get<HubPush>(`/api/hub-pushes/${id}/`);

/** owner/name as the Hub spells them (labeling/hub/connection.py REPO_ID). */
export const HUB_REPO_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
