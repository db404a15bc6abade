/**
 * The one entry for `syt` and `tokenless`. The hot paths (`hook`, `run`, `--version`) are dispatched before
 * commander or any command body loads; everything else goes through the full program, loaded on demand.
 */
declare const __VERSION__: string;

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-V':
      process.stdout.write(`${__VERSION__}\n`);
      return;
    case 'hook':
      if (rest.includes('--help') || rest.includes('-h')) break;
      await (await import('../hooks/hook.ts')).hookCommand(rest);
      return;
    case 'run':
      await (await import('./run.ts')).runCommand(rest);
      return;
  }
  await (await import('./program.ts')).runProgram(argv, __VERSION__);
}

// A reader that stops early (`| head`) is not an error of ours: stop writing quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

await main(process.argv.slice(2));
