import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { LAUNCHER_FILE, launcherCommand } from '../shell/launcher.ts';
import { shellQuote } from '../shell/quote.ts';

const PACKAGE_NAME = 'save-your-tokens';
const OurPackage = z.object({ name: z.literal(PACKAGE_NAME), bin: z.object({ tokenless: z.string() }) });

/**
 * The default program prefix of a rewritten command: node on this package's built CLI (its `tokenless` bin), by
 * absolute path, since a rewritten command must not depend on the agent's PATH. Found by walking up from this module,
 * which works from the bundled library (dist/lib, dist/lib/chunks) and from the sources alike; null when the CLI is
 * not built. Through the launcher next to the CLI when the build made one (src/shell/launcher.ts says why).
 */
export function defaultWrapperCommand(from: string = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const bin = ourBin(join(dir, 'package.json'));
    if (bin !== null) {
      const cli = join(dir, bin);
      if (!existsSync(cli)) return null;
      const launcher = join(dirname(cli), LAUNCHER_FILE);
      return existsSync(launcher) ? launcherCommand(launcher, process.execPath, cli) : `${shellQuote(process.execPath)} ${shellQuote(cli)}`;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function ourBin(path: string): string | null {
  try {
    const parsed = OurPackage.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data.bin.tokenless : null;
  } catch {
    return null;
  }
}
