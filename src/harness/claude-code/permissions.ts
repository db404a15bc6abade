/**
 * Would Claude Code run this Bash command without asking? A rewrite that carries `permissionDecision: "allow"` skips
 * the user's permission check entirely (FINDINGS.md section 3), so we answer "allow" only when we can show the ORIGINAL
 * command would have run silently anyway, and we never touch a command a deny or ask rule might cover.
 * Matching is deliberately lopsided: deny and ask rules match loosely (over-approximate: when in doubt, hands off),
 * allow rules match strictly (under-approximate: when in doubt, no "allow").
 */
import { lineEffects, literalValue, parseShell, type SimpleCommand } from '../../shell/index.ts';
import { wildcardMatch } from '../../shell/wildcard.ts';
import { resolveWrappers, staticPrefix } from '../../permissions/shell-state.ts';
import { adviseAllowRule, type AllowAdvice } from '../../permissions/allow-advice.ts';
import { runsProjectCode } from '../../permissions/code-runners.ts';
import { isReadOnlyAutoAllowed } from '../../permissions/read-only.ts';

export interface PermissionRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly ask: readonly string[];
}

export interface PermissionContext {
  readonly rules: PermissionRules;
  /** `permission_mode` from the hook stdin; undefined is treated as `default`. */
  readonly mode: string | undefined;
  /** Absolute project directory: Claude Code auto-allows read-only commands only inside it. */
  readonly projectDir: string;
  /** The shell's working directory (hook stdin `cwd`), which relative paths resolve against; default projectDir. */
  readonly cwd?: string | undefined;
  /** A settings file we could not read or parse: its rules are unknown, so nothing may be assumed. */
  readonly unknownRules: string | null;
}

/**
 * deny: a deny rule may cover it (never rewrite). ask: an ask rule may cover it (the user wants to see it as typed).
 * allow: runs without asking (rewrite with "allow"). asks: Claude Code surely asks the person about it (a rewrite may
 * go to the same dialog). prompt: Claude Code would or might ask (pass through). unknown: we cannot tell (pass through).
 */
export type PermissionVerdict = 'deny' | 'ask' | 'allow' | 'asks' | 'prompt' | 'unknown';

export interface PermissionDecision {
  readonly verdict: PermissionVerdict;
  readonly reason: string;
  /**
   * For `asks`: the allow rule that would let the command run unasked (`Bash(npm test:*)`), and whether it may be
   * suggested to the person (test and build runs only; never `git push`, installers, interpreters).
   */
  readonly allowAdvice?: AllowAdvice;
}

export function decideBashPermission(command: string, context: PermissionContext): PermissionDecision {
  if (context.unknownRules !== null) return { verdict: 'unknown', reason: context.unknownRules };
  const parsed = parseShell(command);
  if (parsed.kind !== 'parsed') return { verdict: 'unknown', reason: `command does not parse: ${parsed.message}` };
  const effects = lineEffects(parsed.script);
  const { commands, hidden } = effects;
  const denied = firstLooseMatch(context.rules.deny, command, commands);
  if (denied !== null) return { verdict: 'deny', reason: `deny rule ${denied}` };
  const asked = firstLooseMatch(context.rules.ask, command, commands);
  if (asked !== null) return { verdict: 'ask', reason: `ask rule ${asked}` };
  // Hidden commands are out of reach of any rule check: the client's own check must decide, on the line as typed.
  if (context.rules.deny.length + context.rules.ask.length > 0) {
    if (hidden !== null) return { verdict: 'unknown', reason: `${hidden} hides commands from the deny/ask rules` };
    if (commands.some(dynamicProgram)) return { verdict: 'unknown', reason: 'a program name the shell computes hides it from the deny/ask rules' };
  }

  if (context.mode === 'bypassPermissions') return { verdict: 'allow', reason: 'permission mode bypassPermissions' };
  if (commands.length === 0) return { verdict: 'prompt', reason: 'not a plain list of simple commands' };
  // A substitution hides commands from the allow check, but not from the client's questions: a visible command it
  // surely asks about (`git commit -m "$(cat <<EOF …)"`) is still asked about, whatever the substitution runs.
  if (hidden !== null) return surelyAsked(commands, command, context) ?? { verdict: 'prompt', reason: `${hidden} may run commands` };
  // The client asks about `time ls` (permission differential): the keyword is no read-only command.
  if (parsed.script.list.items.some((chain) => chain.pipelines.some((pipeline) => pipeline.timed))) return { verdict: 'prompt', reason: 'timed with the time keyword' };
  // `{ cat README.md; } > ~/.bashrc` writes as surely as `cat > ~/.bashrc`; `[[ -f x ]]` is nothing we vouch for.
  const compound = effects.redirects.length > 0 ? 'a redirect' : effects.tests.length > 0 ? 'a [[ … ]] or (( … )) command' : null;
  const uncovered = commands.find((simple) => !simpleAllowed(simple, command, context));
  if (uncovered === undefined && compound === null) return { verdict: 'allow', reason: 'every command is allowed by your permission rules or read-only' };
  const why = uncovered === undefined ? `${compound} is not read-only` : `no allow rule covers: ${command.slice(uncovered.start, uncovered.end)}`;
  return surelyAsked(commands, command, context) ?? { verdict: 'prompt', reason: why };
}

