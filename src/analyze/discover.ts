/**
 * Discovery (`syt discover`): which of a person's own commands cost the most tokens and got no view, measured by the
 * session replay (the same hooks and permission mode as `npm run bench:sessions`), and a starting filter file for
 * one of them, written from its recorded outputs with those outputs as inline tests. Only Bash calls that ran and
 * reached the hooks count; what the replay already saves is shown beside what is left.
 */
import { DEFAULT_VIEW_MIN_BYTES } from '../config/view-threshold.ts';
import { filtersFromSpecs } from '../filters/file/build.ts';
import { draftSpec, type DraftInput } from '../filters/file/draft.ts';
import { findFilter } from '../filters/registry.ts';
import { fileFilterVerdict } from '../runtime/file-filter-view.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import { literalValue } from '../shell/word.ts';
import { parseShell, simpleCommands } from '../shell/parse.ts';
import type { CallReplay, SessionReplay } from '../replay/session-replay.ts';
import type { RecordedSession } from '../replay/transcript.ts';

export interface CommandCost {
  /** The command as a filter would name it: `make check`, `npm run test`, `./scripts/ci.sh`. */
  readonly key: string;
  readonly calls: number;
  readonly failed: number;
  readonly sessions: number;
  /** o200k tokens the agent saw from these calls without us, and with today's filters. */
  readonly before: number;
  readonly after: number;
  /** Calls whose output got no smaller today. */
  readonly unviewed: number;
  /** Tokens of the calls that got no view. */
  readonly unviewedTokens: number;
  /** Calls a drafted filter file could view (`RecordedOutput.draftable`). */
  readonly draftable: number;
  /** What a file drafted from the draftable outputs saves on them, as the arbitration would adopt it: the ranking. */
  readonly draftSaves: number;
}

export interface RecordedOutput {
  readonly toolUseId: string;
  readonly key: string;
  readonly command: string;
  readonly output: string;
  readonly failed: boolean;
  readonly session: string;
  /** Left whole by today's filters, no built-in filter for its program (a draft comes after the built-ins, so it
   * never runs for those), and at least the view threshold long: what a drafted filter file could view. */
  readonly draftable: boolean;
}

/** Programs whose first word after the name (or after `run`) is what the command does. */
const RUNNERS_WITH_TARGET = new Set(['npm', 'pnpm', 'yarn', 'bun', 'mise', 'just', 'make', 'task', 'cargo', 'go', 'uv', 'poetry', 'gh', 'docker', 'kubectl', 'git', 'npx', 'pnpx', 'bunx', 'deno', 'dotnet', 'gradle', './gradlew', 'mvn', 'rake', 'bundle', 'composer', 'php', 'terraform', 'helm', 'nx', 'turbo']);
const RUN_WORDS = new Set(['run', 'exec', 'x', 'dlx']);

/**
 * The key of the command line's main program: its first simple command after `cd …`, without `NAME=value`
 * prefixes and `timeout`/`env`-style wrappers; the program by basename unless typed as a path, then its target for
 * task runners (`npm run test`, `make check`, `cargo test`). Null for lines the parser cannot read.
 */
export function commandKey(line: string): string | null {
  return mainCommand(line)?.key ?? null;
}

/** The command line's main program as `commandKey` finds it: its key and its argv (wrappers removed). */
export function mainCommand(line: string): { readonly key: string; readonly argv: readonly string[] } | null {
  const parsed = parseShell(line);
  if (parsed.kind !== 'parsed') return null;
  for (const command of simpleCommands(parsed.script.list)) {
    const words = command.words.map((word) => literalValue(word.text) ?? word.text);
    const argv = unwrap(words);
    const program = argv[0];
    if (program === undefined || program === 'cd' || program === 'pushd' || program === 'export' || program === 'source' || program === '.') continue;
    return { key: keyOf(program, argv), argv };
  }
  return null;
}

function keyOf(program: string, argv: readonly string[]): string {
  const name = program.includes('/') && !program.startsWith('/') ? program : program.slice(program.lastIndexOf('/') + 1);
  if (INTERPRETERS.has(name)) return interpreterKey(name, argv.slice(1));
  if (!RUNNERS_WITH_TARGET.has(name)) return name;
  const rest = argv.slice(1).filter((word) => !word.startsWith('-'));
  const first = rest[0];
  if (first === undefined) return name;
  if (RUN_WORDS.has(first) && rest[1] !== undefined) return `${name} ${first} ${rest[1]}`;
  return `${name} ${first}`;
}

const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'perl', 'bash', 'sh', 'zsh', 'tsx', 'ts-node', 'php']);

/** `python -m pytest`, `python -c`, `node scripts/build.mjs`: the module or script is what the command does. */
function interpreterKey(name: string, args: readonly string[]): string {
  const module = args.indexOf('-m');
  if (module !== -1 && args[module + 1] !== undefined) return `${name} -m ${args[module + 1]}`;
  const inline = args.find((arg) => arg === '-c' || arg === '-e');
  if (inline !== undefined) return `${name} ${inline}`;
  const script = args.find((arg) => !arg.startsWith('-'));
  return script === undefined ? name : `${name} ${script}`;
}

