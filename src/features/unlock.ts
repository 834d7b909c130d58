// Unlock selected Companies rows, then fill Profiles and Contacts. Money is irreversible: the cost and the
// balance are stated before anything is charged; a row that has its companyHashId is never unlocked again;
// results are written to the rows chunk by chunk, so a cut-off run loses at most one chunk, and that chunk
// is settled by the next run for free (a repeat unlock within 30 days costs nothing).
import { ApiError } from '../api/errors';
import { outreachClientFromSettings } from '../api/outreach-client';
import { CompanyIndex } from '../platform/company-index';
import { Deadline } from '../platform/deadline';
import { BUSY_MESSAGE, clearJob, JobProgress, loadJob, saveJob, withJobLease } from '../platform/jobs';
import { cellText, CellValue, textCell } from '../sheets/cells';
import { COMPANIES } from '../sheets/layouts';
import { Table, TableRow } from '../sheets/table';
import { confirm, inform, showProgressDialog, toast } from '../ui/dialogs';
import { fillContacts } from './contacts';
import { UserError } from './inputs';
import { describe, ensureKey } from './settings';

const KIND = 'unlock';
/** Unlocks per sheet write: a cut-off run can leave at most this many rows to be settled by the next run. */
const UNLOCK_CHUNK = 10;
/** Companies whose profile and contacts are fetched (in parallel) per write. */
const CONTACT_CHUNK = 10;

/** Progress counts 2 units per company to unlock (unlock, then contacts) and 1 per company already unlocked. */
export interface UnlockJob {
  /** Search row ids still to unlock, in sheet order. */
  pending: string[];
  /** companyHashIds whose profile and contacts are still to fetch. */
  contacts: string[];
  total: number;
  unlocked: number;
  charged: number;
  free: number;
  notFound: number;
  unknown: number;
  companiesFilled: number;
  contactsAdded: number;
  stopped?: string;
}

export interface UnlockPlan {
  toUnlock: string[];
  alreadyUnlocked: string[];
  unknownRows: number[];
  hiddenRows: number;
}

/** Menu: Unlock selected companies. One run at a time per document (see withJobLease). */
export function unlockSelectedCompanies(): void {
  if (!ensureKey('outreach')) return;
  withJobLease(KIND, unlockSelection, () => inform('Unlock companies', BUSY_MESSAGE));
}

function unlockSelection(): void {
  const previous = loadJob<UnlockJob>(KIND);
  if (previous && !previous.stopped && (previous.pending.length > 0 || previous.contacts.length > 0)) {
    const left = previous.pending.length + previous.contacts.length;
    if (
      confirm(
        'Unfinished unlock',
        `The last unlock was interrupted with ${left} companies left. Continue it now?`,
      )
    ) {
      return runFirstStep(previous);
    }
    clearJob(KIND);
  }
  const plan = planFromSelection();
  const client = outreachClientFromSettings();
  let toUnlock = plan.toUnlock;
  if (toUnlock.length > 0) {
    const balance = client.balance();
    const usable = balance.monthlyPoints + balance.addonPoints;
    const lines = [
      `Unlock ${toUnlock.length} compan${toUnlock.length === 1 ? 'y' : 'ies'}: at most ${toUnlock.length} search point${toUnlock.length === 1 ? '' : 's'} (a company unlocked in the last 30 days is free).`,
      `Usable balance: ${usable} points (${balance.monthlyPoints} monthly + ${balance.addonPoints} add-on).`,
    ];
    if (plan.alreadyUnlocked.length) {
      lines.push(
        `${plan.alreadyUnlocked.length} selected rows are already unlocked: not charged, contacts refreshed.`,
      );
    }
    if (plan.unknownRows.length) lines.push(unknownRowsText(plan.unknownRows));
    if (plan.hiddenRows) lines.push(`${plan.hiddenRows} rows hidden by a filter are skipped.`);
    if (usable === 0) {
      inform(
        'No search points left',
        `${lines.join('\n')}\n\nBuy an add-on pack (400 points + 2000 EDM) at ${pricingUrl()} and try again.`,
      );
      return;
    }
    if (usable < toUnlock.length) {
      lines.push(`Your balance covers ${usable}: only the first ${usable} rows will be unlocked.`);
      toUnlock = toUnlock.slice(0, usable);
    }
    if (!confirm('Unlock companies', `${lines.join('\n')}\n\nContinue?`)) return;
  } else if (plan.alreadyUnlocked.length === 0) {
    const reason = plan.unknownRows.length
      ? unknownRowsText(plan.unknownRows)
      : 'Select one or more company rows.';
    inform('Nothing to unlock', reason);
    return;
  }
  const job: UnlockJob = {
    pending: toUnlock,
    contacts: plan.alreadyUnlocked,
    total: 2 * toUnlock.length + plan.alreadyUnlocked.length,
    unlocked: 0,
    charged: 0,
    free: 0,
    notFound: 0,
    unknown: 0,
    companiesFilled: 0,
    contactsAdded: 0,
  };
  saveJob(KIND, job);
  runFirstStep(job);
}

