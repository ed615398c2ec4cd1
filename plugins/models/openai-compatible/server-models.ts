import { AppError } from '../../../src/errors.js';
import { modelError } from '../../../src/models/model-errors.js';
import { createDeadline } from '../../../src/engine/deadline.js';
import { explainFailure } from './model-failure.js';

interface ServerAddress {
  baseUrl: string;
  apiKey?: string | null;
  model: string;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
}

/**
 * `GET {baseUrl}/models`: the ids the server offers. A reachability and credentials check
 * for operators (no retries). Failures are 502 `model_error`, 504 when it does not answer.
 */
export async function listServerModels(server: ServerAddress, signal?: AbortSignal): Promise<string[]> {
  const deadline = createDeadline(server.timeoutMs, signal);
  try {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (server.apiKey) headers.authorization = `Bearer ${server.apiKey}`;
    const response = await server.fetch(`${server.baseUrl.replace(/\/+$/, '')}/models`, {
      headers,
      signal: deadline.signal,
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw modelError(`the model server answered ${response.status} to a list of its models`);
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw modelError('the model server sent a malformed list of models');
    return data.map((m: { id?: unknown }) => m?.id).filter((id): id is string => typeof id === 'string');
  } catch (err) {
    const explained = deadline.explain(err, 'the model server did not list its models');
    if (explained !== err || (err instanceof AppError && err.code === 'model_error')) throw explained;
    throw explainFailure(err, server.model)?.error ?? err;
  } finally {
    deadline.dispose();
  }
}
