import type { Page } from 'playwright-core';
import { BROWSER_LIMITS, type PageAction } from '../../src/engine/types.js';
import { AppError, errors } from '../../src/errors.js';
import { describeAction } from './browser-settings.js';

/** What actions need from the page run around them. */
export interface ActionContext {
  /** Milliseconds left of the request's budget. */
  remaining(): number;
  signal: AbortSignal;
  /** Names what is being done, for timeout and crash messages. */
  setPhase(label: string): void;
  /** Waits (at most `maxMs`) for the requests an interaction started, so the page can render their results. */
  settle(maxMs: number): Promise<void>;
  /** True once the renderer crashed or the page closed: errors then are not the action's fault. */
  broken(): boolean;
}

/** How long to let the page react (requests, rendering) after a click, key press, scroll or fill. */
const SETTLE_AFTER_ACTION_MS = 1500;
const INTERACTIONS = new Set(['click', 'fill_input', 'press', 'scroll', 'hover']);

/**
 * Runs `actions` in order and returns the results of `execute_js` actions, in order. A failing
 * action is the caller's problem (400 `validation_error`): the request asked for something the
 * page cannot do, and the detail names the action by index, e.g.
 * `actions[3] (click "#buy"): no element matches within 5000 ms`.
 *
 * @example
 * const outputs = await runActions(page, settings.actions, context);
 */
export async function runActions(page: Page, actions: PageAction[], context: ActionContext): Promise<unknown[]> {
  const outputs: unknown[] = [];
  for (const [index, action] of actions.entries()) {
    const label = `actions[${index}] (${describeAction(action)})`;
    context.setPhase(label);
    const timeout = timeoutFor(action, context);
    try {
      const output = await runAction(page, action, label, timeout.ms, context.signal);
      if (action.type === 'execute_js') outputs.push(output);
    } catch (err) {
      throw await explainActionFailure(err, page, action, { label, timeout }, context);
    }
    if (INTERACTIONS.has(action.type)) await context.settle(Math.min(SETTLE_AFTER_ACTION_MS, context.remaining()));
  }
  return outputs;
}

/** The selector timeout an action gets: its own (or the default), but never past the budget. */
function timeoutFor(action: PageAction, context: ActionContext): { ms: number; cut: boolean } {
  const wanted =
    action.type === 'wait_for' && action.timeout !== undefined
      ? action.timeout
      : BROWSER_LIMITS.defaultSelectorTimeoutMs;
  const left = Math.max(1, context.remaining() - 50);
  return left < wanted ? { ms: left, cut: true } : { ms: Math.max(1, wanted), cut: false };
}

async function runAction(
  page: Page,
  action: PageAction,
  label: string,
  ms: number,
  signal: AbortSignal,
): Promise<unknown> {
  switch (action.type) {
    case 'wait':
      return sleep(action.milliseconds, signal);
    case 'wait_for':
      return page.waitForSelector(action.selector, { state: 'visible', timeout: ms }).then(() => undefined);
    case 'click':
      return page.click(action.selector, { timeout: ms });
    case 'hover':
      return page.hover(action.selector, { timeout: ms });
    case 'fill_input':
      return page.fill(action.selector, action.value, { timeout: ms });
    case 'press':
      return page.keyboard.press(action.key);
    case 'scroll':
      return scroll(page, action.direction, action.amount);
    case 'execute_js':
      return executeScript(page, action.script, label);
  }
}

async function scroll(page: Page, direction: 'up' | 'down' | 'left' | 'right', amount?: number): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1024, height: 768 };
  const vertical = direction === 'up' || direction === 'down';
  const distance = amount ?? (vertical ? viewport.height : viewport.width);
  const sign = direction === 'up' || direction === 'left' ? -1 : 1;
  // The wheel scrolls whatever is under the pointer, as a user's would (inner scroll areas too).
  await page.mouse.move(viewport.width / 2, viewport.height / 2);
  await page.mouse.wheel(vertical ? 0 : sign * distance, vertical ? sign * distance : 0);
}

/**
 * Evaluates a script as an expression (`document.title`) or, when it uses `return` or top-level
 * `await`, as the body of an async function. The result must be JSON-serialisable and small.
 */
async function executeScript(page: Page, script: string, label: string): Promise<unknown> {
  let result: unknown;
  try {
    result = await page.evaluate(script);
  } catch (err) {
    if (!/Illegal return statement|await is only valid/i.test((err as Error).message)) throw err;
    result = await page.evaluate(`(async () => {\n${script}\n})()`);
  }
  const size = result === undefined ? 0 : (JSON.stringify(result)?.length ?? 0);
  if (size > BROWSER_LIMITS.maxActionOutputChars) {
    throw errors.validation(
      `${label}: the script's result is ${size} characters of JSON; at most ${BROWSER_LIMITS.maxActionOutputChars} are kept`,
    );
  }
  return result === undefined ? null : result;
}

/** Turns a Playwright failure into the client's answer naming the action. */
async function explainActionFailure(
  err: unknown,
  page: Page,
  action: PageAction,
  { label, timeout }: { label: string; timeout: { ms: number; cut: boolean } },
  context: ActionContext,
): Promise<unknown> {
  if (err instanceof AppError || context.signal.aborted || context.broken()) return err;
  const message = firstLine(err);
  if ((err as Error).name === 'TimeoutError' && 'selector' in action) {
    if (timeout.cut) return errors.timeout(`${label}: the time budget ran out while waiting for the element`, err);
    const count = await page
      .locator(action.selector)
      .count()
      .catch(() => 0);
    if (count === 0) return errors.validation(`${label}: no element matches within ${timeout.ms} ms`);
    const what = action.type === 'wait_for' ? 'became visible' : 'became visible and usable';
    return errors.validation(`${label}: ${count} element(s) match but none ${what} within ${timeout.ms} ms`);
  }
  if (action.type === 'execute_js') {
    if (/Execution context was destroyed|navigat/i.test(message)) {
      return errors.validation(`${label}: the page navigated away while the script ran`);
    }
    return errors.validation(`${label}: the script threw ${message}`);
  }
  if (
    'selector' in action &&
    /not a valid selector|Unexpected token|Unknown engine|Error while parsing selector/i.test(message)
  ) {
    return errors.validation(`${label}: invalid selector: ${message}`);
  }
  return errors.validation(`${label}: ${message}`);
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = (text.split('\n')[0] ?? '').replace(/^(page|locator|keyboard|mouse|frame|elementHandle)\.\w+: /, '');
  return line.slice(0, 500);
}

/** Resolves after `ms`, or rejects with the signal's reason. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
