// The send job: units of up to 6,000 queued rows of one sheet. The sheet is the queue: planning marks the
// rows "Queued", each unit takes the first queued rows as they stand now (a sort or an inserted row changes
// nothing), renders each row's mail, cuts them into chunks of 100 posted together, each exactly once
// (send-chunk.ts), and writes task id, mail id, status and time on those rows, by recipient, in one block
// write per column. A 429 quota-exceeded does not end the send: its rows wait ("Waiting for the sending
// quota (…)"), the job pauses, and the hourly trigger of the user who sent it (schedule/) tries again each
// hour, for 7 days at most.
import { spreadsheetZone } from '../words';
import { ApiError, isForLater, type OutreachClient } from '../../api';
import { outreachClient } from '../clients';
import {
  loadTemplate,
  idsOf,
  openChunks,
  type Posted,
  BATCH_CHUNKS,
  closeBatch,
  listOf,
  postBatch,
  SEND_CHUNK,
  settleOpen,
  idCells,
  type ConfirmedRef,
  forgetConfirmed,
  openConfirmed,
  openMailingList,
  SEND_TEXTS,
  sendClock,
  type StoredTemplate,
} from '../outbox';
import {
  CellValue,
  stateCell,
  isQueued,
  MailState,
  NO_STATE,
  notSent,
  type ListRow,
  MailingList,
  ViewNotWritten,
} from '../../sheets';
import { JobDefinition, JobPause, JobState, JobStop, SliceContext, stopRequested } from '../jobs';
import { readSettings, HOUR_MS, count, formatCount, plural } from '../../platform';
import { EndData, quotaEnd, stopEnd } from './send-end';
import { queuedRows, subjectGate } from './send-queue';
import { guardHold, type Hold, holdOf, holdPause, reviewHold, roomNow } from './send-hold';
import { describe, UserError } from '../errors';
import { selectWritten, writtenColumnsText } from './written-columns';

const UNIT_ROWS = SEND_CHUNK * BATCH_CHUNKS;
const PROGRESS_EVERY_MS = 1000;
/**
 * Chunks one fetch posts while a dialog watches: Stop is read between fetches. One a fetch made the first
 * minute's 60 posts take 13 s longer than the rate window needs (each fetch, slot and Stop read is paid
 * alone); four go in about the time of one, and Stop still acts within a second.
 */
const STOPPABLE_CHUNKS = 4;

export type SendUnit = { n: number };

export interface SendData extends EndData {
  sheetId: number;
  sheetName: string;
  campaign: string;
  /** The mail and the rows the user confirmed (outbox/confirm.ts): nothing else is sent. */
  confirmed: ConfirmedRef;
  /** The token of the user who started it (jobs/hourly-trigger-store): their trigger carries a waiting send on. */
  owner?: string;
  notSent: number;
  skipped: number;
  /** Queued rows that were not among those confirmed (added or changed since): not sent. */
  unconfirmed: number;
  /** Until when its rows wait for their send window or the hourly limit (the hourly run goes on then). */
  held?: number;
  /** Where the results are, as the finished send's selection of them found it (the summary says it). */
  resultsAt?: string;
}

type SendState = JobState<SendUnit, SendData>;

/** One unit's work: the chunks posted together, and the rows found unsendable on the way. */
interface UnitResult {
  list: MailingList;
  posted?: Posted;
  /** Recipient key → its "Skipped" state, found when the batch was built (the row changed since the plan). */
  skipped: Map<string, MailState>;
  /** Queued rows not among those confirmed: recipient key → their state. */
  unconfirmed: Map<string, MailState>;
  /** Fewer sendable rows were queued than the unit asked for: nothing is left after this batch. */
  exhausted: boolean;
  /** Rows that wait for their send window or the hourly limit, and until when. */
  hold: Hold | null;
}