/** Progress dialog step. */
export function continueUnlock(): JobProgress {
  const job = loadJob<UnlockJob>(KIND);
  if (!job) return { kind: KIND, done: 0, total: 0, finished: true, message: 'Nothing left to unlock.' };
  return runStep(job, Deadline.forExecution());
}

function runFirstStep(job: UnlockJob): void {
  const progress = runStep(job, Deadline.forExecution());
  if (!progress.finished) showProgressDialog('Unlocking companies', progress);
  else if (progress.error) {
    inform('Unlock stopped', `${progress.message}\n\n${progress.error}`);
  } else toast(progress.message, 'Unlock finished', 10);
}

/** Works until the deadline, saving after each chunk; returns the progress. */
export function runStep(job: UnlockJob, deadline: Deadline): JobProgress {
  const client = outreachClientFromSettings({ deadlineMs: deadline.at });
  try {
    while (job.pending.length > 0 && !job.stopped && !deadline.passed(15000)) {
      unlockChunk(job, client);
      saveJob(KIND, job);
      toast(`Unlocked ${job.unlocked} of ${job.pending.length + job.unlocked}…`);
    }
    while (job.pending.length === 0 && job.contacts.length > 0 && !job.stopped && !deadline.passed(20000)) {
      const chunk = job.contacts.slice(0, CONTACT_CHUNK);
      // Start a chunk only when its first round (a profile and a first contacts page per company) fits
      // before the deadline: a chunk cut half-way would fetch those profiles again in the next step.
      if (client.budget.waitFor(2 * chunk.length) > deadline.remaining() - 20000) break;
      const filled = fillContacts(chunk, client);
      job.contacts = job.contacts.filter((id) => !filled.done.includes(id));
      job.companiesFilled += filled.companies;
      job.contactsAdded += filled.contactsAdded;
      if (filled.stop && filled.stop.kind !== 'rate-limit') job.stopped = describe(filled.stop);
      saveJob(KIND, job);
      if (filled.stop) break;
      toast(`Contacts: ${job.companiesFilled} of ${job.companiesFilled + job.contacts.length} companies…`);
    }
  } catch (error) {
    if (!(error instanceof ApiError && error.kind === 'rate-limit')) throw error;
    // The rate budget would wait past the deadline: the next step carries on.
  }
  const finished = !!job.stopped || (job.pending.length === 0 && job.contacts.length === 0);
  if (finished) clearJob(KIND);
  const done = Math.max(0, job.total - 2 * job.pending.length - job.contacts.length);
  return {
    kind: KIND,
    done,
    total: job.total,
    finished,
    message: summary(job, finished),
    error: job.stopped,
  };
}

function unlockChunk(job: UnlockJob, client: ReturnType<typeof outreachClientFromSettings>): void {
  const rowById = rowsById(Table.open(COMPANIES).readAll());
  const index = CompanyIndex.load();
  const results = new Map<string, Record<string, CellValue>>();
  const status = (id: string, text: string) => results.set(id, { status: textCell(text) });
  const chunk = job.pending.slice(0, UNLOCK_CHUNK);
  let processed = 0;
  for (const id of chunk) {
    const row = rowById.get(id);
    processed++;
    if (!row) continue; // the row was deleted meanwhile: nothing to unlock
    const existing = cellText(row.values.companyHashId);
    if (existing) {
      addContacts(job, existing);
      continue;
    }
    const key = index.get(id);
    if (!key) {
      status(id, 'Cannot unlock: search again to restore this row.');
      continue;
    }
    try {
      const result = client.unlock(key.domain, key.countryCode);
      job.unlocked++;
      if (result.charged) job.charged++;
      else job.free++;
      results.set(id, {
        companyHashId: textCell(result.companyHashId),
        charged: result.charged,
        alreadyViewed: result.alreadyViewed,
        status: textCell(
          result.charged ? 'Unlocked (1 point)' : 'Unlocked (free: viewed in the last 30 days)',
        ),
      });
      addContacts(job, result.companyHashId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.kind === 'rate-limit') {
        processed--;
        break;
      }
      if (error.kind === 'not-found') {
        job.notFound++;
        status(id, 'No matching company: nothing charged.');
      } else if (error.kind === 'outcome-unknown') {
        job.unknown++;
        status(id, 'Outcome unknown (connection lost): run Unlock again, a repeat within 30 days is free.');
      } else if (error.kind === 'bad-request') {
        status(id, describe(error));
      } else {
        // Funds, key, plan, quota or service failure: stop here, keep what was done.
        job.stopped = error.kind === 'funds' ? fundsText(error) : describe(error);
        processed--;
        status(id, `Not unlocked: ${error.userMessage}`);
        break;
      }
    }
  }
  job.pending = job.pending.slice(processed);
  // The unlocks took a while and the user may have sorted, inserted or moved rows and columns meanwhile:
  // the table is read again and each result goes to the row that has its search id now.
  const table = Table.open(COMPANIES);
  const rows = table.readAll();
  const changes = new Map<number, Record<string, CellValue>>();
  for (const [id, row] of rowsById(rows)) {
    const result = results.get(id);
    if (result) changes.set(row.rowNumber, result);
  }
  table.update(rows, changes);
}

