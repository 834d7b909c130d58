// The hourly trigger's part of follow-up sequences: for each list of the payer's record (outbox/ledger.ts) with
// steps, with no UI. Chunks left in doubt are settled first; then the list is read as it is now, each row's
// place is worked out from the record (sequence-eligibility.ts), the stops the sheets show are taken into the
// record, the previous mails of the rows due are read from the service (free), the usable EDM is read once,
// and the due rows are posted through the outbox (outbox.ts), exactly once per address and step. The Sequence
// column and the document's record of the sequence (for the summary) say where everything is.
import { ApiError } from '../../api/errors';
import type { OutreachClient } from '../../api/outreach/outreach-client';
import { Deadline } from '../../platform/deadline';
import { withJobLease } from '../../platform/jobs';
import { ownerStamp, userToken } from '../../platform/owner';
import { readSettings } from '../../platform/settings';
import type { ListRow, MailingList } from '../../sheets/mailing-list';
import { outreachClient } from '../clients';
import { splitEvery } from '../jobs/job-runner';
import { recordLastRun } from '../jobs/reporters';
import { readDoNotContact } from '../mail/do-not-contact';
import { loadTemplate, type StoredTemplate } from '../mail/mail-templates';
import { openMailingList, rowProblem } from '../mail/send-plan';
import { stepsToCome } from '../outbox/confirm';
import { Ledger, type LedgerList, type StopCode } from '../outbox/ledger';
import { addressMark, mailMark } from '../outbox/marks';
import { BATCH_CHUNKS, closeBatch, postBatch, SEND_CHUNK, SEND_LEASE, settleOpen } from '../outbox/outbox';
import { quotaWait } from '../outbox/quota-wait';
import { readStepMails, writeStepMails } from '../outbox/step-mails';
import { describe } from '../settings';
import { count, whenText } from '../words';
import { ensureSequenceColumns, sequenceCell, writeSequence } from './sequence-column';
import {
  companyOf,
  planRow,
  planView,
  type PlanContext,
  recordStops,
  type RowPlan,
} from './sequence-eligibility';
import { previousMails } from './sequence-previous';
import { stepProblems, stepTemplate } from './sequence-steps';
import {
  clearStopRequests,
  endSequence,
  mySequences,
  saveSequence,
  sequenceOf,
  type SequenceRecord,
  stopRequests,
} from './sequence-store';
import { parseSequence, sequenceText, type SequenceView, type Wait } from './sequence-texts';
import { readReplies } from './replies';

/** Time kept free at the end of the execution for the sheet writes after the last batch. */
const MARGIN_MS = 45_000;

type Due = { row: ListRow; plan: Extract<RowPlan, { kind: 'due' }> };
type Plans = Map<string, { row: ListRow; plan: RowPlan }>;

/** Runs this user's sequences; answers the follow-up mails posted. Under the send lease, as a send. */
export function runMySequences(deadline = Deadline.forExecution()): number {
  const running = [...Ledger.read().lists.values()].filter((list) => list.steps > 0);
  if (running.length === 0 && mySequences().length === 0) return 0;
  const busy = () => {
    recordLastRun('sequence', {
      message: 'The follow-ups wait for the send in progress: the next hourly run sends them.',
      finished: true,
    });
    return 0;
  };
  return withJobLease(SEND_LEASE, () => runAll(running, deadline), busy);
}

function runAll(running: LedgerList[], deadline: Deadline): number {
  // The document shows a sequence of this user the record does not hold (its steps removed): it ends.
  for (const record of mySequences())
    if (!running.some((l) => l.sheetId === record.sheetId))
      endList(record.sheetId, listOf(record.sheetId), record);
  let posted = 0;
  for (const { sheetId } of running) {
    if (deadline.passed(MARGIN_MS)) break;
    const record = sequenceOf(sheetId);
    try {
      posted += runList(sheetId, record, deadline);
    } catch (error) {
      recordLastRun('sequence', {
        message: `The follow-ups of "${record ? record.sheetName : sheetId}" could not go on; the next hourly run tries again.`,
        error: describe(error),
        finished: true,
      });
      if (record)
        saveSequence({ ...record, state: waitingState(record, { code: 'error', detail: describe(error) }) });
    }
  }
  return posted;
}

