import { useEffect, useState } from "react";

/** Thumbnails of a problem's or step's images; a click opens the image full size. */
export function ImageStrip({ urls, label }: { urls: string[]; label: string }) {
  const [open, setOpen] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        e.preventDefault();
        setOpen(null);
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open]);

  if (!urls.length) return null;
  return (
    <div className="image-strip" data-testid="image-strip">
      {urls.map((url, i) => (
        <button
          key={url}
          type="button"
          className="image-thumb"
          onClick={() => setOpen(url)}
          aria-label={`Zoom ${label} image ${i + 1}`}
          data-testid="image-thumb"
        >
          <img src={url} alt={`${label} image ${i + 1}`} loading="lazy" />
        </button>
      ))}
      {open && (
        <div
          className="image-zoom"
          role="dialog"
          aria-modal="true"
          aria-label={`${label} image`}
          onClick={() => setOpen(null)}
          data-testid="image-zoom"
        >
          <img src={open} alt={`${label} image, full size`} />
          <span className="image-zoom-hint">Click or press Esc to close</span>
        </div>
      )}
    </div>
  );
}