/** The `asks` verdict when some command of the line is one Claude Code surely asks about; null otherwise. */
function surelyAsked(commands: readonly SimpleCommand[], source: string, context: PermissionContext): PermissionDecision | null {
  for (const simple of commands) {
    const argv = surelyAsks(simple, context.rules);
    if (argv !== null) {
      return { verdict: 'asks', reason: `Claude Code asks before running: ${source.slice(simple.start, simple.end)}`, allowAdvice: narrowedAdvice(argv) };
    }
  }
  return null;
}

/**
 * The words of the allow rule the dialog suggests: no broader than what was typed. `npm run build` gives
 * `npm run build` (not `npm run`, which would cover every script), `python3 -m pytest -q` gives `python3 -m pytest`,
 * `make -j4 test` gives `make -j4 test`. Every leading word is kept up to `--`, a word holding spaces or `*`, or an
 * option once the program and one more word are in (options before that select what runs: `-m pytest`, `-C dir`).
 */
/** Whether a standing rule may be suggested for this command (allow-advice.ts: only test, build and check runs), and
 * the rule as no broader than what was typed (`npm run build` -> `Bash(npm run build:*)`, never `Bash(npm run:*)`). */
function narrowedAdvice(argv: readonly string[]): AllowAdvice {
  return { ...adviseAllowRule(argv), rule: `Bash(${suggestedPrefix(argv).join(' ')}:*)` };
}

export function suggestedPrefix(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of argv) {
    if (word === '--' || /[\s*]/.test(word) || (word.startsWith('-') && out.length >= 2)) break;
    out.push(word);
  }
  return out;
}

/**
 * The program's static words when Claude Code surely asks before running this command: it runs project code and no
 * allow rule could cover it (allow rules matched loosely here, so that a rule we read differently from the client
 * keeps us out of its dialog); null otherwise.
 */
function surelyAsks(simple: SimpleCommand, rules: PermissionRules): readonly string[] | null {
  const resolved = resolveWrappers(simple.words);
  if (!resolved.ok) return null;
  const argv = staticPrefix(simple.words, resolved.programIndex);
  return runsProjectCode(argv) && firstLooseMatch(rules.allow, '', [simple]) === null ? argv : null;
}

/** One simple command is allowed when it has no redirects or env prefix and an allow rule or the read-only list covers it. */
function simpleAllowed(simple: SimpleCommand, source: string, context: PermissionContext): boolean {
  if (simple.redirects.length > 0 || simple.assignments.length > 0 || simple.words.length === 0) return false;
  const text = source.slice(simple.words[0]?.start ?? simple.start, simple.end).trim();
  if (context.rules.allow.some((rule) => strictMatch(rule, text))) return true;
  const argv = simple.words.map((word) => literalValue(word.text));
  if (argv.some((word) => word === null)) return false;
  return isReadOnlyAutoAllowed(argv as string[], context.projectDir, context.cwd ?? context.projectDir);
}

