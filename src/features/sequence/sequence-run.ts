// The hourly trigger's part of follow-up sequences: for each sequence of this user (the payer, with the key
// they confirmed with), with no UI. Chunks left in doubt are settled first (a step's chunk is found by its
// tag and written to the follow-up mails: never posted again); then the list is read as it is now, each
// row's place is worked out (sequence-eligibility.ts), the previous mails of the rows due are read from the
// service (free: a failure it knows stops the row; their opens where a step asks for it), the usable EDM is
// read once, and the due rows are posted in chunks of 100, up to 60 together, each chunk journaled first
// (send-journal.ts, send-chunk.ts): exactly once per row and step whatever fails. The Sequence column and
// the sequence's record (for the summary) say where everything is; a sequence with nothing left ends.
import { ApiError } from '../../api/errors';
import type { OutreachClient } from '../../api/outreach/outreach-client';
import { Deadline } from '../../platform/deadline';
import { withJobLease } from '../../platform/jobs';
import { ownershipOf } from '../../platform/owner';
import { readSettings } from '../../platform/settings';
import type { ListRow, MailingList } from '../../sheets/mailing-list';
import { outreachClient } from '../clients';
import { splitEvery } from '../jobs/job-runner';
import { recordLastRun } from '../jobs/reporters';
import { batchMails } from '../mail/batch-mails';
import { readDoNotContact } from '../mail/do-not-contact';
import { loadTemplate, type StoredTemplate } from '../mail/mail-templates';
import { postChunks, settleOpenChunks } from '../mail/send-chunk';
import { BATCH_CHUNKS, SEND_CHUNK, SEND_JOB, writeIds } from '../mail/send-job';
import { closeEntry, type JournalChunk, newTag } from '../mail/send-journal';
import { openMailingList, rowProblem } from '../mail/send-plan';
import { describe } from '../settings';
import { count, whenText } from '../words';
import { ensureSequenceColumns, writeSequence } from './sequence-column';
import { planRow, repliedCompanies, type RowPlan } from './sequence-eligibility';
import { previousMails } from './sequence-previous';
import { stepCampaign, stepProblems, stepTemplate } from './sequence-steps';
import { endSequence, mySequences, openSequence, saveSequence, type SequenceRecord } from './sequence-store';
import { gaveUpText, QUOTA_WAIT, SEQUENCE_TEXT, waitingText } from './sequence-texts';
import { QUOTA_WAIT_DAYS } from '../mail/send-end';
import { stopRows } from './sequence-control';
import { readStepMails, writeStepMails } from './step-mails';

/** Time kept free at the end of the execution for the sheet writes after the last batch. */
const MARGIN_MS = 45_000;
const NEVER_STARTED_MS = 7 * 24 * 3600_000;

type Plans = Map<string, RowPlan>;
type Due = { row: ListRow; plan: Extract<RowPlan, { kind: 'due' }> };

/**
 * Runs this user's sequences; answers the follow-up mails posted. Under the send lease, as a send: a send
 * settling the journal while a step posts could take the step's chunk for one never sent.
 */
export function runMySequences(deadline = Deadline.forExecution()): number {
  const mine = mySequences();
  if (mine.length === 0) return 0;
  const busy = () => {
    recordLastRun('sequence', {
      message: 'The follow-ups wait for the send in progress: the next hourly run sends them.',
      finished: true,
    });
    return 0;
  };
  return withJobLease(SEND_JOB.kind, () => runAll(mine, deadline), busy);
}

function runAll(sequences: SequenceRecord[], deadline: Deadline): number {
  let posted = 0;
  for (const record of sequences) {
    if (deadline.passed(MARGIN_MS)) break;
    try {
      posted += runSequence(record, deadline);
    } catch (error) {
      recordLastRun('sequence', {
        message: `The follow-ups of "${record.sheetName}" could not go on; the next hourly run tries again.`,
        error: describe(error),
        finished: true,
      });
      saveSequence({ ...record, state: { ...emptyState(record), waiting: describe(error), at: Date.now() } });
    }
  }
  return posted;
}

