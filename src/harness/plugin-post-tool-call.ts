/**
 * The one function every in-process plugin we write (OpenCode's plugin, Pi's extension) uses to ask the engine for a
 * view: it runs `tokenless hook post_tool` with the native envelope on stdin, and resolves to the parsed answer, or
 * to null on any failure (no process, a non-zero exit, a timeout, output that is not JSON), so the result stays as
 * the agent made it and no byte is lost. The agent may pass an AbortSignal (Pi does) so a cancelled call stops the
 * child. Kept as source text because the plugins are standalone files with no imports but Node's; the file that
 * includes it must import `spawn` from node:child_process and define HOOK and TIMEOUT_MS.
 */
export const POST_TOOL_CALL_SOURCE = `// The engine's answer, or null (the result stays as the agent made it) on any failure: never lose a byte.
function postTool(envelope, signal) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn('/bin/sh', ['-c', HOOK], { stdio: ['pipe', 'pipe', 'ignore'], timeout: TIMEOUT_MS, ...(signal ? { signal } : {}) });
    } catch {
      resolve(null);
      return;
    }
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      if (code !== 0) return resolve(null);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(null);
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(envelope));
  });
}`;
