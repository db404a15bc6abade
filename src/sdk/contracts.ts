/**
 * Tool contracts: what an adapter must declare about each tool before Tokenless touches it. The content origin is
 * declared, never guessed from the output's text; an unregistered tool passes through untouched.
 */
import * as z from 'zod/mini';
import { describeIssues } from '../protocol/issues.ts';
import { ContentOriginSchema, type PostToolInput, type ToolStatus } from '../protocol/schemas.ts';
import { TokenlessError } from './errors.ts';

export const ToolContract = z.strictObject({
  /** Where the output comes from: a shell command, a file's content, or an API/tool response. */
  origin: ContentOriginSchema,
  /** The argument holding a shell command line, which pre_tool may rewrite to run through our wrapper. */
  commandField: z.optional(z.string().check(z.minLength(1))),
  /** Whether post_tool may compress this tool's output (default true). */
  compress: z.optional(z.boolean()),
});
export type ToolContract = z.infer<typeof ToolContract>;
export type ToolContractInput = z.input<typeof ToolContract>;

const ContractTable = z.record(z.string().check(z.minLength(1)), ToolContract);

/** An immutable table of contracts by tool name, validated once when an adapter is created. */
export class ToolContracts {
  readonly #byName: ReadonlyMap<string, ToolContract>;

  private constructor(byName: ReadonlyMap<string, ToolContract>) {
    this.#byName = byName;
  }

  static from(table: Readonly<Record<string, ToolContractInput>> = {}): ToolContracts {
    const parsed = ContractTable.safeParse(table);
    if (!parsed.success) throw new TokenlessError('invalid_input', `invalid tool contracts: ${describeIssues(parsed.error)}`);
    return new ToolContracts(new Map(Object.entries(parsed.data)));
  }

  get(toolName: string): ToolContract | undefined {
    return this.#byName.get(toolName);
  }

  get names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The post_tool input for one result, or null when the contract says to leave it alone (or there is none). */
  postToolInput(toolName: string, content: string, status: ToolStatus): PostToolInput | null {
    const contract = this.#byName.get(toolName);
    if (contract === undefined || contract.compress === false) return null;
    return { tool_name: toolName, status, origin: contract.origin, content };
  }
}
