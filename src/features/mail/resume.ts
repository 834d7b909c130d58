// Menu: "Resume a paused list". The bounce guard (outbox/bounce-guard.ts) paused the active sheet's list in
// the ledger: only the payer resumes it (their record holds the pause; another editor is told whose it
// is), after a question that names the failed rows and offers the next contact of their companies first
// (next-contact.ts). Nothing that went is sent again: the rows still queued go on with the send (the hourly
// run), the steps to come with the sequence, and the guard judges the mails after the resume.
import { saveJob, withJobLease, savedJob } from '../jobs';
import { userToken, count, formatCount, plural } from '../../platform';
import { stateCell, type CellValue, MailingList } from '../../sheets';
import { choose, inform, toast } from '../../ui';
import { guardPause, guardView, pauseDetail, resumeGuard, untoldPauses, Ledger } from '../outbox';
import { UserError } from '../errors';
import { whenText, spreadsheetZone } from '../words';
import { addNextContactsFor } from './next-contact';
import { SEND_JOB, type SendData, type SendUnit } from './send-job';

const TITLE = 'Resume a paused list';
/** The failed rows the question names one by one (the rest are counted). */
const NAMED_ROWS = 20;

export function resumePausedList(): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const sheetId = sheet.getSheetId();
  const list = Ledger.read().list(sheetId);
  const pause = guardPause(list);
  if (!list || !list.guard || !pause) throw new UserError(notPausedText(sheet.getName(), sheetId));
  const failed = MailingList.open(sheet, false)
    .readRows()
    .filter((row) => row.state.kind === 'failed')
    .map((row) => row.rowNumber);
  const zone = spreadsheetZone(spreadsheet);
  const named = failed.slice(0, NAMED_ROWS).join(', ') + (failed.length > NAMED_ROWS ? ', …' : '');
  const question = [
    `"${sheet.getName()}" was paused on ${whenText(pause.at, zone)}: ${pauseDetail(pause)}, above the ${list.guard.limit} % you confirmed.`,
    failed.length ? `Failed: ${count(failed.length, 'row')} (${named}).` : '',
    'Resuming sends the rows still waiting and the follow-ups to come; nothing that went is sent again. The guard pauses the list again if its next mails fail as much.',
    'Yes: resume now.',
    "No: first add the next contact of each failed row's company (Add next contact for failed mails; you see them before they are added), then resume.",
    'Cancel: the list stays paused.',
  ]
    .filter(Boolean)
    .join('\n');
  const answer = choose(TITLE, question);
  if (answer === 'cancel') return toast('The list stays paused.', TITLE);
  if (answer === 'no' && failed.length) addNextContactsFor(new Set(failed));
  resumeGuard(sheetId);
  const waiting = releasePaused(sheet, sheetId);
  toast(
    `"${sheet.getName()}" is resumed: ${count(waiting, 'row')} ${plural(waiting, 'goes', 'go')} on with the hourly run.`,
    TITLE,
    10,
  );
}

/** Why the active sheet cannot be resumed by this user: not paused, or paused for another editor. */
function notPausedText(name: string, sheetId: number): string {
  const view = guardView(sheetId);
  if (view && view.paused && view.owner !== userToken())
    return `"${name}" was paused by its bounce guard (${pauseDetail(view)}) for the editor who sent it: only they can resume it, since it spends their key.`;
  const others = [...Ledger.read().lists.values()].filter((l) => l.guard?.paused).map((l) => l.sheetId);
  const names = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .filter((s) => others.includes(s.getSheetId()))
    .map((s) => `"${s.getName()}"`);
  const hint = names.length ? ` Paused: ${names.join(', ')}: open the sheet, then choose Resume again.` : '';
  return `"${name}" is not paused.${hint}`;
}

/**
 * The rows that said "Paused" are queued again, and the send of this list goes on at the next hourly run
 * (its pause ends now).
 */
function releasePaused(sheet: GoogleAppsScript.Spreadsheet.Sheet, sheetId: number): number {
  const list = MailingList.open(sheet, false);
  const changes = new Map<string, Record<string, CellValue>>();
  for (const row of list.readRows())
    if (row.state.kind === 'waiting' && row.state.code === 'bounce')
      changes.set(row.key, { mailStatus: stateCell({ kind: 'queued' }) });
  list.writeByRecipient(changes, (state) => state.kind === 'waiting');
  withJobLease(
    SEND_JOB.kind,
    () => {
      const job = savedJob<SendUnit, SendData>(SEND_JOB.kind);
      if (!job || job.data.sheetId !== sheetId || !job.status || job.status.is !== 'paused') return;
      job.status = { ...job.status, until: Date.now() };
      saveJob(SEND_JOB.kind, job);
    },
    () => undefined, // a step of the send runs now: it reads the record, which is resumed
  );
  return changes.size;
}

/** The payer's lists the guard paused since they last heard of it, said once (a menu action, Compose). */
export function sayPausesOnce(): void {
  let untold: ReturnType<typeof untoldPauses>;
  try {
    untold = untoldPauses();
  } catch {
    return; // the record cannot be read now: said at the next action
  }
  if (untold.length === 0) return;
  const names = new Map(
    SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()
      .map((s) => [s.getSheetId(), s.getName()]),
  );
  const lines = untold.map(
    ({ sheetId, pause }) => `"${names.get(sheetId) || sheetId}" is paused: ${pauseDetail(pause)}.`,
  );
  lines.push(
    `Nothing more of ${plural(untold.length, 'this list', 'these lists')} is sent until you resume ${plural(untold.length, 'it', 'them')}: open the sheet, check its failed rows, then choose Resume a paused list in the menu.`,
  );
  inform(`Paused: too many mails failed (${formatCount(untold.length)})`, lines.join('\n'));
}
