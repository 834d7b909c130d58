// Turning API values into cell values. Every string that came from an API is untrusted: written as-is, a
// leading '=' would become a formula and '+1 555', '1-10' or 'TRUE' would be coerced into numbers, dates or
// booleans. A leading apostrophe makes Sheets keep the text exactly as it is (and it is not displayed).

export type CellValue = string | number | boolean | Date;

/** Untrusted text as a cell value that Sheets always keeps as plain text. */
export function textCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return text === '' ? '' : `'${text}`;
}

/** A list shown in one cell, e.g. industries. */
export function listCell(value: unknown): string {
  if (!Array.isArray(value)) return textCell(value);
  return textCell(value.filter((item) => item !== null && item !== undefined && item !== '').join(', '));
}

export function numberCell(value: unknown): number | string {
  return typeof value === 'number' && Number.isFinite(value) ? value : '';
}

export function booleanCell(value: unknown): boolean | string {
  return typeof value === 'boolean' ? value : '';
}

/** An ISO 8601 timestamp as a Date (shown with the column's date format), or blank. */
export function dateCell(value: unknown): Date | string {
  if (typeof value !== 'string' || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? textCell(value) : date;
}

/** A cell read back from a sheet, as trimmed text (numbers and dates included). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value).trim();
}
