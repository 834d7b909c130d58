// What unlocking the selected rows means: the companies to unlock (charged), the rows unlocked before (their
// contacts refreshed, free), and the rows that cannot be unlocked and why. Read by the menu action and read
// again when the unlock dialog's answer comes (unlock-question.ts), which starts the job.
import { CompanyIndex, rowShowsCompany } from './company-index';
import {
  otherJobs,
  hasWorkLeft,
  isStopped,
  JobState,
  newJobState,
  savedJob,
  startJob,
  MENU_REPORTER,
} from '../jobs';
import { splitEvery, count, plural } from '../../platform';
import { cellText, COMPANIES, hiddenRows, selectedRows, Table, TableRow } from '../../sheets';
import { isAllRoles, type RoleChoice } from './role-choice';
import { CONTACT_CHUNK, statusCell, UNLOCK_CHUNK, UNLOCK_JOB, UnlockCounts, UnlockUnit } from './unlock-job';
import { UserError } from '../errors';

export interface UnlockPlan {
  toUnlock: string[];
  alreadyUnlocked: string[];
  unknownRows: number[];
  /** Rows whose Search ID was found for another company than the name and country they show. */
  mismatchedRows: number[];
  mismatchedIds: string[];
  hiddenRows: number;
  /** Rows of the Companies table in the selection; of them, blank ones and repeats of a company above. */
  selectedRows: number;
  blankRows: number;
  repeatedRows: number;
  /** Contacts to expect: the E-mails column of the rows to unlock or refresh. */
  expectedContacts: number;
  /** Companies in another editor's unfinished unlock, left to it. */
  leftToOthers: number;
}

/** The plan of the selection, without the companies another editor's unfinished unlock holds. */
export function currentPlan(): UnlockPlan {
  const plan = planFromSelection();
  const theirs = othersUnlocking();
  const mine = plan.toUnlock.filter((id) => !theirs.has(id));
  plan.leftToOthers = plan.toUnlock.length - mine.length;
  plan.toUnlock = mine;
  return plan;
}

/** Starts the unlock of `toUnlock` (confirmed) and the contacts of the rows unlocked before. */
export function startUnlock(plan: UnlockPlan, toUnlock: string[], roles: RoleChoice): void {
  const units: UnlockUnit[] = [
    ...splitEvery(toUnlock, UNLOCK_CHUNK).map((ids) => ({ unlock: ids })),
    ...splitEvery(plan.alreadyUnlocked, CONTACT_CHUNK).map((ids) => ({ contacts: ids })),
  ];
  const counts: UnlockCounts = {
    unlocked: 0,
    charged: 0,
    free: 0,
    notFound: 0,
    unknown: 0,
    companiesFilled: 0,
    contactsAdded: 0,
    alreadyUnlocked: plan.alreadyUnlocked.length,
    ...(isAllRoles(roles) ? {} : { roles }),
  };
  startJob(UNLOCK_JOB, newJobState(UNLOCK_JOB, units, counts), MENU_REPORTER);
}

/** True when this user has an unlock that is not finished (the dialog must not start a second one). */
export function hasUnfinishedUnlock(): boolean {
  const previous = savedJob<UnlockUnit, UnlockCounts>(UNLOCK_JOB.kind);
  return !!previous && hasWorkLeft(previous);
}

/** Companies in another editor's unfinished unlock: theirs to unlock, with their key (left out here). */
function othersUnlocking(): Set<string> {
  const ids = new Set<string>();
  for (const job of otherJobs<JobState<UnlockUnit, UnlockCounts>>(UNLOCK_JOB.kind)) {
    if (isStopped(job)) continue;
    for (const unit of job.units) if ('unlock' in unit) unit.unlock.forEach((id) => ids.add(id));
  }
  return ids;
}

/** Rows of the current selection on the Companies sheet, sorted into what unlocking them means. */
function planFromSelection(): UnlockPlan {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  if (sheet.getName() !== COMPANIES.sheetName) {
    throw new UserError(
      `Select company rows on the "${COMPANIES.sheetName}" sheet first (use Search companies to fill it).`,
    );
  }
  const selected = selectedRows(spreadsheet, sheet);
  const hidden = hiddenRows(sheet);
  const index = CompanyIndex.load();
  const plan: UnlockPlan = {
    toUnlock: [],
    alreadyUnlocked: [],
    unknownRows: [],
    mismatchedRows: [],
    mismatchedIds: [],
    hiddenRows: 0,
    selectedRows: 0,
    blankRows: 0,
    repeatedRows: 0,
    expectedContacts: 0,
    leftToOthers: 0,
  };
  for (const row of Table.open(spreadsheet, COMPANIES).readAll()) {
    if (!selected.has(row.rowNumber)) continue;
    plan.selectedRows++;
    if (hidden.has(row.rowNumber)) plan.hiddenRows++;
    else classify(row, index, plan);
  }
  return plan;
}

function classify(row: TableRow, index: CompanyIndex, plan: UnlockPlan): void {
  const id = cellText(row.values.id);
  const hash = cellText(row.values.companyHashId);
  const key = !hash && id ? index.get(id) : undefined;
  if (key && !rowShowsCompany(cellText(row.values.name), cellText(row.values.country), key)) {
    plan.mismatchedRows.push(row.rowNumber);
    if (!plan.mismatchedIds.includes(id)) plan.mismatchedIds.push(id);
    return;
  }
  const emails = Number(row.values.emailCount);
  if ((hash || key) && Number.isFinite(emails) && emails > 0) plan.expectedContacts += emails;
  if (hash) {
    if (!plan.alreadyUnlocked.includes(hash)) plan.alreadyUnlocked.push(hash);
    else plan.repeatedRows++;
  } else if (key) {
    if (!plan.toUnlock.includes(id)) plan.toUnlock.push(id);
    else plan.repeatedRows++;
  } else if (id || cellText(row.values.name)) plan.unknownRows.push(row.rowNumber);
  else plan.blankRows++;
}

/** Rows that show another company than the one their Search ID was found for say so (nothing is charged). */
export function markMismatched(plan: UnlockPlan): void {
  if (plan.mismatchedRows.length === 0) return;
  const rows = new Set(plan.mismatchedRows);
  const changes = new Map(plan.mismatchedRows.map((n) => [String(n), statusCell({ code: 'mismatch' })]));
  Table.open(SpreadsheetApp.getActiveSpreadsheet(), COMPANIES).updateByKey(
    (row) => (rows.has(row.rowNumber) ? String(row.rowNumber) : ''),
    changes,
  );
}

export function unknownRowsText(rows: number[]): string {
  return `${count(rows.length, 'row')} (${rowList(rows)}) ${plural(rows.length, 'has', 'have')} no search data to unlock with: run the search again to restore them.`;
}

export function mismatchedRowsText(rows: number[]): string {
  return `${count(rows.length, 'row')} (${rowList(rows)}) ${plural(rows.length, 'shows', 'show')} another company than ${plural(rows.length, 'its', 'their')} Search ID was found for: not unlocked, nothing charged (${plural(rows.length, 'its', 'their')} Unlock status says so).`;
}

function rowList(rows: number[]): string {
  return rows.slice(0, 5).join(', ') + (rows.length > 5 ? '…' : '');
}
