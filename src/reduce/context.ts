import type { RuntimeConfig } from '../config/config.ts';

/**
 * What every command filter and content compressor is given besides the content: the settings that decide which
 * views are allowed. It is the runtime config itself (config.json under the environment's overrides, read once by
 * `loadConfig`), so `tokenless run`, `tokenless filter` and post_tool honour the same settings.
 */
export type ReduceContext = Pick<RuntimeConfig, 'searchPathSharing'>;
