/**
 * The SDK alone: the four lifecycles an adapter maps its framework's hooks onto. Offline; prints the savings.
 * Run: npm run examples (or node examples/run-all.mjs sdk-lifecycles)
 */
import { TokenlessSdk } from '../src/index.ts';
import { grepHits, print, printSavings, tempDataDir, versionsJson } from './shared.ts';

const data = tempDataDir();
const sdk = new TokenlessSdk({ dataDir: data.dir, wrapperCommand: '/usr/local/bin/tokenless' });
const session = { agent_id: 'example-agent', session_id: 'example-session' };
try {
  // before_model: recoverable schema compression; the adapter keeps the visible markers in its own session state.
  const tools = [
    { type: 'function', function: { name: 'npm_view', description: `Look up a package in the npm registry. ${'Returns the metadata the registry holds for the package, including every published version, its dist-tags and maintainers. '.repeat(12)}`, parameters: { type: 'object', properties: { name: { type: 'string', description: 'The package name' } }, required: ['name'] } } },
  ];
  const prepared = await sdk.beforeModel({ attribution: session, input: { tools } });
  const visible = new Set(prepared.visible_markers);
  print(`before_model: ${prepared.disposition}, ${JSON.stringify(tools).length} -> ${JSON.stringify(prepared.tools).length} bytes of tool schemas, retrieve tool ${prepared.retrieve_tool === undefined ? 'not ' : ''}published`);

  // pre_tool: the command argument the adapter names is rewritten to run through the wrapper.
  const rewrite = await sdk.preTool({ attribution: { ...session, tool_use_id: 'call-1' }, input: { tool_name: 'bash', arguments: { command: 'git status' }, command_field: 'command' } });
  print(`pre_tool: ${rewrite.action}${rewrite.arguments !== undefined ? ` -> ${String(rewrite.arguments['command'])}` : ''}`);

  // post_tool: a lossy view with a marker, and a lossless one.
  const versions = versionsJson('express');
  const lossy = await sdk.postTool({ attribution: { ...session, tool_use_id: 'call-2' }, input: { tool_name: 'npm_view', status: 'success', origin: 'api_response', content: versions } });
  for (const key of lossy.visible_markers) visible.add(key);
  print(`post_tool (npm_view): ${lossy.disposition} ${lossy.applied_operations.join(',')} ${lossy.before_tokens} -> ${lossy.after_tokens} tokens, ${lossy.recoverability}`);
  const lossless = await sdk.postTool({ attribution: { ...session, tool_use_id: 'call-3' }, input: { tool_name: 'search', status: 'success', origin: 'api_response', content: grepHits() } });
  print(`post_tool (search): ${lossless.disposition} ${lossless.applied_operations.join(',')} ${lossless.before_tokens} -> ${lossless.after_tokens} tokens, ${lossless.recoverability}`);

  // retrieve: byte-exact, and only for markers this session was shown.
  const [key] = lossy.stash_keys;
  if (key !== undefined) {
    const back = await sdk.retrieve({ attribution: session, input: { marker: `<<tokenless:${key}>>`, visible_markers: [...visible] } });
    print(`retrieve: ${back.content === versions ? 'byte-exact original' : 'MISMATCH'}`);
    const refused = await sdk.retrieve({ attribution: { ...session, session_id: 'another-session' }, input: { marker: key, visible_markers: [] } }).then(() => 'answered (leak!)', (error: unknown) => (error instanceof Error ? error.message : String(error)));
    print(`retrieve from another session: ${refused}`);
  }
  printSavings('savings', sdk);
} finally {
  sdk.close();
  data.remove();
}