export const SEND_JOB: JobDefinition<SendUnit, SendData, UnitResult> = {
  kind: 'send',
  name: 'Send',
  title: 'Sending e-mails',
  action: 'Send e-mails',
  service: 'outreach',
  unitMs: () => 30_000,
  size: (unit) => unit.n,
  work: (unit, state, context) => sendUnit(unit, state, context),
  record: (unit, result, state) => recordUnit(unit, result, state),
  summary: sendSummary,
  markStopped: (state) => {
    const left = releaseQueued(state.data, { kind: 'stopped', detail: SEND_TEXTS.stopped });
    if (left === 0) return '';
    return `${count(left, 'e-mail')} ${plural(left, 'was', 'were')} not sent, nothing charged for them: their Mail status says "Stopped" and the next "Send to all unsent rows" sends them.`;
  },
  ended: (state) => forgetConfirmed(state.data.confirmed),
  showResults: (state) => {
    const sheet = listSheet(state.data);
    if (sheet) state.data.resultsAt = selectWritten(sheet);
  },
  workDone: (before, after) => {
    const sent = after.sent - before.sent;
    const parts = sent ? [`sent ${count(sent, 'e-mail')} (${count(sent, 'e-mail credit')})`] : [];
    const notSent = after.notSent - before.notSent;
    if (notSent) parts.push(`did not send ${formatCount(notSent)} (their rows say why)`);
    return parts.join(' and ');
  },
};

/** The list, its rows and the mail as the execution that starts a send read them, its own writes applied. */
interface JustRead {
  sheetId: number;
  list: MailingList;
  rows: ListRow[];
  template: StoredTemplate;
}

let justRead: JustRead | undefined;

/**
 * Hands what the confirming execution just read to the send's first unit, which runs a moment later in the
 * same execution: reading the sheet again would first commit the Mail status just written (half a second)
 * and read it all again, before the first post. Any later unit reads the sheet as it is then.
 */
export function handOver(read: JustRead): void {
  justRead = read;
}

function takeHandOver(sheetId: number): JustRead | undefined {
  const read = justRead;
  justRead = undefined;
  return read && read.sheetId === sheetId ? read : undefined;
}

/** The units of a send of `rows` rows. */
export function sendUnits(rows: number): SendUnit[] {
  const units: SendUnit[] = [];
  for (let left = rows; left > 0; left -= UNIT_ROWS) units.push({ n: Math.min(UNIT_ROWS, left) });
  return units;
}

/** The rows a send's units still hold. */
export function rowsLeft(units: SendUnit[]): number {
  return units.reduce((n, u) => n + u.n, 0);
}

/**
 * Gives the rows still queued (or waiting for the quota) for this send the status `status` ('' = as if never
 * planned) when the send ends unfinished (stopped, dropped, cancelled); the rows of a chunk in doubt stay
 * queued, so that the next send settles it first and never posts them twice. Returns how many rows changed.
 */
export function releaseQueued(
  data: Pick<SendData, 'sheetId' | 'sheetName'>,
  state: MailState = NO_STATE,
): number {
  let list: MailingList;
  try {
    list = openMailingList(sendingSheet(data));
  } catch {
    return 0; // the sheet is gone: nothing to release
  }
  const inDoubt = new Set<string>();
  for (const chunk of openChunks())
    if (chunk.sheetId === data.sheetId) chunk.recipients.forEach((r) => inDoubt.add(r.email));
  const changes = new Map<string, Record<string, CellValue>>();
  for (const row of list.readRows())
    if (isQueued(row.state) && !inDoubt.has(row.key)) changes.set(row.key, { mailStatus: stateCell(state) });
  list.writeByRecipient(changes, isQueued);
  return changes.size;
}

/**
 * The first queued rows, as they stand now (up to the unit's size and one batch), checked again, rendered,
 * cut into chunks of 100 and posted together (send-chunk.ts).
 */
