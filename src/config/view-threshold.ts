/**
 * Below this many bytes of a command's output no view is computed: too small for a view to pay for its marker. One
 * value for `tokenless run` (overridable by TOKENLESS_RUN_VIEW_MIN_BYTES) and the in-process plugins that decide
 * before starting a process; commands/launch.sh repeats it as its shell default.
 */
export const DEFAULT_VIEW_MIN_BYTES = 1024;
