// Menu: Unlock selected companies. Money is irreversible: the cost and the balance are stated before
// anything is charged. The work itself is the unlock job (unlock-job.ts) on the job runner.
import { outreachClient } from '../clients';
import { CompanyIndex } from './company-index';
import { BUSY_MESSAGE, clearJob, otherJobs, withJobLease } from '../../platform/jobs';
import { cellText } from '../../sheets/cells';
import { COMPANIES } from '../../sheets/layouts';
import { hiddenRows, selectedRows } from '../../sheets/selection';
import { Table, TableRow } from '../../sheets/table';
import { ask, choose, confirm, inform, toast } from '../../ui/dialogs';
import { DEPARTMENTS, SENIORITIES } from './roles';
import {
  isAllRoles,
  parseRoleChoice,
  readRoleChoice,
  type RoleChoice,
  roleChoiceText,
  ROLES_EXAMPLE,
  saveRoleChoice,
} from './role-choice';
import { UserError } from '../inputs';
import { splitEvery, JobState, newJobState, runStep, savedJob, startJob } from '../jobs/job-runner';
import { keyChangedText } from '../jobs/job-owner';
import { count, formatCount, plural } from '../words';
import { MENU_REPORTER, reportBackgroundWork } from '../jobs/reporters';
import { ensureKey } from '../settings';
import { CONTACT_CHUNK, UNLOCK_CHUNK, UNLOCK_JOB, UnlockCounts, UnlockUnit } from './unlock-job';
import { Deadline } from '../../platform/deadline';

export interface UnlockPlan {
  toUnlock: string[];
  alreadyUnlocked: string[];
  unknownRows: number[];
  hiddenRows: number;
  /** Rows of the Companies table in the selection; of them, blank ones and repeats of a company above. */
  selectedRows: number;
  blankRows: number;
  repeatedRows: number;
  /** Companies left to another editor's unfinished unlock. */
  theirs: number;
  /** Contacts to expect: the E-mails column of the rows to unlock or refresh. */
  expectedContacts: number;
}

/** Menu: Unlock selected companies. One run at a time per document (see withJobLease). */
export function unlockSelectedCompanies(): void {
  if (!ensureKey('outreach')) return;
  withJobLease(UNLOCK_JOB.kind, unlockSelection, () => inform('Unlock companies', BUSY_MESSAGE));
}

function unlockSelection(): void {
  reportBackgroundWork(UNLOCK_JOB);
  if (resumeUnfinished()) return;
  const plan = planFromSelection();
  const theirs = othersUnlocking();
  const left = plan.toUnlock.filter((id) => theirs.has(id));
  if (left.length) {
    plan.toUnlock = plan.toUnlock.filter((id) => !theirs.has(id));
    plan.theirs = left.length;
    toast(
      `${count(left.length, 'selected company', 'selected companies')} ${plural(left.length, 'is', 'are')} in another editor's unfinished unlock: left to it (their key pays for ${plural(left.length, 'it', 'them')}).`,
      'Unlock companies',
      10,
    );
  }
  if (plan.toUnlock.length === 0 && plan.alreadyUnlocked.length === 0) {
    const reason = plan.unknownRows.length
      ? unknownRowsText(plan.unknownRows)
      : 'Select one or more company rows.';
    inform('Nothing to unlock', reason);
    return;
  }
  const confirmed = plan.toUnlock.length > 0 ? confirmCost(plan) : confirmRefresh(plan);
  if (!confirmed) return;
  const toUnlock = confirmed.ids;
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
    ...(isAllRoles(confirmed.roles) ? {} : { roles: confirmed.roles }),
  };
  startJob(UNLOCK_JOB, newJobState(UNLOCK_JOB, units, counts), MENU_REPORTER);
}

/**
 * The user's own interrupted unlock is continued, or dropped. True when continued. The question states what
 * is left, what it may cost and the usable balance, as a first run does.
 */
