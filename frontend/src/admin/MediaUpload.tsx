import { useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { IconUpload } from "../components/icons";
import { ErrorBox, formatBytes } from "../components/ui";
import "../styles/media.css";

const ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

/** What an import file writes in a problem's or step's `images` to use a stored image. */
export function mediaSnippet(ref: Pick<api.MediaRef, "media">): string {
  return JSON.stringify({ media: ref.media });
}

function Uploaded({ item }: { item: api.MediaRef & { filename: string } }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const snippet = mediaSnippet(item);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <li className="media-item" data-testid="media-item">
      <img className="media-thumb" src={item.url} alt={item.filename} />
      <div className="media-item-body">
        <div className="small">
          <strong>{item.filename}</strong> <span className="muted">· {item.content_type}</span>
        </div>
        <div className="media-snippet-row">
          <input className="input mono media-snippet" readOnly value={snippet} onFocus={(e) => e.target.select()} aria-label={`Reference to ${item.filename}`} data-testid="media-snippet" />
          <button type="button" className="btn" onClick={copy} data-testid="media-copy">
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
        {copied === "failed" && <div className="small text-red">Copying failed: select the reference and copy it by hand.</div>}
      </div>
    </li>
  );
}

/**
 * Upload an image to the project (multimodal projects' Import tab) and get the reference an
 * import file uses for it: `"images": [{"media": "<name>"}]`.
 */
export function MediaUpload({ project }: { project: api.Project }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<Array<api.MediaRef & { filename: string }>>([]);
  const input = useRef<HTMLInputElement>(null);

  async function upload(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const ref = await api.uploadMedia(project.id, file);
      setUploaded((list) => [{ ...ref, filename: file.name }, ...list.filter((r) => r.media !== ref.media)]);
      setFile(null);
      if (input.current) input.current.value = "";
    } catch (err) {
      setError(`${file.name}: ${(err as api.ApiError).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card media-upload" onSubmit={upload} data-testid="media-upload">
      <h2 className="card-title">Upload an image</h2>
      <p className="muted">
        PNG, JPEG, GIF or WebP, at most 5 MB. Put the reference it gets in a problem's or step's <code>images</code> in
        your import file, e.g. <code>{'"images": [{"media": "…"}]'}</code>.
      </p>
      <div className="media-upload-row">
        <label className="field field-wide">
          <span className="field-label">Image</span>
          <div className={`file-drop${file ? " file-drop-has" : ""}`}>
            <IconUpload />
            <span className="file-name">{file ? `${file.name} · ${formatBytes(file.size)}` : "Choose an image…"}</span>
            <input
              ref={input}
              type="file"
              accept={ACCEPT}
              className="file-input"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              disabled={busy}
              data-testid="media-file"
            />
          </div>
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy || !file} data-testid="media-submit">
          {busy ? "Uploading…" : "Upload image"}
        </button>
      </div>
      {error && <ErrorBox testId="media-error">{error}</ErrorBox>}
      {uploaded.length > 0 && (
        <ul className="media-list" data-testid="media-list">
          {uploaded.map((item) => (
            <Uploaded key={item.media} item={item} />
          ))}
        </ul>
      )}
    </form>
  );
}
