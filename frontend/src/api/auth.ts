/** The session (log in, log out, who am I) and the user's API tokens. */
import { get, post, request } from "./client";

export interface User {
  id: number;
  username: string;
  is_staff: boolean;
}

export const me = () => get<User>("/api/auth/me/");
export const login = (username: string, password: string) =>
  post<User>("/api/auth/login/", { username, password });
export const logout = () => post<void>("/api/auth/logout/");

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
/** The user's tokens that are not revoked (expired ones included), newest first. */
export const listTokens = () => get<ApiToken[]>("/api/auth/tokens/");
/** Creates a token; the others keep working. `expiresInDays` null: never expires. */
export const createToken = (name: string, expiresInDays: number | null) =>
  post<ApiTokenCreated>("/api/auth/tokens/", { name, expires_in_days: expiresInDays });
/** Revokes one token: scripts that send it get 401 from now on. */
export const revokeToken = (id: number) => request<void>("DELETE", `/api/auth/tokens/${id}/`);
