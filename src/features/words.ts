// Small wordings shared by the features' messages.
import type { ApiError } from '../api/errors';

/** "1 number", "2 numbers". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** " It needs 3 EDM and 1 is available." from a 402's amounts; "" when the service did not state them. */
export function neededText(error: ApiError, unit = ''): string {
  if (error.required === undefined || error.available === undefined) return '';
  const needs = unit ? `${error.required} ${unit}` : String(error.required);
  return ` It needs ${needs} and ${error.available} ${error.available === 1 ? 'is' : 'are'} available.`;
}
