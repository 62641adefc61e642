import { useEffect, useState } from "react";
import * as api from "../api";

/** Every suggestion source the server knows (GET /api/machine-sources/), built-in and plug-in,
 * in its default priority order; null until it answers, [] if it failed. */
export function useMachineSources(): api.MachineSource[] | null {
  const [sources, setSources] = useState<api.MachineSource[] | null>(null);
  useEffect(() => {
    let live = true;
    api
      .listMachineSources()
      .then((list) => live && setSources(list))
      .catch(() => live && setSources([]));
    return () => {
      live = false;
    };
  }, []);
  return sources;
}
