/** The one number format of every report: whole numbers with thousands separators (14,551), signs where a change. */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const signed = (n: number): string => (n > 0 ? `+${int(n)}` : int(n));
