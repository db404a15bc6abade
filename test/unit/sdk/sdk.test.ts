import { afterEach, describe, expect, it } from 'vitest';
import { TokenlessError, TokenlessSdk, ToolContracts, stashKeyFor } from '../../../src/index.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const temp = useTempDirs();
const open: TokenlessSdk[] = [];
afterEach(() => {
  for (const sdk of open.splice(0)) sdk.close();
});
const make = (config: ConstructorParameters<typeof TokenlessSdk>[0] = {}): TokenlessSdk => {
  const sdk = new TokenlessSdk({ dataDir: temp(), ...config });
  open.push(sdk);
  return sdk;
};

const VERSIONS = loadCorpusCase('data-npm-view-versions-json').stdout;
const GREP = loadCorpusCase('search-grep-rn-many-hits-express').stdout;
const who = { agent_id: 'agent', session_id: 's1', tool_use_id: 't1' };
const post = (content: string, origin: 'api_response' | 'command_output' = 'api_response') =>
  ({ attribution: who, input: { tool_name: 'fetch', status: 'success' as const, origin, content } });

describe('TokenlessSdk', () => {
  it('rejects an invalid config object naming the field', () => {
    expect(() => new TokenlessSdk({ dataDir: '' })).toThrow(/dataDir/);
    expect(() => new TokenlessSdk({ retrieveToolName: 'has space' })).toThrow(TokenlessError);
    // @ts-expect-error an unknown key is a typo, not a silent no-op
    expect(() => new TokenlessSdk({ dryrun: true })).toThrow(/invalid TokenlessSdk config/);
  });

  it('rejects an invalid call with invalid_input, through the native envelope schema', async () => {
    const sdk = make();
    await expect(sdk.postTool({ attribution: { agent_id: 'a', session_id: 's' }, input: post('x').input })).rejects.toMatchObject({ code: 'invalid_input', message: /tool_use_id/ });
    await expect(sdk.retrieve({ attribution: who, input: { marker: '', visible_markers: [] } })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('compresses, stashes and retrieves byte-exactly; an unauthorised marker is operation_failed', async () => {
    const sdk = make();
    const result = await sdk.postTool(post(VERSIONS));
    expect(result).toMatchObject({ disposition: 'applied', recoverability: 'retrievable' });
    const [key] = result.stash_keys;
    expect(key).toBeDefined();
    const back = await sdk.retrieve({ attribution: who, input: { marker: `<<tokenless:${key}>>`, visible_markers: result.visible_markers } });
    expect(back.content).toBe(VERSIONS);
    await expect(sdk.retrieve({ attribution: { agent_id: 'agent', session_id: 'other' }, input: { marker: `<<tokenless:${key}>>`, visible_markers: [] } })).rejects.toMatchObject({ code: 'operation_failed' });
  });

  it('honours the per-domain switch for search-path sharing and dry run', async () => {
    expect((await make().postTool(post(GREP))).applied_operations).toEqual(['search_path_sharing']);
    expect((await make({ searchPathSharing: false }).postTool(post(GREP))).disposition).not.toBe('applied');
    const dry = await make({ dryRun: true }).postTool(post(VERSIONS));
    expect(dry.disposition).toBe('dry_run');
    expect(dry.output).toBe(VERSIONS);
  });

  it('passes everything through when disabled', async () => {
    const sdk = make({ disabled: true });
    expect((await sdk.postTool(post(VERSIONS))).disposition).toBe('passthrough');
    expect((await sdk.preTool({ attribution: who, input: { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' } })).action).toBe('passthrough');
  });

  it('rewrites a command with the configured wrapper', async () => {
    const result = await make({ wrapperCommand: '/opt/tokenless' }).preTool({ attribution: who, input: { tool_name: 'Bash', arguments: { command: 'git status', timeout: 5 }, command_field: 'command' } });
    expect(result.action).toBe('replace_arguments');
    expect(result.arguments?.['timeout']).toBe(5);
    expect(String(result.arguments?.['command'])).toContain('/opt/tokenless run -- git status');
  });

  it('publishes the retrieve tool under the configured name, and not twice', async () => {
    const sdk = make({ retrieveToolName: 'recover' });
    const description = `Look up a package in the npm registry. ${'Returns the metadata the registry holds for the package, including every published version, its dist-tags and maintainers. '.repeat(12)}`;
    const long = { type: 'function', function: { name: 'look', description, parameters: { type: 'object', properties: { name: { type: 'string', description: 'The package name' } }, required: ['name'] } } };
    const result = await sdk.beforeModel({ attribution: who, input: { tools: [long] } });
    expect(result.visible_markers.length).toBeGreaterThan(0);
    expect(result.retrieve_tool).toMatchObject({ function: { name: 'recover' } });
    const offered = { type: 'function', function: { name: 'recover', parameters: { type: 'object' } } };
    expect((await sdk.beforeModel({ attribution: who, input: { tools: [long, offered] } })).retrieve_tool).toBeUndefined();
    await expect(sdk.beforeModel({ attribution: who, input: { tools: [long, long] } })).rejects.toMatchObject({ code: 'operation_failed', message: /duplicate tool name/ });
  });

  it('opens stats lazily and reads what the lifecycles recorded', async () => {
    const sdk = make();
    expect(sdk.stats.status().health).toBe('missing');
    expect(sdk.stats.summary().totals.records).toBe(0);
    await sdk.postTool(post(VERSIONS));
    expect(sdk.stats.summary().totals.records).toBe(1);
    const [row] = sdk.stats.list({ session: 's1' });
    expect(row?.operation).toBe('json_truncate');
    expect(sdk.stats.show(row?.id ?? -1)?.before_digest).toBe(stashKeyFor(VERSIONS));
    expect(sdk.stats.diff(row?.id ?? -1)?.before.bytes).toBe(Buffer.byteLength(VERSIONS));
    expect(sdk.stats.diff(row?.id ?? -1)?.retrieve[0]).toMatch(/^tokenless retrieve \d{29}$/);
    expect(sdk.stats.compare('base', 's1').session.totals.records).toBe(1);
  });

  it('rejects calls after close', async () => {
    const sdk = make();
    sdk.close();
    await expect(sdk.postTool(post('x'))).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('ToolContracts', () => {
  it('validates contracts and passes unregistered or opted-out tools through', () => {
    const contracts = ToolContracts.from({ grep: { origin: 'api_response' }, raw: { origin: 'api_response', compress: false } });
    expect(contracts.postToolInput('grep', 'x', 'success')).toEqual({ tool_name: 'grep', status: 'success', origin: 'api_response', content: 'x' });
    expect(contracts.postToolInput('raw', 'x', 'success')).toBeNull();
    expect(contracts.postToolInput('custom', 'x', 'success')).toBeNull();
    // @ts-expect-error origin is declared, never guessed
    expect(() => ToolContracts.from({ bad: { origin: 'guess' } })).toThrow(/invalid tool contracts/);
  });
});
