/** The public library API: the same engine the CLI and hooks use. */
export * from './protocol/index.ts';
export { loadConfig, searchPathSharingEnabled, type RuntimeConfig } from './config/config.ts';
export { Runtime } from './runtime/runtime.ts';
export { arbitrate, type Adopted } from './runtime/arbitrate.ts';
export type { Candidate, Recoverability, StashEntry } from './runtime/candidate.ts';
export { beforeModel, RETRIEVE_TOOL, RETRIEVE_TOOL_NAME } from './runtime/before-model.ts';
export { preTool } from './runtime/pre-tool.ts';
export { postTool } from './runtime/post-tool.ts';
export { retrieve, retrieveBytes } from './runtime/retrieve.ts';
export { viewRun, type CapturedRun, type RunView } from './runtime/run-view.ts';
export { markerFor, markersIn, parseMarker, stashKeyFor } from './store/marker.ts';
export { StashStore, STASH_DEFAULTS } from './store/stash.ts';
export { estimateTokens, countTokens, type TokenMethod } from './tokens/index.ts';
export type { ContentOrigin, ContentType } from './compress/types.ts';