function sendUnit(unit: SendUnit, state: SendState, context: SliceContext): UnitResult {
  // Watched by a dialog, the chunks go a few a fetch, so that Stop acts before the next few chunks; a
  // trigger's run (nobody can stop it) posts them together.
  const settings = readSettings();
  const client = outreachClient(
    { deadlineMs: context.deadline.at, maxBatchSize: context.stoppable ? STOPPABLE_CHUNKS : undefined },
    settings,
  );
  const handed = takeHandOver(state.data.sheetId);
  const list = handed ? handed.list : openMailingList(sendingSheet(state.data));
  settleFirst(client, list);
  const unsubscribe = settings.unsubscribeAddress;
  const template = handed ? handed.template : loadTemplate(state.data.sheetId);
  const confirmed = template && openConfirmed(state.data.confirmed, template);
  // Changed since it was confirmed: held until the payer reviews it; paused by its bounce guard: until resumed;
  // gone (its record or template): stopped.
  const held = template && confirmed && (confirmed.mailChanged ? reviewHold(list) : guardHold(list));
  if (held) return { list, skipped: new Map(), unconfirmed: new Map(), exhausted: true, hold: held };
  if (!template || !confirmed) {
    const left = releaseQueued(state.data, notSent('mail-changed', SEND_TEXTS.mailChanged));
    throw new JobStop(
      `The mail was changed after you confirmed the send (by you or another editor): ${count(left, 'row')} not sent, nothing charged for them. Check the mail, then run "Send e-mails" again to send them (nothing is sent twice).`,
    );
  }
  topUp(unit, state.units);
  // As many chunks as may go now (the rest would wait for the rate window before this batch's results are
  // written); a full batch when none may: it waits once, for all of them.
  const free = client.budget.available();
  const most = Math.min(unit.n, UNIT_ROWS, free > 0 ? free * SEND_CHUNK : UNIT_ROWS);
  // The hourly and daily limits count what this list posted (steps included) in the ledger.
  const { room: wanted, daily } = roomNow(state.data.sheetId, template.timing, most);
  const clock = sendClock(template.timing, spreadsheetZone());
  const subject = subjectGate(client, list, template);
  const rowsNow = handed ? handed.rows : list.readRows();
  const queued = queuedRows(list, rowsNow, template, confirmed, wanted, unsubscribe, clock, subject.gate);
  const { rows, skipped, unconfirmed } = queued;
  const hold = holdOf(queued, template.timing, wanted < most && queued.over.length > 0, Date.now(), daily);
  // Nothing to post and nothing waiting (the queued rows were deleted or sent): nothing is left, whatever the
  // hour's room (with none left, `rows.length < wanted` alone would ask for the same unit again, forever).
  const exhausted = rows.length < wanted || (rows.length === 0 && !hold);
  if (rows.length === 0) return { list, skipped, unconfirmed, exhausted, hold };
  // What the dialog says while the batch waits for the rate limit (the counters move when it is recorded).
  const limit = `the service's rate limit (${client.budget.describe()})`;
  if (free === 0) context.progress(0, `${sendSummary(state, false)} Waiting for ${limit}.`);
  // Stop pressed while the batch waits for the rate window: what has not gone stays unsent.
  let stopped = false;
  const cancelled = () => (stopped = stopped || stopRequested(SEND_JOB.kind));
  const size = Math.min(rows.length, UNIT_ROWS);
  // Said at most once a second (the dialog polls every few seconds): each saying is a property write, paid
  // before the next chunk's post. All of the batch posted: its record, right after, says it.
  let saidAt = -Infinity;
  const onAnswered = (answered: number) => {
    const gone = Math.min(answered * SEND_CHUNK, size);
    if (gone >= size || Date.now() - saidAt < PROGRESS_EVERY_MS) return;
    saidAt = Date.now();
    const rest = `${gone} more posted; the other ${size - gone} of this batch wait for ${limit}.`;
    context.progress(gone, `${sendSummary(state, false)} ${rest}`);
  };
  const subjects = subject.texts && {
    of: (row: ListRow) => queued.variants.get(row.key) || 0,
    texts: subject.texts,
  };
  const batch = { list, template, step: 0, rows, unsubscribe, subjects };
  const posted = postBatch(client, batch, { onAnswered, cancelled });
  if (posted.outcomes.every((o) => 'later' in o)) {
    closeBatch(posted); // nothing went: the runner stops the job, or the next slice posts these rows
    if (stopped) return { list, skipped, unconfirmed, exhausted: false, hold: null };
    throw posted.outcomes[0].error;
  }
  const all = exhausted && posted.entry.chunks.length * SEND_CHUNK >= rows.length;
  return { list, skipped, unconfirmed, exhausted: all, posted, hold };
}

/**
 * A unit cut short (by the hourly or daily limit, or the rate window) takes rows of the units after it, up to a
 * full unit: units only count the queued rows, and an hour's mails must not split a chunk at a unit's edge.
 */
