import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { Citation } from "../api";
import type { Sources } from "./evidence";

/** The citation the side panel shows (`null`: the panel's first source, nothing marked). */
export interface Focus {
  citation: Citation;
  /** The step's citations opened with it (its cells of the same table), marked together. */
  group: Citation[];
  /** Bumped on every open, so opening the same citation again scrolls to it again. */
  seq: number;
}

interface SourcesState {
  sources: Sources | null;
  /** Whether a sources panel is on the page (a citation's source link opens it there). */
  panel: boolean;
  focus: Focus | null;
  open: (citation: Citation, group?: Citation[]) => void;
}

const SourcesContext = createContext<SourcesState>({ sources: null, panel: false, focus: null, open: () => {} });

/** An evidence-cited problem's documents and tables, and which citation the panel shows. */
export function SourcesProvider({
  sources,
  panel = true,
  children,
}: {
  sources: Sources | null;
  panel?: boolean;
  children: ReactNode;
}) {
  const [focus, setFocus] = useState<Focus | null>(null);
  const open = useCallback(
    (citation: Citation, group?: Citation[]) =>
      setFocus((f) => ({ citation, group: group ?? [citation], seq: (f?.seq ?? 0) + 1 })),
    [],
  );
  const value = useMemo(() => ({ sources, panel, focus, open }), [sources, panel, focus, open]);
  return <SourcesContext.Provider value={value}>{children}</SourcesContext.Provider>;
}

export function useSources(): SourcesState {
  return useContext(SourcesContext);
}
