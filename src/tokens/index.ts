export { estimateTokens, type TokenMethod } from './estimate.ts';
export { countTokens, tokenCounter } from './count.ts';
