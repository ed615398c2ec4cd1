import type { DetectionOptions } from '../detection/detection-options.js';
import { NOISE_FILTERS } from '../detection/noise-filters.js';
import type { TrackedSources } from './monitor-planner.js';

/**
 * A monitor's `mermaid_diagram`: a Mermaid flowchart of its workflow, from schedule and tracked
 * sources through fetch, normalisation, rules, diff and extraction to its notification channels.
 * Node ids are generated, never taken from input; every label is escaped with Mermaid entity
 * codes (`"` → `#quot;`, `<` → `#lt;`, …) inside a quoted label, so no query, URL or selector can
 * break out of its node. Webhook and Slack URLs carry secrets in their paths: only their
 * origin is shown.
 */

export interface NotificationChannelInput {
  target: string;
  events?: string[];
}

export interface WorkflowDiagramInput {
  tracked: TrackedSources;
  /** The natural-language schedule (`every hour`). */
  frequency?: string | null;
  detection?: DetectionOptions | null;
  /** Present (any JSON Schema) when the monitor extracts structured data. */
  output_schema?: unknown;
  notification?: { events?: string[]; channels?: NotificationChannelInput[] } | null;
  webhook?: { url: string } | null;
}

const MAX_LABEL = 80;
const MAX_SOURCES = 5;

/**
 * A label safe inside `["…"]`: each line at most 80 characters with Mermaid entity codes for
 * markup characters (`"` → `#quot;`, `<` → `#60;`, `#` → `#35;`, …), lines joined by `<br/>`.
 */
export function mermaidLabel(text: string | readonly string[]): string {
  const lines = typeof text === 'string' ? [text] : text;
  return lines
    .map((raw) => {
      const line = raw.replace(/\s+/g, ' ').trim();
      const short = line.length > MAX_LABEL ? `${line.slice(0, MAX_LABEL - 1)}…` : line;
      return short.replace(/[#"<>&`]/g, (ch) => (ch === '"' ? '#quot;' : `#${ch.charCodeAt(0)};`));
    })
    .join('<br/>');
}

/**
 * @example
 * monitorMermaidDiagram({ tracked: { type: 'urls', urls: ['https://example.com/'], web_query: null }, frequency: 'every hour' });
 * // 'flowchart TD\n  schedule(["Every hour (UTC)"])\n  …'
 */
export function monitorMermaidDiagram(input: WorkflowDiagramInput): string {
  const lines = ['flowchart TD'];
  const node = (id: string, open: string, text: string | string[], close: string, indent = '  '): void => {
    lines.push(`${indent}${id}${open}"${mermaidLabel(text)}"${close}`);
  };
  const frequency = input.frequency?.trim();
  node('schedule', '([', frequency ? `${capitalise(frequency)} (UTC)` : 'On demand', '])');
  lines.push('  subgraph sources["Tracked sources"]');
  sourceLabels(input.tracked).forEach((text, i) => node(`source${i + 1}`, '[', text, ']', '    '));
  lines.push('  end');
  lines.push('  schedule --> sources');
  node('fetch', '[', 'Fetch each page (conditional GET: ETag, Last-Modified)', ']');
  node('normalise', '[', normaliseLabel(input.detection ?? null), ']');
  lines.push('  sources --> fetch', '  fetch --> normalise');
  let last = 'normalise';
  const rules = rulesLabel(input.detection ?? null);
  if (rules) {
    node('rules', '{', rules, '}');
    lines.push(`  ${last} --> rules`);
    last = 'rules';
  }
  node('diff', '{', 'Diff with the last snapshot: lines, words, price and stock', '}');
  lines.push(`  ${last} --> diff`);
  node('unchanged', '([', 'No change: keep the baseline', '])');
  lines.push('  diff -- unchanged --> unchanged');
  last = 'diff';
  if (input.output_schema !== undefined && input.output_schema !== null) {
    node('extract', '[', 'Extract data (output_schema) and diff it field by field', ']');
    lines.push(`  diff -- changed --> extract`);
    last = 'extract';
  }
  node('event', '[', 'Record the event: summary and hosted unified diff', ']');
  lines.push(last === 'diff' ? '  diff -- changed --> event' : `  ${last} --> event`);
  channelLabels(input).forEach((text, i) => {
    node(`channel${i + 1}`, '[/', text, '/]');
    lines.push(`  event --> channel${i + 1}`);
  });
  return `${lines.join('\n')}\n`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sourceLabels(tracked: TrackedSources): string[] {
  const labels = tracked.urls.slice(0, MAX_SOURCES);
  if (tracked.urls.length > MAX_SOURCES) labels.push(`… and ${tracked.urls.length - MAX_SOURCES} more URLs`);
  if (tracked.web_query) labels.push(`Web search: ${tracked.web_query}`);
  return labels.length > 0 ? labels : ['No sources yet'];
}

function rules(count: number): string {
  return `${count} ${count === 1 ? 'rule' : 'rules'}`;
}

/** Words joined by ", " into lines of at most 80 characters. */
function wrap(prefix: string, words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = prefix;
  for (const word of words) {
    const next = line === prefix ? `${line}${word}` : `${line}, ${word}`;
    if (next.length >= MAX_LABEL && line !== prefix) {
      lines.push(`${line},`);
      line = word;
    } else {
      line = next;
    }
  }
  return [...lines, line];
}

function normaliseLabel(detection: DetectionOptions | null): string[] {
  if (!detection) return ['Normalise text and filter noise'];
  const on = NOISE_FILTERS.filter((filter) => detection.noise_filters[filter.id]).map((filter) => filter.id);
  const lines = ['Normalise text', ...wrap('noise filters: ', on.length > 0 ? on : ['none'])];
  if (detection.include_selectors.length > 0) lines.push(`only ${detection.include_selectors.join(', ')}`);
  if (detection.ignore_selectors.length > 0) lines.push(`without ${detection.ignore_selectors.join(', ')}`);
  if (detection.ignore_text.length > 0) lines.push(`ignoring lines: ${rules(detection.ignore_text.length)}`);
  return lines;
}

function rulesLabel(detection: DetectionOptions | null): string[] | null {
  if (!detection) return null;
  const lines: string[] = [];
  if (detection.trigger_text.length > 0) lines.push(`trigger text present (${rules(detection.trigger_text.length)})`);
  if (detection.text_must_not_be_present.length > 0) {
    lines.push(`blocking text absent (${rules(detection.text_must_not_be_present.length)})`);
  }
  return lines.length > 0 ? ['Rules', ...lines] : null;
}

function channelLabels(input: WorkflowDiagramInput): string[] {
  const labels = (input.notification?.channels ?? []).map((channel) => {
    const events = channel.events ?? input.notification?.events ?? [];
    return `${describeTarget(channel.target)}${events.length > 0 ? ` (${events.join(', ')})` : ''}`;
  });
  if (input.webhook?.url) labels.push(describeTarget(input.webhook.url));
  return labels;
}

/** A channel for people, without secrets: `Email ops@example.com`, `Slack`, `Webhook https://hooks.example.com`. */
export function describeTarget(target: string): string {
  const text = target.trim();
  if (/^mailto:/i.test(text)) return `Email ${text.slice(7)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.includes('@') ? `Email ${text}` : 'Channel';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Channel';
  if (url.hostname === 'hooks.slack.com') return 'Slack';
  return `Webhook ${url.origin}`;
}
