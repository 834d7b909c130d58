// The send job: units of up to 100 queued rows of one sheet. The sheet is the queue: planning marks the
// rows "Queued", each unit takes the first queued rows as they stand now (a sort or an inserted row changes
// nothing), renders each row's mail, posts the chunk exactly once (send-chunk.ts), and writes task id, mail
// id, status and time on those rows, by recipient, in one block write per column, at once. A 429
// quota-exceeded does not end the send: its rows wait ("Waiting for the sending quota (…)"), the job pauses,
// and the hourly trigger of the user who sent it (schedule/) tries again each hour, for 7 days at most.
import { ApiError } from '../../api/errors';
import type { OutreachClient } from '../../api/outreach/outreach-client';
import { outreachClient } from '../clients';
import type { PersonalizedEmail } from '../../api/outreach/email-schemas';
import { loadTemplate } from './mail-templates';
import { closeChunk, idsOf, JournalChunk, newTag, openChunks } from './send-journal';
import { CellValue } from '../../sheets/cells';
import { MAIL_STATUS } from '../../sheets/layouts';
import { ListRow, MailingList } from '../../sheets/mailing-list';
import { JobDefinition, JobPause, JobState, JobStop } from '../jobs/job-runner';
import { renderMail } from './mail-template';
import { postChunk, PostOutcome, settleOpenChunks } from './send-chunk';
import { isQueued, openMailingList, rowProblem } from './send-plan';
import { listedReason, listedStatus, readDoNotContact } from './do-not-contact';
import { readSettings } from '../../platform/settings';
import { ensureTimer } from '../schedule/timer';
import { describe } from '../settings';
import { count, neededText } from '../words';

export const SEND_CHUNK = 100;

export type SendUnit = { n: number };

export interface SendData {
  sheetId: number;
  sheetName: string;
  campaign: string;
  /** The template the user confirmed: a change mid-run stops the send (the preview must stay true). */
  templateSavedAt: number;
  /** Where to buy more EDM, said when the quota runs out. */
  pricing: string;
  /** The token of the user who started it (schedule/timer-store): their trigger carries a waiting send on. */
  owner?: string;
  /** Set while the send waits for the sending quota: since when, and what the service said. */
  waiting?: { since: number; detail: string };
  sent: number;
  notSent: number;
  skipped: number;
}

/** A send waiting for the quota is tried hourly for this long, then given up. */
export const QUOTA_WAIT_DAYS = 7;
const WAIT_MS = QUOTA_WAIT_DAYS * 24 * 3600 * 1000;
/** The next try: just under an hour, so the next hourly run of the trigger makes it. */
const RETRY_MS = 50 * 60 * 1000;

type SendState = JobState<SendUnit, SendData>;

interface ChunkResult {
  list: MailingList;
  outcome?: PostOutcome;
  /** Recipient keys of the rows in the chunk. */
  keys: string[];
  /** Recipient key → "Skipped: …" found when the chunk was built (the row changed since the plan). */
  skipped: Map<string, string>;
}

export const SEND_JOB: JobDefinition<SendUnit, SendData, ChunkResult> = {
  kind: 'send',
  name: 'Send',
  title: 'Sending e-mails',
  action: 'Send e-mails',
  unitMs: () => 30_000,
  size: (unit) => unit.n,
  work: (unit, state, context) => sendChunk(unit, state, outreachClient({ deadlineMs: context.deadline.at })),
  record: (_unit, result, state) => recordChunk(result, state),
  summary: sendSummary,
  markStopped: (state) => {
    const left = releaseQueued(
      state.data,
      `${MAIL_STATUS.stopped}: not sent, nothing charged (the send was stopped)`,
    );
    if (left === 0) return '';
    return `${count(left, 'e-mail')} ${left === 1 ? 'was' : 'were'} not sent, nothing charged for them: their Mail status says "Stopped" and the next "Send to all unsent rows" sends them.`;
  },
  workDone: (before, after) => {
    const sent = after.sent - before.sent;
    const parts = sent ? [`sent ${count(sent, 'e-mail')} (${sent} EDM)`] : [];
    const notSent = after.notSent - before.notSent;
    if (notSent) parts.push(`did not send ${notSent} (their rows say why)`);
    return parts.join(' and ');
  },
};

/**
 * Gives the rows still queued (or waiting for the quota) for this send the status `status` ('' = as if never
 * planned) when the send ends unfinished (stopped, dropped, cancelled); the rows of a chunk in doubt stay queued, so that the next send settles it first and never posts them twice. Returns
 * how many rows changed.
 */
