/** People: accounts made by project admins, invite links, the staff's list of all users. */
import { get, post, request } from "./client";
import type { Member, Role } from "./projects";
import { userFrom, type SessionOutput, type User } from "./auth";

export interface CreatedUser {
  member: Member;
  /** Shown once: the new user signs in with it and must change it. */
  temporary_password: string;
}
export const createProjectUser = (projectId: number, username: string, email: string, role: Role) =>
  post<CreatedUser>(`/api/projects/${projectId}/users/`, { username, email, role });

/** A new temporary password for a member who never chose their own (shown once); the old one,
 * their sessions and their API tokens stop working. */
export const reissueTemporaryPassword = (projectId: number, userId: number) =>
  post<CreatedUser>(`/api/projects/${projectId}/members/${userId}/temporary-password/`, {});

export interface Invite {
  id: number;
  role: Role;
  created_at: string;
  expires_at: string;
  created_by: string | null;
}
export interface CreatedInvite {
  invite: Invite;
  /** The link; shown once. */
  url: string;
}
export const INVITE_DAYS_MAX = 30;
/** Pending invites (not used, withdrawn or expired), newest first. */
export const listInvites = (projectId: number) => get<Invite[]>(`/api/projects/${projectId}/invites/`);
export const createInvite = (projectId: number, role: Role, days: number) =>
  post<CreatedInvite>(`/api/projects/${projectId}/invites/`, { role, days });
export const revokeInvite = (projectId: number, inviteId: number) =>
  request<void>("DELETE", `/api/projects/${projectId}/invites/${inviteId}/`);

/** What an invite link is for, shown on its page (404: no such link; 410: used, withdrawn, expired). */
export interface InviteInfo {
  project: string;
  role: Role;
  expires_at: string;
}
export const openInvite = (token: string) => get<InviteInfo>(`/api/invites/${encodeURIComponent(token)}/`);
/** Makes the account, adds it to the project and signs in. */
export async function acceptInvite(token: string, username: string, password: string): Promise<{ user: User | null; project_id: number }> {
  const body = await post<{ user: SessionOutput; project_id: number }>(
    `/api/invites/${encodeURIComponent(token)}/accept/`,
    { username, password },
  );
  return { user: userFrom(body.user), project_id: body.project_id };
}

export interface UserRow {
  id: number;
  username: string;
  email: string;
}
/** Staff only: accounts whose username or e-mail contains `q` (at most 50). */
export const listUsers = (q: string) => get<UserRow[]>(`/api/users/?q=${encodeURIComponent(q)}`);
