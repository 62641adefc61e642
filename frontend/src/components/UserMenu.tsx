import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { useAuth } from "../auth";
import { useEscape } from "../lib/useEscape";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { HubTokenDialog } from "./HubTokenDialog";
import { TokenDialog } from "./TokenDialog";

/** Avatar button with the username, a link to projects, the API tokens and Hugging Face token
 * dialogs, Change password and Log out. */
export function UserMenu() {
  const { user, logout } = useAuth();
  const [open, setOpen] = useState(false);
  const [tokens, setTokens] = useState(false);
  const [password, setPassword] = useState(false);
  const [hubToken, setHubToken] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEscape(() => setOpen(false), open);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  if (!user) return null;
  const openDialog = (show: (on: boolean) => void) => {
    setOpen(false);
    show(true);
  };
  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="user-menu"
      >
        <span className="avatar" aria-hidden="true">
          {user.username.slice(0, 1).toUpperCase()}
        </span>
        <span className="user-name">{user.username}</span>
      </button>
      {open && (
        <div className="menu" role="menu">
          <div className="menu-header">
            <div className="menu-title">{user.username}</div>
            <div className="muted small">{user.is_staff ? "Staff" : "Member"}</div>
          </div>
          <Link className="menu-item" role="menuitem" to="/projects" onClick={() => setOpen(false)}>
            All projects
          </Link>
          <MenuItem testId="api-token" onClick={() => openDialog(setTokens)}>
            API tokens
          </MenuItem>
          <MenuItem testId="hub-token" onClick={() => openDialog(setHubToken)}>
            Hugging Face token
          </MenuItem>
          <MenuItem testId="change-password" onClick={() => openDialog(setPassword)}>
            Change password
          </MenuItem>
          <button type="button" className="menu-item" role="menuitem" onClick={() => void logout()} data-testid="logout">
            Log out
          </button>
        </div>
      )}
      {tokens && <TokenDialog onClose={() => setTokens(false)} />}
      {password && <ChangePasswordDialog onClose={() => setPassword(false)} />}
      {hubToken && <HubTokenDialog onClose={() => setHubToken(false)} />}
    </div>
  );
}

function MenuItem({ testId, onClick, children }: { testId: string; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="menu-item" role="menuitem" onClick={onClick} data-testid={testId}>
      {children}
    </button>
  );
}