function resumeUnfinished(): boolean {
  const previous = savedJob<UnlockUnit, UnlockCounts>(UNLOCK_JOB.kind);
  if (!previous || previous.stopped || previous.units.length === 0) return false;
  const otherKey = keyChangedText(UNLOCK_JOB, previous);
  if (otherKey) {
    if (!confirm('Unfinished unlock', `${otherKey}\n\nDrop it now? (Nothing more is charged for it.)`))
      return true;
    clearJob(UNLOCK_JOB.kind);
    return false;
  }
  const toUnlock = previous.units.reduce((n, u) => n + ('unlock' in u ? u.unlock.length : 0), 0);
  const toFill = previous.units.reduce((n, u) => n + ('contacts' in u ? u.contacts.length : 0), 0);
  const lines = [`The last unlock was interrupted.`];
  if (toUnlock) {
    const balance = outreachClient().balance();
    lines.push(
      `Left to unlock: ${count(toUnlock, 'company', 'companies')}, at most ${count(toUnlock, 'search point')} (a company unlocked in the last 30 days is free).`,
      `Usable balance: ${count(balance.monthlyPoints + balance.addonPoints, 'point')} (${formatCount(balance.monthlyPoints)} monthly + ${formatCount(balance.addonPoints)} add-on).`,
    );
  }
  if (toFill) lines.push(`Contacts still to fill: ${count(toFill, 'company', 'companies')} (free).`);
  if (confirm('Unfinished unlock', `${lines.join('\n')}\n\nContinue it now?`)) {
    runStep(UNLOCK_JOB, previous, MENU_REPORTER, Deadline.forExecution());
    return true;
  }
  clearJob(UNLOCK_JOB.kind);
  return false;
}

/** Companies in another editor's unfinished unlock: theirs to unlock, with their key (left out here). */
function othersUnlocking(): Set<string> {
  const ids = new Set<string>();
  for (const job of otherJobs<JobState<UnlockUnit, UnlockCounts>>(UNLOCK_JOB.kind)) {
    if (job.stopped) continue;
    for (const unit of job.units) if ('unlock' in unit) unit.unlock.forEach((id) => ids.add(id));
  }
  return ids;
}

/**
 * States the cost, the balance and the contacts to expect; the ids to unlock (as many as the balance covers)
 * and the roles that go to Contacts, or null. "No" chooses the roles (remembered per user), then asks again.
 */
function confirmCost(plan: UnlockPlan): { ids: string[]; roles: RoleChoice } | null {
  let toUnlock = plan.toUnlock;
  const client = outreachClient();
  const balance = client.balance();
  const usable = balance.monthlyPoints + balance.addonPoints;
  const others = plan.selectedRows - toUnlock.length;
  const of =
    others > 0
      ? ` of the ${count(plan.selectedRows, 'selected row')} (the other ${formatCount(others)}: see below)`
      : '';
  const lines = [
    `Unlock ${count(toUnlock.length, 'company', 'companies')}${of}: at most ${count(toUnlock.length, 'search point')} (search points pay for unlocks, 1 per company; a company unlocked in the last 30 days is free).`,
    `Usable balance: ${count(usable, 'point')} (${formatCount(balance.monthlyPoints)} monthly + ${formatCount(balance.addonPoints)} add-on).`,
    ...otherRowsLines(plan),
  ];
  if (usable === 0) {
    inform(
      'No search points left',
      `${lines.join('\n')}\n\nBuy an add-on pack (400 search points + 2,000 e-mail credits) at ${client.pricingUrl} and try again.`,
    );
    return null;
  }
  if (usable < toUnlock.length) {
    lines.push(
      `Your balance covers ${formatCount(usable)}: only the first ${count(usable, 'row')} will be unlocked.`,
    );
    toUnlock = toUnlock.slice(0, usable);
  }
  const roles = confirmWithRoles(lines, plan.expectedContacts, 'unlock');
  return roles ? { ids: toUnlock, roles } : null;
}

/** Only rows unlocked before (free): asked only when the user's roles choice leaves some contacts out. */
function confirmRefresh(plan: UnlockPlan): { ids: string[]; roles: RoleChoice } | null {
  const roles = readRoleChoice();
  if (isAllRoles(roles)) return { ids: [], roles };
  const line = `${count(plan.alreadyUnlocked.length, 'selected row is', 'selected rows are')} already unlocked: nothing is charged, their contacts are refreshed.`;
  const chosen = confirmWithRoles([line], plan.expectedContacts, 'refresh the contacts');
  return chosen ? { ids: [], roles: chosen } : null;
}

