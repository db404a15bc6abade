import type { Command } from 'commander';

/** Registers the budget commands; each action imports its command body only when it runs. */
export function register(_program: Command): void {
  // Filled in by the budget work.
}
