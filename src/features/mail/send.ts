// Menu: "Send e-mails to selected rows", and "Send to all unsent rows" (compose dialog). Every row is
// checked before any request; the confirmation states the mails to send, the rows skipped and why, the EDM
// cost and the usable EDM of both buckets; too little EDM is said before anything is sent. Selected rows
// whose address failed before are named in a question of their own. The work is the send job
// (send-job.ts) on the job runner: thousands of rows go on across executions in the progress dialog. A send
// scheduled for later plans the same way (prepareSend) without UI.
import { spreadsheetZone } from '../words';
import { type OutreachClient, usableEdm } from '../../api';
import { outreachClient } from '../clients';
import { Deadline, readSettings, userToken, count, formatCount, plural } from '../../platform';
import {
  BUSY_MESSAGE,
  JobProgress,
  withJobLease,
  hasWorkLeft,
  JobState,
  keyChangedText,
  Reporter,
  endJob,
  newJobState,
  runSlice,
  savedJob,
  startJob,
  MENU_REPORTER,
  recordLastRun,
  reportBackgroundWork,
} from '../jobs';
import {
  loadTemplate,
  StoredTemplate,
  SEND_TEXTS,
  type ConfirmedRef,
  confirmSend,
  sequenceReach,
  tooManyToConfirm,
  templateProblems,
  settleOpen,
  openMailingList,
  readDoNotContact,
  otherSequenceOnSheet,
  stepProblems,
  GUARD_MIN_FINAL,
  guardPause,
  pauseDetail,
  dailyLine,
  Ledger,
} from '../outbox';
import {
  CellValue,
  stateCell,
  MailState,
  notSent,
  ListRow,
  MailingList,
  hiddenRows,
  selectedRows,
  readMailView,
} from '../../sheets';
import { choose, confirm, inform, toast } from '../../ui';
import { showComposeDialog } from './compose';
import { mailedRecently, peopleElsewhere, startFollowUps, sequenceCostLine, stepLines } from '../sequence';
import { askAboutElsewhere, type HeldElsewhere, leaveOutElsewhere, stepsChangedSince } from './send-people';
import { otherSendOnSheet } from './send-owners';
import { askAboutMailedBefore, leaveOutMailedBefore, type MailedBefore } from './send-again';
import {
  handOver,
  listSheet,
  releaseQueued,
  rowsLeft,
  SEND_JOB,
  SendData,
  SendUnit,
  sendUnits,
} from './send-job';
import { includeFailedBefore, planSend, SendPlan, skipFailedBefore, skippedLines } from './send-plan';
import { earlierFailures, failureWhy } from './earlier-failures';
import { ensureKey } from '../settings';
import { guardLine, testLines, whenLines } from './timing-note';
import { UserError } from '../errors';

type Scope = 'selected' | 'all';
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export function sendSelectedRows(): void {
  sendRows('selected');
}

/**
 * The compose dialog's "Send to all unsent rows…". A send that ends in this execution answers its outcome,
 * which the dialog shows (a toast would be hidden behind it); a longer one opens the progress dialog in its
 * place; questions, refusals and a stop are alerts, shown above it.
 */
export function sendAllUnsentRows(): SendOutcome | null {
  const outcome: { progress?: JobProgress } = {};
  sendRows('all', {
    progress: () => undefined,
    end: (job, progress) => {
      if (progress.finished) outcome.progress = progress;
      // Unfinished: the progress dialog takes the compose dialog's place. Stopped or paused: an alert as well.
      if (!progress.finished || progress.error) MENU_REPORTER.end(job, progress);
    },
  });
  const end = outcome.progress;
  if (!end) return null;
  if (end.status === 'paused') return { message: end.message, error: end.error, waiting: true };
  return end.error ? { message: end.message, error: end.error } : { message: end.message };
}

/**
 * How a send from the compose dialog ended: its summary (sent, not sent, skipped, EDM) and why it stopped, or
 * why the rest waits (`waiting`: the hourly run goes on).
 */
interface SendOutcome {
  message: string;
  error?: string;
  waiting?: boolean;
}

function sendRows(scope: Scope, reporter: Reporter = MENU_REPORTER): void {
  if (!ensureKey('outreach')) return;
  withJobLease(
    SEND_JOB.kind,
    () => planAndSend(scope, reporter),
    () => inform('Send e-mails', BUSY_MESSAGE),
  );
}

