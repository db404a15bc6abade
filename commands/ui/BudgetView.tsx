import { Box, Text, renderToString } from 'ink';
import type { ProjectReport } from '../../src/analyze/project-report.ts';
import { BudgetBar, clip, fmt, pct } from './BudgetBar.tsx';

const LEVEL_LABEL = { within: 'OK', warn: 'WARN', compact: 'COMPACT', reject: 'OVER' } as const;

/** `syt analyze DIR`: per-layer bars against the profile, the largest items, advice. */
function BudgetView({ report, columns }: { readonly report: ProjectReport; readonly columns: number }) {
  const barWidth = Math.max(10, Math.min(30, columns - 60));
  const pathWidth = Math.max(20, columns - 40);
  return (
    <Box flexDirection="column">
      <Text bold>{`Context budget: ${report.dir}`}</Text>
      <Text dimColor>{`profile ${report.profile} · window ${fmt(report.context_window)} · output reserve ${fmt(report.output_reserve)} · tokens counted with o200k`}</Text>
      <Text> </Text>
      {report.layers.map((layer) => (
        <Text key={layer.layer}>
          {`${layer.layer.padEnd(11)} `}
          <BudgetBar used={layer.used} budget={layer.budget} width={barWidth} />
          {` ${fmt(layer.used).padStart(7)} / ${fmt(layer.budget).padStart(7)} (${pct(layer.budget === 0 ? 0 : layer.used / layer.budget).padStart(4)}) ${LEVEL_LABEL[layer.level]}`}
        </Text>
      ))}
      <Text>{`${'total'.padEnd(11)} `}<BudgetBar used={report.total_used} budget={report.available} width={barWidth} />{` ${fmt(report.total_used).padStart(7)} / ${fmt(report.available).padStart(7)} (${pct(report.utilization).padStart(4)}) of the usable window`}</Text>
      {report.on_demand_tokens > 0 ? <Text dimColor>{`+ ${fmt(report.on_demand_tokens)} tokens in skills and commands, loaded only on demand`}</Text> : null}
      <Text> </Text>
      <Text bold>Largest items</Text>
      {report.items.length === 0 ? <Text dimColor>none found</Text> : null}
      {report.items.slice(0, 10).map((item) => (
        <Text key={item.path}>
          {`${clip(item.path, pathWidth)} ${item.layer.padEnd(10)} ${item.loaded === 'always' ? 'always   ' : 'on demand'} ${`${item.estimated ? '~' : ''}${fmt(item.tokens)}`.padStart(8)}`}
        </Text>
      ))}
      {report.items.some((i) => i.estimated) ? <Text dimColor>~ estimated: MCP tool schemas cannot be counted without starting the server</Text> : null}
      <Text> </Text>
      <Text bold>Advice</Text>
      {report.advice.length === 0 ? <Text>Within budget: nothing to do.</Text> : report.advice.map((line) => <Text key={line}>{`- ${line}`}</Text>)}
    </Box>
  );
}

export function renderProjectBudget(report: ProjectReport, columns = 100): string {
  return renderToString(<BudgetView report={report} columns={columns} />, { columns });
}
