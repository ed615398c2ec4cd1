import type { LanguageModelV2, LanguageModelV2Usage } from '@ai-sdk/provider';
import type { ModelReply, ModelUsage } from '../../../src/models/model-provider.js';

type GenerateResult = Awaited<ReturnType<LanguageModelV2['doGenerate']>>;

/** A non-streamed result as a `ModelReply`: its text and reasoning parts joined. */
export function toReply(result: GenerateResult, requested: string): ModelReply {
  let text = '';
  let reasoning = '';
  for (const part of result.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning += part.text;
  }
  return {
    text,
    reasoning,
    finishReason: result.finishReason,
    usage: toUsage(result.usage),
    model: result.response?.modelId ?? requested,
  };
}

/** Usage as reported; null for what the server did not say (many local servers omit it). */
export function toUsage(usage: LanguageModelV2Usage | undefined): ModelUsage {
  return {
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    reasoningTokens: usage?.reasoningTokens ?? null,
  };
}
