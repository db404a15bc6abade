// The layers of docs/architecture.md as dependency-cruiser rules, checked by test/unit/cli/layers.test.ts (its CLI
// needs Node 22; the suite runs its JS API). Bottom to top: contracts (src/protocol, src/config, src/shell,
// src/tokens, src/permissions) < storage (src/store) < engines (the rest of src/) < entry points (hooks/, commands/).
// A broken rule fails the test with the rule's name.

/** Entry points: the only code that does process I/O for a person or an agent. */
const ENTRY = '^(hooks|commands)/';
/** What the hook process loads: `tokenless hook` and the wrapper `tokenless run` (start-up latency budget). */
const HOOK_PATH = '^(hooks/hook|commands/run)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'engine-knows-no-entry-point',
      comment: 'src/ is pure engines over the native protocol: it never imports hooks/ or commands/ (they import it).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ENTRY },
    },
    {
      name: 'no-reducer-knows-an-agent',
      comment: 'Filters, compressors and reducers see argv and text only: no harness, SDK or agent transcript format.',
      severity: 'error',
      from: { path: '^src/(reduce|filters|compress)/' },
      to: { path: '^src/(harness|sdk|transcript|gateway|server)/' },
    },
    {
      name: 'storage-knows-nothing-above-it',
      comment: 'src/store/ imports only itself and the contracts layer (its limits and data dir come from src/config/).',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^(src|hooks|commands)/', pathNot: '^src/(store|config|protocol|tokens)/' },
    },
    {
      name: 'contracts-know-no-storage',
      comment: 'The contracts (protocol schemas, config, shell syntax, tokens, permission tables) import no store, no engine, no entry point.',
      severity: 'error',
      from: { path: '^src/(protocol|config|shell|tokens|permissions)/' },
      to: { path: '^(src|hooks|commands)/', pathNot: '^src/(protocol|config|shell|tokens|permissions)/' },
    },
    {
      name: 'hook-path-never-loads-ink',
      comment: 'Nothing the hook or the wrapper can load (static or lazy import) reaches Ink, React or commands/ui/.',
      severity: 'error',
      from: { path: HOOK_PATH },
      to: { path: '^commands/ui/|(^|/)node_modules/(ink|react)/|^(ink|react)$', reachable: true },
    },
    {
      name: 'no-circles',
      comment: 'No module imports itself through others (type-only imports count: a circle is a circle to a reader).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    // Resolve ESM-only packages (ink) through their export conditions, as Node and esbuild do.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