export function releaseQueued(data: Pick<SendData, 'sheetId' | 'sheetName'>, status: string): number {
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
    if (isQueued(row.status) && !inDoubt.has(row.key)) changes.set(row.key, { mailStatus: status });
  list.writeByRecipient(changes, isQueued);
  return changes.size;
}

function sendChunk(unit: SendUnit, state: SendState, client: OutreachClient): ChunkResult {
  const list = openMailingList(sendingSheet(state.data));
  settleFirst(client, list);
  const template = loadTemplate(state.data.sheetId);
  if (!template || template.savedAt !== state.data.templateSavedAt) {
    throw new JobStop(
      'The mail was edited during the send: run "Send e-mails" again to send the queued rows with the new text (nothing is sent twice).',
    );
  }
  const skipped = new Map<string, string>();
  const rows: ListRow[] = [];
  const doNotContact = readDoNotContact(list.sheet.getParent()); // the list may have grown since the plan
  const unsubscribe = readSettings().unsubscribeAddress;
  for (const row of list.readRows()) {
    if (rows.length >= Math.min(unit.n, SEND_CHUNK) || !isQueued(row.status)) continue;
    const problem = rowProblem(template, row, unsubscribe);
    const listed = listedReason(doNotContact, row.key);
    if (listed !== null) skipped.set(row.key, listedStatus(listed));
    else if (problem) skipped.set(row.key, `${MAIL_STATUS.skipped}: ${problem.reason}`);
    else if (rows.some((r) => r.key === row.key))
      skipped.set(row.key, `${MAIL_STATUS.skipped}: duplicate recipient`);
    else rows.push(row);
  }
  const keys = rows.map((row) => row.key);
  if (rows.length === 0) return { list, skipped, keys };
  const emails: PersonalizedEmail[] = rows.map((row) => {
    const mail = renderMail(template, row.display, unsubscribe);
    return {
      email: row.email,
      subject: mail.subject,
      content: mail.body,
      body_format: template.bodyFormat,
      ...(row.nickname ? { nickname: row.nickname } : {}),
    };
  });
  const chunk: JournalChunk = {
    tag: newTag(),
    campaign: state.data.campaign,
    sheetId: state.data.sheetId,
    sheetName: state.data.sheetName,
    recipients: rows.map((row) => ({ email: row.key, row: row.rowNumber })),
    postedAt: Date.now(),
    attempts: 0,
  };
  return { list, skipped, keys, outcome: guarded(() => postChunk(client, chunk, emails)) };
}

/** Chunks left in doubt by an earlier execution are settled before anything else is posted. */
function settleFirst(client: OutreachClient, list: MailingList): void {
  guarded(() => settleOpenChunks(client, (chunk) => writeIds(list, chunk)));
}

/** A look-up that fails leaves a chunk in doubt: nothing more is posted until a later run settles it. */
function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind === 'rate-limit') throw error;
    throw new JobPause(
      `Could not confirm with the service whether the last chunk was sent (${error.userMessage}). Nothing more is sent until that is known: run the send again in a minute; no row is sent twice.`,
      Date.now() + 60_000,
    );
  }
}

function recordChunk(result: ChunkResult, state: SendState): void {
  const { list, outcome, skipped, keys } = result;
  const changes = new Map<string, Record<string, CellValue>>();
  for (const [key, status] of skipped) changes.set(key, { mailStatus: status });
  state.data.skipped += skipped.size;
  if (outcome && !outcome.sent && outcome.error.kind === 'quota') {
    waitForQuota(list, changes, outcome.error, state); // throws JobPause, or JobStop after 7 days
  }
  if (outcome && outcome.sent) {
    state.data.waiting = undefined; // the quota is back
    for (const { email } of outcome.chunk.recipients) {
      changes.set(email, idCells(outcome.chunk, email));
      if (idsOf(outcome.chunk, email)) state.data.sent++;
      else state.data.notSent++;
    }
  } else if (outcome) {
    const reason = { mailStatus: `${MAIL_STATUS.notSent}: ${describe(outcome.error)}` };
    for (const key of keys) changes.set(key, reason);
    state.data.notSent += keys.length;
    if (outcome.stop) {
      // The run ends: every row still queued says so (none is left looking as if it were on its way).
      const stopped = {
        mailStatus: `${MAIL_STATUS.notSent}: the send stopped (${outcome.error.userMessage})`,
      };
      for (const row of list.readRows()) {
        if (isQueued(row.status) && !changes.has(row.key)) changes.set(row.key, stopped);
      }
    }
  }
  list.writeByRecipient(changes, isQueued);
  if (outcome && outcome.sent) closeChunk(outcome.chunk);
  if (outcome && !outcome.sent && outcome.stop) throw new JobStop(stopText(outcome.error, state.data));
}

