// The two columns a list with follow-ups gets right of the add-on's own: "Replied" (a checkbox the user
// ticks when the contact answers: any value other than FALSE counts) and "Sequence" (where the row is:
// "Next: step 2 on …", "Stopped: replied", "Finished: …"). Both are found by header afterwards, wherever the
// user moved them. Sequence is written by recipient, never by remembered position.
import {
  addressKey,
  cellText,
  CellValue,
  textCell,
  type ListRow,
  type MailingList,
  lastListRow,
  idOf,
  normalizeHeader,
  Table,
  type TableRow,
} from '../../sheets';

export const REPLIED_HEADER = 'Replied';
const SEQUENCE_HEADER = 'Sequence';
const SEQUENCE_NOTE =
  'Where the row is in its follow-up sequence: the next step and when, or why it stopped. Tick "Replied" when the contact answers: nobody at that company gets another follow-up.';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * Adds Replied (checkboxes) and Sequence when missing; rows added below `checkedTo` since (a later send, the next
 * contact after a bounce) get their checkbox too. A Replied column the user made is left as it is. Answers the
 * last row, the next `checkedTo`.
 */
export function ensureSequenceColumns(sheet: Sheet, checkedTo?: number): number {
  const layout = {
    sheetName: sheet.getName(),
    columns: [
      { key: 'replied', header: REPLIED_HEADER },
      { key: 'sequence', header: SEQUENCE_HEADER, note: SEQUENCE_NOTE },
    ],
  };
  const before = Table.find(sheet.getParent(), layout);
  const hadReplied = !!(before && before.column('replied'));
  const table = Table.open(sheet.getParent(), layout);
  const last = lastListRow(sheet);
  const from = !hadReplied ? 2 : checkedTo === undefined ? last + 1 : checkedTo + 1;
  if (last >= from) sheet.getRange(from, table.column('replied')!, last - from + 1, 1).insertCheckboxes();
  return Math.max(last, 1);
}

/** One of the two columns a list with follow-ups gets (not a column to insert into a mail). */
export function isSequenceHeader(header: unknown): boolean {
  const name = normalizeHeader(header);
  return name === normalizeHeader(REPLIED_HEADER) || name === normalizeHeader(SEQUENCE_HEADER);
}

/** The row's Replied cell is set: any value other than empty or FALSE. */
export function hasReplied(row: ListRow): boolean {
  const value = (row.display.get(normalizeHeader(REPLIED_HEADER)) || '').trim();
  return value !== '' && value.toUpperCase() !== 'FALSE';
}

export function sequenceCell(row: ListRow): string {
  return (row.display.get(normalizeHeader(SEQUENCE_HEADER)) || '').trim();
}

/** Writes each recipient's Sequence text where it changes (one read, one write of the column). */
export function writeSequence(list: MailingList, texts: Map<string, string>): number {
  const recipient = list.table.column('recipient');
  const headers = list.headers.map(normalizeHeader);
  const column = headers.indexOf(normalizeHeader(SEQUENCE_HEADER)) + 1;
  if (!recipient || !column) return 0;
  const mailId = list.table.column('mailId');
  const table = Table.onColumns(list.sheet, {
    recipient,
    sequence: { column, header: SEQUENCE_HEADER },
    ...(mailId ? { mailId } : {}),
  });
  const changes = new Map<string, Record<string, CellValue>>();
  const rows = table.readAll();
  // Where a row of the address holds its mail, that row is the person's: another (a duplicate) shows no step.
  const mailed = new Set(rows.filter((r) => idOf(r.values.mailId) !== null).map((r) => recipientOf(r)));
  const persons = rows.filter((r) => idOf(r.values.mailId) !== null || !mailed.has(recipientOf(r)));
  for (const row of persons) {
    const key = addressKey(cellText(row.values.recipient));
    const text = texts.get(key);
    if (text !== undefined && cellText(row.values.sequence) !== text)
      changes.set(key, { sequence: textCell(text) });
  }
  if (changes.size === 0) return 0;
  const byRow = new Map<number, Record<string, CellValue>>();
  for (const row of persons) {
    const change = changes.get(addressKey(cellText(row.values.recipient)));
    if (change) byRow.set(row.rowNumber, change);
  }
  table.update(rows, byRow);
  return changes.size;
}

const recipientOf = (row: TableRow) => addressKey(cellText(row.values.recipient));

/**
 * Whether "only to rows that did not open the previous mail" can work on this list: the service reports
 * opens per task, so only where a task holds one mail (each sent row its own Task ID). '' when it can.
 */
export function opensNote(list: MailingList): string {
  const tasks = new Map<string, number>();
  for (const row of list.readRows()) if (row.taskId) tasks.set(row.taskId, (tasks.get(row.taskId) || 0) + 1);
  if (tasks.size === 0)
    return '"Only if not opened" works where the service keeps each mail in a task of its own (it reports opens per task): known after the first send.';
  if ([...tasks.values()].some((n) => n > 1))
    return '"Only if not opened" is not available for this list: the service grouped its mails into tasks of many and reports opens per task, not per mail. A step with it goes to every row that did not reply.';
  return '';
}
