/** The one number format of every report: whole numbers with thousands separators (14,551), signs where a change. */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const signed = (n: number): string => (n > 0 ? `+${int(n)}` : int(n));
/** `1 call`, `2 calls`: a count with its noun in the right number. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${int(n)} ${n === 1 ? one : many}`;
/** `1st`, `2nd`, `3rd`, `11th`, `22nd`: never "2th". */
export function ordinal(n: number): string {
  const teens = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teens ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${int(n)}${suffix}`;
}
