// The unlock job: units of up to 10 unlocks, then units of up to 10 companies whose profile and contacts
// are fetched. A row that has its companyHashId is never unlocked again; results are written to the rows by
// search id after each unit, so a cut-off run loses at most one unit, which the next run settles for free (a
// repeat unlock within 30 days costs nothing).
import { ApiError, isForLater, type OutreachClient } from '../../api';
import { outreachClient } from '../clients';
import { CompanyIndex, type CompanyKey, rowShowsCompany } from './company-index';
import { cellText, CellValue, textCell, COMPANIES, Table, TableRow } from '../../sheets';
import { fetchContacts, writeContacts, FetchedContacts } from './contacts';
import { isStopped, JobDefinition, JobState, JobStop, SliceContext } from '../jobs';
import { NAME_HIDDEN, unlockedName } from './search';
import {
  fundsText,
  type RowStatus,
  statusText,
  type SummaryCounts,
  summaryText,
  UNLOCK_TEXTS,
} from './unlock-texts';
import { describe } from '../errors';

/** Unlocks per sheet write: a cut-off run can leave at most this many rows to be settled by the next run. */
export const UNLOCK_CHUNK = 10;
/** Companies whose profile and contacts are fetched (in parallel) per write. */
export const CONTACT_CHUNK = 10;

export type UnlockUnit = { unlock: string[] } | { contacts: string[] };

/** The summary's counts, and the contacts the role choice left out. */
export interface UnlockCounts extends SummaryCounts {
  contactsLeftOut?: number;
}

type UnlockState = JobState<UnlockUnit, UnlockCounts>;

/** A row's new cells and the status they say (what the counts are made from). */
interface RowResult {
  status: RowStatus;
  cells?: Record<string, CellValue>;
}

interface UnlockOutcome {
  rows: Map<string, RowResult>;
  /** Ids not tried (out of time): a unit of their own, first in line. */
  rest: string[];
  hashes: string[];
  stop?: string;
  /** The status of every row the stop leaves not unlocked. */
  notDone?: RowStatus;
  /** What stopped it (Google's daily fetch limit pauses the job instead: see recordUnlocks). */
  error?: ApiError;
}

type Result = UnlockOutcome | FetchedContacts;

export const UNLOCK_JOB: JobDefinition<UnlockUnit, UnlockCounts, Result> = {
  kind: 'unlock',
  name: 'Unlock',
  title: 'Unlocking companies',
  action: 'Unlock selected companies',
  service: 'outreach',
  // 10 unlocks within the rate budget; a contacts unit is one round of profiles and first pages.
  unitMs: (unit) => ('unlock' in unit ? 15_000 : 20_000),
  // A contacts unit cut half-way would fetch its profiles again: start it only when its first round (a
  // profile and a first page per company) gets rate-budget slots before the deadline.
  fits: (unit, _state, context) =>
    'unlock' in unit ||
    client(context).budget.waitFor(2 * unit.contacts.length) <= context.deadline.remaining() - 20_000,
  size: (unit) => ('unlock' in unit ? 2 * unit.unlock.length : unit.contacts.length),
  work: (unit, _state, context) =>
    'unlock' in unit
      ? unlockIds(unit.unlock, client(context), context)
      : fetchContacts(unit.contacts, client(context)),
  record: (unit, result, state) =>
    'unlock' in unit
      ? recordUnlocks(result as UnlockOutcome, state)
      : recordContacts(result as FetchedContacts, state),
  summary: (state, finished) => summaryText(state.data, finished, isStopped(state)),
  markStopped: markUnlocksStopped,
  workDone: (before, after) => {
    const unlocked = after.unlocked - before.unlocked;
    const points = after.charged - before.charged;
    const filled = after.companiesFilled - before.companiesFilled;
    const added = after.contactsAdded - before.contactsAdded;
    const parts: string[] = [];
    if (unlocked) parts.push(UNLOCK_TEXTS.unlockedDone(unlocked, points));
    if (filled) parts.push(UNLOCK_TEXTS.filledDone(filled, added));
    return parts.join(UNLOCK_TEXTS.and);
  },
};

