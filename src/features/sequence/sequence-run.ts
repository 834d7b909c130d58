// The hourly trigger's part of follow-up sequences: for each list of the ledger (outbox/ledger.ts) with
// steps, with no UI. Chunks left in doubt are settled first; then the list is read as it is now, each row's
// place is worked out from the record (sequence-eligibility.ts), the stops the sheets show are taken into the
// record, the previous mails of the rows due are read from the service (free), the usable EDM is read once,
// and the due rows are posted through the outbox (outbox.ts), exactly once per address and step. The Sequence
// column and the document's record of the sequence (for the summary) say where everything is.
import { spreadsheetZone } from '../words';
import { ApiError } from '../../api';
import { Deadline, ownerStamp, userToken, readSettings } from '../../platform';
import { withJobLease, recordLastRun } from '../jobs';
import { type MailingList } from '../../sheets';
import { outreachClient } from '../clients';
import {
  readDoNotContact,
  loadTemplate,
  type StoredTemplate,
  openMailingList,
  Ledger,
  type LedgerList,
  type StopCode,
  addressMark,
  mailMark,
  listOf,
  SEND_LEASE,
  settleOpen,
  stepProblems,
  clearStopRequests,
  mySequences,
  saveSequence,
  sequenceOf,
  type SequenceRecord,
  stopRequests,
  type Wait,
  sendClock,
  guardPause,
  pauseDetail,
} from '../outbox';
import { ensureSequenceColumns } from './sequence-column';
import { endList, finish } from './sequence-end';
import {
  companyOf,
  type Due,
  planRow,
  type PlanContext,
  type Plans,
  recordStops,
} from './sequence-eligibility';
import { readReplies } from './replies';
import { MARGIN_MS, sendDue, waitFor } from './step-posts';
import { describe } from '../errors';

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
  const pause = guardPause(entry);
  let wait: Wait | null = null;
  if (ownerStamp('outreach').keyFp !== entry.keyFp) wait = { code: 'other-key' };
  else if (mailMark(ledger.secret, template) !== entry.mail) wait = { code: 'steps-changed' };
  else if (pause) wait = { code: 'bounce', detail: pauseDetail(pause) };
  else {
    const problems = stepProblems(template, list.headers, readSettings().unsubscribeAddress);
    if (problems.length) wait = { code: 'step-problems', detail: problems.join(' ') };
  }
  if (!wait) settleOpen(client, list);
  const first = takeStops(sheetId, list, template);
  let plans = first;
  let posted = 0;
  // A step goes only once reply detection read its people's mail up to its time (the others wait for it).
  const dueNow = [...plans.values()].filter((p): p is Due => p.plan.kind === 'due');
  const due = dueNow.filter((d) => ledger.readForStep(d.plan.at));
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
  if (!wait && due.length < dueNow.length) wait = { code: 'unread' };
  if (posted) {
    // Where the posts moved rows on: planned again from the record, the stops just found kept with their words.
    plans = planAll(list, template, { ledger: Ledger.read(), stopRequests: new Set() });
    for (const [key, item] of first)
      if (item.plan.kind === 'stopped' && item.plan.fresh) plans.set(key, item);
  }
  return finish({ ...record, checkedTo }, list, plans, wait, posted);
}

/**
 * Plans every row; the stops the sheets show and the menu's stop requests go into the ledger at once
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
  const zone = spreadsheetZone();
  const now = Date.now();
  const context: PlanContext = {
    ledger: from.ledger,
    list: from.ledger.list(list.sheet.getSheetId())!,
    now,
    zone,
    clock: sendClock(template.timing, zone, now),
    skipDates: new Set((template.timing && template.timing.skipDates) || []),
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

function waitingState(record: SequenceRecord, wait: Wait) {
  return { ...(record.state || { nextStep: 0, nextAt: 0, rowsLeft: 0 }), wait, at: Date.now() };
}
