/**
 * Reads what decideApproval needs: the hook's ancestor processes (Linux /proc), Gemini CLI's settings files and its
 * rule directories. Bounded: at most 8 ancestors, 1 MiB per file. Any read error makes the verdict "unsure".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { ApprovalProbe } from './approval.ts';
import { ruleDirectories, settingsSources } from './settings.ts';

const MAX_ANCESTORS = 8;
const MAX_FILE_BYTES = 1 << 20;

export function probeApproval(projectDir: string, env: Readonly<Record<string, string | undefined>>, startPid = process.ppid): ApprovalProbe {
  const settings = new Map<string, Record<string, unknown> | string>();
  for (const path of settingsSources(projectDir, env)) {
    const read = readBounded(path);
    if (read === null) continue;
    settings.set(path, 'error' in read ? read.error : parseObject(read.text));
  }
  const nonEmptyRuleDirs = ruleDirectories(projectDir, env).filter((dir) => {
    try {
      return readdirSync(dir).length > 0;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  });
  return { ancestors: ancestors(startPid), settings, nonEmptyRuleDirs };
}

function ancestors(startPid: number): string[][] | null {
  if (process.platform !== 'linux') return null;
  const found: string[][] = [];
  let pid = startPid;
  try {
    for (let i = 0; i < MAX_ANCESTORS && pid > 1; i++) {
      found.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== ''));
      // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    }
  } catch {
    return found.length > 0 ? found : null;
  }
  return found;
}

/** null: the file does not exist. */
function readBounded(path: string): { text: string } | { error: string } | null {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return { error: 'larger than 1 MiB' };
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : { error: `unreadable (${code ?? 'error'})` };
  }
}

function parseObject(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  try {
    const raw: unknown = JSON.parse(text);
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : 'not a JSON object';
  } catch {
    // Gemini CLI strips comments from its settings; we do not, so a commented file is one we cannot read.
    return 'not plain JSON (we cannot read its rules)';
  }
}
