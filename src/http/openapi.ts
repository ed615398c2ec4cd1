import { z } from 'zod';
import { ERROR_KINDS } from '../errors.js';
import { successStatus, type AnyRoute } from '../module/route.js';

type Json = Record<string, unknown>;

export const ErrorEnvelopeSchema = z
  .object({
    object: z.literal('error'),
    id: z.string(),
    code: z.string().describe('Machine-readable code, e.g. validation_error, scrape_not_found.'),
    type: z.string().describe('{docs_url}/api-reference/errors/<slug>'),
    status: z.number().int(),
    title: z.string(),
    detail: z.string().optional().describe('What was wrong, naming the field.'),
    created: z.number().int().optional(),
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Error' });

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with.
 * Request schemas are converted as *input* (what clients send), responses as *output*;
 * schemas carrying a `.meta({ id })` become shared components.
 */
export function buildOpenApiDocument(routes: AnyRoute[], info: { version: string; serverUrl: string }): Json {
  const requests: Record<string, z.ZodType> = {};
  const responses: Record<string, z.ZodType> = { Error: ErrorEnvelopeSchema };
  routes.forEach((route, i) => {
    if (route.body) requests[`b${i}`] = route.body;
    if (route.query) requests[`q${i}`] = route.query;
    if (route.params) requests[`p${i}`] = route.params;
    for (const [status, spec] of Object.entries(route.responses))
      if (spec.schema) responses[`r${i}_${status}`] = spec.schema;
  });
  const input = convert(requests, 'input');
  const output = convert(responses, 'output');
  const components = mergeComponents(output.defs, input.defs, input.props);
  const paths: Record<string, Record<string, Json>> = {};
  routes.forEach((route, i) => {
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(route.auth === false ? { security: [] } : {}),
      parameters: [...parametersOf(input.props[`p${i}`], 'path'), ...parametersOf(input.props[`q${i}`], 'query')],
      responses: responsesOf(route, i, output.props),
    };
    if (route.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: input.props[`b${i}`] } } };
    }
    if (route.method === 'post' && route.auth !== false) {
      (operation.parameters as Json[]).push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Same key and body within 24 h returns the stored response (409 while in flight, 422 on a different body).',
        schema: { type: 'string', maxLength: 255 },
      });
    }
    (paths[route.path] ??= {})[route.method] = operation;
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner web content API',
      version: info.version,
      description: 'Scrape, batch, crawl and map the web; get clean markdown, HTML, text and JSON.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'API key or access token' } },
      schemas: components,
    },
  };
}

function convert(
  schemas: Record<string, z.ZodType>,
  io: 'input' | 'output',
): { props: Record<string, Json>; defs: Record<string, Json> } {
  const holder = z.object(schemas);
  const json = z.toJSONSchema(holder, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    reused: 'inline',
  }) as Json;
  const rewritten = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  return {
    props: (rewritten.properties ?? {}) as Record<string, Json>,
    defs: (rewritten.$defs ?? {}) as Record<string, Json>,
  };
}

/** Output components win; an input component that differs from its output twin gets an `Input` suffix. */
function mergeComponents(
  outputDefs: Record<string, Json>,
  inputDefs: Record<string, Json>,
  inputProps: Record<string, Json>,
) {
  const merged: Record<string, Json> = { ...outputDefs };
  for (const [name, schema] of Object.entries(inputDefs)) {
    const twin = merged[name];
    if (!twin || JSON.stringify(twin) === JSON.stringify(schema)) {
      merged[name] = schema;
      continue;
    }
    merged[`${name}Input`] = schema;
    const from = `"#/components/schemas/${name}"`;
    const to = `"#/components/schemas/${name}Input"`;
    for (const key of Object.keys(inputProps)) {
      inputProps[key] = JSON.parse(JSON.stringify(inputProps[key]).replaceAll(from, to)) as Json;
    }
  }
  return merged;
}

function parametersOf(schema: Json | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    const isArray = rest.type === 'array';
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(isArray ? { style: 'form', explode: true } : {}),
    };
  });
}

function responsesOf(route: AnyRoute, i: number, props: Record<string, Json>): Json {
  const out: Json = {};
  const errorContent = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Error' } } };
  for (const [status, spec] of Object.entries(route.responses)) {
    const schema = props[`r${i}_${status}`];
    if (Number(status) >= 400) out[status] = { description: spec.description, content: errorContent };
    else
      out[status] = {
        description: spec.description,
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
      };
  }
  const ok = String(successStatus(route));
  if (!out[ok]) out[ok] = { description: 'OK' };
  // Every operation can fail validation or unexpectedly; authenticated ones can be refused.
  for (const status of ['400', ...(route.auth === false ? [] : ['401']), '500']) {
    const kind = Object.values(ERROR_KINDS).find((k) => String(k.status) === status);
    out[status] ??= { description: kind?.title ?? 'Error', content: errorContent };
  }
  return out;
}