/** A send planned and checked, ready to be confirmed. */
export interface PreparedSend {
  sheet: Sheet;
  list: MailingList;
  /** Every row of the list as read for the plan. */
  rows: ListRow[];
  template: StoredTemplate;
  plan: SendPlan;
  client: OutreachClient;
  hiddenCount: number;
  /** Rows held back by another list (left out unless the user includes them). */
  elsewhere: HeldElsewhere[];
  /** Addresses the user chose to include although another list holds them: a first mail, no steps. */
  firstOnly: Set<string>;
  /** Rows of the plan this document mailed in the last 30 days. */
  recent: number;
  /** Rows whose address got this campaign's first mail (left out unless the user sends it again). */
  mailedBefore: MailedBefore;
  /** Addresses the user chose to send this first mail again. */
  again: Set<string>;
}

/**
 * Reads and checks the rows of a send (the template, the do-not-contact list, earlier failures, filters);
 * settles chunks left in doubt first. Null when the sheet has no template yet.
 */
export function prepareSend(sheet: Sheet, scope: Scope, client = outreachClient()): PreparedSend | null {
  const spreadsheet = sheet.getParent();
  const template = loadTemplate(sheet.getSheetId());
  if (!template) return null;
  const list = openMailingList(sheet);
  const blocked =
    otherSendOnSheet(sheet.getSheetId(), sheet.getName(), spreadsheetZone()) ||
    (template.followUps ? otherSequenceOnSheet(sheet) : null);
  if (blocked) throw new UserError(blocked);
  const unsubscribeAddress = readSettings().unsubscribeAddress;
  const problems = [
    ...templateProblems(template, list.headers, unsubscribeAddress),
    ...stepProblems(template, list.headers, unsubscribeAddress),
  ];
  if (problems.length) throw new UserError(`Fix the mail first (Compose e-mail…): ${problems.join(' ')}`);
  settleOpen(client, list);
  const changed = stepsChangedSince(sheet.getSheetId(), template);
  if (changed) throw new UserError(changed);
  const pause = guardPause(Ledger.read().list(sheet.getSheetId()));
  if (pause) throw new UserError(SEND_TEXTS.pausedNoSend(sheet.getName(), pauseDetail(pause)));
  const hidden = hiddenRows(sheet);
  const only = scope === 'selected' ? selectedRows(spreadsheet, sheet) : undefined;
  if (only && only.size === 0) throw new UserError('Select the rows to send to (row 1 holds the headers).');
  const rows = list.readRows();
  const candidates = rows.filter((row) => (!only || only.has(row.rowNumber)) && !hidden.has(row.rowNumber));
  const hiddenCount = only ? [...only].filter((r) => hidden.has(r)).length : hidden.size;
  const others = readMailView(spreadsheet, sheet.getSheetId());
  const plan = planSend(template, candidates, rows, scope === 'selected', {
    doNotContact: readDoNotContact(spreadsheet),
    failures: earlierFailures(spreadsheet, { sheetId: sheet.getSheetId(), rows }, others),
    zone: spreadsheetZone(),
    unsubscribeAddress,
  });
  const mailedBefore = leaveOutMailedBefore(plan, template.campaign, spreadsheetZone());
  const elsewhere = leaveOutElsewhere(
    plan,
    peopleElsewhere(spreadsheet, { sheetId: sheet.getSheetId(), rows }, plan.rows, others),
  );
  const recent = mailedRecently(plan.rows, others, rows);
  const again = new Set<string>();
  return {
    sheet,
    list,
    rows,
    template,
    plan,
    client,
    hiddenCount,
    elsewhere,
    recent,
    firstOnly: new Set(),
    mailedBefore,
    again,
  };
}

/**
 * The confirmation's lines: what is sent, what is skipped and why, the cost and the usable EDM; when the rows go
 * from `startAt` (a scheduled send's time; default: now).
 */
