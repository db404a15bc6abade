/**
 * Rewrites one JSON Schema into canonical key order and drops keywords that cannot change which instances are
 * valid (annotations the model gains nothing from, and constraints that are already the default). Values of
 * `enum`, `const`, `default` and `examples` are data, never walked. Property order is the author's and is kept.
 */
import { isObject, type JsonObject } from './tool-shape.ts';

/** Keywords first, in this order; every other keyword follows alphabetically. */
const KEYWORD_ORDER = [
  '$id', '$ref', '$anchor', 'type', 'title', 'description', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf', 'items', 'prefixItems', 'additionalItems',
  'contains', 'minItems', 'maxItems', 'uniqueItems', 'properties', 'patternProperties', 'additionalProperties',
  'propertyNames', 'required', 'dependentRequired', 'dependentSchemas', 'minProperties', 'maxProperties', 'anyOf',
  'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'default', 'examples', '$defs', 'definitions',
] as const;
const RANK = new Map<string, number>(KEYWORD_ORDER.map((key, index) => [key, index]));

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** Dialects whose keyword meanings the providers apply anyway, so naming them changes nothing. */
const DEFAULT_DIALECTS = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);

/** Keyword/value pairs that are the specification's defaults (or pure annotations set to "no"). */
const NO_OP_VALUES: Readonly<Record<string, unknown>> = {
  minLength: 0,
  minItems: 0,
  minProperties: 0,
  uniqueItems: false,
  deprecated: false,
  readOnly: false,
  writeOnly: false,
};

export interface PruneOptions {
  /** Parameter descriptions longer than this are cut (the tool's original is stashed); 0 keeps them whole. */
  readonly maxDescription: number;
  readonly shorten: (text: string, max: number) => string;
}

export interface PruneReport {
  removed: number;
  shortened: number;
}

/** Returns the pruned schema and what was done; the input is not modified. */
export function pruneSchema(schema: JsonObject, options: PruneOptions): { schema: JsonObject; report: PruneReport } {
  const report: PruneReport = { removed: 0, shortened: 0 };
  // "Evaluated" annotations feed unevaluatedProperties/Items: there even a default-valued keyword matters.
  const annotationsMatter = /"unevaluated(Properties|Items)"/.test(JSON.stringify(schema));
  return { schema: walk(schema, null, true, { ...options, annotationsMatter }, report), report };
}

interface WalkOptions extends PruneOptions {
  readonly annotationsMatter: boolean;
}

function walk(node: JsonObject, propertyName: string | null, isRoot: boolean, options: WalkOptions, report: PruneReport): JsonObject {
  const out: JsonObject = {};
  for (const key of canonicalKeys(node)) {
    const value = node[key];
    if (isRedundant(key, value, propertyName, isRoot, options)) {
      report.removed += 1;
      continue;
    }
    out[key] = rewriteValue(key, value, options, report);
  }
  return out;
}

function rewriteValue(key: string, value: unknown, options: WalkOptions, report: PruneReport): unknown {
  if (key === 'description' && typeof value === 'string' && options.maxDescription > 0) {
    const short = options.shorten(value, options.maxDescription);
    if (short !== value) report.shortened += 1;
    return short;
  }
  if (key === 'type' && Array.isArray(value) && value.length === 1) return value[0];
  if (SCHEMA_MAPS.has(key) && isObject(value)) {
    const map: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) map[name] = isObject(sub) ? walk(sub, key === 'properties' ? name : null, false, options, report) : sub;
    return map;
  }
  if ((SCHEMA_ONE.has(key) || key === 'items') && isObject(value)) return walk(value, null, false, options, report);
  if ((SCHEMA_LIST.has(key) || key === 'items') && Array.isArray(value)) {
    return value.map((sub: unknown) => (isObject(sub) ? walk(sub, null, false, options, report) : sub));
  }
  return value;
}

function isRedundant(key: string, value: unknown, propertyName: string | null, isRoot: boolean, options: WalkOptions): boolean {
  if (key === '$comment') return true;
  if (key === '$schema') return isRoot && typeof value === 'string' && DEFAULT_DIALECTS.has(value);
  if (key === 'description') return value === '';
  if (key === 'title') return typeof value === 'string' && propertyName !== null && sameWords(value, propertyName);
  if (key === 'required') return Array.isArray(value) && value.length === 0;
  if (options.annotationsMatter) return false;
  if (key in NO_OP_VALUES) return NO_OP_VALUES[key] === value;
  if (key === 'additionalProperties' || key === 'items') return value === true || (isObject(value) && Object.keys(value).length === 0);
  if (key === 'properties' || key === 'patternProperties') return isObject(value) && Object.keys(value).length === 0;
  return false;
}

/** A generated title such as "File Path" for `file_path` says nothing the property name does not. */
function sameWords(title: string, name: string): boolean {
  const squash = (text: string) => text.toLowerCase().replace(/[\s_\-.]+/g, '');
  return squash(title) === squash(name);
}

function canonicalKeys(node: JsonObject): string[] {
  return Object.keys(node).sort((a, b) => {
    const ra = RANK.get(a) ?? KEYWORD_ORDER.length;
    const rb = RANK.get(b) ?? KEYWORD_ORDER.length;
    if (ra !== rb) return ra - rb;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