/**
 * The quota is used up: nothing more is posted now. Every row still queued (this chunk's too) says it waits
 * with what the service said; the job pauses until the next hourly run of the sender's trigger, which tries
 * again. After 7 days of waiting the send is given up, and the rows say so.
 */
function waitForQuota(
  list: MailingList,
  changes: Map<string, Record<string, CellValue>>,
  error: ApiError,
  state: SendState,
): never {
  const detail = (error.detail || error.userMessage).trim().replace(/\.$/, '');
  const since = state.data.waiting ? state.data.waiting.since : Date.now();
  const expired = Date.now() - since >= WAIT_MS;
  const status = expired
    ? `${MAIL_STATUS.notSent}: gave up waiting for the sending quota after ${QUOTA_WAIT_DAYS} days (${detail})`
    : `${MAIL_STATUS.waiting} (${detail})`;
  for (const row of list.readRows()) if (isQueued(row.status)) changes.set(row.key, { mailStatus: status });
  list.writeByRecipient(changes, isQueued);
  const left = state.units.reduce((n, u) => n + u.n, 0);
  if (expired) {
    state.data.waiting = undefined;
    throw new JobStop(
      `Gave up waiting for the sending quota after ${QUOTA_WAIT_DAYS} days (${detail}). ${sentText(state.data)}`,
    );
  }
  state.data.waiting = { since, detail };
  let retry = 'the add-on tries again every hour';
  try {
    ensureTimer();
  } catch (timerError) {
    retry = `The hourly retry could not be set up (${describe(timerError)}): run the send again later`;
  }
  throw new JobPause(
    `The sending quota is used up (${detail}). ${sentText(state.data)} The ${left} e-mail${left === 1 ? '' : 's'} left wait for it: ${retry}, for ${QUOTA_WAIT_DAYS} days, and sends each of them once when it is back. Cancel from the menu: Cancel a waiting or scheduled send.`,
    Date.now() + RETRY_MS,
  );
}

function sentText(data: SendData): string {
  return `${data.sent} e-mail${data.sent === 1 ? ' was' : 's were'} sent and recorded.`;
}

/** The cells of a row whose mail the service took (or did not list: then it says so). */
function idCells(chunk: JournalChunk, email: string): Record<string, CellValue> {
  const ids = idsOf(chunk, email);
  if (!ids) {
    return { mailStatus: `${MAIL_STATUS.notSent}: the service did not list this address in its answer` };
  }
  return {
    mailStatus: MAIL_STATUS.accepted,
    taskId: ids.taskId,
    mailId: ids.mailId,
    sentAt: new Date(chunk.postedAt),
  };
}

/** Writes a settled chunk's ids on its rows (rows still queued, by recipient). */
export function writeIds(list: MailingList, chunk: JournalChunk): void {
  if (chunk.test || chunk.sheetId !== list.sheet.getSheetId()) return;
  const changes = new Map<string, Record<string, CellValue>>();
  for (const { email } of chunk.recipients) changes.set(email, idCells(chunk, email));
  list.writeByRecipient(changes, isQueued);
}

export function sendingSheet(
  data: Pick<SendData, 'sheetId' | 'sheetName'>,
): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((s) => s.getSheetId() === data.sheetId);
  if (!sheet) throw new JobStop(`The sheet "${data.sheetName}" was deleted: nothing more is sent.`);
  return sheet;
}

function stopText(error: ApiError, data: SendData): string {
  const sent = `${data.sent} e-mail${data.sent === 1 ? ' was' : 's were'} sent and recorded; the rows not sent say why.`;
  if (error.kind === 'funds') {
    return `Not enough e-mail quota (EDM).${neededText(error, 'EDM')} Buy an add-on pack (2000 EDM) at ${data.pricing}. ${sent}`;
  }
  return `${describe(error)} ${sent}`;
}

function sendSummary(state: SendState, finished: boolean): string {
  const d = state.data;
  const parts = [`Sent ${d.sent} e-mail${d.sent === 1 ? '' : 's'}`];
  if (d.notSent) parts.push(`${d.notSent} not sent`);
  if (d.skipped) parts.push(`${d.skipped} skipped`);
  const left = state.units.reduce((n, u) => n + u.n, 0);
  if (!finished && left) parts.push(`${left} to go`);
  const cost = finished ? ` ${d.sent} EDM used.` : '';
  return `${finished ? '' : 'Working: '}${parts.join(', ')} (campaign "${d.campaign}").${cost}`;
}
