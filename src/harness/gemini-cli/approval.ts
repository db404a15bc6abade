/**
 * Would Gemini CLI run a shell command without asking, whatever the command? Its BeforeTool hook runs BEFORE the
 * policy check, and the policy then judges the REWRITTEN command (0.61.0, scheduler `_processToolCall`:
 * `evaluateBeforeToolHook`, then `checkPolicy` on the modified arguments). In the default mode every
 * `run_shell_command` asks (policies/write.toml) and an "always allow" answer would save a rule for our wrapper's
 * prefix; user rules (argsPattern regexes, commandPrefix allow and deny rules) could match the rewrite differently from
 * the original. So we rewrite only where both would certainly be allowed: YOLO mode (policies/yolo.toml allows `*`),
 * in a headless run (the mode cannot be switched mid-session), with no rule of the user's that could tell the two
 * apart. Anything else, or anything we cannot read: unsure, rewrite nothing.
 */

export type Approval = { readonly runsWithoutAsking: true } | { readonly runsWithoutAsking: false; readonly reason: string };

export interface ApprovalProbe {
  /** argv of each ancestor process, nearest first (null: not readable on this platform). */
  readonly ancestors: readonly (readonly string[])[] | null;
  /** Parsed settings files that exist, by path; a file that exists but does not parse is a string (the reason). */
  readonly settings: ReadonlyMap<string, Record<string, unknown> | string>;
  /** Rule directories that exist and hold at least one entry. */
  readonly nonEmptyRuleDirs: readonly string[];
}

/** The Gemini CLI process's argv: the first ancestor that runs its bundle (`…/gemini-cli/bundle/gemini.js`) or `gemini`. */
export function geminiArgv(ancestors: readonly (readonly string[])[]): readonly string[] | null {
  for (const argv of ancestors) {
    const index = argv.findIndex((arg, i) => i < 3 && /(^|\/)(gemini|gemini\.js)$/.test(arg));
    if (index >= 0) return argv.slice(index + 1);
  }
  return null;
}

/** Flags that take a value (so the value is not read as a flag); a prompt could otherwise say "--yolo". */
const VALUE_FLAGS = new Set(['-p', '--prompt', '-m', '--model', '--approval-mode', '-i', '--prompt-interactive', '-e', '--extensions', '--allowed-tools', '--policy', '--admin-policy', '-o', '--output-format', '--include-directories', '--resume', '-r', '--allowed-mcp-server-names']);
/** Flags that bring rules or extensions we do not read. */
const RULE_FLAGS = new Set(['--allowed-tools', '--policy', '--admin-policy', '-e', '--extensions', '--allowed-mcp-server-names']);

interface Flags {
  readonly yolo: boolean;
  readonly headless: boolean;
  readonly rules: string | null;
}

export function readFlags(args: readonly string[]): Flags {
  let yolo = false;
  let headless = false;
  let rules: string | null = null;
  let approval: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--yolo' || flag === '-y') yolo = true;
    if (flag === '-p' || flag === '--prompt') headless = true;
    if (flag === '-i' || flag === '--prompt-interactive') headless = false;
    if (RULE_FLAGS.has(flag)) rules = flag;
    if (VALUE_FLAGS.has(flag) && inline === undefined) {
      if (flag === '--approval-mode') approval = args[i + 1] ?? null;
      i++;
    } else if (flag === '--approval-mode') {
      approval = inline ?? null;
    }
  }
  if (approval !== null) yolo = approval === 'yolo';
  return { yolo, headless, rules };
}

/** Settings keys that add tool rules or switch YOLO off (0.61.0 settings schema, and the older top-level names). */
const RULE_SETTINGS: readonly (readonly string[])[] = [
  ['tools', 'allowed'],
  ['tools', 'exclude'],
  ['tools', 'core'],
  ['coreTools'],
  ['excludeTools'],
  ['allowedTools'],
  ['security', 'disableYoloMode'],
  ['admin'],
  ['policyPaths'],
  ['adminPolicyPaths'],
];

export function decideApproval(probe: ApprovalProbe): Approval {
  const unsure = (reason: string): Approval => ({ runsWithoutAsking: false, reason });
  if (probe.ancestors === null) return unsure('the Gemini CLI process cannot be read (no /proc)');
  const argv = geminiArgv(probe.ancestors);
  if (argv === null) return unsure('no Gemini CLI process among the hook\'s ancestors');
  const flags = readFlags(argv);
  if (!flags.yolo) return unsure('not started in YOLO mode: Gemini CLI asks before a shell command, and would ask about the rewritten one');
  if (!flags.headless) return unsure('an interactive session can leave YOLO mode at any time');
  if (flags.rules !== null) return unsure(`started with ${flags.rules}, whose rules we do not read`);
  for (const [path, settings] of probe.settings) {
    if (typeof settings === 'string') return unsure(`${path}: ${settings}`);
    const key = RULE_SETTINGS.find((keys) => has(settings, keys));
    if (key !== undefined) return unsure(`${path} sets ${key.join('.')}`);
  }
  const dir = probe.nonEmptyRuleDirs[0];
  if (dir !== undefined) return unsure(`${dir} may hold policy rules`);
  return { runsWithoutAsking: true };
}

function has(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let current: unknown = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return current !== undefined && current !== null && current !== false;
}
