import type { ReactNode } from "react";
import type { Domain } from "../api";
import { sourcesOf } from "./evidence";
import { RatingNamesContext, ratingNamesFor } from "./ratingNames";
import { SourcesProvider } from "./SourcesContext";

/**
 * What a labeling or review page gives its steps for a problem's domain: the scale's words
 * (supported / unsupported / wrong in evidence projects) and an evidence-cited problem's
 * documents and tables, so each step shows what it cites (`panel`: a SourcesPanel is on the
 * page for a citation's source link to open).
 */
export function EvidenceScope({
  domain,
  problem,
  panel,
  children,
}: {
  domain: Domain | undefined;
  problem: Parameters<typeof sourcesOf>[0];
  panel: boolean;
  children: ReactNode;
}) {
  return (
    <RatingNamesContext.Provider value={ratingNamesFor(domain)}>
      <SourcesProvider sources={sourcesOf(problem)} panel={panel}>
        {children}
      </SourcesProvider>
    </RatingNamesContext.Provider>
  );
}
