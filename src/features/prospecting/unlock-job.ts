// The unlock job: units of up to 10 unlocks, then units of up to 10 companies whose profile and contacts
// are fetched. A row that has its companyHashId is never unlocked again; results are written to the rows by
// search id after each unit, so a cut-off run loses at most one unit, which the next run settles for free (a
// repeat unlock within 30 days costs nothing).
import { ApiError, isForLater } from '../../api/errors';
import type { OutreachClient } from '../../api/outreach/outreach-client';
import { outreachClient } from '../clients';
import { CompanyIndex, type CompanyKey, rowShowsCompany } from './company-index';
import { cellText, CellValue, textCell } from '../../sheets/cells';
import { COMPANIES } from '../../sheets/layouts';
import { Table, TableRow } from '../../sheets/table';
import { fetchContacts, writeContacts, FetchedContacts } from './contacts';
import { JobDefinition, JobState, JobStop, StepContext } from '../jobs/job-runner';
import { NAME_HIDDEN, unlockedName } from './search';
import { describe } from '../settings';
import { count, formatCount, neededText, plural } from '../words';
import { isAllRoles, type RoleChoice, roleChoiceText } from './role-choice';

/** Unlocks per sheet write: a cut-off run can leave at most this many rows to be settled by the next run. */
export const UNLOCK_CHUNK = 10;
/** Companies whose profile and contacts are fetched (in parallel) per write. */
export const CONTACT_CHUNK = 10;

export type UnlockUnit = { unlock: string[] } | { contacts: string[] };

export interface UnlockCounts {
  unlocked: number;
  charged: number;
  free: number;
  notFound: number;
  unknown: number;
  companiesFilled: number;
  contactsAdded: number;
  /** Rows of the selection that were unlocked before this run (contacts refreshed only). */
  alreadyUnlocked: number;
  /** The roles that go to Contacts (absent: all), new contacts found, and those the choice left out. */
  roles?: RoleChoice;
  contactsFound?: number;
  contactsLeftOut?: number;
}

type UnlockState = JobState<UnlockUnit, UnlockCounts>;

interface UnlockOutcome {
  /** Cells to write per search id. */
  rows: Map<string, Record<string, CellValue>>;
  /** Ids not tried (out of time): a unit of their own, first in line. */
  rest: string[];
  hashes: string[];
  stop?: string;
  /** The status of every row the stop leaves not unlocked. */
  notDone?: string;
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
  summary: unlockSummary,
  markStopped: markUnlocksStopped,
  workDone: (before, after) => {
    const unlocked = after.unlocked - before.unlocked;
    const points = after.charged - before.charged;
    const filled = after.companiesFilled - before.companiesFilled;
    const added = after.contactsAdded - before.contactsAdded;
    const parts: string[] = [];
    if (unlocked) parts.push(`unlocked ${companies(unlocked)} (${count(points, 'point')})`);
    if (filled) parts.push(`filled the contacts of ${companies(filled)} (${count(added, 'new contact')})`);
    return parts.join(' and ');
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
    changes.set(`id:${id}`, { status: textCell(UNLOCK_STOPPED) });
    changes.set(`unlocked:${id}`, { status: textCell(CONTACTS_STOPPED) }); // unlocked in an earlier run
  }
  for (const hash of hashes) changes.set(`hash:${hash}`, { status: textCell(CONTACTS_STOPPED) });
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
  if (ids.length) {
    parts.push(
      `${companies(ids.length)} ${plural(ids.length, 'was', 'were')} not unlocked, nothing charged for them: their Unlock status says "Stopped".`,
    );
  }
  if (hashes.length) {
    parts.push(
      `The contacts of ${companies(hashes.length)} already unlocked were not fetched: their Unlock status says so; select them and run Unlock again (free).`,
    );
  }
  return parts.join(' ');
}

/** The Unlock status of a row whose Search ID belongs to another company than the row shows. */
export const MISMATCH_TEXT =
  'Not unlocked, nothing charged: this Search ID was found for another company than the name and country this row shows (changed by hand?). Run the search again to restore the row.';

/** The Unlock status of a row unlocked whose contacts Stop left unfetched. */
export const CONTACTS_STOPPED =
  'Unlocked; contacts not fetched (stopped): select the row and run Unlock again, free.';
const UNLOCK_STOPPED = 'Stopped: not unlocked, nothing charged. Select the row and run Unlock to unlock it.';

function companies(n: number): string {
  return count(n, 'company', 'companies');
}

function client(context: StepContext): OutreachClient {
  return outreachClient({ deadlineMs: context.deadline.at });
}

