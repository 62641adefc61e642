/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Django serves dist/index.html at the SPA routes and the assets under /static/.
export default defineConfig(({ command }) => ({
  // Built assets are served by Django under /static/; the dev server serves the app at /.
  base: command === "build" ? "/static/" : "/",
  plugins: [react()],
  server: {
    // `npm run dev` against a local Django on :8000.
    proxy: { "/api": "http://127.0.0.1:8000" },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    css: false,
  },
}));
