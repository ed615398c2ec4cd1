/**
 * Change detection for monitors: a pure library (no database, no HTTP). The monitor module
 * resolves a monitor's settings once (`resolveDetectionOptions`), captures a snapshot of each
 * fetched page (`captureSnapshot`), stores it, and asks `detectChange` about the previous and
 * the new snapshot. See each module for the contracts.
 */
export { resolveDetectionOptions } from './detection-options.js';
export type { DetectionOptions, DetectionOptionsInput } from './detection-options.js';
export { NOISE_FILTERS, NOISE_FILTER_IDS, defaultNoiseFilters, createLineMasker } from './noise-filters.js';
export type { NoiseFilter, NoiseFilterId } from './noise-filters.js';
export { compileTextRules, catastrophicRisk } from './text-rules.js';
export type { TextRule } from './text-rules.js';
export { captureSnapshot, comparableLines, normaliseLines } from './snapshot.js';
export type { ComparableLine, MonitorSnapshot, SnapshotInput } from './snapshot.js';
export { detectChange } from './change-detection.js';
export type { ChangeDetection, DetectChangeInput, TextChanges } from './change-detection.js';
export { diffLineSequences, wordDiff, similarity } from './line-diff.js';
export type { LineChange, LineDiff, LineOp, WordSegment } from './line-diff.js';
export { unifiedDiff } from './unified-diff.js';
export type { DiffLabels } from './unified-diff.js';
export { diffData, escapePointerToken } from './data-diff.js';
export type { DataChange } from './data-diff.js';
export { summarizeChange } from './change-summary.js';
export type { SummaryOptions } from './change-summary.js';
export { compareProductStates, decideProductState } from './product/product-state.js';
export type { ProcessorOptions, ProductChange, ProductState } from './product/product-state.js';
export { formatPrice, parseAmount, parsePriceText } from './product/price.js';
export type { PriceValue, ProductSource } from './product/price.js';
export { availabilityFromText, availabilityFromValue } from './product/availability.js';
export type { AvailabilityValue, StockStatus } from './product/availability.js';
export { readStructuredProduct } from './product/structured-data.js';
export type { StructuredProduct } from './product/structured-data.js';
