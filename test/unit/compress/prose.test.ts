/**
 * Issue 23, item 5: prose stays whole. Over every real command output of the shared corpus (GitHub API fixtures,
 * npm registry documents, …) and the JSON Lines and Jira-shaped records built from their issue bodies: whatever view
 * `tokenless run` or post_tool adopts, a lossy one never drops a line of prose from a record.
 */
import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../../src/compress/command-source.ts';
import { parseJsonContent } from '../../../src/compress/json-scan.ts';
import { isProse, proseLines } from '../../../src/compress/prose.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/schemas.ts';
import { postTool } from '../../../src/runtime/post-tool.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { loadCorpus, loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

interface Issue {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly user: { readonly login: string };
  readonly html_url: string;
}

/** The issues with a body in the octokit search fixture (real GitHub API responses, several JSON values). */
function issues(): Issue[] {
  const parsed = parseJsonContent(loadCorpusCase('data-jq-search-issues-fixtures').stdout);
  const found: Issue[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Partial<Issue>;
      if (typeof record.body === 'string' && typeof record.title === 'string' && typeof record.number === 'number') found.push(record as Issue);
      else Object.values(value).forEach(walk);
    }
  };
  walk(parsed?.kind === 'lines' ? parsed.values : parsed?.value);
  expect(found.length).toBeGreaterThan(0);
  return found;
}

/** Twelve records, as in the pull request of the issue, cycling through the real bodies. */
function twelve(): Issue[] {
  const list = issues();
  return Array.from({ length: 12 }, (_, i) => {
    const issue = list[i % list.length] as Issue;
    return { ...issue, number: issue.number + i, body: `${issue.body ?? ''}\n\nPoint ${i + 1} of the review: please address this before merging.` };
  });
}

/** Review comments as `gh api repos/o/r/pulls/N/comments --jq '.[]'` prints them (JSON Lines), bodies from real issues. */
function reviewCommentsNdjson(): string {
  return twelve()
    .map((issue, i) => JSON.stringify({ id: 1000 + i, path: `src/file-${i}.ts`, line: 10 + i, user: issue.user, body: issue.body, html_url: `${issue.html_url}#r${i}` }))
    .join('\n')
    .concat('\n');
}

/** A Jira-like search response: the same bodies as descriptions and comments. */
function jiraJson(): string {
  const list = twelve();
  return `${JSON.stringify(
    {
      startAt: 0,
      maxResults: 50,
      total: list.length,
      issues: list.map((issue, i) => ({
        key: `PROJ-${issue.number}`,
        fields: {
          summary: issue.title,
          status: { name: 'Open' },
          description: issue.body,
          comment: { comments: [{ author: { displayName: issue.user.login }, body: `Looked into ${issue.title}: ${issue.body?.split('\n')[0] ?? ''}` }], total: 1 },
          labels: [`label-${i % 3}`],
        },
      })),
    },
    null,
    2,
  )}\n`;
}

function views(runtime: Runtime, command: string, stdout: string) {
  const argv = commandsOf(command).at(-1) ?? [];
  const run = viewRun(runtime, { argv, stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId: 's' });
  const post = postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: 't', session_id: 's', tool_use_id: 'u' },
    input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content: stdout, command },
  });
  return [
    { via: 'run', lossy: run.recoverability !== 'lossless', output: run.stdout.toString('utf8') },
    { via: 'post_tool', lossy: post.recoverability !== 'lossless', output: post.output },
  ];
}

describe('prose stays whole', () => {
  it('knows prose from identifiers, numbers and URLs', () => {
    expect(isProse('The request hangs when the proxy closes the socket early.', false)).toBe(true);
    expect(isProse('Fix typo', true)).toBe(false);
    expect(isProse('Looks good to me', true)).toBe(true);
    expect(isProse('https://api.github.com/repos/octokit/fixtures/issues/1', true)).toBe(false);
    expect(isProse('4.9.5 5.0.2 5.0.3 5.0.4 5.1.3 5.1.5 5.1.6 5.2.2', false)).toBe(false);
  });

  const cases = [
    ...loadCorpus().map((c) => ({ id: c.id, command: c.command, stdout: c.stdout })),
    { id: 'gh-api-pulls-comments-ndjson', command: "gh api repos/octokit/fixtures/pulls/1/comments --jq '.[]'", stdout: reviewCommentsNdjson() },
    { id: 'jira-search-json', command: 'curl -s https://jira.example.com/rest/api/2/search', stdout: jiraJson() },
  ].filter((c) => proseLines(c.stdout).length > 0);

  it('finds prose in the GitHub, npm and Jira-like records', () => {
    const ids = cases.map((c) => c.id);
    for (const id of ['data-jq-search-issues-fixtures', 'data-npm-view-express-json', 'gh-api-pulls-comments-ndjson', 'jira-search-json']) expect(ids).toContain(id);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s: no lossy view drops a line of prose', (_id, c) => {
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    try {
      for (const view of views(runtime, c.command, c.stdout)) {
        if (!view.lossy) continue;
        const missing = proseLines(c.stdout).filter((line) => !view.output.includes(line) && !view.output.includes(JSON.stringify(line).slice(1, -1)));
        expect(missing, `${view.via} dropped prose`).toEqual([]);
      }
    } finally {
      runtime.close();
    }
  });
});

describe('Markdown under a prose key is prose (GitHub issue bodies and bot comments, as the GitHub MCP server returns them)', () => {
  // The shape of real held-out sessions' get_issue_comments results: Markdown bodies with emphasis, links, headings
  // and code spans, whose words the agent then quoted (the replay found them missing from the view before this rule).
  const bodies = [
    "**Claude finished @someone's task** —— [View job](https://github.com/o/r/actions/runs/1)\n\n---\n### Analysis\n\nThe `USE_UNIVERSAL_TOOLS_ONLY` flag is still read in `src/config.ts`; keep the issue open until it is removed.",
    '# Triage Record\n\n## Issue Review Summary (30 Open Issues Total)\n\n- [ ] close the duplicates of #12\n- [x] label the `CI/CD` ones',
  ];

  it.each(bodies)('%#: counted as prose under "body"', (body) => {
    expect(isProse(body, true)).toBe(true);
  });

  it('a list of identifiers under "body" is still not prose', () => {
    expect(isProse('A_B C_D E_F G_H I_J K_L', true)).toBe(false);
  });
});