/** Unlocks the ids one by one (each is a charge: never in parallel, never retried blindly). */
function unlockIds(ids: string[], outreach: OutreachClient, context?: StepContext): UnlockOutcome {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const rows = Table.open(spreadsheet, COMPANIES).readAll();
  const rowById = rowsById(rows);

  const index = CompanyIndex.load();
  const outcome: UnlockOutcome = { rows: new Map(), rest: [], hashes: [] };
  const status = (id: string, text: string) => outcome.rows.set(id, { status: textCell(text) });
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
      status(id, 'Cannot unlock: search again to restore this row.');
      continue;
    }
    if (!shownOnSheet(rows, id, key)) {
      status(id, MISMATCH_TEXT);
      continue;
    }
    try {
      const result = outreach.unlock(key.domain, key.countryCode);
      outcome.rows.set(id, {
        companyHashId: textCell(result.companyHashId),
        charged: result.charged,
        alreadyViewed: result.alreadyViewed,
        status: textCell(
          result.charged ? 'Unlocked (1 point)' : 'Unlocked (free: viewed in the last 30 days)',
        ),
        // The name the search row could not show is known now.
        ...(cellText(row.values.name) === NAME_HIDDEN
          ? { name: textCell(unlockedName(result.companyName, key.domain)) }
          : {}),
      });
      outcome.hashes.push(result.companyHashId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (isForLater(error)) {
        outcome.rest = ids.slice(i); // out of time: the next step goes on from here
        break;
      }
      if (error.kind === 'not-found') status(id, 'No matching company: nothing charged.');
      else if (error.kind === 'outcome-unknown') {
        status(id, 'Outcome unknown (connection lost): run Unlock again, a repeat within 30 days is free.');
      } else if (error.kind === 'bad-request') status(id, describe(error));
      else {
        // Funds, key, plan, quota, address or service failure: stop here, keep what was done; every row
        // left of this unit says why it was not unlocked (recordUnlocks adds the rows of later units).
        outcome.stop = error.kind === 'funds' ? fundsText(error, outreach.pricingUrl) : describe(error);
        outcome.notDone = `${error.kind === 'fetch-quota' ? 'Waiting' : 'Not unlocked'}: ${describe(error)}`;
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
      if ('unlock' in unit)
        for (const id of unit.unlock) outcome.rows.set(id, { status: textCell(outcome.notDone) });
  }
  const table = Table.open(SpreadsheetApp.getActiveSpreadsheet(), COMPANIES);
  table.updateByKey((row) => cellText(row.values.id), outcome.rows);
  const counts = state.data;
  for (const cells of outcome.rows.values()) {
    const text = cellText(cells.status);
    if (cells.companyHashId) {
      counts.unlocked++;
      if (cells.charged) counts.charged++;
      else counts.free++;
    } else if (text.includes('No matching company')) counts.notFound++;
    else if (text.includes('Outcome unknown')) counts.unknown++;
  }
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

export function rowsById(rows: TableRow[]): Map<string, TableRow> {
  return new Map(rows.map((row) => [cellText(row.values.id), row]));
}

function fundsText(error: ApiError, pricingUrl: string): string {
  return `Not enough search points.${neededText(error)} Buy an add-on pack at ${pricingUrl}; the rows unlocked so far are kept.`;
}

function unlockSummary(state: UnlockState, finished: boolean): string {
  const c = state.data;
  if (finished && c.alreadyUnlocked > 0 && c.unlocked + c.notFound + c.unknown === 0 && !state.stopped) {
    const rows = `${count(c.alreadyUnlocked, 'row')} ${plural(c.alreadyUnlocked, 'was', 'were')}`;
    const added = count(c.contactsAdded, 'new contact');
    const text = `${rows} already unlocked: ${c.contactsAdded ? `nothing charged, ${added} added` : 'nothing to do'}.`;
    return isAllRoles(c.roles) || !c.contactsFound ? text : `${text} ${rolesText(c)}`;
  }
  const parts = [
    `Unlocked ${formatCount(c.unlocked)} (${formatCount(c.charged)} charged, ${formatCount(c.free)} free)`,
  ];
  if (c.notFound) parts.push(`${formatCount(c.notFound)} not found (not charged)`);
  if (c.unknown) parts.push(`${formatCount(c.unknown)} with unknown outcome (run Unlock again)`);
  parts.push(
    `contacts for ${count(c.companiesFilled, 'company', 'companies')} (${formatCount(c.contactsAdded)} new)`,
  );
  const text = (finished ? '' : 'Working: ') + parts.join(', ') + '.';
  return isAllRoles(c.roles) ? text : `${text} ${rolesText(c)}`;
}

/** "42 contacts found, 17 added: Purchasing, Management; all seniorities." */
function rolesText(c: UnlockCounts): string {
  return `${count(c.contactsFound ?? 0, 'contact')} found, ${formatCount(c.contactsAdded)} added: ${roleChoiceText(c.roles)}.`;
}
