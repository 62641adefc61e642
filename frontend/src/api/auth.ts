/** The session (log in, log out, who am I) and the user's API tokens. */
import { get, post, request } from "./client";

export interface User {
  id: number;
  username: string;
  is_staff: boolean;
  /** Signed in with a temporary password: the app shows only the change-password form. */
  must_change_password?: boolean;
}

/** What /api/auth/me/ and the sign-in answer: 200 for everyone, `authenticated: false` when
 * nobody is signed in (so the first load of a signed-out visit logs no error). */
export interface SessionOutput {
  authenticated: boolean;
  id: number | null;
  username: string;
  is_staff: boolean;
  must_change_password: boolean;
}

export function userFrom(session: SessionOutput): User | null {
  if (!session.authenticated || session.id === null) return null;
  return {
    id: session.id,
    username: session.username,
    is_staff: session.is_staff,
    must_change_password: session.must_change_password,
  };
}

/** The signed-in user, or null. */
export const me = async () => userFrom(await get<SessionOutput>("/api/auth/me/"));
export const login = async (username: string, password: string) =>
  userFrom(await post<SessionOutput>("/api/auth/login/", { username, password }));
export const logout = () => post<void>("/api/auth/logout/");
/** Changes the signed-in user's password; the session stays signed in. */
export const changePassword = async (oldPassword: string, newPassword: string) =>
  userFrom(await post<SessionOutput>("/api/auth/password/", { old_password: oldPassword, new_password: newPassword }));
/** E-mails a reset link to the accounts with this address (the answer is the same either way). */
export const requestPasswordReset = (email: string) => post<void>("/api/auth/password/reset/", { email });
/** Sets a new password from an e-mailed link (410 when the link is used or too old). */
export const confirmPasswordReset = (uid: string, token: string, newPassword: string) =>
  post<void>("/api/auth/password/reset/confirm/", { uid, token, new_password: newPassword });

/** One of the signed-in user's API tokens (personal access tokens), for scripts
 * (`Authorization: Token <secret>` or `Bearer <secret>`). Never the secret itself. */
export interface ApiToken {
  id: number;
  name: string;
  /** The secret's first 8 characters, to tell tokens apart. */
  prefix: string;
  created_at: string;
  /** null: never expires. */
  expires_at: string | null;
  /** Accurate to a minute; null: never used. */
  last_used_at: string | null;
  expired: boolean;
}
/** A new token: the secret is in this reply only. */
export interface ApiTokenCreated extends ApiToken {
  token: string;
}
/** The user's tokens that are not revoked (expired ones included), newest first: a paginated
 * list (usePagedList, components/usePagedList.ts). */
export const TOKENS_PATH = "/api/auth/tokens/";
/** Creates a token; the others keep working. `expiresInDays` null: never expires. */
export const createToken = (name: string, expiresInDays: number | null) =>
  post<ApiTokenCreated>("/api/auth/tokens/", { name, expires_in_days: expiresInDays });
/** Revokes one token: scripts that send it get 401 from now on. */
export const revokeToken = (id: number) => request<void>("DELETE", `/api/auth/tokens/${id}/`);
