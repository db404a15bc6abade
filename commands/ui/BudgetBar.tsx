import { Text } from 'ink';

/** A usage bar: filled share of `width` cells; past 100% the bar is full and red. */
export function BudgetBar({ used, budget, width }: { readonly used: number; readonly budget: number; readonly width: number }) {
  const share = budget <= 0 ? (used > 0 ? 1 : 0) : used / budget;
  const filled = Math.min(width, Math.round(Math.min(share, 1) * width));
  const color = share > 1 ? 'red' : share >= 0.8 ? 'yellow' : 'green';
  return (
    <Text>
      <Text color={color}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
    </Text>
  );
}

export { int as fmt } from './format.ts';
export const pct = (share: number): string => `${(share * 100).toFixed(share < 0.1 && share > 0 ? 1 : 0)}%`;
export const clip = (text: string, width: number): string => (text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text.padEnd(width));