/**
 * What Stop leaves: the rows not unlocked say so; the rows unlocked whose contacts were not fetched say so
 * on their own row too (their Unlock status), as well as in the dialog's message.
 */
function markUnlocksStopped(state: UnlockState): string {
  const ids = state.units.flatMap((unit) => ('unlock' in unit ? unit.unlock : []));
  const hashes = state.units.flatMap((unit) => ('contacts' in unit ? unit.contacts : []));
  const parts: string[] = [];
  const changes = new Map<string, Record<string, CellValue>>();
  for (const id of ids) {
    changes.set(`id:${id}`, statusCell({ code: 'stopped' }));
    changes.set(`unlocked:${id}`, statusCell({ code: 'contacts-stopped' })); // unlocked in an earlier run
  }
  for (const hash of hashes) changes.set(`hash:${hash}`, statusCell({ code: 'contacts-stopped' }));
  if (changes.size) {
    const table = Table.open(SpreadsheetApp.getActiveSpreadsheet(), COMPANIES);
    table.updateByKey((row) => {
      // A row unlocked (it has its hash) whose contacts are left says so; a row not unlocked, by its id.
      const hash = cellText(row.values.companyHashId);
      const id = cellText(row.values.id);
      if (!hash) return `id:${id}`;
      return changes.has(`hash:${hash}`) ? `hash:${hash}` : `unlocked:${id}`;
    }, changes);
  }
  if (ids.length) parts.push(UNLOCK_TEXTS.idsStopped(ids.length));
  if (hashes.length) parts.push(UNLOCK_TEXTS.contactsLeft(hashes.length));
  return parts.join(' ');
}

/** The Unlock status cell of a row. */
export function statusCell(status: RowStatus): Record<string, CellValue> {
  return { status: textCell(statusText(status)) };
}

function client(context: SliceContext): OutreachClient {
  return outreachClient({ deadlineMs: context.deadline.at });
}

