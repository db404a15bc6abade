export * from './schemas.ts';
export { parseRequest, describeIssues, type ParseOutcome } from './parse.ts';
