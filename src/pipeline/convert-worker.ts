/**
 * A conversion thread of the convert pool: runs the content pipeline on pages posted by the
 * main thread, so its 20–50 ms of CPU per page never blocks the API's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { builtinTransformers } from '../../plugins/transformers/index.js';
import { AppError } from '../errors.js';
import { createContentPipeline } from './content-pipeline.js';
import type { PreparedContentOptions } from './options.js';
import type { ConvertRequest, ConvertResponse } from './convert-pool.js';

const pipeline = createContentPipeline({ transformers: builtinTransformers });
const prepared = new Map<string, PreparedContentOptions>();
const port = parentPort!;

port.on('message', (request: ConvertRequest) => {
  let response: ConvertResponse;
  try {
    let options = prepared.get(request.optionsKey);
    if (!options) {
      options = pipeline.prepare(request.options);
      if (prepared.size >= 200) prepared.clear();
      prepared.set(request.optionsKey, options);
    }
    response = { id: request.id, result: pipeline.process(request.input, options) };
  } catch (err) {
    response =
      err instanceof AppError
        ? { id: request.id, error: { kind: err.kind, code: err.code, detail: err.detail } }
        : {
            id: request.id,
            error: { kind: 'internal', code: 'internal_server_error', detail: (err as Error).stack ?? String(err) },
          };
  }
  port.postMessage(response);
});
port.postMessage({ ready: true });