export function costLines(prepared: PreparedSend, startAt?: number): { lines: string[]; usable: number } {
  const { plan, sheet, template, client } = prepared;
  const lines = skippedLines(plan, prepared.hiddenCount);
  const n = plan.rows.length;
  const balance = client.balance();
  const usable = usableEdm(balance);
  lines.unshift(`Send ${count(n, 'e-mail')} from "${sheet.getName()}" (campaign "${template.campaign}").`);
  lines.push(
    `Cost: ${count(n, 'e-mail credit')} (EDM, 1 per e-mail).`,
    `Usable e-mail credits (EDM): ${edmText(balance)}.`,
  );
  lines.push(...testLines(n, template.subjectTest, template.timing));
  const zone = spreadsheetZone();
  lines.push(
    ...(startAt === undefined
      ? whenLines(plan.rows, template.timing, zone)
      : whenLines(plan.rows, template.timing, zone, startAt, 'at the start')),
  );
  if (n >= GUARD_MIN_FINAL) lines.push(guardLine(template.timing));
  const timing = template.timing;
  if (timing && timing.dailyLimit && n) {
    const mails = n * (1 + (template.followUps || []).length); // steps count against the daily limit too
    lines.push(dailyLine(mails, timing.dailyLimit, timing.dailyRamp || 0));
  }
  if (prepared.recent)
    lines.push(
      `${count(prepared.recent, 'of them was', 'of them were')} mailed by this document in the last 30 days.`,
    );
  const steps = template.followUps || [];
  if (steps.length && n) {
    lines.push(sequenceCostLine(n, steps.length, usable));
    lines.push(...stepLines(steps, template.subject, sequenceReach(sheet.getSheetId()) + n));
  }
  return { lines, usable };
}

/** "3,000 (1,000 monthly + 2,000 add-on)". */
function edmText(balance: { monthlyEdm: number; addonEdm: number }): string {
  const { monthlyEdm, addonEdm } = balance;
  return `${formatCount(monthlyEdm + addonEdm)} (${formatCount(monthlyEdm)} monthly + ${formatCount(addonEdm)} add-on)`;
}

function planAndSend(scope: Scope, reporter: Reporter): void {
  reportBackgroundWork(SEND_JOB);
  if (resumeUnfinished(reporter)) return;
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const prepared = prepareSend(sheet, scope);
  if (!prepared) {
    showComposeDialog(`Write the mail for the sheet "${sheet.getName()}" first, then send.`);
    return;
  }
  const { plan } = prepared;
  if (prepared.mailedBefore.rows.length)
    askAboutMailedBefore(plan, prepared.mailedBefore, prepared.template.campaign, prepared.again);
  if (plan.failedBefore.length) askAboutFailedBefore(plan, prepared.again);
  if (prepared.elsewhere.length) askAboutElsewhere(plan, prepared.elsewhere, prepared.firstOnly);
  if (plan.skipped.size) placeNow(prepared); // the questions above took time: rows may have moved
  writeStatuses(prepared.list, plan.skipped);
  if (plan.rows.length === 0) {
    const lines = skippedLines(plan, prepared.hiddenCount);
    inform('Nothing to send', lines.join('\n') || 'There are no rows with an e-mail address to send to.');
    return;
  }
  const tooMany = tooManyToConfirm(plan.rows.length);
  if (tooMany) {
    inform('Too many rows for one send', tooMany);
    return;
  }
  const { lines, usable } = costLines(prepared);
  if (usable < plan.rows.length) {
    inform(
      'Not enough e-mail credits',
      `${lines.join('\n')}\n\nNothing was sent. Buy an add-on pack (2,000 e-mail credits) at ${prepared.client.pricingUrl}, or select fewer rows.`,
    );
    return;
  }
  if (!confirm('Send e-mails', `${lines.join('\n')}\n\nSend now?`)) return;
  launchSend(prepared, reporter);
}

/**
 * The question about selected rows whose address failed before: Yes sends them too (a retry: their mail
 * goes again, on purpose), No skips them.
 */
