// The model providers this build ships, one line each: a folder here declares one
// (`defineModelProvider`), and this line lists it. The configured one with the highest priority
// is the default. src/plugins.ts reads this list.
export { openAICompatibleProvider } from './openai-compatible/openai-compatible.definition.js';
