// A sequence run's posts: the due rows' previous mails read from the service (a failure it knows stops the row
// for good), the usable EDM read once, then each step's rows posted through the outbox in batches, each mail
// taken written to the follow-ups sheet before its batch closes.
import { ApiError, type OutreachClient, usableEdm } from '../../api';
import { type Deadline, readSettings, splitEvery } from '../../platform';
import { type ListRow, type MailingList } from '../../sheets';
import {
  type StoredTemplate,
  rowProblem,
  Ledger,
  addressMark,
  type Batch,
  BATCH_CHUNKS,
  closeBatch,
  postBatch,
  SEND_CHUNK,
  subjectSlot,
  readStepMails,
  writeStepMails,
  stepTemplate,
  type Wait,
  hourRoom,
  dayRoom,
  nextDay,
} from '../outbox';
import { type Due, type Plans, recordStops } from './sequence-eligibility';
import { previousMails } from './sequence-previous';
import { describe } from '../errors';
import { asClause } from '../words';

/** Time kept free at the end of the execution for the sheet writes after the last batch. */
export const MARGIN_MS = 45_000;

/**
 * The due rows' previous mails checked with the service, the usable EDM read, then each step's rows posted
 * in batches until done, out of time, or a stop (the quota, too few credits: the rows wait).
 */
export function sendDue(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
  due: Due[],
  plans: Plans,
  deadline: Deadline,
): { posted: number; wait: Wait | null } {
  const stopped = stopFailedPrevious(client, list, template, due, plans);
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
  // The list's hourly and daily limits count its first mails and steps alike (the ledger): the rest wait.
  const entry = Ledger.read().list(list.sheet.getSheetId());
  const hour = hourRoom(Ledger.read(), list.sheet.getSheetId(), template.timing);
  const today = dayRoom(entry);
  const room = Math.min(hour, today);
  let paced: Wait | null = null;
  if (sendable.length > room && today < hour) paced = { code: 'daily', detail: String(nextDay(entry!).cap) };
  else if (sendable.length > room) paced = { code: 'pace', detail: String(template.timing!.hourlyLimit) };
  if (paced) sendable.splice(room);
  if (sendable.length === 0) return { posted: 0, wait: paced };
  const balance = client.balance();
  const usable = usableEdm(balance);
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
  return { posted, wait: paced };
}

/** Rows whose previous mail the service says failed (or was opened, where that stops them) stop, for good. */
function stopFailedPrevious(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
  due: Due[],
  plans: Plans,
): Map<string, 'failed' | 'opened'> {
  const sheetId = list.sheet.getSheetId();
  const steps = readStepMails(list.sheet.getParent(), sheetId);
  const previous = due.map(({ row, plan }) => {
    const mail = plan.step === 1 ? null : steps.get(row.key)?.get(plan.step - 1);
    const mailId = plan.step === 1 ? Number(row.mailId) || 0 : mail ? mail.mailId : 0;
    const taskId = plan.step === 1 ? Number(row.taskId) || 0 : mail ? mail.taskId : 0;
    return { key: row.key, step: plan.step, mailId, taskId };
  });
  const stopped = previousMails(client, template.followUps || [], previous);
  if (stopped.size === 0) return stopped;
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
  return stopped;
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
  const subjects = stepSubjects(list.sheet.getSheetId(), template, step);
  const posted = postBatch(client, { list, template, step, rows, unsubscribe, subjects });
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

/**
 * After a subject test, a step with no subject of its own answers the subject each person got ("Re: " and it):
 * the test's share its own, the rest the winner's. Undefined when the mail has no test or the step a subject.
 */
function stepSubjects(sheetId: number, template: StoredTemplate, step: number): Batch['subjects'] {
  const variants = template.subjectTest && template.subjectTest.variants;
  const ledger = Ledger.read();
  const test = ledger.list(sheetId)?.test;
  if (!variants || !test || template.followUps![step - 1].subject) return undefined;
  const of = (row: ListRow) => {
    const slot = subjectSlot(test, addressMark(ledger.secret, row.key));
    return slot && 'variant' in slot ? slot.variant : 0;
  };
  return { of, texts: variants.map((subject) => `Re: ${subject}`) };
}

export function waitFor(error: ApiError): Wait {
  if (error.kind === 'quota' || error.kind === 'fetch-quota')
    return { code: 'quota', detail: asClause(error.detail || error.userMessage) };
  if (error.kind === 'funds') return { code: 'credits', detail: 'the service refused for lack of EDM' };
  return { code: 'error', detail: describe(error) };
}
