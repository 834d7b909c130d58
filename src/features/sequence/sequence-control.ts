// Starting a sequence (the first send of a mail with follow-ups, confirmed with its most cost) and the menu
// actions that stop it: for the selected rows ("Stopped: follow-ups stopped from the menu" in their Sequence
// cells, kept whatever happens next) or for the whole sheet (every row with steps to come says so, and the
// sequence ends). Stopping costs nothing and needs no key: any editor may stop follow-ups.
import type { ListRow } from '../../sheets/mailing-list';
import { selectedRows } from '../../sheets/selection';
import { confirm, inform, toast } from '../../ui/dialogs';
import { UserError } from '../inputs';
import type { StoredTemplate } from '../mail/mail-templates';
import { openMailingList } from '../mail/send-plan';
import { ensureTimer } from '../schedule/timer';
import { count } from '../words';
import { ensureSequenceColumns, sequenceCell, writeSequence } from './sequence-column';
import { endSequence, sequenceOf, startSequence } from './sequence-store';
import { isStopped, SEQUENCE_TEXT } from './sequence-texts';

const TITLE = 'Stop follow-ups';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The confirmed first send of a mail with follow-ups: its rows join the sheet's sequence. */
export function startFollowUps(sheet: Sheet, template: StoredTemplate, rows: ListRow[]): void {
  if (!template.followUps || template.followUps.length === 0) return;
  const checkedTo = ensureSequenceColumns(sheet, sequenceOf(sheet.getSheetId())?.checkedTo);
  startSequence(
    sheet,
    template,
    rows.map((row) => row.key),
    checkedTo,
  );
  ensureTimer(); // the hourly run sends the steps
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

/** Marks the rows (all when `only` is absent) with follow-ups to come as stopped; answers how many. */
export function stopRows(sheet: Sheet, only?: Set<number>, text: string = SEQUENCE_TEXT.byUser): number {
  if (!sequenceOf(sheet.getSheetId())) return 0;
  const list = openMailingList(sheet, false);
  const texts = new Map<string, string>();
  for (const row of list.readRows(only)) {
    const now = sequenceCell(row);
    if (!row.key || !row.mailId || isStopped(now) || now.startsWith(SEQUENCE_TEXT.finishedPrefix)) continue;
    // Steps removed: only the rows the sequence has spoken of (it ends anyway); a stop from the menu: every row.
    if (!only && !now && text !== SEQUENCE_TEXT.byUser) continue;
    texts.set(row.key, text);
  }
  writeSequence(list, texts);
  return texts.size;
}
