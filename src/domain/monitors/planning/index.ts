/**
 * Monitor planning without a model: what a query tracks within its source policy, and the
 * workflow diagram a monitor shows. Pure functions; the monitor module calls them.
 */
export { planMonitor } from './monitor-planner.js';
export type { MonitorPlan, RefusedSource, TrackedSources } from './monitor-planner.js';
export { compileSourcePolicy, domainMatches, normaliseDomain } from './source-policy.js';
export type { CompiledSourcePolicy, SourceDecision, SourcePolicy, SourceReason } from './source-policy.js';
export { findQueryTargets } from './query-targets.js';
export type { QueryTarget, QueryTargets, TextSpan } from './query-targets.js';
export { webQueryFrom, topicWords } from './web-query.js';
export { monitorMermaidDiagram, mermaidLabel, describeTarget } from './workflow-diagram.js';
export type { NotificationChannelInput, WorkflowDiagramInput } from './workflow-diagram.js';
