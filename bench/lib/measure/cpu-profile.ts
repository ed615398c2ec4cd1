import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../paths.js';
import { round } from './stats.js';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** A named question about inclusive time: how long was any frame matching `match` on the stack? */
export interface InclusiveProbe {
  label: string;
  match(frame: CallFrame): boolean;
}

export interface ProfileSummary {
  file: string;
  /** Sampled time, idle excluded, ms. */
  busyMs: number;
  idleMs: number;
  /** Self time per package or source directory, largest first. */
  byCategory: { name: string; selfMs: number; share: number }[];
  /** Self time per function, largest first. */
  topFunctions: { name: string; where: string; selfMs: number; share: number }[];
  /** Inclusive time of each probe (synchronous stacks only: async continuations start new stacks). */
  inclusive: { label: string; ms: number; share: number }[];
  /**
   * Self time charged to the deepest frame of this repository on the stack (`src/storage/local-blob-store.ts`),
   * else to the deepest package frame: which of our files caused the time spent in libraries and Node core.
   */
  byOwnFile: { file: string; ms: number; share: number }[];
}

/** Inclusive probes for the scrape path: each stage of the content pipeline, and turndown itself. */
export const SCRAPE_PROBES: InclusiveProbe[] = [
  probe('pipeline: whole HTML pipeline (runHtmlStages)', 'runHtmlStages', 'src/pipeline/content-pipeline.ts'),
  probe('pipeline: parse (linkedom parsePage)', 'parsePage', 'src/pipeline/dom.ts'),
  probe('pipeline: parse (lean tree parseLeanPage)', 'parseLeanPage', 'src/pipeline/dom.ts'),
  probe('pipeline: metadata', 'extractPageMetadata', 'src/pipeline/metadata.ts'),
  probe('pipeline: cleanup (remove_css_selectors)', 'runCleanup', 'src/pipeline/cleanup.ts'),
  probe(
    'pipeline: markdown converter (turndown + rules + tidy)',
    'convert',
    'src/pipeline/markdown/turndown-converter.ts',
  ),
  probe('pipeline: markdown converter (mdream)', 'convert', 'src/pipeline/markdown/mdream-converter.ts'),
  probe('mdream: HTML writer (writeConverterHtml)', 'writeConverterHtml', 'src/pipeline/markdown/converter-html.ts'),
  probe('mdream: the native or WebAssembly call', 'convert', 'src/pipeline/markdown/mdream-binding.ts'),
  probe('turndown: TurndownService.turndown', 'turndown', '/node_modules/turndown/'),
  probe('markdown: tidyMarkdown', 'tidyMarkdown', 'src/pipeline/markdown/tidy.ts'),
  probe('http engine: decodeBody', 'decodeBody', 'engines/http/decode-body.ts'),
];

function probe(label: string, functionName: string, urlPart: string): InclusiveProbe {
  return { label, match: (f) => f.functionName === functionName && f.url.includes(urlPart) };
}

/** Where a frame belongs: a package, a source directory of this repository, Node core, GC, WebAssembly. */
export function categorise(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(program)' || functionName === '(idle)' || functionName === '(root)') return functionName;
    return '(native / builtins)';
  }
  if (url.startsWith('node:')) return 'node core';
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = file.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (file.startsWith(REPO_ROOT)) return path.dirname(path.relative(REPO_ROOT, file));
  return file;
}

export function summariseProfile(
  profile: CpuProfile,
  file: string,
  probes: readonly InclusiveProbe[] = SCRAPE_PROBES,
  top = 25,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const masks = new Map<number, number>();
  const maskOf = (id: number): number => {
    const known = masks.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id)!.callFrame;
    let mask = 0;
    probes.forEach((p, i) => {
      if (p.match(frame)) mask |= 1 << i;
    });
    const up = parent.get(id);
    if (up !== undefined) mask |= maskOf(up);
    masks.set(id, mask);
    return mask;
  };
  // Owner: the deepest file of this repository on the stack; failing that (async continuations,
  // GC, timers) the deepest package frame; failing that, the frame's own category.
  const owners = new Map<number, { file: string | null; pkg: string | null }>();
  const ownersOf = (id: number): { file: string | null; pkg: string | null } => {
    const known = owners.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id)!.callFrame;
    const up = parent.get(id);
    const above = up === undefined ? { file: null, pkg: null } : ownersOf(up);
    const category = categorise(frame);
    const isPackage = frame.url.includes('/node_modules/');
    const result = {
      file: repoFile(frame.url) ?? above.file,
      pkg: isPackage ? `(package ${category})` : above.pkg,
    };
    owners.set(id, result);
    return result;
  };
  const ownerOf = (id: number): string => {
    const { file, pkg } = ownersOf(id);
    return file ?? pkg ?? `(${categorise(byId.get(id)!.callFrame)})`;
  };
  const selfByNode = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const categories = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; selfMs: number }>();
  const inclusive = probes.map(() => 0);
  const ownFiles = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (const [id, ms] of selfByNode) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const category = categorise(frame);
    categories.set(category, (categories.get(category) ?? 0) + ms);
    const where = `${category === frame.url ? frame.url : category}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    const key = `${frame.functionName}@${frame.url}:${frame.lineNumber}`;
    const entry = functions.get(key) ?? { name: frame.functionName || '(anonymous)', where, selfMs: 0 };
    entry.selfMs += ms;
    functions.set(key, entry);
    const owner = ownerOf(id);
    ownFiles.set(owner, (ownFiles.get(owner) ?? 0) + ms);
    const mask = maskOf(id);
    probes.forEach((_, i) => {
      if (mask & (1 << i)) inclusive[i]! += ms;
    });
  }
  const share = (ms: number) => round((100 * ms) / busyMs, 1);
  return {
    file,
    busyMs: round(busyMs, 0),
    idleMs: round(idleMs, 0),
    byCategory: [...categories]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, selfMs: round(ms, 0), share: share(ms) })),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top)
      .map((f) => ({ ...f, selfMs: round(f.selfMs, 0), share: share(f.selfMs) })),
    inclusive: probes.map((p, i) => ({ label: p.label, ms: round(inclusive[i]!, 0), share: share(inclusive[i]!) })),
    byOwnFile: [...ownFiles]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([file, ms]) => ({ file, ms: round(ms, 0), share: share(ms) })),
  };
}

/** The repository-relative path of a frame's script, or null for packages, Node core and natives. */
function repoFile(url: string): string | null {
  if (!url.startsWith('file://')) return null;
  const file = decodeURIComponent(new URL(url).pathname);
  if (!file.startsWith(REPO_ROOT) || file.includes('/node_modules/')) return null;
  return path.relative(REPO_ROOT, file);
}

/**
 * Summaries of every `.cpuprofile` under `dir` (Node writes one per thread:
 * `CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile`): the main thread (id 0) first, then the
 * other threads, busiest first.
 */
export async function summariseProfileDir(dir: string, top = 25): Promise<ProfileSummary[]> {
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  const summaries: { thread: number; summary: ProfileSummary }[] = [];
  for (const name of files) {
    const profile = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as CpuProfile;
    const thread = Number(name.split('.')[4] ?? NaN);
    summaries.push({ thread, summary: summariseProfile(profile, path.join(dir, name), SCRAPE_PROBES, top) });
  }
  summaries.sort((a, b) => (a.thread === 0 ? -1 : b.thread === 0 ? 1 : b.summary.busyMs - a.summary.busyMs));
  return summaries.map((s) => s.summary);
}
