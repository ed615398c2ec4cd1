import { ERROR_CODES } from '../error-codes.js';
import { ERROR_KINDS } from '../errors.js';

type Json = Record<string, unknown>;

const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

/** Escaped text whose `code spans` (as written in descriptions) show as code. */
const prose = (s: unknown) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;display:flex}
nav{width:260px;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f5f8;padding:16px;box-sizing:border-box;font-size:13px}
nav a{display:block;color:#334;text-decoration:none;padding:2px 0}nav h4{margin:14px 0 4px;text-transform:uppercase;font-size:11px;color:#667}
main{flex:1;padding:24px 40px;max-width:980px}section.op{border-top:1px solid #e3e5ea;padding:18px 0}
.m{display:inline-block;min-width:58px;font:600 12px ui-monospace,monospace;padding:2px 6px;border-radius:4px;color:#fff;text-align:center}
.get{background:#2b7bb9}.post{background:#2f9e62}.patch{background:#b7791f}.delete{background:#c53030}.put{background:#6b46c1}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f6f8fa;padding:10px;overflow:auto;border-radius:6px}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border-bottom:1px solid #eceef2;padding:4px 8px;text-align:left;vertical-align:top;font-size:13px}
th{color:#556;font-weight:600}.req{color:#c53030;font-size:11px}`;

function typeOf(schema: Json | undefined, components: Record<string, Json>): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop()!;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    // Variants of one type (the kinds of action) read as that type once: their fields follow.
    if (Array.isArray(schema[key]))
      return [...new Set((schema[key] as Json[]).map((s) => typeOf(s, components)))].join(' | ');
  }
  if (schema.type === 'array') return `${typeOf(schema.items as Json, components)}[]`;
  return String(schema.type ?? 'any');
}

/** The schema behind a `$ref`, and a nullable `anyOf: [X, null]` as X. */
function resolve(schema: Json, components: Record<string, Json>): Json {
  if (typeof schema.$ref === 'string') return components[schema.$ref.split('/').pop()!] ?? schema;
  const variants = schema.anyOf as Json[] | undefined;
  if (Array.isArray(variants)) {
    const real = variants.filter((v) => v.type !== 'null');
    if (real.length === 1) return { ...resolve(real[0]!, components), description: schema.description };
  }
  return schema;
}

/** An object's fields, or (one level down) the variants of an array of objects told apart by `type`. */
function nestedRows(name: string, schema: Json, components: Record<string, Json>, depth: number): string {
  if (depth >= 3) return '';
  if (schema.properties) return fieldRows(schema, components, `${name}.`, depth + 1);
  if (schema.type !== 'array') return '';
  const items = resolve((schema.items ?? {}) as Json, components);
  if (items.properties) return fieldRows(items, components, `${name}[].`, depth + 1);
  const variants = (items.oneOf ?? items.anyOf) as Json[] | undefined;
  if (!Array.isArray(variants)) return '';
  return variants
    .map((v) => resolve(v, components))
    .filter((v) => v.properties)
    .map((v) => {
      const tag = (v.properties as Record<string, Json>).type?.const;
      const when = tag === undefined ? '' : ` (type ${JSON.stringify(tag)})`;
      return fieldRows(v, components, `${name}[]${when}.`, depth + 1, ['type']);
    })
    .join('');
}

function fieldRows(schema: Json, components: Record<string, Json>, prefix: string, depth: number, skip: string[] = []) {
  const props = schema.properties as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props)
    .filter(([name]) => !skip.includes(name))
    .map(([name, raw]) => {
      const s = resolve(raw, components);
      const notes = [
        prose(s.description ?? raw.description),
        s.default !== undefined ? `Default: <code>${esc(JSON.stringify(s.default))}</code>` : '',
      ]
        .filter(Boolean)
        .join(' ');
      const req = required.has(name) ? ' <span class="req">required</span>' : '';
      const row = `<tr><td><code>${esc(prefix + name)}</code>${req}</td><td><code>${esc(typeOf(raw, components))}</code></td><td>${notes}</td></tr>`;
      return row + nestedRows(prefix + name, s, components, depth);
    })
    .join('');
}

function fieldsTable(schema: Json | undefined, components: Record<string, Json>): string {
  if (!schema) return '';
  const resolved = resolve(schema, components);
  if (!resolved.properties) return `<p><code>${esc(typeOf(schema, components))}</code></p>`;
  return `<table><tr><th>Field</th><th>Type</th><th>Notes</th></tr>${fieldRows(resolved, components, '', 0)}</table>`;
}

/** A readable API reference generated from the OpenAPI document (no external assets). */
export function renderDocsPage(doc: Json): string {
  const components = ((doc.components as Json)?.schemas ?? {}) as Record<string, Json>;
  const ops: { tag: string; method: string; path: string; op: Json }[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods))
      ops.push({ tag: (op.tags as string[])[0] ?? 'Other', method, path, op });
  }
  const tags = [...new Set(ops.map((o) => o.tag))];
  const nav = tags
    .map((tag) => {
      const links = ops
        .filter((o) => o.tag === tag)
        .map((o) => `<a href="#${esc(o.op.operationId)}">${esc(o.op.summary)}</a>`)
        .join('');
      return `<h4>${esc(tag)}</h4>${links}`;
    })
    .join('');
  const body = ops.map((o) => renderOperation(o.method, o.path, o.op, components)).join('');
  const info = doc.info as Json;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)} reference</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><nav><strong>${esc(info.title)}</strong><div>v${esc(info.version)} · <a href="/v1/openapi.json" style="display:inline">openapi.json</a> · <a href="/docs/api-reference/errors" style="display:inline">errors</a></div>${nav}</nav>
