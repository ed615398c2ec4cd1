/**
 * A conversion thread of the convert pool: runs the content pipeline on pages posted by the
 * main thread, so its 20–50 ms of CPU per page never blocks the API's event loop. Parsers and
 * the deterministic extractor run here too (they are pipeline steps).
 */
import { parentPort } from 'node:worker_threads';
import * as parserList from '../../plugins/parsers/index.js';
import { builtinTransformers } from '../../plugins/transformers/index.js';
import { listParsers } from '../parsers/parser.js';
import { createContentPipeline } from './content-pipeline.js';
import type { PreparedContentOptions } from './options.js';
import { conversionError, type ConvertRequest, type ConvertResponse } from './convert-pool.js';

const pipeline = createContentPipeline({ transformers: builtinTransformers, parsers: listParsers(parserList) });
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
    const { kind, code, detail, metadata } = conversionError(err);
    response = { id: request.id, error: { kind, code, detail, metadata } };
  }
  port.postMessage(response);
});
port.postMessage({ ready: true });