/** The question with the contacts line; the roles chosen (the cost is the same whatever they are), or null. */
function confirmWithRoles(lines: string[], expected: number, action: string): RoleChoice | null {
  let roles = readRoleChoice();
  for (;;) {
    const contacts = `Contacts to expect: about ${expected} (the E-mails column). Added to Contacts: ${roleChoiceText(roles)}; the others are counted, not added. The roles chosen do not change the cost.`;
    const answer = choose(
      'Unlock companies',
      `${lines.join('\n')}\n${contacts}\n\nYes: ${action}. No: choose the departments and seniorities first. Cancel: nothing is done.`,
    );
    if (answer === 'yes') return roles;
    if (answer === 'cancel') return null;
    roles = askRoles(roles);
  }
}

/** The prompt for the roles: a list typed in (blank or "all": every role); a word it cannot read is said. */
function askRoles(current: RoleChoice): RoleChoice {
  let note = '';
  for (let tries = 0; tries < 3; tries++) {
    const text = ask(
      'Roles to add to Contacts',
      `${note}Type the departments and seniorities to add, separated by commas (blank or "all" for every contact).\nDepartments: ${DEPARTMENTS.join(', ')}.\nSeniorities: ${SENIORITIES.join(', ')}.\nFor example: ${ROLES_EXAMPLE}.\nNow: ${roleChoiceText(current)}.`,
    );
    if (text === null) return current;
    try {
      const roles = parseRoleChoice(text);
      saveRoleChoice(roles);
      return roles;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      note = `${error.message}\n\n`;
    }
  }
  return current;
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
  const selected = selectedRows(spreadsheet, sheet);
  const hidden = hiddenRows(sheet);
  const index = CompanyIndex.load();
  const plan: UnlockPlan = {
    toUnlock: [],
    alreadyUnlocked: [],
    unknownRows: [],
    hiddenRows: 0,
    selectedRows: 0,
    blankRows: 0,
    repeatedRows: 0,
    theirs: 0,
    expectedContacts: 0,
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
  const emails = Number(row.values.emailCount);
  if ((hash || (id && index.get(id))) && Number.isFinite(emails) && emails > 0)
    plan.expectedContacts += emails;
  if (hash) {
    if (!plan.alreadyUnlocked.includes(hash)) plan.alreadyUnlocked.push(hash);
    else plan.repeatedRows++;
  } else if (id && index.get(id)) {
    if (!plan.toUnlock.includes(id)) plan.toUnlock.push(id);
    else plan.repeatedRows++;
  } else if (id || cellText(row.values.name)) plan.unknownRows.push(row.rowNumber);
  else plan.blankRows++;
}

/** Why some selected rows are not among the companies to unlock: one line per reason. */
function otherRowsLines(plan: UnlockPlan): string[] {
  const lines: string[] = [];
  if (plan.alreadyUnlocked.length) {
    lines.push(
      `${count(plan.alreadyUnlocked.length, 'selected row is', 'selected rows are')} already unlocked: not charged, contacts refreshed.`,
    );
  }
  if (plan.repeatedRows) {
    lines.push(
      `${count(plan.repeatedRows, 'row repeats a company', 'rows repeat companies')} of a row above: unlocked once.`,
    );
  }
  if (plan.unknownRows.length) lines.push(unknownRowsText(plan.unknownRows));
  if (plan.theirs) {
    lines.push(
      `${count(plan.theirs, 'company is', 'companies are')} in another editor's unfinished unlock: left to it.`,
    );
  }
  if (plan.blankRows) lines.push(`${count(plan.blankRows, 'selected row is', 'selected rows are')} blank.`);
  if (plan.hiddenRows) {
    lines.push(
      `${count(plan.hiddenRows, 'row hidden by a filter is', 'rows hidden by a filter are')} skipped.`,
    );
  }
  return lines;
}

function unknownRowsText(rows: number[]): string {
  const list = rows.slice(0, 5).join(', ') + (rows.length > 5 ? '…' : '');
  return `${count(rows.length, 'row')} (${list}) ${plural(rows.length, 'has', 'have')} no search data to unlock with: run the search again to restore them.`;
}
