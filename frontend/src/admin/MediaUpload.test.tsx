import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MediaRef } from "../api";
import { makeProject } from "../test/fixtures";
import { ImportTab } from "./ImportTab";
import { mediaSnippet } from "./MediaUpload";

const NAME = `${"ab".repeat(32)}.png`;

interface Sent {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

/** GET imports answers an empty page; POST media answers `reply`. Records what was sent. */
function serve(reply: { status: number; body: unknown }) {
  document.cookie = "csrftoken=test-token";
  const sent: Sent[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      sent.push({ method, url, body: init.body, headers: (init.headers ?? {}) as Record<string, string> });
      if (method === "GET" && url.includes("/imports/")) return json(200, { count: 0, next: null, previous: null, results: [] });
      if (method === "POST" && url === "/api/projects/7/media/") return json(reply.status, reply.body);
      return json(404, { error: { code: "not_found", message: "Not found.", details: {} } });
    }),
  );
  return sent;
}

function renderTab(domain: "multimodal" | "math" = "multimodal") {
  render(<ImportTab project={makeProject({ id: 7, role: "admin", domain })} onImported={() => {}} />);
}

function choose(file: File) {
  fireEvent.change(screen.getByTestId("media-file"), { target: { files: [file] } });
}

afterEach(() => vi.unstubAllGlobals());

describe("Upload an image (multimodal Import tab)", () => {
  it("posts the file as multipart and shows the reference to copy into an import file", async () => {
    const ref: MediaRef = { media: NAME, content_type: "image/png", url: `/api/projects/7/media/${NAME}` };
    const sent = serve({ status: 201, body: ref });
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    renderTab();
    const submit = screen.getByTestId("media-submit") as HTMLButtonElement;
    expect(submit.disabled).toBe(true); // nothing chosen yet
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "chart.png", { type: "image/png" });
    choose(file);
    expect(screen.getByTestId("media-upload").textContent).toContain("chart.png");
    fireEvent.click(submit);

    const snippet = (await screen.findByTestId("media-snippet")) as HTMLInputElement;
    expect(snippet.value).toBe(`{"media":"${NAME}"}`);
    const post = sent.find((s) => s.method === "POST")!;
    expect(post.url).toBe("/api/projects/7/media/");
    expect(post.body).toBeInstanceOf(FormData);
    expect((post.body as FormData).get("file")).toBe(file);
    expect(post.headers["X-CSRFToken"]).toBe("test-token");
    expect(post.headers["Content-Type"]).toBeUndefined(); // the browser adds the multipart boundary
    const img = screen.getByTestId("media-item").querySelector("img")!;
    expect(img.getAttribute("src")).toBe(ref.url);
    expect(img.getAttribute("alt")).toBe("chart.png");
    expect((screen.getByTestId("media-submit") as HTMLButtonElement).disabled).toBe(true); // ready for the next

    fireEvent.click(screen.getByTestId("media-copy"));
    await waitFor(() => expect(screen.getByTestId("media-copy").textContent).toBe("Copied"));
    expect(writeText).toHaveBeenCalledWith(`{"media":"${NAME}"}`);
  });

  it("shows the server's reason when the image is refused, and no reference", async () => {
    serve({
      status: 400,
      body: { error: { code: "validation_error", message: "not a PNG, JPEG, GIF, WEBP image (declared application/pdf)", details: { field: "file" } } },
    });
    renderTab();
    choose(new File(["%PDF-1.4"], "paper.pdf", { type: "application/pdf" }));
    fireEvent.click(screen.getByTestId("media-submit"));
    expect((await screen.findByTestId("media-error")).textContent).toBe(
      "paper.pdf: not a PNG, JPEG, GIF, WEBP image (declared application/pdf)",
    );
    expect(screen.queryByTestId("media-snippet")).toBeNull();
  });

  it("is offered on multimodal projects only", async () => {
    serve({ status: 201, body: {} });
    renderTab("math");
    await screen.findByText("No imports yet.");
    expect(screen.queryByTestId("media-upload")).toBeNull();
  });

  it("writes the reference as the importer reads it", () => {
    expect(JSON.parse(mediaSnippet({ media: NAME }))).toEqual({ media: NAME });
  });
});
