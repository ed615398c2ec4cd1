import { BROWSER_LIMITS, type PageAction, type PageRequest } from '../../src/engine/types.js';
import { errors } from '../../src/errors.js';

type BrowserSettings = NonNullable<PageRequest['browser']>;

/** Browser settings after validation, with defaults applied. */
export interface RenderSettings {
  waitBeforeMs: number;
  actions: PageAction[];
  screenshot: { fullPage: boolean } | null;
  printPdf: boolean;
  screen: { width: number; height: number; mobile: boolean };
  loadAllResources: boolean;
}

/** `screen_size.screen_type` presets (decisions.md); `default` is used when nothing is asked. */
export const SCREEN_PRESETS = {
  default: { width: 1024, height: 768, mobile: false },
  mobile: { width: 414, height: 896, mobile: true },
  desktop: { width: 1920, height: 1080, mobile: false },
} as const;

const SCROLL_DIRECTIONS = new Set(['up', 'down', 'left', 'right']);
const MAX_SCROLL_PX = 100_000;

/**
 * Checks browser settings again (request validation did, but an engine does not trust its
 * caller) and fills in defaults. Throws 400 `validation_error` naming the field as the API does:
 * `actions[3].selector: is required`, `screen_size.screen_width: must be between 100 and 3840`.
 *
 * @example
 * const settings = validateBrowserSettings(req.browser); // throws AppError 400 on bad input
 */
export function validateBrowserSettings(browser: BrowserSettings | undefined): RenderSettings {
  const input: Partial<BrowserSettings> = browser ?? {};
  const waitBeforeMs = input.waitBeforeMs ?? 0;
  checkInteger('wait_before_scraping', waitBeforeMs, 0, BROWSER_LIMITS.maxWaitBeforeMs);
  const actions = validateActions(input.actions ?? []);
  return {
    waitBeforeMs,
    actions,
    screenshot: input.screenshot ? { fullPage: input.screenshot.fullPage === true } : null,
    printPdf: input.printPdf === true,
    screen: validateScreen(input.screen),
    loadAllResources: input.loadAllResources === true,
  };
}

function validateScreen(screen: BrowserSettings['screen']): RenderSettings['screen'] {
  if (!screen) return { ...SCREEN_PRESETS.default };
  checkInteger('screen_size.screen_width', screen.width, BROWSER_LIMITS.minScreenWidth, BROWSER_LIMITS.maxScreenWidth);
  checkInteger(
    'screen_size.screen_height',
    screen.height,
    BROWSER_LIMITS.minScreenHeight,
    BROWSER_LIMITS.maxScreenHeight,
  );
  return { width: screen.width, height: screen.height, mobile: screen.mobile === true };
}

function validateActions(actions: unknown): PageAction[] {
  if (!Array.isArray(actions)) throw errors.validation('actions: must be an array');
  if (actions.length > BROWSER_LIMITS.maxActions) {
    throw errors.validation(
      `actions: at most ${BROWSER_LIMITS.maxActions} actions are allowed (got ${actions.length})`,
    );
  }
  let waited = 0;
  const valid = actions.map((action: unknown, index) => {
    const checked = validateAction(action, `actions[${index}]`);
    if (checked.type === 'wait') waited += checked.milliseconds;
    if (checked.type === 'wait_for' && checked.timeout !== undefined) waited += checked.timeout;
    return checked;
  });
  if (waited > BROWSER_LIMITS.maxTotalWaitMs) {
    throw errors.validation(
      `actions: waits add up to ${waited} ms; at most ${BROWSER_LIMITS.maxTotalWaitMs} ms of waiting is allowed`,
    );
  }
  return valid;
}

function validateAction(action: unknown, field: string): PageAction {
  if (typeof action !== 'object' || action === null) throw errors.validation(`${field}: must be an object`);
  const a = action as Record<string, unknown>;
  const type = a.type;
  const text = (name: string, max: number = BROWSER_LIMITS.maxScriptChars, allowEmpty = false): string => {
    const value = a[name];
    if (value === undefined || value === null) throw errors.validation(`${field}.${name}: is required for ${type}`);
    if (typeof value !== 'string') throw errors.validation(`${field}.${name}: must be a string`);
    if (!allowEmpty && value.trim() === '') throw errors.validation(`${field}.${name}: must not be empty`);
    if (value.length > max) throw errors.validation(`${field}.${name}: longer than ${max} characters`);
    return value;
  };
  switch (type) {
    case 'wait': {
      const ms = a.milliseconds;
      if (ms === undefined) throw errors.validation(`${field}.milliseconds: is required for wait`);
      checkInteger(`${field}.milliseconds`, ms, 0, BROWSER_LIMITS.maxTotalWaitMs);
      return { type, milliseconds: ms as number };
    }
    case 'wait_for': {
      const selector = text('selector', 2000);
      if (a.timeout === undefined || a.timeout === null) return { type, selector };
      checkInteger(`${field}.timeout`, a.timeout, 0, BROWSER_LIMITS.maxTotalWaitMs);
      return { type, selector, timeout: a.timeout as number };
    }
    case 'click':
    case 'hover':
      return { type, selector: text('selector', 2000) };
    case 'fill_input':
      return { type, selector: text('selector', 2000), value: text('value', BROWSER_LIMITS.maxScriptChars, true) };
    case 'press':
      return { type, key: text('key', 100) };
    case 'scroll': {
      const direction = a.direction ?? 'down';
      if (typeof direction !== 'string' || !SCROLL_DIRECTIONS.has(direction)) {
        throw errors.validation(`${field}.direction: must be one of up, down, left, right`);
      }
      if (a.amount === undefined || a.amount === null) return { type, direction: direction as 'down' };
      checkInteger(`${field}.amount`, a.amount, 0, MAX_SCROLL_PX);
      return { type, direction: direction as 'down', amount: a.amount as number };
    }
    case 'execute_js':
      return { type, script: text('script') };
    default:
      throw errors.validation(
        `${field}.type: unknown action type ${JSON.stringify(type)} (known: wait, wait_for, click, fill_input, press, scroll, hover, execute_js)`,
      );
  }
}

function checkInteger(field: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw errors.validation(`${field}: must be an integer between ${min} and ${max} (got ${JSON.stringify(value)})`);
  }
}

/** A short label for an action in errors: `click "#buy"`, `execute_js`, `press "Enter"`. */
export function describeAction(action: PageAction): string {
  switch (action.type) {
    case 'wait':
      return `wait ${action.milliseconds} ms`;
    case 'press':
      return `press ${JSON.stringify(action.key)}`;
    case 'scroll':
      return `scroll ${action.direction}`;
    case 'execute_js':
      return 'execute_js';
    default:
      return `${action.type} ${JSON.stringify(action.selector.length > 80 ? `${action.selector.slice(0, 80)}…` : action.selector)}`;
  }
}
