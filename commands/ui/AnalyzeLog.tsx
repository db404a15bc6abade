import { Box, Text, renderToString } from 'ink';
import type { TranscriptReport } from '../../src/analyze/log-report.ts';
import type { ReplaySummary } from '../../src/replay/outputs-summary.ts';
import { BudgetBar, clip, fmt, pct } from './BudgetBar.tsx';
import { ordinal, plural } from './format.ts';

export interface LogDocument {
  readonly profile: string;
  readonly context_window: number;
  readonly context_note: string;
  readonly totals: { readonly transcripts: number; readonly requests: number; readonly cumulative_context: number; readonly tool_results_tokens: number; readonly compactions: number };
  readonly transcripts: readonly (TranscriptReport & { readonly manager: { baseline_tokens: number; managed_tokens: number; saved_share: number; compaction_events: number; note: string } | null })[];
  readonly replay: ReplaySummary | null;
}

/** Requests shown per transcript; the JSON has them all. */
const MAX_ROWS = 12;

function TranscriptView({ report, window, columns }: { readonly report: LogDocument['transcripts'][number]; readonly window: number; readonly columns: number }) {
  const barWidth = Math.max(10, Math.min(40, columns - 50));
  const step = Math.max(1, Math.ceil(report.requests.length / MAX_ROWS));
  const shown = report.requests.filter((_, i) => i % step === 0 || i === report.requests.length - 1);
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text bold>{clip(`${report.source}: ${report.file}`, columns)}</Text>
      <Text>{`${fmt(report.totals.requests)} requests · cumulative context ${fmt(report.totals.cumulative_context)} · peak ${fmt(report.totals.peak_context)}${report.totals.cache_hit_share === null ? '' : ` · cache hits ${pct(report.totals.cache_hit_share)}`} · ${plural(report.compactions.length, 'compaction')}`}</Text>
      {shown.map((r) => (
        <Text key={`${r.index}-${r.id}`}>
          {`#${String(r.index + 1).padStart(4)}${r.sidechain ? '*' : ' '} `}
          <BudgetBar used={r.context} budget={window} width={barWidth} />
          {` ${fmt(r.context).padStart(8)}`}
        </Text>
      ))}
      {step > 1 ? <Text dimColor>{`every ${ordinal(step)} request shown; * = subagent`}</Text> : null}
      <Text>{`tool results ${fmt(report.fills.tool_results_tokens)} tokens (counted with o200k)${report.fills.prefix_tokens_inferred === null ? '' : ` · system prompt + tool schemas ≈ ${fmt(report.fills.prefix_tokens_inferred)} (inferred from the first request)`}`}</Text>
      {report.fills.by_tool.slice(0, 5).map((row) => <Text key={`t-${row.name}`}>{`  ${clip(row.name, 24)} ${fmt(row.calls).padStart(5)} ${(row.calls === 1 ? 'call' : 'calls').padEnd(5)} ${fmt(row.tokens).padStart(9)}`}</Text>)}
      {report.fills.by_command.slice(0, 5).map((row) => <Text key={`c-${row.name}`} dimColor>{`  $ ${clip(row.name, 22)} ${fmt(row.calls).padStart(5)} ${(row.calls === 1 ? 'call' : 'calls').padEnd(5)} ${fmt(row.tokens).padStart(9)}`}</Text>)}
      {report.fills.repeated_reads.slice(0, 3).map((row) => <Text key={`r-${row.path}`}>{`  read ${row.reads}x: ${clip(row.path, Math.max(20, columns - 30))} ${fmt(row.tokens)}`}</Text>)}
      {managerLine(report)}
    </Box>
  );
}

/**
 * The budget manager's simulation, only where it is comparable with the requests above: without the inferred system
 * prompt and tool schemas it sums the transcript's message text alone, a figure no request ever had (--json keeps it).
 */
function managerLine(report: LogDocument['transcripts'][number]) {
  const manager = report.manager;
  if (manager === null || report.fills.prefix_tokens_inferred === null) return null;
  const change = manager.managed_tokens < manager.baseline_tokens ? `${fmt(manager.baseline_tokens)} -> ${fmt(manager.managed_tokens)} (${pct(manager.saved_share)} less), ${manager.compaction_events} compaction events` : `no change (${fmt(manager.baseline_tokens)})`;
  return <Text dimColor>{`our budget manager, simulated (messages counted with o200k + the inferred prefix, summed over requests): ${change}`}</Text>;
}

/** `syt analyze --log`: one block per transcript (at most 10), then the totals and the replay. */
function AnalyzeLog({ doc, columns }: { readonly doc: LogDocument; readonly columns: number }) {
  const replay = doc.replay;
  return (
    <Box flexDirection="column">
      <Text bold>{`Context use in ${doc.totals.transcripts} transcript${doc.totals.transcripts === 1 ? '' : 's'} (${fmt(doc.totals.requests)} requests)`}</Text>
      <Text dimColor>{doc.context_note}</Text>
      <Text> </Text>
      {doc.transcripts.slice(0, 10).map((t) => <TranscriptView key={`${t.file}-${t.session_id}`} report={t} window={doc.context_window} columns={columns} />)}
      {doc.transcripts.length > 10 ? <Text dimColor>{`… ${doc.transcripts.length - 10} more transcripts in --json`}</Text> : null}
      <Text bold>{`Total: cumulative context ${fmt(doc.totals.cumulative_context)} tokens, tool results ${fmt(doc.totals.tool_results_tokens)} tokens, ${doc.totals.compactions} compactions`}</Text>
      {replay === null ? null : (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{`What would have been saved: ${fmt(replay.saved_tokens)} of ${fmt(replay.before_tokens)} tool-output tokens (${pct(replay.before_tokens === 0 ? 0 : replay.saved_tokens / replay.before_tokens)}), ${replay.shortened} of ${replay.tool_outputs} outputs shortened`}</Text>
          {replay.by_operation.slice(0, 6).map((row) => <Text key={row.operation}>{`  ${clip(row.operation, 34)} ${fmt(row.outputs).padStart(5)} outputs ${fmt(row.before).padStart(9)} -> ${fmt(row.after).padStart(9)}`}</Text>)}
          <Text dimColor>{replay.note}</Text>
        </Box>
      )}
    </Box>
  );
}

export function renderLogReport(doc: LogDocument, columns = 100): string {
  return renderToString(<AnalyzeLog doc={doc} columns={columns} />, { columns });
}
