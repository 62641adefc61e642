/**
 * Every call the SPA makes to the steplab REST API, typed, one module per resource:
 * `import * as api from "../api"` keeps working; new code imports from the module it needs
 * (`../api/labeling`, `../api/review`, ...). client.ts holds fetch, errors, CSRF and the
 * unauthenticated handler; request/get/post stay inside this folder.
 */
export { ApiError, csrfToken, errorFrom, setUnauthenticatedHandler } from "./client";
export type { Page, RequestOptions } from "./client";
export * from "./assignments";
export { PAGE_MAX, getAll, pagePath, withPage } from "./pages";
export * from "./auth";
export * from "./autolabel";
export * from "./explorer";
export * from "./exports";
export * from "./gold";
export * from "./hub";
export * from "./imports";
export * from "./labeling";
export * from "./media";
export * from "./metrics";
export * from "./myWork";
export * from "./people";
export * from "./projects";
export * from "./review";
export * from "./training";
export * from "./webhooks";
