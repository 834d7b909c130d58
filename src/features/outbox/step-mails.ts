// The follow-up mails sent: a hidden sheet "Outreach follow-ups", one row per list, recipient and step, with
// the mailing-list columns (Mail status, Task ID, Mail ID, Sent at). It is the record of which step went to
// whom (nothing of it is kept in properties): a row is written once the service took the chunk, or once a
// chunk in doubt is found by its tag, and is upserted by list, recipient and step, so settling the same chunk
// twice writes it once. Refresh tracking reads its Mail IDs like any list's and moves its Mail status
// (Delivered, Failed: …), so Tracking holds every step's mail and a later step sees a failed one.
import {
  addressKey,
  cellText,
  CellValue,
  textCell,
  parseState,
  stateText,
  Table,
  type TableLayout,
  type TableRow,
} from '../../sheets';
import type { JournalChunk } from './journal';

const STEP_MAILS: TableLayout = {
  sheetName: 'Outreach follow-ups',
  columns: [
    { key: 'sheetId', header: 'Sheet ID', format: '0' },
    { key: 'step', header: 'Step', format: '0' },
    { key: 'recipient', header: 'E-mail', format: 'General' },
    { key: 'campaign', header: 'Campaign', format: 'General' },
    { key: 'mailStatus', header: 'Mail status' },
    { key: 'taskId', header: 'Task ID', format: '0' },
    { key: 'mailId', header: 'Mail ID', format: '0' },
    { key: 'sentAt', header: 'Sent at', format: 'yyyy-mm-dd hh:mm' },
  ],
};

/** A step's mail to a recipient, as the sheet says. */
interface StepMail {
  step: number;
  /** Its Mail status says it failed, or was not sent. */
  failed: boolean;
  mailId: number;
  taskId: number;
  sentAt: number;
}

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** A mail the next step must not follow: it failed, or never went. */
const failed = (kind: string) => kind === 'failed' || kind === 'notSent';

const keyOf = (sheetId: unknown, email: unknown, step: unknown) =>
  `${Number(sheetId)}|${addressKey(cellText(email))}|${Number(step)}`;

function openSheet(spreadsheet: Spreadsheet): Table {
  const existed = !!spreadsheet.getSheetByName(STEP_MAILS.sheetName);
  const table = Table.open(spreadsheet, STEP_MAILS);
  if (!existed) table.sheet.hideSheet();
  return table;
}

/** Recipient → their step mails (by step), for one list; one read of the sheet. */
export function readStepMails(spreadsheet: Spreadsheet, sheetId: number): Map<string, Map<number, StepMail>> {
  const table = Table.find(spreadsheet, STEP_MAILS);
  const mails = new Map<string, Map<number, StepMail>>();
  if (!table || !table.column('mailId')) return mails;
  for (const row of table.readAll()) {
    if (Number(row.values.sheetId) !== sheetId) continue;
    const mail = stepMailOf(row);
    if (!mail) continue;
    const email = addressKey(cellText(row.values.recipient));
    const steps = mails.get(email) || new Map<number, StepMail>();
    steps.set(mail.step, mail);
    mails.set(email, steps);
  }
  return mails;
}

function stepMailOf(row: TableRow): StepMail | null {
  const step = Number(row.values.step);
  const mailId = Number(row.values.mailId);
  if (!Number.isInteger(step) || step < 1 || !mailId) return null;
  const sent = row.values.sentAt;
  return {
    step,
    failed: failed(parseState(cellText(row.values.mailStatus)).kind),
    mailId,
    taskId: Number(row.values.taskId) || 0,
    sentAt: sent instanceof Date ? sent.getTime() : 0,
  };
}

/**
 * Writes the mails of steps' chunks that the service took, all in one upsert (one read and one write of
 * the sheet); the settle hook of send-chunk.ts writes a chunk found by its tag the same way.
 */
export function writeStepMails(...chunks: JournalChunk[]): number {
  const records = new Map<string, Record<string, CellValue>>();
  for (const chunk of chunks) {
    if (!chunk.step || !chunk.ids) continue;
    for (const { email } of chunk.recipients) {
      const pair = chunk.ids[email];
      if (!pair) continue;
      records.set(keyOf(chunk.sheetId, email, chunk.step), {
        sheetId: chunk.sheetId,
        step: chunk.step,
        recipient: textCell(email),
        campaign: textCell(chunk.campaign),
        mailStatus: stateText({ kind: 'accepted' }),
        taskId: pair[0],
        mailId: pair[1],
        sentAt: new Date(chunk.postedAt),
      });
    }
  }
  if (records.size === 0) return 0;
  const table = openSheet(SpreadsheetApp.getActiveSpreadsheet());
  table.upsertByKey((row) => keyOf(row.values.sheetId, row.values.recipient, row.values.step), records);
  return records.size;
}