function askAboutFailedBefore(plan: SendPlan, again: Set<string>): void {
  const zone = spreadsheetZone();
  const shown = plan.failedBefore
    .slice(0, 10)
    .map(({ row, failure }) => `Row ${row.rowNumber}: ${row.email} (${failureWhy(failure, zone)})`);
  const more = plan.failedBefore.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more.`);
  const n = plan.failedBefore.length;
  const question =
    `${plural(n, 'An earlier mail to this address', `Earlier mails to these ${count(n, 'address', 'addresses')}`)} from this document failed:\n` +
    `${shown.join('\n')}\n\nSend to ${plural(n, 'it', 'them')} anyway (1 EDM each; it will most likely fail again)?\n\n` +
    `No: ${plural(n, 'it is', 'they are')} skipped with that reason and the other rows are sent.`;
  if (confirm('Addresses that failed before', question)) {
    for (const { row } of plan.failedBefore) again.add(row.key);
    includeFailedBefore(plan);
  } else skipFailedBefore(plan);
}

/**
 * Queues the plan's rows and starts the send job (its first slice runs now). What the user confirmed (the
 * mail and these rows) is kept first, in their own properties, unless it was kept when they scheduled it.
 */
export function launchSend(
  prepared: PreparedSend,
  reporter: Reporter,
  confirmed?: ConfirmedRef,
  deadline = Deadline.forExecution(),
): void {
  const { sheet, template, client } = prepared;
  const kept =
    confirmed ||
    confirmSend(sheet.getSheetId(), template, prepared.plan.rows, prepared.firstOnly, prepared.again);
  placeNow(prepared); // the confirmation was open a while: rows may have moved meanwhile
  const { plan, list } = prepared;
  queue(list, plan.rows);
  startFollowUps(sheet, template, plan.rows); // the rows join its follow-up sequence, if the mail has one
  // Follow-ups may add the Sequence columns: then the first unit reads the list as it is.
  if (!template.followUps?.length) handOver(justRead(prepared));
  const data: SendData = {
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    campaign: template.campaign,
    confirmed: kept,
    pricing: client.pricingUrl,
    owner: userToken(),
    sent: 0,
    notSent: 0,
    skipped: plan.skipped.size,
    unconfirmed: 0,
  };
  startJob(SEND_JOB, newJobState(SEND_JOB, sendUnits(plan.rows.length), data), reporter, deadline);
}

/**
 * The user's own unfinished send, before a new one: an interrupted send is continued, kept or dropped; a send
 * whose rows wait (the sending quota, their window, the hourly limit, a subject test) is kept waiting or
 * cancelled. True when it stays (continued or kept): nothing new is planned. Every answer says what it does
 * to the rows; continuing states the mails left, their cost and the usable EDM, as a first send.
 */
function resumeUnfinished(reporter: Reporter): boolean {
  const previous = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  if (!previous || !hasWorkLeft(previous)) return false;
  const left = rowsLeft(previous.units);
  const otherKey = keyChangedText(SEND_JOB, previous);
  if (otherKey) {
    const drop = `${otherKey}\n\nDrop it now? Its ${count(left, 'row')} left are not sent and can be sent again later; rows whose mail may have gone stay queued until that key is back.\n\nNo: it is kept as it is, and nothing else is sent now.`;
    if (!confirm('Unfinished send', drop)) return true;
    dropSend(previous);
    return false;
  }
  const what = `Your send from "${previous.data.sheetName}" (campaign "${previous.data.campaign}")`;
  if (previous.data.waiting || previous.data.held) return keepWaiting(previous, what, left);
  const question = [
    `${what} was interrupted with ${count(left, 'e-mail')} left.`,
    `Cost: at most ${count(left, 'e-mail credit')} (EDM, 1 per e-mail).`,
    `Usable e-mail credits (EDM): ${edmText(outreachClient().balance())}.`,
    '',
    'Continue it now?',
    '',
    'Yes: it goes on now, and this action is not done (one send at a time).',
    `No: it is dropped: its ${count(left, 'row')} left are not sent (their Mail status is cleared, so they can be sent again later), and this action goes on.`,
    'Cancel: it is kept as it is, and nothing is sent now.',
  ].join('\n');
  const answer = choose('Unfinished send', question);
  if (answer === 'yes') {
    previous.status = undefined; // not stopped (hasWorkLeft), so paused at most: the user asks for it now
    runSlice(SEND_JOB, previous, reporter, Deadline.forExecution());
    return true;
  }
  if (answer === 'cancel') return true;
  dropSend(previous);
  return false;
}

/** A send whose rows wait is not an interrupted one: it is kept waiting unless the user cancels it, knowingly. */
function keepWaiting(previous: JobState<SendUnit, SendData>, what: string, left: number): boolean {
  const why =
    previous.status && previous.status.is === 'paused'
      ? previous.status.message
      : previous.data.waiting
        ? `it waits for the sending quota (${previous.data.waiting.detail}): your hourly run tries again.`
        : 'its rows wait for their send window or the hourly limit: your hourly run sends them.';
  const question = [
    `${what} has ${count(left, 'e-mail')} left: ${why}`,
    `Cost as they go: at most ${count(left, 'e-mail credit')} (EDM, 1 per e-mail).`,
    `Usable e-mail credits (EDM): ${edmText(outreachClient().balance())}.`,
    'One send runs at a time: a new one starts when they have gone, or when you cancel them.',
    '',
    'Keep them waiting?',
    '',
    'Yes: they stay queued and go as planned; nothing else is sent now.',
    `No: the ${count(left, 'e-mail')} waiting are cancelled (not sent; their Mail status says so), and this action goes on.`,
  ].join('\n');
  if (confirm('A send is waiting', question)) return true;
  const released = dropSend(previous, notSent('cancelled', SEND_TEXTS.waitCancelled));
  const done = `${what.replace('Your send', 'The send')} was cancelled by you: ${count(released, 'waiting row')} not sent.`;
  recordLastRun('send', { message: done, finished: true }); // the Tracking summary's "Last waiting or scheduled send"
  toast(done, 'Send e-mails', 10);
  return false;
}

/** Ends the user's unfinished send: its queued rows are released (those in doubt stay queued). */
export function dropSend(state: JobState<SendUnit, SendData>, as?: MailState): number {
  const released = releaseQueued(state.data, as);
  endJob(SEND_JOB, state);
  return released;
}

/**
 * Puts the plan on the list as it is now: another editor may have inserted, deleted or sorted rows or columns
 * while a question was open. Unless nothing moved, the list is read again and each planned row (as the user
 * confirmed it) takes its address's row now; one whose row is gone is left out. A deleted sheet stops here.
 */
function placeNow(prepared: PreparedSend): void {
  const { sheet, list, plan } = prepared;
  if (!listSheet({ sheetId: sheet.getSheetId() }))
    throw new UserError(`The sheet "${sheet.getName()}" was deleted meanwhile: nothing was sent.`);
  const planned = [...plan.rows, ...prepared.rows.filter((row) => plan.skipped.has(row.rowNumber))];
  if (list.stillAsRead(planned)) return;
  const fresh = openMailingList(sheet);
  const rows = fresh.readRows();
  // The n-th row of an address then is its n-th row now (a duplicate stays a duplicate).
  const byKey = new Map<string, ListRow[]>();
  for (const row of rows) if (row.key) byKey.set(row.key, [...(byKey.get(row.key) || []), row]);
  const place = new Map<number, number>();
  for (const row of prepared.rows) {
    const now = row.key ? byKey.get(row.key)?.shift() : undefined;
    if (now) place.set(row.rowNumber, now.rowNumber);
  }
  const moved = (row: ListRow): ListRow[] => {
    const at = place.get(row.rowNumber);
    return at ? [{ ...row, rowNumber: at }] : [];
  };
  const skipped = new Map<number, MailState>();
  for (const [at, state] of plan.skipped) if (place.has(at)) skipped.set(place.get(at)!, state);
  plan.skipped = skipped;
  plan.rows = plan.rows.flatMap(moved);
  const placed = new Map(plan.rows.map((row) => [row.rowNumber, row]));
  prepared.list = fresh;
  prepared.rows = rows.map((row) => placed.get(row.rowNumber) || row);
}

/** The plan's rows as this execution wrote them: the skipped ones with their reason, the others queued. */
function justRead(prepared: PreparedSend): Parameters<typeof handOver>[0] {
  const { plan, sheet, list, template } = prepared;
  const queued = new Set(plan.rows.map((row) => row.rowNumber));
  const rows = prepared.rows.map((row): ListRow => {
    const state = queued.has(row.rowNumber) ? QUEUED : plan.skipped.get(row.rowNumber);
    return state ? { ...row, state } : row;
  });
  return { sheetId: sheet.getSheetId(), list, rows, template };
}

const QUEUED: MailState = { kind: 'queued' };

function queue(list: MailingList, rows: ListRow[]): void {
  writeStatuses(list, new Map(rows.map((row): [number, MailState] => [row.rowNumber, QUEUED])));
}

/** One block write of "Mail status" for rows read in this execution. */
export function writeStatuses(list: MailingList, states: Map<number, MailState>): void {
  const changes = new Map<number, Record<string, CellValue>>();
  for (const [row, state] of states) changes.set(row, { mailStatus: stateCell(state) });
  list.writeRows([], changes);
}
