// The external search providers this build ships, one line each: a folder here declares one
// (`defineSearchProvider`), and this line lists it. src/plugins.ts reads this list; providers over
// this deployment's own data are registered by their module (searches: `stored`).
export { searxngProvider } from './searxng/searxng.definition.js';
