// How a sequence run ends: every row's Sequence cell written from its plan, the document's record of the
// sequence saved for the summary, and a sequence with nothing left ended (in the ledger and in the
// document). A step that waited for the sending quota 7 days gives up, as a send does.
import { type MailingList } from '../../sheets';
import { recordLastRun } from '../jobs';
import {
  loadTemplate,
  stepsToCome,
  Ledger,
  quotaWait,
  clearStopRequests,
  endSequence,
  saveSequence,
  type SequenceRecord,
  type Wait,
} from '../outbox';
import { spreadsheetZone, whenText } from '../words';
import { sequenceCell, writeSequence } from './sequence-column';
import { type Due, planView, type Plans, recordStops } from './sequence-eligibility';
import { parseSequence, sequenceText, type SequenceView } from './sequence-texts';
import { count } from '../../platform';

/** Writes every row's Sequence text and the document's record; a sequence with nothing left ends. */
export function finish(
  record: SequenceRecord,
  list: MailingList,
  plans: Plans,
  wait: Wait | null,
  posted: number,
): number {
  const sheetId = list.sheet.getSheetId();
  const quota = wait && wait.code === 'quota' ? quotaWait(record.state && record.state.quotaSince) : null;
  if (quota && quota.gaveUp) giveUp(sheetId, plans, wait!);
  const { texts, next, rowsLeft } = rowTexts(list, plans, wait);
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

/** The rows due that waited for the quota 7 days stop, for good. */
function giveUp(sheetId: number, plans: Plans, wait: Wait): void {
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
      detail: wait.detail,
    };
}

/** Each row's Sequence text where it changes, the next step due, and the rows with steps to come. */
function rowTexts(
  list: MailingList,
  plans: Plans,
  wait: Wait | null,
): { texts: Map<string, string>; next: { step: number; at: number }; rowsLeft: number } {
  const of = (loadTemplate(list.sheet.getSheetId())?.followUps || []).length;
  const zone = spreadsheetZone();
  const when = (ms: number) => whenText(ms, zone);
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
  return { texts, next, rowsLeft };
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
export function endList(sheetId: number, list: MailingList | null, record: SequenceRecord | null): void {
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
    if (row.key && (shown === 'next' || shown === 'waiting' || shown === 'paused'))
      texts.set(row.key, removed);
  }
  writeSequence(list, texts);
}
