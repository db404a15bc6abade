/**
 * The one content policy `tokenless run` and post_tool share: what a piece of tool output may become, decided
 * from where it came from (the declared origin, and the programs that printed it) and what it is.
 *
 * - A file the agent may edit (source, docs, config: `.ts`, `.py`, `.md`, `.toml`, `package.json`, …) read through
 *   the shell, or any `Read` result, stays byte-exact: agents edit against what they read.
 * - A data file read through the shell (`cat`, `head`, `tail`, `sed -n`, `bat`, `nl`, `less`, `more`) is routed by
 *   its kind, named by the file (lockfile, log, JSON, JSON Lines, CSV/TSV, minified) or, for a name that says
 *   nothing (`cat /var/log/syslog`, a pipe), by its content; text and code of unknown kind stay exact.
 * - Program output (jq, curl, a command whose own filter declined) and API responses get the content compressors
 *   of their content type, plus the record, lockfile and minified views when the content is one.
 *
 * Lossless candidates come first in arbitration's tie-break; lossy ones carry their marker line in their output,
 * so the runtime's "does it pay" check counts what they really cost.
 */
import { invocation } from '../reduce/argv.ts';
import type { Candidate } from '../reduce/candidate.ts';
import type { ReduceContext } from '../reduce/context.ts';
import { classifyContent } from './classify.ts';
import { parseJsonCached } from './json-scan.ts';
import { lockfileFormatOfContent, lockfileFormatOfName, lockfileView, type LockfileFormat } from './lockfile.ts';
import { cleanLog, foldLog } from './log.ts';
import { looksMinified, minifiedView } from './minified.ts';
import { jsonLinesView, tableSampleView } from './records.ts';
import { candidatesFor } from './registry.ts';
import { compactTable } from './table.ts';
import type { ContentOrigin, ContentType } from './types.ts';

export interface ContentSource {
  readonly origin: ContentOrigin;
  readonly toolName: string;
  /**
   * The programs whose output this is, as argv, in the order they ran; the last is the one that printed it (for a
   * pipeline ending in `head`/`tail`/`grep`…, the stage that produced the content). Empty when unknown.
   */
  readonly commands?: readonly (readonly string[])[];
}

export type FileKind = 'editable' | 'lockfile' | 'log' | 'json' | 'jsonl' | 'table' | 'minified';

export interface Routed {
  readonly contentType: ContentType;
  /** Why these candidates: `file content`, `editable file`, `log file`, `program output`, … */
  readonly route: string;
  readonly candidates: Candidate[];
}

/** Every candidate the policy allows for `content`; the caller arbitrates and commits. */
export function routeContent(content: string, source: ContentSource, context: ReduceContext): Routed {
  const contentType = classifyContent(content);
  const none = (route: string): Routed => ({ contentType, route, candidates: [] });
  if (source.origin === 'file_content') return none('file content');
  const commands = source.commands ?? [];
  const reads = commands.map(fileReadOperands);
  if (reads.some((files) => files !== null && files.some((file) => fileKind(file, content) === 'editable'))) return none('editable file');
  // A read of stdin (`… | tail -50`) shows what the stage before it produced.
  let last = reads.length - 1;
  while (last > 0 && reads[last]?.length === 0) last--;
  const producer = reads[last];
  if (producer !== undefined && producer !== null) {
    const kinds = new Set(producer.map((file) => fileKind(file, content)));
    const named = kinds.size === 1 ? [...kinds][0] : undefined;
    const kind = named === undefined || named === null || named === 'editable' ? kindOfContent(content, contentType) : named;
    if (kind === null) return none('file of unknown kind');
    const name = producer.length === 1 ? basename(producer[0] as string) : 'files';
    return { contentType, route: `${kind} file`, candidates: kindCandidates(kind, content, name, contentType, source, context) };
  }
  const candidates = candidatesFor({ content, origin: source.origin, toolName: source.toolName, contentType }, context);
  const kind = kindOfContent(content, contentType);
  if (kind !== null && kind !== 'json' && kind !== 'log' && source.toolName !== 'Grep') {
    candidates.push(...kindViews(kind, content, 'output'));
  }
  return { contentType, route: 'program output', candidates };
}

