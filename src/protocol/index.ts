export * from './schemas.ts';
export { parseRequest, type ParseOutcome } from './parse.ts';
export { describeIssues } from './issues.ts';
