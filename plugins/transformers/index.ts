import type { ContentTransformer } from '../../src/pipeline/transformer.js';
import { readabilityTransformer } from './readability/readability.transformer.js';

/** The transformers the composition root registers (`createTransformerRegistry(builtinTransformers)`). */
export const builtinTransformers: readonly ContentTransformer[] = [readabilityTransformer];