<main><h1>${esc(info.title)}</h1><p>${prose(info.description)}</p>
<p>Authenticate every <code>/v1</code> request with <code>Authorization: Bearer &lt;API key&gt;</code>. Errors use one envelope, served as <code>application/problem+json</code>; see <a href="/docs/api-reference/errors">errors</a>. GraphQL lives at <a href="/graphql">/graphql</a>.</p>
${body}</main></body></html>`;
}

function renderOperation(method: string, path: string, op: Json, components: Record<string, Json>): string {
  const params = (op.parameters ?? []) as Json[];
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td><code>${esc(typeOf(p.schema as Json, components))}</code></td><td>${prose(p.description)}</td></tr>`,
    )
    .join('');
  const body = ((op.requestBody as Json)?.content as Json)?.['application/json'] as Json | undefined;
  const responses = Object.entries(op.responses as Record<string, Json>)
    .map(([status, r]) => {
      const schema = ((r.content as Json)?.['application/json'] as Json)?.schema as Json | undefined;
      return `<tr><td><code>${esc(status)}</code></td><td>${prose(r.description)}</td><td>${schema ? `<code>${esc(typeOf(schema, components))}</code>` : ''}</td></tr>`;
    })
    .join('');
  return `<section class="op" id="${esc(op.operationId)}"><h2>${esc(op.summary)}</h2>
<p><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
${paramRows ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Type</th><th>Notes</th></tr>${paramRows}</table>` : ''}
${body ? `<h4>Body</h4>${fieldsTable(body.schema as Json, components)}` : ''}
<h4>Responses</h4><table><tr><th>Status</th><th>Meaning</th><th>Body</th></tr>${responses}</table></section>`;
}

/** The page each error envelope's `type` URL points at: every `code` of that status (all of them without a slug). */
export function renderErrorsPage(slug?: string): string | null {
  const kinds = Object.entries(ERROR_KINDS).filter(([, k]) => !slug || k.slug === slug);
  if (kinds.length === 0) return null;
  const sections = kinds
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([kind, k]) => {
      const codes = Object.entries(ERROR_CODES).filter(([, c]) => c.kind === kind);
      if (codes.length === 0 && !slug) return '';
      const rows = codes
        .map(
          ([code, c]) =>
            `<tr id="${esc(code)}"><td><code>${esc(code)}</code></td><td>${prose(c.meaning)}</td><td>${prose(c.fix)}</td></tr>`,
        )
        .join('');
      const table = rows
        ? `<table><tr><th>Code</th><th>Meaning</th><th>What to do</th></tr>${rows}</table>`
        : '<p>No error code of this service answers with this status today.</p>';
      return `<section id="${esc(k.slug)}"><h2><code>${k.status}</code> ${esc(k.title)}</h2>${table}</section>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Errors</title><style>${STYLE}</style></head>
<body><main><h1>${slug ? esc(kinds[0]![1].title) : 'Errors'}</h1>
<p>Every error is a JSON object <code>{object: "error", id, code, type, status, title, detail, created, metadata}</code> served as <code>application/problem+json</code>. <code>code</code> is machine-readable and listed below with what it means and what to do; <code>detail</code> says what was wrong in this request, naming the field; <code>type</code> links to this page for the status; <code>metadata.request_id</code> identifies the request in the service's logs.</p>
${sections}<p>${slug ? '<a href="/docs/api-reference/errors">All errors</a> · ' : ''}<a href="/docs">API reference</a></p></main></body></html>`;
}
