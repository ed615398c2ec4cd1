import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the fake answers to the next chat completion. JSON and text replies are sent as the
 * real API sends them: one `chat.completion` object, or SSE `chat.completion.chunk` events
 * ending in `data: [DONE]` when the request says `stream: true`.
 */
export type FakeReply =
  /** Content `JSON.stringify(json)`. */
  | { json: unknown; reasoning?: string; finishReason?: string; usage?: FakeUsage }
  | { text: string; reasoning?: string; finishReason?: string; usage?: FakeUsage }
  /** An error answer in OpenAI's error shape (429 with `Retry-After`, 500…). */
  | { status: number; message?: string; headers?: Record<string, string> }
  /** A 200 whose body is not JSON. */
  | { garbage: string }
  /** Streaming only: these chunks, then silence with the connection open. */
  | { stallAfter: string[] }
  /** Never answers; the connection stays open until the client gives up or the fake closes. */
  | { hang: true }
  | { redirect: string; status?: number };

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface RecordedCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (null for GETs). */
  body: ChatRequestBody | null;
  /** True once the client closed the connection before the answer was complete. */
  disconnected: boolean;
}

/** The fields of a chat completions request the tests look at. */
export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string | { type: string; text: string }[] }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  [key: string]: unknown;
}

/**
 * An OpenAI-compatible server on 127.0.0.1 speaking the real wire protocol: `POST
 * /v1/chat/completions` (plain and streamed) and `GET /v1/models`. Tests script its replies
 * in order; with none left it answers 500 so a test that calls more than it scripted fails.
 * Every request is recorded with its headers and parsed body.
 *
 * @example
 * const fake = await startFakeOpenAI();
 * fake.reply({ status: 429, headers: { 'retry-after': '0' } }, { json: { price: 12 } });
 * // …call the provider with baseUrl fake.baseUrl…
 * expect(fake.calls[1]!.body!.response_format!.type).toBe('json_schema');
 * await fake.close();
 */
export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Chat completion requests received, in order (GET /v1/models not included). */
  readonly calls: RecordedCall[];
  /** Every request received, in order. */
  readonly requests: RecordedCall[];
  /** Queues replies for the next chat completions. */
  reply(...replies: FakeReply[]): void;
  /** Model ids `GET /v1/models` lists. */
  models: string[];
  /** Characters of content per streamed chunk (default 4). */
  chunkSize: number;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: FakeReply[] = [];
  const sockets = new Set<Socket>();
  const fake = {
    baseUrl: '',
    port: 0,
    calls: [] as RecordedCall[],
    requests: [] as RecordedCall[],
    models: ['fake-model'],
    chunkSize: 4,
    reply: (...replies: FakeReply[]) => void queue.push(...replies),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake-openai failed: ${err.message}`);
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      headers: req.headers,
      body: raw ? (JSON.parse(raw) as ChatRequestBody) : null,
      disconnected: false,
    };
    res.on('close', () => {
      if (!res.writableEnded) call.disconnected = true;
    });
    fake.requests.push(call);
    if (call.method === 'GET' && call.path === '/v1/models') {
      const data = fake.models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (call.method !== 'POST' || call.path !== '/v1/chat/completions') {
      return sendJson(res, 404, errorBody(`no route ${call.method} ${call.path}`, 'not_found'));
    }
    fake.calls.push(call);
    const next = queue.shift() ?? { status: 500, message: 'fake-openai: no scripted reply left' };
    await answer(next, call.body!, res, fake.chunkSize);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.baseUrl = `http://127.0.0.1:${fake.port}/v1`;
  return fake;
}

async function answer(reply: FakeReply, body: ChatRequestBody, res: ServerResponse, chunkSize: number): Promise<void> {
  if ('hang' in reply) return;
  if ('redirect' in reply) {
    res.writeHead(reply.status ?? 302, { location: reply.redirect });
    return void res.end();
  }
  if ('garbage' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(reply.garbage);
  }
  if ('status' in reply) {
    return sendJson(res, reply.status, errorBody(reply.message ?? `fake error ${reply.status}`), reply.headers);
  }
  if ('stallAfter' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const delta of reply.stallAfter) res.write(sse(chunk(body, { content: delta }, null)));
    return;
  }
  const content = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
  const finish = reply.finishReason ?? 'stop';
  const usage = usageOf(reply.usage, content);
  if (!body.stream) {
    const message = { role: 'assistant', content, ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}) };
    return sendJson(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(sse(chunk(body, { role: 'assistant', content: '' }, null)));
  for (const piece of pieces(reply.reasoning ?? '', chunkSize)) {
    res.write(sse(chunk(body, { reasoning_content: piece }, null)));
  }
  for (const piece of pieces(content, chunkSize)) res.write(sse(chunk(body, { content: piece }, null)));
  res.write(sse(chunk(body, {}, finish)));
  if (body.stream_options?.include_usage) res.write(sse({ ...chunk(body, {}, null), choices: [], usage }));
  res.end('data: [DONE]\n\n');
}

function chunk(body: ChatRequestBody, delta: Record<string, unknown>, finish: string | null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function usageOf(usage: FakeUsage | undefined, content: string) {
  const u = usage ?? { prompt_tokens: 42, completion_tokens: Math.ceil(content.length / 4) };
  return { ...u, total_tokens: u.prompt_tokens + u.completion_tokens };
}

function errorBody(message: string, code: string | null = null) {
  return { error: { message, type: 'fake_error', param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
