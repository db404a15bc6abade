// The rewrite module's public surface.

export { planRewrite } from './plan.ts';
export { explainRewrite } from './explain.ts';
export { staticArgv } from './static-argv.ts';
export type { RewriteGuard, RewriteInsertion, RewriteOptions, RewritePlan, RewriteSegment, SegmentAction } from './types.ts';