const WRAPPERS = new Set(['timeout', 'nice', 'env', 'nohup', 'time', 'command', 'stdbuf', 'ionice', 'xvfb-run']);

function unwrap(words: readonly string[]): readonly string[] {
  let argv = words;
  for (let depth = 0; depth < 4; depth++) {
    const head = argv[0];
    if (head === undefined || !WRAPPERS.has(head)) return argv;
    let i = 1;
    // Options and their values (`timeout 60`, `nice -n 5`, `env A=1`).
    while (i < argv.length && (argv[i]?.startsWith('-') || /^\d+[smhd]?$/.test(argv[i] ?? '') || /^[A-Za-z_]\w*=/.test(argv[i] ?? ''))) i++;
    argv = argv.slice(i);
  }
  return argv;
}

/** Bash calls that ran, each with its key and its replay, across sessions. */
function bashCalls(sessions: readonly RecordedSession[], replays: readonly SessionReplay[]): { output: RecordedOutput; replay: CallReplay }[] {
  const out: { output: RecordedOutput; replay: CallReplay }[] = [];
  sessions.forEach((session, s) => {
    const replay = replays[s];
    if (replay === undefined) return;
    session.calls.forEach((call, c) => {
      const result = replay.calls[c];
      if (call.tool !== 'Bash' || result === undefined || !result.ran) return;
      const command = typeof call.input['command'] === 'string' ? call.input['command'] : '';
      const main = mainCommand(command);
      if (main === null) return;
      const draftable = result.after >= result.before && Buffer.byteLength(call.content) >= DEFAULT_VIEW_MIN_BYTES && findFilter(main.argv) === null;
      out.push({
        output: { toolUseId: call.toolUseId, key: main.key, command, output: call.content, failed: result.failed, session: session.sessionId, draftable },
        replay: result,
      });
    });
  });
  return out;
}

type Counter = (text: string) => number;

/**
 * Commands ranked by what a drafted filter file would save on their outputs that got no view (not by raw tokens:
 * a long output with nothing repeated, or one a built-in filter already owns, is no draft's to save), then by the
 * tokens left whole.
 */
export function rankCommands(sessions: readonly RecordedSession[], replays: readonly SessionReplay[], countTokens: Counter = estimateTokens): CommandCost[] {
  const rows = new Map<string, { calls: number; failed: number; sessions: Set<string>; before: number; after: number; unviewed: number; unviewedTokens: number; draftable: DraftInput[] }>();
  for (const { output, replay } of bashCalls(sessions, replays)) {
    const row = rows.get(output.key) ?? { calls: 0, failed: 0, sessions: new Set<string>(), before: 0, after: 0, unviewed: 0, unviewedTokens: 0, draftable: [] };
    row.calls++;
    if (output.failed) row.failed++;
    row.sessions.add(output.session);
    row.before += replay.before;
    row.after += replay.after;
    if (replay.after >= replay.before) {
      row.unviewed++;
      row.unviewedTokens += replay.before;
    }
    if (output.draftable) row.draftable.push({ output: output.output, failed: output.failed });
    rows.set(output.key, row);
  }
  return [...rows.entries()]
    .map(([key, row]) => ({
      key,
      calls: row.calls,
      failed: row.failed,
      sessions: row.sessions.size,
      before: row.before,
      after: row.after,
      unviewed: row.unviewed,
      unviewedTokens: row.unviewedTokens,
      draftable: row.draftable.length,
      draftSaves: draftSaving(key, row.draftable, countTokens),
    }))
    .sort((a, b) => b.draftSaves - a.draftSaves || b.unviewedTokens - a.unviewedTokens || a.key.localeCompare(b.key));
}

/**
 * Tokens a filter file drafted from `outputs` saves on those same outputs, each view counted only when the one
 * arbitration would adopt it (shorter with its retrieval line, and by enough for a lossy view). In-sample: it ranks
 * candidates; what a draft saves on outputs it was not written from is `npm run bench:discover`'s question.
 */
export function draftSaving(key: string, outputs: readonly DraftInput[], countTokens: Counter = estimateTokens): number {
  if (outputs.length === 0) return 0;
  const [filter] = filtersFromSpecs([['draft', draftSpec(key, outputs)]], 'draft.toml', 'user', '').filters;
  if (filter === undefined) return 0;
  let saved = 0;
  for (const { output, failed } of outputs) {
    const command = { argv: key.split(' '), stdout: output, stderr: '', exitCode: failed ? 1 : 0 };
    const verdict = fileFilterVerdict(filter, command);
    if (verdict.kind === 'shown') saved += Math.max(0, countTokens(output) - countTokens(verdict.candidate.output));
  }
  return saved;
}

/** The recorded outputs of one command key, in session order. */
export function outputsOf(key: string, sessions: readonly RecordedSession[], replays: readonly SessionReplay[]): RecordedOutput[] {
  return bashCalls(sessions, replays).filter(({ output }) => output.key === key).map(({ output }) => output);
}