function runList(sheetId: number, record: SequenceRecord | null, deadline: Deadline): number {
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((s) => s.getSheetId() === sheetId);
  const template = sheet && loadTemplate(sheetId);
  const entry = Ledger.read().list(sheetId)!;
  const started = [...entry.people.values()].some((p) => p.posted > 0);
  if (!record && !started) return 0; // a first send still to go (a scheduled one): the sequence starts with it
  if (!sheet || !record || record.owner !== userToken() || !template || !template.followUps?.length) {
    // Stopped for the sheet by an editor, or its sheet or steps are gone: no more steps, ever.
    endList(sheetId, listOf(sheetId), record);
    return 0;
  }
  const client = outreachClient({ deadlineMs: deadline.at });
  const checkedTo = ensureSequenceColumns(sheet, record.checkedTo);
  const list = openMailingList(sheet);
  const ledger = Ledger.read();
  let wait: Wait | null = null;
  if (ownerStamp('outreach').keyFp !== entry.keyFp) wait = { code: 'other-key' };
  else if (mailMark(ledger.secret, template) !== entry.mail) wait = { code: 'steps-changed' };
  else {
    const problems = stepProblems(template, list.headers, readSettings().unsubscribeAddress);
    if (problems.length) wait = { code: 'step-problems', detail: problems.join(' ') };
  }
  if (!wait) settleOpen(client, list);
  const first = takeStops(sheetId, list, template);
  let plans = first;
  let posted = 0;
  const due = [...plans.values()].filter((p): p is Due => p.plan.kind === 'due');
  if (due.length && !wait) {
    try {
      const result = sendDue(client, list, template, due, plans, deadline);
      posted = result.posted;
      wait = result.wait;
    } catch (error) {
      // A read before the posts failed (Google's daily fetch limit, the service down): the rows say so.
      if (!(error instanceof ApiError) || error.kind === 'outcome-unknown') throw error;
      wait = waitFor(error);
    }
  }
  if (posted) {
    // Where the posts moved rows on: planned again from the record, the stops just found kept with their words.
    plans = planAll(list, template, { ledger: Ledger.read(), stopRequests: new Set() });
    for (const [key, item] of first)
      if (item.plan.kind === 'stopped' && item.plan.fresh) plans.set(key, item);
  }
  return finish({ ...record, checkedTo }, list, plans, wait, posted);
}

/**
 * Plans every row; the stops the sheets show and the menu's stop requests go into the payer's record at once
 * (so they last whatever the cells say later).
 */
function takeStops(sheetId: number, list: MailingList, template: StoredTemplate): Plans {
  const requests = stopRequests(sheetId);
  const first = planAll(list, template, { ledger: Ledger.read(), stopRequests: requests });
  const fresh: Array<{ addr: string; code: StopCode; company?: string }> = [];
  for (const { row, plan } of first.values()) {
    if (plan.kind !== 'stopped' || !plan.fresh || plan.code === 'problem') continue;
    const company = companyOf(row);
    fresh.push({
      addr: plan.person.addr,
      code: plan.code,
      company: plan.code === 'replied' && company ? company.key : undefined,
    });
  }
  if (fresh.length)
    Ledger.change((l) =>
      recordStops(
        l,
        sheetId,
        fresh.map((s) => ({ ...s, company: s.company && addressMark(l.secret, s.company) })),
      ),
    );
  if (requests.size) clearStopRequests(sheetId);
  return first;
}

