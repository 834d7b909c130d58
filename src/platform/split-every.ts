/** `items` cut into consecutive groups of at most `size` (chunks of a send, ids of a request). */
export function splitEvery<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
