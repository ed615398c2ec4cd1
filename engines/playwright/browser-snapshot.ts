import type { PageRequest, PageSnapshot } from '../../src/engine/types.js';
import type { RenderSettings } from './browser-settings.js';
import type { ProxySession } from './guard-proxy.js';
import type { RenderOutput } from './render-page.js';

const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Documents a browser has nothing to add to (PDFs, images, JSON without screenshots) come back as fetched. */
export function notRendered(document: PageSnapshot, settings: RenderSettings, engine: string): PageSnapshot | null {
  if (DOCUMENT_TYPES.has(document.contentType)) return null;
  const wantsBrowser = settings.screenshot !== null || settings.printPdf || settings.actions.length > 0;
  if (document.text !== undefined && wantsBrowser) return null;
  const skipped = [
    settings.screenshot ? 'screenshot' : null,
    settings.actions.length > 0 ? 'actions' : null,
    settings.printPdf && document.contentType !== 'application/pdf' ? 'PDF printing' : null,
  ].filter((s): s is string => s !== null);
  const warnings = [...(document.warnings ?? [])];
  if (skipped.length > 0) warnings.push(`the target is ${document.contentType}: ${skipped.join(', ')} not applied`);
  return { ...document, engine, ...(warnings.length > 0 ? { warnings } : {}) };
}

export function toSnapshot(
  req: PageRequest,
  document: PageSnapshot,
  out: RenderOutput,
  session: ProxySession,
  engine: string,
): PageSnapshot {
  const nav = out.navigated;
  const sameDocument = stripHash(out.finalUrl) === stripHash(document.finalUrl);
  const warnings = [...(document.warnings ?? []), ...out.warnings];
  const refused = [...out.refused, ...session.log.refused];
  if (refused.length > 0) {
    warnings.push(`the outbound guard refused ${refused.length} request(s) the page made (first: ${refused[0]})`);
  }
  const snapshot: PageSnapshot = {
    url: req.url,
    finalUrl: out.finalUrl,
    statusCode: nav?.statusCode ?? document.statusCode,
    headers: nav?.headers ?? document.headers,
    contentType: nav?.contentType ?? document.contentType,
    body: nav ? Buffer.from(out.html) : document.body,
    text: out.html,
    engine,
    redirects: sameDocument ? document.redirects : [...document.redirects, document.finalUrl],
  };
  const charset = nav ? 'utf-8' : document.charset;
  if (charset) snapshot.charset = charset;
  if (out.screenshot) snapshot.screenshot = out.screenshot;
  if (out.pdf) snapshot.pdf = out.pdf;
  if (out.actionsOutput) snapshot.actionsOutput = out.actionsOutput;
  if (warnings.length > 0) snapshot.warnings = warnings;
  return snapshot;
}

function stripHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
