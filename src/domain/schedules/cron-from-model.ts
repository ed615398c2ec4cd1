import type { ModelRegistry } from '../../models/model-registry.js';
import type { CronFromText } from './cron/index.js';

const SYSTEM = [
  'You convert a recurrence written in words into one AWS EventBridge cron expression.',
  'Six fields separated by spaces: minutes hours day-of-month month day-of-week year.',
  'Day-of-week is 1-7 with 1 = Sunday (or SUN-SAT). Exactly one of day-of-month and day-of-week is "?".',
  'Examples: "every weekday at 9am" -> 0 9 ? * MON-FRI *; "every 15 minutes" -> 0/15 * * * ? *;',
  '"on the first of every month at noon" -> 0 12 1 * ? *.',
  'Answer with the expression only. If the text is not a recurrence, answer NONE.',
].join('\n');

/**
 * The model fallback of schedule text, when a model is configured: asked only for text the
 * deterministic parser does not understand; its answer is validated like any expression.
 */
export function cronFromModel(models: ModelRegistry): CronFromText | undefined {
  if (!models.default()) return undefined;
  return async (text) => {
    const provider = models.default();
    if (!provider) return null;
    const reply = await provider.generate({
      system: SYSTEM,
      messages: [{ role: 'user', content: text }],
      maxOutputTokens: 64,
      signal: AbortSignal.timeout(30_000),
    });
    const line = reply.text
      .replace(/`/g, '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '');
    if (!line || /^none\b/i.test(line)) return null;
    return line;
  };
}