/**
 * The word lists a deny/ask rule is tried on, each from every position (a rule matches a list from some word on):
 * the words with and without the env prefix, and the words of every argument that holds spaces. Starting anywhere
 * sees through every wrapper the client sees through (`timeout 60`, `nice -n 5`, `env A=1`, `nohup`, `stdbuf -oL`,
 * `command`, with any options) and through the ones it does not (`bash -c 'git push'`, `xargs git push`): hands off
 * either way, so the client judges the line as typed.
 */
function ruleWordLists(simple: SimpleCommand): string[][] {
  const values = simple.words.map((word) => literalValue(word.text) ?? word.text);
  const lists = [values, [...simple.assignments.map((word) => word.text), ...simple.words.map((word) => word.text)]];
  for (const value of values) if (/\s/.test(value)) lists.push(value.split(/\s+/).filter((part) => part !== ''));
  return lists.filter((list) => list.length > 0);
}

/** A simple command whose program the shell computes (`$X push`): no rule can be matched against it. */
function dynamicProgram(simple: SimpleCommand): boolean {
  const first = simple.words[0];
  return first !== undefined && literalValue(first.text) === null;
}

/** A parsed `Tool(content)` rule; content null means the whole tool. */
export function parseRule(rule: string): { tool: string; content: string | null } | null {
  const match = /^\s*([A-Za-z0-9_.*-]+)\s*(?:\((.*)\))?\s*$/s.exec(rule);
  if (match === null) return null;
  const content = match[2];
  return { tool: match[1] ?? '', content: content === undefined || content.trim() === '' || content.trim() === '*' ? null : content.trim() };
}

function firstLooseMatch(rules: readonly string[], line: string, commands: readonly SimpleCommand[]): string | null {
  if (rules.length === 0) return null;
  const lists = commands.flatMap(ruleWordLists);
  for (const rule of rules) {
    const parsed = parseRule(rule);
    // A rule we cannot read might be a Bash rule: treat it as covering everything.
    if (parsed === null) return rule;
    if (parsed.tool !== 'Bash' && parsed.tool !== '*') continue;
    if (parsed.content === null) return rule;
    const pattern = loosePattern(parsed.content);
    const head = /^[^\s*]*/.exec(pattern)?.[0] ?? '';
    const matches = (text: string): boolean => wildcardMatch(pattern, text);
    if (matches(line.trim())) return rule;
    // Only positions whose word can begin a match are joined: a long line stays linear in practice.
    const hit = lists.some((list) => list.some((word, i) => (head === '' ? i === 0 : word.startsWith(head)) && matches(list.slice(i).join(' '))));
    if (hit) return rule;
  }
  return null;
}

/** Over-approximates Claude Code's matcher: `x:*`, `x *` and bare `x` all cover every command starting with x. */
function loosePattern(content: string): string {
  const pattern = content.endsWith(':*') ? `${content.slice(0, -2)}*` : content.includes('*') ? content : `${content}*`;
  return spaceBeforeFinalStarDropped(pattern).replace(/\s+/g, ' ');
}

/** `x *` as `x*` (what /\s+\*$/ did, without a regex that backtracks over a long run of spaces). */
function spaceBeforeFinalStarDropped(pattern: string): string {
  if (!pattern.endsWith('*')) return pattern;
  const head = pattern.slice(0, -1).trimEnd();
  return `${head}*`;
}

/** Under-approximates it: `x:*` needs x then a space or the end, `x` needs exactly x, `*` matches within the text. */
export function strictMatch(rule: string, text: string): boolean {
  const parsed = parseRule(rule);
  if (parsed === null || parsed.tool !== 'Bash') return false;
  if (parsed.content === null) return true;
  const content = parsed.content;
  if (content.endsWith(':*')) {
    const prefix = content.slice(0, -2);
    return !prefix.includes('*') && (text === prefix || text.startsWith(`${prefix} `));
  }
  return content.includes('*') ? wildcardMatch(content, text) : text === content;
}

