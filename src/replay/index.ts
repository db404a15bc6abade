// The session replay benchmark's surface, bundled on demand by scripts/bench-sessions.mjs (not part of the library).
export { readRecordedSession, type RecordedSession } from './transcript.ts';
export { captureOf, replaySession, registeredMatchers, REPLAY_MODES, type ReplayMode, type SessionReplay, type CallReplay } from './session-replay.ts';
export { openReplaySandbox, REPLAY_WRAPPER } from './sandbox.ts';
export { summarize, totals, type ModeSummary, type Totals } from './summary.ts';
export { FAMILIES, FAMILY_LABELS } from './families.ts';
export { tokenCounter } from '../tokens/count.ts';
export { viewShellCall, type ShellCallView } from './shell-views.ts';
export { DEFAULT_VIEW_MIN_BYTES } from '../config/view-threshold.ts';
export { readRolloutShellCalls } from '../transcript/codex-rollout.ts';
