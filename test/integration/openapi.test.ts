import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
let doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
beforeAll(async () => {
  app = await startTestApp();
  doc = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as typeof doc;
});
afterAll(() => app?.close());

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with bearer security and a server URL', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.servers[0].url).toBe(app.url);
  });

  it('documents every route the app serves, each with a unique operationId', () => {
    const ops = app.server.http.routes.map((r) => `${r.method} ${r.path}`);
    for (const op of ops) {
      const [method, path] = op.split(' ');
      expect(doc.paths[path!]?.[method!], op).toBeDefined();
    }
    const ids = Object.values(doc.paths).flatMap((m) =>
      Object.values(m as Record<string, { operationId: string }>).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every $ref to a component', () => {
    for (const ref of refs(doc)) {
      const name = ref.replace('#/components/schemas/', '');
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
  });

  it('generates request schemas from the zod schemas (unknown fields refused, limits kept)', () => {
    const body = doc.paths['/v1/api-keys'].post.requestBody.content['application/json'].schema;
    expect(body).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 100 } },
    });
    expect(doc.paths['/v1/api-keys'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
  });

  it('documents errors with the envelope', () => {
    const responses = doc.paths['/v1/api-keys/{key_id}'].delete.responses;
    expect(responses['404'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(responses['401']).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(
      expect.arrayContaining(['object', 'id', 'code', 'type', 'status', 'title', 'metadata']),
    );
  });

  it('documents the operations a dashboard needs beyond the spec, with their conflicts', () => {
    const op = (method: string, path: string) => doc.paths[path]?.[method];
    for (const [method, path, id, conflict] of [
      ['post', '/v1/batches/{batch_id}/cancel', 'cancelBatch', true],
      ['post', '/v1/crawls/{crawl_id}/cancel', 'cancelCrawl', true],
      ['post', '/v1/answers/{answer_id}/cancel', 'cancelAnswer', true],
      ['patch', '/v1/schedules/{schedule_id}', 'updateSchedule', true],
      ['post', '/v1/schedules/{schedule_id}/pause', 'pauseSchedule', true],
      ['post', '/v1/schedules/{schedule_id}/resume', 'resumeSchedule', true],
      ['get', '/v1/schedules/{schedule_id}/next_runs', 'listScheduleNextRuns', false],
      ['post', '/v1/schedules/preview', 'previewSchedule', false],
      ['get', '/v1/scrapes', 'listScrapes', false],
      ['get', '/v1/maps', 'listMaps', false],
      ['post', '/v1/webhooks/deliveries/{delivery_id}/redeliver', 'redeliverWebhook', true],
    ] as const) {
      expect(op(method, path)?.operationId, `${method} ${path}`).toBe(id);
      if (conflict) {
        expect(op(method, path).responses['409'].content['application/problem+json'].schema.$ref).toBe(
          '#/components/schemas/Error',
        );
      }
    }
    const filters = op('get', '/v1/webhooks/deliveries').parameters.map((p: { name: string }) => p.name);
    expect(filters).toEqual(
      expect.arrayContaining(['event_id', 'resource_id', 'event_type', 'success', 'cursor', 'limit']),
    );
    const preview = op('post', '/v1/schedules/preview').requestBody.content['application/json'].schema;
    expect(
      Object.keys(preview.properties ?? doc.components.schemas[preview.$ref?.split('/').at(-1)]?.properties),
    ).toEqual(
      expect.arrayContaining(['cron_expression', 'text', 'execute_at', 'expression_timezone', 'count', 'after']),
    );
  });

  it('renders a readable reference page at /docs and error pages behind each type URL', async () => {
    const page = await (await fetch(`${app.url}/docs`)).text();
    expect(page).toContain('Create an API key');
    expect(page).toContain('/v1/api-keys/{key_id}');
    const err = await fetch(`${app.url}/docs/api-reference/errors/not_found`);
    expect(err.status).toBe(200);
    expect(await err.text()).toContain('Not Found');
  });
});
