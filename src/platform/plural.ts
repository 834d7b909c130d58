// Counts in words, for every layer's messages: one plural rule and one thousands separator.

/** The word that goes with n: plural(1, 'row') → "row", plural(3, 'row') → "rows", plural(2, 'was', 'were'). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "1 number", "2 numbers", "25,000 numbers". */
export function count(n: number, noun: string, many = `${noun}s`): string {
  return `${formatCount(n)} ${plural(n, noun, many)}`;
}

/** A whole number with thousands separators: 25000 → "25,000" (decimals are kept as they are). */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