function runSequence(record: SequenceRecord, deadline: Deadline): number {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getSheets().find((s) => s.getSheetId() === record.sheetId);
  const template = sheet && loadTemplate(record.sheetId);
  const confirmed = template && template.followUps && openSequence(record, template);
  if (!sheet || !template || !template.followUps || !confirmed) {
    // The sheet, its steps or what was confirmed are gone: nothing more is sent, and the rows say so.
    if (sheet) stopRows(sheet, undefined, SEQUENCE_TEXT.removed);
    endSequence(record);
    return 0;
  }
  const client = outreachClient({ deadlineMs: deadline.at });
  const checkedTo = ensureSequenceColumns(sheet, record.checkedTo);
  const list = openMailingList(sheet);
  let why = '';
  if (ownershipOf(record, 'outreach') !== 'mine')
    why = 'it was confirmed with another outreach API key: put that key back in Settings';
  else if (confirmed.mailChanged)
    why = `the follow-ups were changed after they were confirmed: the user who sent the first mail opens Compose e-mail and saves them to go on`;
  else {
    const problems = stepProblems(template, list.headers, readSettings().unsubscribeAddress);
    if (problems.length) why = `fix the follow-ups in Compose e-mail (${problems.join(' ')})`;
  }
  if (!why) settleOpenChunks(client, (chunk) => writeIds(list, chunk));
  const { plans, rows } = planAll(list, template, confirmed.has);
  const due = dueRows(rows, plans);
  let posted = 0;
  if (due.length && !why) {
    try {
      const result = sendDue(client, list, template, due, plans, deadline);
      posted = result.posted;
      why = result.waiting;
    } catch (error) {
      // A read before the posts failed (Google's daily fetch limit, the service down): the rows say so.
      if (!(error instanceof ApiError) || error.kind === 'outcome-unknown') throw error;
      why = waitingWhy(error, false);
    }
  }
  const final = posted ? planAll(list, template, confirmed.has).plans : plans;
  return finish({ ...record, checkedTo }, list, final, why, posted);
}

function planAll(
  list: MailingList,
  template: StoredTemplate,
  confirmed: (key: string) => boolean,
): { plans: Plans; rows: ListRow[] } {
  const spreadsheet = list.sheet.getParent();
  const zone = spreadsheet.getSpreadsheetTimeZone();
  const rows = list.readRows();
  const context = {
    now: Date.now(),
    zone,
    followUps: template.followUps || [],
    doNotContact: readDoNotContact(spreadsheet),
    confirmed,
    stepMails: readStepMails(spreadsheet, list.sheet.getSheetId()),
    when: (ms: number) => whenText(ms, zone),
  };
  const replied = repliedCompanies(rows);
  const plans: Plans = new Map();
  for (const row of rows)
    if (row.key && !plans.has(row.key)) plans.set(row.key, planRow(row, context, replied));
  return { plans, rows };
}

function dueRows(rows: ListRow[], plans: Plans): Due[] {
  const due: Due[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const plan = plans.get(row.key);
    if (plan && plan.kind === 'due' && !seen.has(row.key)) {
      due.push({ row, plan });
      seen.add(row.key);
    }
  }
  return due;
}

/**
 * The due rows' previous mails checked with the service, the usable EDM read, then each step's rows posted
 * in batches until done, out of time, or a stop (the quota, too few credits: the rows wait).
 */
function sendDue(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
  due: Due[],
  plans: Plans,
  deadline: Deadline,
): { posted: number; waiting: string } {
  const stopped = previousMails(client, template.followUps || [], due);
  for (const [key, text] of stopped) plans.set(key, { kind: 'stopped', text });
  const unsubscribe = readSettings().unsubscribeAddress;
  const sendable: Due[] = [];
  for (const item of due.filter((d) => !stopped.has(d.row.key))) {
    const problem = rowProblem(
      stepTemplate(template, template.followUps!, item.plan.step),
      item.row,
      unsubscribe,
    );
    if (!problem) sendable.push(item);
    else
      plans.set(item.row.key, {
        kind: 'stopped',
        text: `Stopped: step ${item.plan.step} cannot be sent (${problem.reason})`,
      });
  }
  if (sendable.length === 0) return { posted: 0, waiting: '' };
  const balance = client.balance();
  const usable = balance.monthlyEdm + balance.addonEdm;
  if (usable < sendable.length)
    return {
      posted: 0,
      waiting: `too few e-mail credits (needs ${sendable.length} EDM, ${usable} usable): buy more at ${client.pricingUrl}`,
    };
  let posted = 0;
  for (const step of [...new Set(sendable.map((d) => d.plan.step))].sort()) {
    const rows = sendable.filter((d) => d.plan.step === step).map((d) => d.row);
    for (const batch of splitEvery(rows, SEND_CHUNK * BATCH_CHUNKS)) {
      if (deadline.passed(MARGIN_MS)) return { posted, waiting: '' };
      const result = postBatch(client, list, template, step, batch, unsubscribe);
      posted += result.posted;
      if (result.waiting) return { posted, waiting: result.waiting };
    }
  }
  return { posted, waiting: '' };
}

