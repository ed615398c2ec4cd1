import { resolveUrl } from '../../../src/pipeline/dom.js';

export interface SrcsetCandidate {
  url: string;
  /** `640w`, `2x`, or null when the candidate gives none. */
  descriptor: string | null;
}

export interface ImageEntry {
  url: string;
  alt: string | null;
  width: number | null;
  height: number | null;
  source: 'og:image' | 'twitter:image' | 'link' | 'json-ld' | 'img' | 'picture' | 'video-poster' | 'style';
  srcset: SrcsetCandidate[];
}

export interface ImageSighting {
  source: ImageEntry['source'];
  alt?: string | null;
  width?: string | null;
  height?: string | null;
  srcset?: SrcsetCandidate[];
}

const MAX_IMAGES = 1000;

/** Images by absolute URL, in the order first seen; later sightings fill in what is missing. */
export class ImageList {
  private readonly byUrl = new Map<string, ImageEntry>();

  constructor(private readonly baseUrl: URL) {}

  add(raw: string | null | undefined, sighting: ImageSighting): void {
    const url = raw ? resolveUrl(raw, this.baseUrl) : null;
    if (!url || this.byUrl.size >= MAX_IMAGES) return;
    const width = dimension(sighting.width);
    const height = dimension(sighting.height);
    if (width !== null && height !== null && width <= 1 && height <= 1) return;
    const existing = this.byUrl.get(url);
    if (!existing) {
      const srcset = (sighting.srcset ?? []).filter((candidate) => candidate.url !== url);
      this.byUrl.set(url, { url, alt: sighting.alt || null, width, height, source: sighting.source, srcset });
      return;
    }
    existing.alt ??= sighting.alt || null;
    existing.width ??= width;
    existing.height ??= height;
    for (const candidate of sighting.srcset ?? []) {
      if (candidate.url !== url && !existing.srcset.some((known) => known.url === candidate.url))
        existing.srcset.push(candidate);
    }
  }

  entries(): ImageEntry[] {
    return [...this.byUrl.values()];
  }
}

/** A declared size in pixels (`800`, `800px`); null for percentages, auto, or nothing. */
function dimension(raw: string | null | undefined): number | null {
  const match = /^\s*(\d{1,6})(?:\.\d+)?\s*(?:px)?\s*$/i.exec(raw ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Candidates of a `srcset` attribute, absolute. URLs may contain commas, so a candidate ends at
 * whitespace or at a comma followed by whitespace (the HTML parsing rule, simplified).
 */
export function srcsetCandidates(srcset: string | null, baseUrl: URL): SrcsetCandidate[] {
  if (!srcset?.trim()) return [];
  const candidates: SrcsetCandidate[] = [];
  for (const part of srcset.trim().split(/,\s+|,(?=\S+\s+\d)/)) {
    const [rawUrl, descriptor] = part.trim().split(/\s+/);
    if (!rawUrl || /^data:/i.test(rawUrl)) continue;
    const url = resolveUrl(rawUrl.replace(/,$/, ''), baseUrl);
    if (url) candidates.push({ url, descriptor: descriptor ?? null });
  }
  return candidates;
}