function planAll(
  list: MailingList,
  template: StoredTemplate,
  from: { ledger: Ledger; stopRequests: Set<string> },
): Plans {
  const spreadsheet = list.sheet.getParent();
  const rows = list.readRows();
  const context: PlanContext = {
    ledger: from.ledger,
    list: from.ledger.list(list.sheet.getSheetId())!,
    now: Date.now(),
    zone: spreadsheet.getSpreadsheetTimeZone(),
    followUps: template.followUps || [],
    doNotContact: readDoNotContact(spreadsheet),
    replies: readReplies(spreadsheet, { sheetId: list.sheet.getSheetId(), rows }),
    stopRequests: from.stopRequests,
  };
  const plans: Plans = new Map();
  for (const row of rows)
    if (row.key && !plans.has(row.key)) plans.set(row.key, { row, plan: planRow(row, context) });
  return plans;
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
): { posted: number; wait: Wait | null } {
  const sheetId = list.sheet.getSheetId();
  const steps = readStepMails(list.sheet.getParent(), sheetId);
  const previous = due.map(({ row, plan }) => {
    const mail = plan.step === 1 ? null : steps.get(row.key)?.get(plan.step - 1);
    const mailId = plan.step === 1 ? Number(row.mailId) || 0 : mail ? mail.mailId : 0;
    const taskId = plan.step === 1 ? Number(row.taskId) || 0 : mail ? mail.taskId : 0;
    return { key: row.key, step: plan.step, mailId, taskId };
  });
  const stopped = previousMails(client, template.followUps || [], previous);
  if (stopped.size) {
    Ledger.change((l) =>
      recordStops(
        l,
        sheetId,
        [...stopped].map(([key, code]) => ({ addr: addressMark(l.secret, key), code })),
      ),
    );
    for (const [key, code] of stopped) {
      const item = plans.get(key)!;
      item.plan = { kind: 'stopped', person: (item.plan as Due['plan']).person, code };
    }
  }
  const unsubscribe = readSettings().unsubscribeAddress;
  const sendable: Due[] = [];
  for (const item of due.filter((d) => !stopped.has(d.row.key))) {
    const mail = stepTemplate(template, template.followUps!, item.plan.step);
    const problem = rowProblem(mail, item.row, unsubscribe);
    if (!problem) sendable.push(item);
    else
      plans.get(item.row.key)!.plan = {
        kind: 'stopped',
        person: item.plan.person,
        code: 'problem',
        detail: problem.reason,
      };
  }
  if (sendable.length === 0) return { posted: 0, wait: null };
  const balance = client.balance();
  const usable = balance.monthlyEdm + balance.addonEdm;
  if (usable < sendable.length)
    return {
      posted: 0,
      wait: {
        code: 'credits',
        detail: `needs ${sendable.length} EDM, ${usable} usable: buy more at ${client.pricingUrl}`,
      },
    };
  let posted = 0;
  for (const step of [...new Set(sendable.map((d) => d.plan.step))].sort()) {
    const rows = sendable.filter((d) => d.plan.step === step).map((d) => d.row);
    for (const batch of splitEvery(rows, SEND_CHUNK * BATCH_CHUNKS)) {
      if (deadline.passed(MARGIN_MS)) return { posted, wait: null };
      const result = postStep(client, list, template, step, batch, unsubscribe);
      posted += result.posted;
      if (result.wait) return { posted, wait: result.wait };
    }
  }
  return { posted, wait: null };
}

/** One batch of a step through the outbox; the mails taken go to the follow-ups sheet before it closes. */
function postStep(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
  step: number,
  rows: ListRow[],
  unsubscribe: string,
): { posted: number; wait: Wait | null } {
  const posted = postBatch(client, { list, template, step, rows, unsubscribe });
  let wait: Wait | null = null;
  let doubt: ApiError | undefined;
  const taken = posted.outcomes.flatMap((o) => (o.sent ? [o.chunk] : []));
  for (const outcome of posted.outcomes) {
    if (outcome.sent) continue;
    if ('doubt' in outcome) doubt = outcome.error;
    else if (!wait) wait = 'later' in outcome ? { code: 'later' } : waitFor(outcome.error);
  }
  const n = writeStepMails(...taken);
  closeBatch(posted); // kept in the journal when a chunk is in doubt: the next run settles it by its tag
  return { posted: n, wait: doubt ? { code: 'in-doubt', detail: describe(doubt) } : wait };
}

function waitFor(error: ApiError): Wait {
  if (error.kind === 'quota' || error.kind === 'fetch-quota')
    return { code: 'quota', detail: (error.detail || error.userMessage).replace(/\.$/, '') };
  if (error.kind === 'funds') return { code: 'credits', detail: 'the service refused for lack of EDM' };
  return { code: 'error', detail: describe(error) };
}

