// Starting a sequence (the first send of a mail with follow-ups, confirmed with its most cost) and the menu
// actions that stop it: for the selected rows (a stop request the payer's next run takes into their record,
// kept whatever the cells say later) or for the whole sheet (the document's record of the sequence goes: the
// payer's run sends no more steps). Stopping costs nothing and needs no key: any editor may stop follow-ups.
import { type ListRow, selectedRows } from '../../sheets';
import { confirm, inform, toast } from '../../ui';
import {
  type StoredTemplate,
  openMailingList,
  endSequence,
  requestStops,
  sequenceOf,
  startSequence,
} from '../outbox';
import { ensureHourlyTrigger } from '../jobs';
import { ensureSequenceColumns, sequenceCell, writeSequence } from './sequence-column';
import { parseSequence, sequenceText } from './sequence-texts';
import { UserError } from '../errors';
import { count } from '../../platform';

const TITLE = 'Stop follow-ups';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The confirmed first send of a mail with follow-ups: its rows join the sheet's sequence. */
export function startFollowUps(sheet: Sheet, template: StoredTemplate, rows: ListRow[]): void {
  if (!template.followUps || template.followUps.length === 0) return;
  if (rows.length === 0) return;
  const checkedTo = ensureSequenceColumns(sheet, sequenceOf(sheet.getSheetId())?.checkedTo);
  startSequence(sheet, checkedTo);
  ensureHourlyTrigger(); // the hourly run sends the steps
}

/** Menu: Stop follow-ups for selected rows. */
export function stopSelectedFollowUps(): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const only = selectedRows(spreadsheet, sheet);
  if (only.size === 0)
    throw new UserError('Select the rows whose follow-ups should stop (row 1 holds the headers).');
  const stopped = stopRows(sheet, only);
  toast(
    stopped
      ? `Follow-ups stopped for ${count(stopped, 'row')} of "${sheet.getName()}": their Sequence column says so.`
      : 'None of the selected rows has follow-ups to come.',
    TITLE,
  );
}

/** Menu: Stop follow-ups for this sheet. */
export function stopSheetFollowUps(): void {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const record = sequenceOf(sheet.getSheetId());
  if (!record) {
    inform(TITLE, `"${sheet.getName()}" has no follow-ups running.`);
    return;
  }
  if (
    !confirm(
      TITLE,
      `Stop every follow-up of "${sheet.getName()}"? No more steps are sent from it; the mails already sent stay as they are.`,
    )
  )
    return;
  const stopped = stopRows(sheet);
  endSequence(record);
  toast(`Follow-ups of "${sheet.getName()}" stopped (${count(stopped, 'row')} had steps to come).`, TITLE);
}

/**
 * Stops the rows (all when `only` is absent) whose Sequence cell shows steps to come: their addresses go to the
 * payer's next run as stop requests, and the cells say so now. Answers how many.
 */
function stopRows(sheet: Sheet, only?: Set<number>): number {
  if (!sequenceOf(sheet.getSheetId())) return 0;
  const list = openMailingList(sheet, false);
  const texts = new Map<string, string>();
  const stopped = sequenceText({ kind: 'stopped', code: 'menu' }, String);
  const requests = new Set<string>();
  for (const row of list.readRows(only)) {
    const shown = parseSequence(sequenceCell(row));
    const running =
      shown === 'next' ||
      shown === 'waiting' ||
      shown === 'paused' ||
      shown === 'held' ||
      (shown === 'none' && !!row.mailId);
    if (row.key && (running || row.mailId)) requests.add(row.key);
    if (row.key && running) texts.set(row.key, stopped);
  }
  // The whole sheet: '*' stops everyone the sequence holds now, whatever the cells say.
  if (!only) requests.add('*');
  if (requests.size) requestStops(sheet.getSheetId(), [...requests]);
  writeSequence(list, texts);
  return texts.size;
}