/** One batch of a step: journaled, posted together, each answer settled; the mails taken go to their sheet. */
function postBatch(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
  step: number,
  rows: ListRow[],
  unsubscribe: string,
): { posted: number; waiting: string } {
  const mail = stepTemplate(template, template.followUps!, step);
  const candidates = splitEvery(rows, SEND_CHUNK);
  const emails = batchMails(candidates, mail, unsubscribe);
  const postedAt = Date.now();
  const journal = candidates.slice(0, emails.length).map((chunkRows): JournalChunk => ({
    tag: newTag(),
    campaign: stepCampaign(template.campaign, step),
    sheetId: list.sheet.getSheetId(),
    sheetName: list.sheet.getName(),
    recipients: chunkRows.map((row) => ({ email: row.key })),
    postedAt,
    step,
  }));
  const { entry, outcomes } = postChunks(client, journal, emails);
  let waiting = '';
  let doubt: ApiError | undefined;
  const taken: JournalChunk[] = [];
  outcomes.forEach((outcome) => {
    if (outcome.sent) taken.push(outcome.chunk);
    else if ('doubt' in outcome) doubt = outcome.error;
    else if (!waiting) waiting = waitingWhy(outcome.error, 'later' in outcome);
  });
  const posted = writeStepMails(...taken); // before the entry closes: a kill here is settled by tag
  if (doubt) {
    // The entry stays in the journal: the next run settles it by its tag before anything else goes.
    const why = `could not confirm with the service whether a chunk was sent (${describe(doubt)}): nothing more goes until the next hourly run settles it; no row gets a step twice`;
    return { posted, waiting: why };
  }
  closeEntry(entry);
  return { posted, waiting };
}

function waitingWhy(error: ApiError, later: boolean): string {
  if (later) return 'the rest goes at the next hourly run';
  if (error.kind === 'quota' || error.kind === 'fetch-quota')
    return `${QUOTA_WAIT} (${(error.detail || error.userMessage).replace(/\.$/, '')}); the hourly run tries again`;
  if (error.kind === 'funds') return 'too few e-mail credits (EDM): buy more, the hourly run tries again';
  return `${describe(error)}; the hourly run tries again`;
}

/** Writes every row's Sequence text and the record's state; a sequence with nothing left ends. */
function finish(
  record: SequenceRecord,
  list: MailingList,
  plans: Plans,
  why: string,
  posted: number,
): number {
  // Waiting for the sending quota: as a send does, for 7 days at most; then the rows due stop.
  const quotaSince = why.startsWith(QUOTA_WAIT) ? (record.state && record.state.quotaSince) || Date.now() : 0;
  const gaveUp = quotaSince > 0 && Date.now() - quotaSince >= QUOTA_WAIT_DAYS * 24 * 3600_000;
  if (gaveUp)
    for (const [key, plan] of plans)
      if (plan.kind === 'due') plans.set(key, { kind: 'stopped', text: gaveUpText(why, QUOTA_WAIT_DAYS) });
  const texts = new Map<string, string>();
  let nextStep = 0;
  let nextAt = 0;
  let rowsLeft = 0;
  for (const [key, plan] of plans) {
    if (plan.kind === 'out') continue;
    if (plan.kind === 'due' || plan.kind === 'later') {
      rowsLeft++;
      if (!nextAt || plan.at < nextAt) [nextAt, nextStep] = [plan.at, plan.step];
    }
    texts.set(key, plan.kind === 'due' ? dueText(plan, why) : plan.text);
  }
  writeSequence(list, texts);
  const all = [...plans.values()];
  const started = all.some((p) => p.kind !== 'out');
  const pending = all.some((p) => p.kind === 'out' && p.pending); // first mails still to go
  // Nothing left; or, a week on, no row of it was ever sent (the first send failed or was dropped).
  if (rowsLeft === 0 && !pending && (started || Date.now() - record.startedAt > NEVER_STARTED_MS)) {
    endSequence(record);
    return posted;
  }
  const waiting = why && !gaveUp ? { waiting: why } : {};
  const state = {
    nextStep,
    nextAt,
    rowsLeft,
    at: Date.now(),
    ...waiting,
    ...(quotaSince && !gaveUp ? { quotaSince } : {}),
  };
  saveSequence({ ...record, state });
  if (posted)
    recordLastRun('sequence', {
      message: `Follow-ups of "${record.sheetName}": ${count(posted, 'e-mail')} sent.`,
      finished: true,
    });
  return posted;
}

function dueText(plan: Extract<RowPlan, { kind: 'due' }>, why: string): string {
  return waitingText(plan.step, why || 'it goes at the next hourly run');
}

function emptyState(record: SequenceRecord) {
  return record.state || { nextStep: 0, nextAt: 0, rowsLeft: 0, at: 0 };
}
