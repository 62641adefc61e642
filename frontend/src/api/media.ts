/** Stored images of a project. */
import { post } from "./client";

/** A stored image of a project: `media` is its name in an import's `images` ({"media": name}). */
export interface MediaRef {
  media: string;
  content_type: string;
  /** Where members read it (GET, authenticated). */
  url: string;
}
/** Stores an image (PNG, JPEG, GIF, WebP; at most 5 MB) in the project; admins only. */
export function uploadMedia(projectId: number, file: File): Promise<MediaRef> {
  const form = new FormData();
  form.append("file", file);
  return post<MediaRef>(`/api/projects/${projectId}/media/`, form);
}
