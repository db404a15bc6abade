/**
 * Would Codex CLI run a shell command without asking, whatever the command? A PreToolUse rewrite must carry
 * `permissionDecision: "allow"` (Codex rejects `updatedInput` without it, 0.169.0). Where Codex asks (the terminal
 * UI's on-request mode, `permission_mode: "default"`) it still asks, about the REWRITTEN line, and offers "don't ask
 * again for commands that start with" its first words: a rule for our wrapper (measured). So we rewrite only where
 * nothing asks: `permission_mode` is `bypassPermissions` (approval policy "never": every `codex exec`). The
 * sandbox still applies to the rewritten line (measured). Exec-policy rules judge the rewritten line too, by its
 * words (measured), and `ls` behind our wrapper no longer starts with `ls`, so a `forbidden` rule could miss it. Any
 * rules file, or a shell our rewrite's POSIX syntax may not suit: unsure, rewrite nothing.
 */
import { basename } from 'node:path';

export type Approval = { readonly runsWithoutAsking: true } | { readonly runsWithoutAsking: false; readonly reason: string };

export interface ApprovalProbe {
  readonly permissionMode: string | undefined;
  /** The user's shell ($SHELL of the hook, which Codex started), which Codex runs commands in unless told otherwise. */
  readonly shell: string | undefined;
  /** Rules directories that exist and hold at least one entry. */
  readonly nonEmptyRuleDirs: readonly string[];
  /** Managed policy files that exist. */
  readonly managedFiles: readonly string[];
}

/** The approval mode in which Codex never asks (its hook name for approval policy "never"). */
export const NEVER_ASKS = 'bypassPermissions';

/** Shells whose syntax our rewrite is written in (the same POSIX shell words Claude Code's bash and zsh run). */
const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash']);

export function decideApproval(probe: ApprovalProbe): Approval {
  const unsure = (reason: string): Approval => ({ runsWithoutAsking: false, reason });
  if (probe.permissionMode !== NEVER_ASKS) {
    return unsure(`permission mode ${probe.permissionMode ?? '(none)'}: Codex may ask before a command, and "allow" on a rewrite would skip that`);
  }
  if (probe.shell !== undefined && probe.shell !== '' && !POSIX_SHELLS.has(basename(probe.shell))) return unsure(`shell ${probe.shell} is not a POSIX shell`);
  const rules = probe.nonEmptyRuleDirs[0];
  if (rules !== undefined) return unsure(`${rules} may hold exec-policy rules, which would judge the rewritten line`);
  const managed = probe.managedFiles[0];
  if (managed !== undefined) return unsure(`${managed} may hold managed rules`);
  return { runsWithoutAsking: true };
}