/** Unlocks the ids one by one (each is a charge: never in parallel, never retried blindly). */
function unlockIds(ids: string[], outreach: OutreachClient, context?: SliceContext): UnlockOutcome {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const rows = Table.open(spreadsheet, COMPANIES).readAll();
  const rowById = rowsById(rows);

  const index = CompanyIndex.load();
  const outcome: UnlockOutcome = { rows: new Map(), rest: [], hashes: [] };
  const status = (id: string, row: RowStatus) => outcome.rows.set(id, { status: row });
  for (let i = 0; i < ids.length && !outcome.stop; i++) {
    // The bar moves with each unlock (the unit counts 1 per unlock and 1 per company's contacts).
    if (i > 0 && context) context.progress(i);
    const id = ids[i];
    const row = rowById.get(id);
    if (!row) continue; // the row was deleted meanwhile: nothing to unlock
    const existing = cellText(row.values.companyHashId);
    if (existing) {
      outcome.hashes.push(existing);
      continue;
    }
    const key = index.get(id);
    if (!key) {
      status(id, { code: 'no-index' });
      continue;
    }
    if (!shownOnSheet(rows, id, key)) {
      status(id, { code: 'mismatch' });
      continue;
    }
    try {
      const result = outreach.unlock(key.domain, key.countryCode);
      const cells: Record<string, CellValue> = {
        companyHashId: textCell(result.companyHashId),
        charged: result.charged,
        alreadyViewed: result.alreadyViewed,
      };
      // The name the search row could not show is known now.
      if (cellText(row.values.name) === NAME_HIDDEN)
        cells.name = textCell(unlockedName(result.companyName, key.domain));
      outcome.rows.set(id, { status: { code: result.charged ? 'charged' : 'free' }, cells });
      outcome.hashes.push(result.companyHashId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (isForLater(error)) {
        outcome.rest = ids.slice(i); // out of time: the next step goes on from here
        break;
      }
      if (error.kind === 'not-found') status(id, { code: 'not-found' });
      else if (error.kind === 'outcome-unknown') status(id, { code: 'unknown' });
      else if (error.kind === 'bad-request') status(id, { code: 'refused', why: describe(error) });
      else {
        // Funds, key, plan, quota, address or service failure: stop here, keep what was done; every row
        // left of this unit says why it was not unlocked (recordUnlocks adds the rows of later units).
        outcome.stop = error.kind === 'funds' ? fundsText(error, outreach.pricingUrl) : describe(error);
        outcome.notDone = {
          code: error.kind === 'fetch-quota' ? 'waiting' : 'not-done',
          why: describe(error),
        };
        [outcome.rest, outcome.error] = [ids.slice(i), error];
        for (const left of ids.slice(i)) if (rowById.has(left)) status(left, outcome.notDone);
      }
    }
  }
  return outcome;
}

/**
 * Another editor may have typed another Search ID into a row since the confirmation: only a company that a
 * row carrying its id still shows (name and country) is paid for.
 */
function shownOnSheet(rows: TableRow[], id: string, key: CompanyKey): boolean {
  return rows.some(
    (r) =>
      cellText(r.values.id) === id &&
      rowShowsCompany(cellText(r.values.name), cellText(r.values.country), key),
  );
}

function recordUnlocks(outcome: UnlockOutcome, state: UnlockState): UnlockUnit[] {
  if (outcome.notDone) {
    // state.units[0] is this unit; the rows of the unlock units after it will not be tried either.
    for (const unit of state.units.slice(1))
      if ('unlock' in unit) for (const id of unit.unlock) outcome.rows.set(id, { status: outcome.notDone });
  }
  const changes = new Map<string, Record<string, CellValue>>();
  const counts = state.data;
  for (const [id, { status, cells }] of outcome.rows) {
    changes.set(id, { ...cells, ...statusCell(status) });
    if (status.code === 'charged' || status.code === 'free') counts.unlocked++;
    if (status.code === 'charged') counts.charged++;
    else if (status.code === 'free') counts.free++;
    else if (status.code === 'not-found') counts.notFound++;
    else if (status.code === 'unknown') counts.unknown++;
  }
  const table = Table.open(SpreadsheetApp.getActiveSpreadsheet(), COMPANIES);
  table.updateByKey((row) => cellText(row.values.id), changes);
  const next: UnlockUnit[] = [];
  if (outcome.rest.length) next.push({ unlock: outcome.rest });
  if (outcome.hashes.length) next.push({ contacts: outcome.hashes });
  if (outcome.error && outcome.error.kind === 'fetch-quota') {
    state.units.splice(0, 1, ...next); // the job pauses (job-runner) with what is left of this unit
    throw outcome.error;
  }
  if (outcome.stop) throw new JobStop(outcome.stop);
  return next;
}

function recordContacts(fetched: FetchedContacts, state: UnlockState): UnlockUnit[] {
  const written = writeContacts(fetched, SpreadsheetApp.getActiveSpreadsheet(), state.data.roles);
  state.data.companiesFilled += written.companies;
  state.data.contactsAdded += written.contactsAdded;
  state.data.contactsFound = (state.data.contactsFound ?? 0) + written.contactsFound;
  state.data.contactsLeftOut = (state.data.contactsLeftOut ?? 0) + written.contactsLeftOut;
  const next = written.notDone.length ? [{ contacts: written.notDone }] : [];
  if (fetched.stop && fetched.stop.kind === 'fetch-quota') {
    state.units.splice(0, 1, ...next); // the job pauses (job-runner) with the companies left
    throw fetched.stop;
  }
  if (fetched.stop && !isForLater(fetched.stop)) throw new JobStop(describe(fetched.stop));
  return next;
}

function rowsById(rows: TableRow[]): Map<string, TableRow> {
  return new Map(rows.map((row) => [cellText(row.values.id), row]));
}