function rowsById(rows: TableRow[]): Map<string, TableRow> {
  return new Map(rows.map((row) => [cellText(row.values.id), row]));
}

/** Rows of the current selection on the Companies sheet, sorted into what unlocking them means. */
export function planFromSelection(): UnlockPlan {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  if (sheet.getName() !== COMPANIES.sheetName) {
    throw new UserError(
      `Select company rows on the "${COMPANIES.sheetName}" sheet first (use Search companies to fill it).`,
    );
  }
  const selected = new Set<number>();
  const ranges = spreadsheet.getActiveRangeList()?.getRanges() ?? [];
  for (const range of ranges) {
    const first = Math.max(range.getRow(), 2);
    const last = Math.min(range.getLastRow(), sheet.getLastRow());
    for (let row = first; row <= last; row++) selected.add(row);
  }
  const table = Table.open(COMPANIES);
  const index = CompanyIndex.load();
  const plan: UnlockPlan = { toUnlock: [], alreadyUnlocked: [], unknownRows: [], hiddenRows: 0 };
  for (const row of table.readAll()) {
    if (!selected.has(row.rowNumber)) continue;
    if (sheet.isRowHiddenByFilter(row.rowNumber)) {
      plan.hiddenRows++;
      continue;
    }
    classify(row, index, plan);
  }
  return plan;
}

function classify(row: TableRow, index: CompanyIndex, plan: UnlockPlan): void {
  const id = cellText(row.values.id);
  const hash = cellText(row.values.companyHashId);
  if (hash) {
    if (!plan.alreadyUnlocked.includes(hash)) plan.alreadyUnlocked.push(hash);
  } else if (id && index.get(id)) {
    if (!plan.toUnlock.includes(id)) plan.toUnlock.push(id);
  } else if (id || cellText(row.values.name)) plan.unknownRows.push(row.rowNumber);
}

function addContacts(job: UnlockJob, companyHashId: string): void {
  if (!job.contacts.includes(companyHashId)) job.contacts.push(companyHashId);
}

function unknownRowsText(rows: number[]): string {
  const list = rows.slice(0, 5).join(', ') + (rows.length > 5 ? '…' : '');
  return `${rows.length} rows (${list}) have no search data to unlock with: run the search again to restore them.`;
}

function fundsText(error: ApiError): string {
  const amounts =
    error.required !== undefined && error.available !== undefined
      ? ` It needs ${error.required} and ${error.available} ${error.available === 1 ? 'is' : 'are'} available.`
      : '';
  return `Not enough search points.${amounts} Buy an add-on pack at ${pricingUrl()}; the rows unlocked so far are kept.`;
}

function pricingUrl(): string {
  return `${outreachClientFromSettings().baseUrl}/pricing`;
}

function summary(job: UnlockJob, finished: boolean): string {
  const parts = [`Unlocked ${job.unlocked} (${job.charged} charged, ${job.free} free)`];
  if (job.notFound) parts.push(`${job.notFound} not found (not charged)`);
  if (job.unknown) parts.push(`${job.unknown} with unknown outcome (run Unlock again)`);
  parts.push(`contacts for ${job.companiesFilled} companies (${job.contactsAdded} new)`);
  return (finished ? '' : 'Working: ') + parts.join(', ') + '.';
}