function topUp(unit: SendUnit, units: SendUnit[]): void {
  const at = units.indexOf(unit);
  if (at < 0) return;
  while (unit.n < UNIT_ROWS && units.length > at + 1) {
    const next = units[at + 1];
    const take = Math.min(UNIT_ROWS - unit.n, next.n);
    unit.n += take;
    next.n -= take;
    if (next.n === 0) units.splice(at + 1, 1);
  }
}

/**
 * Chunks left in doubt by an earlier execution are settled before anything else is posted; one this user
 * posted with another key waits for that key (a pause).
 */
function settleFirst(client: OutreachClient, list: MailingList): void {
  try {
    settleOpen(client, list);
  } catch (error) {
    if (error instanceof UserError) throw new JobPause(error.message, Date.now() + HOUR_MS);
    if (!(error instanceof ApiError) || isForLater(error)) throw error;
    throw inDoubt(error);
  }
}

/** A look-up that fails leaves a chunk in doubt: nothing more is posted until a later run settles it. */
function inDoubt(error: ApiError): JobPause {
  return new JobPause(
    `Could not confirm with the service whether the last chunk was sent (${error.userMessage}). Nothing more is sent until that is known: run the send again in a minute; no row is sent twice.`,
    Date.now() + 60_000,
  );
}

/**
 * Writes a batch's outcome on its rows (one block write per column), then lets its journal entry go,
 * unless a chunk is in doubt. Rows of chunks not posted (no rate slot in time) stay queued: the rest of the
 * unit comes back as a unit of its own.
 */
function recordUnit(unit: SendUnit, result: UnitResult, state: SendState): SendUnit[] | void {
  const { list, posted, skipped, unconfirmed, hold } = result;
  const changes = new Map<string, Record<string, CellValue>>();
  const waiting = hold ? [...hold.states] : [];
  for (const [key, state] of [...unconfirmed, ...skipped, ...waiting])
    changes.set(key, { mailStatus: stateCell(state) });
  state.data.skipped += skipped.size;
  state.data.unconfirmed = (state.data.unconfirmed || 0) + unconfirmed.size;
  let done = 0;
  let later = false;
  let stop: ApiError | undefined;
  let quota: ApiError | undefined;
  let doubt: ApiError | undefined;
  posted?.outcomes.forEach((outcome, i) => {
    const chunk = posted.entry.chunks[i];
    if (outcome.sent) {
      state.data.waiting = undefined; // the quota is back
      for (const { email } of chunk.recipients) {
        changes.set(email, idCells(chunk, email));
        if (idsOf(chunk, email)) state.data.sent++;
        else state.data.notSent++;
      }
      done += chunk.recipients.length;
    } else if ('later' in outcome) later = true;
    else if ('doubt' in outcome) doubt = outcome.error;
    else if (outcome.error.kind === 'quota' || outcome.error.kind === 'fetch-quota') quota = outcome.error;
    else {
      const reason = { mailStatus: stateCell(notSent('refused', describe(outcome.error))) };
      for (const { email } of chunk.recipients) changes.set(email, reason);
      state.data.notSent += chunk.recipients.length;
      done += chunk.recipients.length;
      if (outcome.stop && !stop) stop = outcome.error;
    }
  });
  unit.n -= done; // the unit stays saved when the run pauses or stops here: it holds what is left
  // A batch with a chunk in doubt stays in the journal: its rows stay queued for the next send to settle.
  const kept = doubt && posted ? posted.entry.chunks : [];
  const inDoubtRows = new Set(kept.flatMap((c) => c.recipients.map((r) => r.email)));
  const left = rowsLeft(state.units);
  const end = quota ? quotaEnd(quota, state.data, left) : stop ? stopEnd(stop, state.data) : null;
  if (end) {
    // The run ends or waits: every row still queued says so (none is left looking as if it were on its way).
    for (const row of list.readRows())
      if (isQueued(row.state) && !changes.has(row.key) && !inDoubtRows.has(row.key))
        changes.set(row.key, { mailStatus: stateCell(end.state) });
  }
  const owed = writeOutcome(list, changes, posted);
  if (posted && !owed) closeBatch(posted);
  if (end) throw end.error;
  if (owed) throw owedPause(state.data.sheetName, owed);
  // A look-up out of rate slots is settled by the next slice; one that failed pauses the send.
  if (doubt) throw isForLater(doubt) ? doubt : inDoubt(doubt);
  // Nothing more may go now (the rest wait for their window or the next hour): the hourly run goes on.
  state.data.held = undefined;
  if (hold && unit.n > 0 && !later && (result.exhausted || hold.pace)) {
    state.data.held = hold.until;
    throw holdPause(hold, !!posted && posted.outcomes.some((o) => o.sent));
  }
  if (unit.n > 0 && (later || !result.exhausted)) return [{ n: unit.n }];
}