/** Candidates for a data file of a known kind. */
function kindCandidates(kind: Exclude<FileKind, 'editable'>, content: string, name: string, contentType: ContentType, source: ContentSource, context: ReduceContext): Candidate[] {
  const input = { content, origin: source.origin, toolName: source.toolName, contentType };
  switch (kind) {
    case 'json':
      return contentType === 'json' ? candidatesFor(input, context) : [];
    case 'log':
      // Structured logs (pino, bunyan, JSON lines): routed as the JSON they are.
      if (contentType === 'json') return kindCandidates(kindOfContent(content, contentType) ?? 'json', content, name, contentType, source, context);
      return nonNull([cleanLog(input, context), foldLog(input, context)]);
    case 'table':
      return nonNull([compactTable(input, context), ...kindViews('table', content, name)]);
    default:
      return [...(contentType === 'json' ? candidatesFor(input, context) : []), ...kindViews(kind, content, name)];
  }
}

/** The summarising views of a kind (retrievable); empty when the content does not read as that kind. */
function kindViews(kind: 'lockfile' | 'jsonl' | 'table' | 'minified', content: string, name: string): Candidate[] {
  switch (kind) {
    case 'lockfile': {
      const format: LockfileFormat | null = lockfileFormatOfName(name) ?? lockfileFormatOfContent(content);
      return format === null ? [] : nonNull([lockfileView(content, format, name === 'output' || name === 'files' ? `${format} lockfile` : name)]);
    }
    case 'jsonl':
      return nonNull([jsonLinesView(content)]);
    case 'table':
      return nonNull([tableSampleView(content)]);
    case 'minified':
      return nonNull([minifiedView(content)]);
  }
}

/** A kind read from the content alone, for names that say nothing and for program output. */
function kindOfContent(content: string, contentType: ContentType): Exclude<FileKind, 'editable'> | null {
  if (lockfileFormatOfContent(content) !== null) return 'lockfile';
  if (contentType === 'json') return parseJsonCached(content)?.kind === 'lines' ? 'jsonl' : 'json';
  if (contentType === 'build_log' || contentType === 'stack_trace') return 'log';
  if (contentType === 'tabular') return 'table';
  if (looksMinified(content)) return 'minified';
  return null;
}

const SOURCE_EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs py pyi go rs java kt kts scala c h cc cpp cxx hpp hh cs fs rb php swift m mm ' +
    'sh bash zsh fish ps1 lua pl pm r jl ex exs erl hs ml clj dart zig nim v sol sql vue svelte astro ' +
    'css scss sass less html htm xml xsl svg graphql gql proto tf hcl nix cmake mk gradle ' +
    'md mdx markdown rst adoc txt tex org ' +
    'toml yaml yml ini cfg conf properties env editorconfig gitignore gitattributes dockerignore npmrc nvmrc lock'
  ).split(' '),
);
/** JSON files a person writes and edits; other `.json` files are data. */
const CONFIG_JSON = /^(?:package|composer|deno|tsconfig(?:\..+)?|jsconfig|app|manifest|angular|nx|project|lerna|turbo|vercel|renovate|firebase|settings|launch|tasks|extensions|\.?babelrc|\.?eslintrc|\.?prettierrc|\.?stylelintrc|\.?swcrc|biome|jest\.config|.+\.config)\.json5?$|^\.[a-z]+rc$/;
const EDITABLE_NAMES = /^(?:Makefile|GNUmakefile|Dockerfile|Containerfile|Gemfile|Rakefile|Procfile|Vagrantfile|Jenkinsfile|Justfile|justfile|BUILD|WORKSPACE|CMakeLists\.txt|LICENSE|COPYING|README|CHANGELOG|CHANGES|AUTHORS|CONTRIBUTING|NOTICE|CODEOWNERS)(?:\..+)?$/;

