import { describeBrowserGuard } from './browser-guard.contract.js';
import { makeEngine } from './playwright-support.js';

describeBrowserGuard('playwright', async (policy, resolve) => makeEngine(policy, { resolve }));