/** Writes every row's Sequence text and the document's record; a sequence with nothing left ends. */
function finish(
  record: SequenceRecord,
  list: MailingList,
  plans: Plans,
  wait: Wait | null,
  posted: number,
): number {
  const sheetId = list.sheet.getSheetId();
  const quota = wait && wait.code === 'quota' ? quotaWait(record.state && record.state.quotaSince) : null;
  if (quota && quota.gaveUp) {
    const due = [...plans.values()].filter((p): p is Due => p.plan.kind === 'due');
    Ledger.change((l) =>
      recordStops(
        l,
        sheetId,
        due.map((d) => ({ addr: d.plan.person.addr, code: 'gaveUp' })),
      ),
    );
    for (const d of due)
      plans.get(d.row.key)!.plan = {
        kind: 'stopped',
        person: d.plan.person,
        code: 'gaveUp',
        detail: wait!.detail,
      };
  }
  const of = (loadTemplate(sheetId)?.followUps || []).length;
  const when = (ms: number) => whenText(ms, list.sheet.getParent().getSpreadsheetTimeZone());
  const texts = new Map<string, string>();
  let next = { step: 0, at: 0 };
  let rowsLeft = 0;
  for (const [key, { row, plan }] of plans) {
    if (plan.kind === 'out') continue;
    // A stop the record held before keeps the words its cell has (who replied, the reason) where it shows one.
    if (plan.kind === 'stopped' && !plan.fresh && parseSequence(sequenceCell(row)) === 'stopped') continue;
    let view: SequenceView;
    if (plan.kind === 'due') view = { kind: 'waiting', step: plan.step, wait: wait || { code: 'later' } };
    else view = planView(plan, of);
    if (plan.kind === 'due' || plan.kind === 'later') {
      rowsLeft++;
      if (!next.at || plan.at < next.at) next = { step: plan.step, at: plan.at };
    }
    texts.set(key, sequenceText(view, when));
  }
  writeSequence(list, texts);
  const ledger = forgetAbsent(sheetId, plans);
  const entry = ledger.list(sheetId);
  const pending = [...plans.values()].some(({ plan }) => plan.kind === 'out' && plan.pending);
  if (
    !entry ||
    (!stepsToCome(entry) && !pending && ![...entry.people.values()].some((p) => p.posted === 0))
  ) {
    endList(sheetId, null, record);
    return posted;
  }
  const state = {
    nextStep: next.step,
    nextAt: next.at,
    rowsLeft,
    at: Date.now(),
    ...(wait && !(quota && quota.gaveUp) ? { wait } : {}),
    ...(quota && !quota.gaveUp ? { quotaSince: quota.since } : {}),
  };
  saveSequence({ ...record, state });
  if (posted)
    recordLastRun('sequence', {
      message: `Follow-ups of "${record.sheetName}": ${count(posted, 'e-mail')} sent.`,
      finished: true,
    });
  return posted;
}

/** People of the record whose row left the list get no more steps (nothing is known to fill their mail). */
function forgetAbsent(sheetId: number, plans: Plans): Ledger {
  const seen = new Set<string>();
  for (const { plan } of plans.values()) if (plan.kind !== 'out') seen.add(plan.person.addr);
  const ledger = Ledger.read();
  const entry = ledger.list(sheetId);
  if (!entry || [...entry.people.values()].every((p) => p.posted === 0 || seen.has(p.addr))) return ledger;
  return Ledger.change((l) => {
    const list = l.list(sheetId);
    if (list)
      for (const [addr, p] of list.people) if (p.posted > 0 && !seen.has(addr)) list.people.delete(addr);
  });
}

/**
 * The sequence ends: every person of the list gets no more steps (a first mail still queued goes, alone), the
 * document's record goes, and the rows with steps to come say so.
 */
function endList(sheetId: number, list: MailingList | null, record: SequenceRecord | null): void {
  Ledger.change((ledger) => {
    const entry = ledger.list(sheetId);
    if (!entry) return;
    for (const person of entry.people.values()) if (!person.stop) person.stop = 'menu';
    if (![...entry.people.values()].some((p) => p.posted === 0)) ledger.dropList(sheetId);
  });
  if (record) endSequence(record);
  clearStopRequests(sheetId);
  if (!list) return;
  const texts = new Map<string, string>();
  const removed = sequenceText({ kind: 'stopped', code: 'removed' }, String);
  for (const row of list.readRows()) {
    const shown = parseSequence(sequenceCell(row));
    if (row.key && (shown === 'next' || shown === 'waiting')) texts.set(row.key, removed);
  }
  writeSequence(list, texts);
}

function listOf(sheetId: number): MailingList | null {
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((s) => s.getSheetId() === sheetId);
  try {
    return sheet ? openMailingList(sheet, false) : null;
  } catch {
    return null;
  }
}

function waitingState(record: SequenceRecord, wait: Wait) {
  return { ...(record.state || { nextStep: 0, nextAt: 0, rowsLeft: 0 }), wait, at: Date.now() };
}