/** What a file is, from its path; content decides only between code and a minified bundle. */
export function fileKind(path: string, content: string): FileKind | null {
  const name = basename(path);
  if (lockfileFormatOfName(name) !== null) return 'lockfile';
  const lower = name.toLowerCase();
  if (/\.min\.(?:js|mjs|cjs|css)$/.test(lower) || /\.(?:js|css)\.map$/.test(lower)) return lower.endsWith('.map') ? 'json' : 'minified';
  if (/\.log(?:\.\d+)?$|\.(?:out|err)$/.test(lower) || /^\/var\/log\//.test(path) || /^(?:syslog|messages|access_log|error_log)(?:\.\d+)?$/.test(lower)) return 'log';
  if (/\.(?:jsonl|ndjson)$/.test(lower)) return 'jsonl';
  if (/\.(?:csv|tsv)$/.test(lower)) return 'table';
  if (/\.(?:json|geojson)$/.test(lower)) return CONFIG_JSON.test(name) ? 'editable' : 'json';
  if (EDITABLE_NAMES.test(name) || name.startsWith('.env')) return 'editable';
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext !== undefined && SOURCE_EXTENSIONS.has(ext)) return looksMinified(content) && /^(?:js|mjs|cjs|css)$/.test(ext) ? 'minified' : 'editable';
  return null;
}

function basename(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

const BAT_VALUE_FLAGS: ReadonlySet<string> = new Set(['-l', '-r', '-H', '-m', '--language', '--line-range', '--highlight-line', '--map-syntax', '--style', '--theme', '--tabs', '--terminal-width', '--wrap', '--color', '--paging', '--decorations']);
/** Flags of the read commands that take a value as the next argument. */
const VALUE_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  head: new Set(['-n', '-c', '--lines', '--bytes']),
  tail: new Set(['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid']),
  sed: new Set(['-e', '-f', '-l', '--expression', '--file', '--line-length']),
  bat: BAT_VALUE_FLAGS,
  batcat: BAT_VALUE_FLAGS,
  nl: new Set(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']),
  less: new Set(['-b', '-h', '-j', '-k', '-o', '-O', '-p', '-P', '-t', '-T', '-x', '-y', '-z']),
  more: new Set(['-n']),
};
const READERS = new Set(['cat', 'head', 'tail', 'sed', 'bat', 'batcat', 'nl', 'less', 'more', 'tac']);

/**
 * The files a command prints as they are (`cat a b`, `head -n 40 f`, `sed -n 1,9p f`): null when the command is
 * not such a read (jq, a program, `sed` that edits or has no `-n`); an empty list when it reads stdin.
 */
export function fileReadOperands(argv: readonly string[]): string[] | null {
  const inv = invocation(argv);
  if (inv === null || !READERS.has(inv.tool)) return null;
  const { tool: program, args } = inv;
  if (program === 'sed' && (!args.some((a) => a === '-n' || a === '--quiet' || a === '--silent' || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a)) || args.some((a) => a.startsWith('-i') || a.startsWith('--in-place')))) {
    return null;
  }
  const valueFlags = VALUE_FLAGS[program] ?? new Set<string>();
  const files: string[] = [];
  let scriptSeen = program !== 'sed' || args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression') || a.startsWith('--file'));
  let endOfFlags = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!endOfFlags && arg === '--') {
      endOfFlags = true;
      continue;
    }
    if (!endOfFlags && arg.startsWith('-') && arg !== '-') {
      if (valueFlags.has(arg)) i++;
      continue;
    }
    if (!scriptSeen) {
      scriptSeen = true;
      continue;
    }
    if (arg !== '-') files.push(arg);
  }
  return files;
}

function nonNull(candidates: readonly (Candidate | null)[]): Candidate[] {
  return candidates.filter((c): c is Candidate => c !== null);
}