/** Why a batch's mails are not on their rows yet: the sheet or its e-mail column is gone, or its rows kept moving. */
type Owed = 'gone' | 'moved';

/**
 * Writes a batch's outcome on the list as it is now; when its mails cannot be shown, why: then the batch stays in
 * the journal, owed, and the next run writes it.
 */
function writeOutcome(
  list: MailingList,
  changes: Map<string, Record<string, CellValue>>,
  posted: Posted | undefined,
): Owed | null {
  const sent = new Set<string>();
  for (const [i, outcome] of (posted?.outcomes || []).entries())
    if (outcome.sent) for (const r of posted!.entry.chunks[i].recipients) sent.add(r.email);
  try {
    list.writeByRecipient(changes, isQueued, sent);
    return null;
  } catch (error) {
    if (error instanceof ViewNotWritten) return 'moved';
    if (sent.size === 0 || !cannotShow(list)) throw error;
    return 'gone';
  }
}

/** The list cannot show its mails now: its sheet or its e-mail column is gone (outbox listOf). */
function cannotShow(list: MailingList): boolean {
  try {
    return listOf(list.sheet.getSheetId()) === null;
  } catch {
    return true; // the sheet was deleted: its object answers nothing
  }
}

/** The mails went but their rows cannot show them now: said, and written by the next run. */
function owedPause(sheetName: string, why: Owed): JobPause {
  if (why === 'moved')
    return new JobPause(
      `The mails just sent are recorded, but the rows of "${sheetName}" kept moving while their Task ID and Mail ID were written (rows sorted, inserted or deleted meanwhile): the send writes them in a minute, then goes on; nothing is sent twice.`,
      Date.now() + 60_000,
    );
  return new JobPause(
    `The mails just sent are recorded, but "${sheetName}" has no e-mail column or was deleted, so their Task ID and Mail ID cannot be written now: put the "E-mail" header back (or restore the sheet) and run the send again; nothing is sent twice.`,
    Date.now() + HOUR_MS,
  );
}

function sendingSheet(data: Pick<SendData, 'sheetId' | 'sheetName'>): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = listSheet(data);
  if (!sheet) throw new JobStop(`The sheet "${data.sheetName}" was deleted: nothing more is sent.`);
  return sheet;
}

/** The send's list, or null when it was deleted. */
export function listSheet(data: Pick<SendData, 'sheetId'>): GoogleAppsScript.Spreadsheet.Sheet | null {
  const sheets = SpreadsheetApp.getActiveSpreadsheet().getSheets();
  return sheets.find((s) => s.getSheetId() === data.sheetId) || null;
}

function sendSummary(state: SendState, finished: boolean): string {
  const d = state.data;
  const parts = [`Sent ${count(d.sent, 'e-mail')}`];
  if (d.notSent) parts.push(`${formatCount(d.notSent)} not sent`);
  if (d.skipped) parts.push(`${formatCount(d.skipped)} skipped`);
  if (d.unconfirmed) parts.push(`${formatCount(d.unconfirmed)} not sent: not part of the send you confirmed`);
  const left = rowsLeft(state.units);
  if (!finished && left) parts.push(`${formatCount(left)} to go`);
  const cost = finished ? ` ${count(d.sent, 'e-mail credit')} (EDM) used.` : '';
  // Where the results are (a wide list has them off-screen): as selected, else read now.
  const sheet = finished && d.resultsAt === undefined ? listSheet(d) : null;
  const where = d.resultsAt ?? (sheet ? writtenColumnsText(sheet) : '');
  // A send that waits (its window, its limits, a pause) is not working: its words say why it waits.
  const working = !finished && !(state.status && state.status.is === 'paused');
  return `${working ? 'Working: ' : ''}${parts.join(', ')} (campaign "${d.campaign}").${cost}${where}`;
}
