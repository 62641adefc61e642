import { useCallback, useEffect, useState } from "react";
import * as api from "../api";
import { HubTokenDialog, hubTokenUse } from "./HubTokenDialog";

/** "Uses your Hugging Face token (…abcd)" / "the server's token for repos under my-org/" / "no
 * token": whose token the Hub push or Hub import the user is about to start will use, with a link
 * to the setting. */
export function HubTokenNote({ action }: { action: string }) {
  const [status, setStatus] = useState<api.HubTokenStatus | null>(null);
  const [editing, setEditing] = useState(false);
  const load = useCallback(() => {
    api
      .getHubToken()
      .then(setStatus)
      .catch(() => setStatus(null));
  }, []);
  useEffect(load, [load]);

  if (!status) return null;
  return (
    <p className="small hub-token-note" data-testid="hub-token-note" data-uses={status.uses}>
      {action} with {hubTokenUse(status)}.{" "}
      <button type="button" className="link-button" onClick={() => setEditing(true)} data-testid="hub-token-link">
        {status.set ? "Change your token" : "Use your own token"}
      </button>
      {editing && <HubTokenDialog onClose={() => setEditing(false)} onChange={setStatus} />}
    </p>
  );
}
