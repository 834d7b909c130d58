// What a refresh reads, found in the sheets (the record of what was sent; nothing of it is kept in
// properties): the Mail IDs of every sheet with the mailing-list columns (its rows that were sent) and the
// Tracking sheet, with the Task IDs beside them (a mail is read only when its task is one this document
// sent: tracking-fetch.ts asks the tasks first). A mail can still change unless Tracking already says it is
// final (Delivered, Failed, or not a mail of this document): those are the mails a refresh reads, in mail-id
// order. Read with one getValues per column used (one over the span on Tracking), so a step costs the same
// few calls at 100 mails or 100,000. Tracking also tells which tasks' opens can still grow (tracking-opens.ts).
import { MAIL_COLUMNS, TRACKING, TRACKING_SUMMARY } from '../../sheets/layouts';
import { normalizeHeader } from '../../sheets/table';
import type { SentMail } from './tracking-data';
import { type OpenTask, tasksWithOpensToCome } from './tracking-opens';
import { isFinalState } from './tracking-rows';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface MailIndex {
  /** Mail ids that can still change (not on Tracking yet, or on it and not final), ascending. */
  open: number[];
  /** Mail id → its sending sheet and task, for every row of a mailing list that has a Mail ID. */
  sent: Map<number, SentMail>;
  /**
   * Open mail id → the Task IDs found beside it (its mailing-list rows and its Tracking row; any editor may
   * have typed them): the mail is read only if one of them is a task this document sent. None: never read.
   */
  claims: Map<number, number[]>;
  /** Mail ids on the Tracking sheet. */
  tracked: Set<number>;
  /** Mails on Tracking that are final. */
  final: number;
  /** The tasks whose opens can still grow (tracking-opens.ts), by task id. */
  opens: Map<number, OpenTask>;
}

const mailHeader = (key: string) => normalizeHeader(MAIL_COLUMNS.find((c) => c.key === key)!.header);
const trackingHeader = (key: string) => normalizeHeader(TRACKING.columns.find((c) => c.key === key)!.header);

export function readMailIndex(spreadsheet: Spreadsheet): MailIndex {
  const sent = new Map<number, SentMail>();
  const claims = new Map<number, number[]>();
  const claim = (mailId: number, taskId: number | null) => {
    const ids = claims.get(mailId) || [];
    if (taskId !== null && !ids.includes(taskId)) ids.push(taskId);
    claims.set(mailId, ids);
  };
  let tracking: Sheet | null = null;
  for (const sheet of spreadsheet.getSheets()) {
    const name = sheet.getName();
    if (name === TRACKING.sheetName) tracking = sheet;
    else if (name !== TRACKING_SUMMARY.sheetName) readSentRows(sheet, sent, claim);
  }
  const tracked = new Set<number>();
  const open = new Set<number>();
  let final = 0;
  let opens = new Map<number, OpenTask>();
  if (tracking) {
    const keys = ['mailId', 'mailStatus', 'taskId', 'sentAt', 'taskOpens'];
    const [mailIds, states, taskIds, sentAts, taskOpens] = readColumns(
      tracking,
      keys.map(trackingHeader),
      2,
      true,
    );
    opens = tasksWithOpensToCome(
      mailIds.map((mailId, i) => ({
        mailId,
        mailStatus: states[i],
        taskId: taskIds[i],
        sentAt: sentAts[i],
        taskOpens: taskOpens[i],
      })),
    );
    mailIds.forEach((value, i) => {
      const id = idOf(value);
      if (id === null) return;
      tracked.add(id);
      if (isFinalState(String(states[i]))) final++;
      else {
        open.add(id);
        claim(id, idOf(taskIds[i]));
      }
    });
  }
  for (const id of sent.keys()) if (!tracked.has(id)) open.add(id);
  for (const id of claims.keys()) if (!open.has(id)) claims.delete(id);
  return { open: [...open].sort((a, b) => a - b), sent, claims, tracked, final, opens };
}

/**
 * The Mail ID and Task ID of the rows of a mailing list (a sheet with both headers) that have a Mail ID (a
 * row without a Task ID is kept too: it is never read, and its row says why); others add nothing.
 */
function readSentRows(
  sheet: Sheet,
  sent: Map<number, SentMail>,
  claim: (mailId: number, taskId: number | null) => void,
): void {
  const [mailIds, taskIds] = readColumns(sheet, [mailHeader('mailId'), mailHeader('taskId')]);
  const sheetId = sheet.getSheetId();
  mailIds.forEach((value, i) => {
    const mailId = idOf(value);
    const taskId = idOf(taskIds[i]);
    if (mailId === null) return;
    claim(mailId, taskId);
    // The same Mail ID on several rows: a row with a Task ID is kept over one without.
    const known = sent.get(mailId);
    if (!known || known.taskId === null) sent.set(mailId, { sheetId, taskId });
  });
}

/**
 * The data rows of the columns with these headers (row 1): one getValues each, or one over their span
 * (`span`: the Tracking sheet, whose columns are the add-on's own); empty lists when the sheet lacks one of
 * the first `required`, an empty list for a later one it lacks.
 */
function readColumns(sheet: Sheet, headers: string[], required = headers.length, span = false): unknown[][] {
  const width = sheet.getLastColumn();
  const last = sheet.getLastRow();
  if (width === 0 || last < 2) return headers.map(() => []);
  const row1 = sheet.getRange(1, 1, 1, width).getValues()[0].map(normalizeHeader);
  const columns = headers.map((h) => row1.indexOf(h) + 1);
  if (columns.slice(0, required).some((c) => c === 0)) return headers.map(() => []);
  if (span) {
    const found = columns.filter((c) => c > 0);
    const first = Math.min(...found);
    const block = sheet.getRange(2, first, last - 1, Math.max(...found) - first + 1).getValues();
    return columns.map((column) => (column === 0 ? [] : block.map((row) => row[column - first])));
  }
  return columns.map((column) =>
    column === 0
      ? []
      : sheet
          .getRange(2, column, last - 1, 1)
          .getValues()
          .map((row) => row[0]),
  );
}

function idOf(value: unknown): number | null {
  const id = Number(value);
  return value !== '' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The open mails of a unit: the first `count` with a Mail ID above `after`. */
export function nextMails(index: MailIndex, after: number, count: number): number[] {
  let from = 0;
  while (from < index.open.length && index.open[from] <= after) from++;
  return index.open.slice(from, from + count);
}
