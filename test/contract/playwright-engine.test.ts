import { createPlaywrightEngine } from '../../engines/playwright/playwright.engine.js';
import { describeEngineContract } from './engine.contract.js';
import { CHROMIUM } from './playwright-support.js';

describeEngineContract(
  'playwright',
  (env) => createPlaywrightEngine({ ...env, executablePath: CHROMIUM, poolSize: 2, pageHeapMb: 256 }),
  { budgetMs: 20_000 },
);
