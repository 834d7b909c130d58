// The Tracking sheet a slice of the refresh writes: one row per mail, upserted by Mail ID through Table (the
// sending rows' Mail status is the mail view's: sheets/mail-view.ts). Apps Script commits its write
// cache before every read that follows a write, so a slice works in three phases: the sheets that are missing
// are created, then everything the writes need is read (one block per sheet), then everything is written.
// Rows are found by Mail ID in what was just read, never by remembered position: the user may have sorted
// the sheets while the mails were being read.
import { cellText, CellValue, TRACKING, Table, type TableRow } from '../../sheets';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Tracking values by column key, as a read of the sheet gives them. */
export type TrackingValues = Record<string, unknown>;

/** The Tracking sheet as read before a slice's writes. */
export interface TrackingRead {
  table: Table;
  rows: TableRow[];
}

/** The Tracking sheet, created (or its missing headers added) when `create`; null when absent and not. */
export function openTracking(spreadsheet: Spreadsheet, create: boolean): Table | null {
  if (create || spreadsheet.getSheetByName(TRACKING.sheetName))
    return Table.open(spreadsheet, TRACKING, true);
  return null;
}

/** Reads the whole Tracking sheet (its size, then one getValues). */
export function readTracking(table: Table): TrackingRead {
  table.measure();
  return { table, rows: table.readAll() };
}

const byMailId = (row: TableRow) => cellText(row.values.mailId);

/**
 * Upserts records (by Mail ID) on the Tracking sheet read: rows that hold the Mail ID are updated, the others
 * appended below. Returns every row of the sheet as it now reads, for the summary.
 */
export function writeTracking(
  read: TrackingRead,
  records: Map<string, Record<string, CellValue>>,
): TrackingValues[] {
  const found = new Set<string>();
  const now = read.rows.map((row) => {
    const record = records.get(byMailId(row));
    if (!record) return row.values;
    found.add(byMailId(row));
    return { ...row.values, ...asRead(record) };
  });
  read.table.upsertByKey(byMailId, records, read.rows);
  const fresh = [...records].filter(([key]) => !found.has(key)).map(([, record]) => asRead(record));
  return now.concat(fresh);
}

/** Deletes the empty columns right of the Tracking sheet's own (a new sheet has 26): fewer cells. */
export function trimTrackingColumns(read: TrackingRead): void {
  const size = read.table.measure(); // measured when opened: no read between writes
  const used = Math.max(size.lastColumn, TRACKING.columns.length);
  if (size.maxColumns > used) read.table.sheet.deleteColumns(used + 1, size.maxColumns - used);
  size.maxColumns = Math.min(size.maxColumns, used);
}

/** A value written as Sheets reads it back: the quote prefix that keeps text as text is not part of it. */
function asRead(record: Record<string, CellValue>): TrackingValues {
  const values: TrackingValues = {};
  for (const [key, value] of Object.entries(record)) {
    values[key] = typeof value === 'string' && value.startsWith("'") ? value.slice(1) : value;
  }
  return values;
}
