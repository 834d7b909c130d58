// Menu: Unlock selected companies. Money is irreversible: the cost and the balance are stated before
// anything is charged, in the unlock dialog (unlock-question.ts), which also chooses the roles that go to
// Contacts. The work itself is the unlock job (unlock-job.ts) on the job runner.
import { outreachClient } from '../clients';
import {
  BUSY_MESSAGE,
  clearJob,
  withJobLease,
  hasWorkLeft,
  keyChangedText,
  runSlice,
  savedJob,
  MENU_REPORTER,
  reportBackgroundWork,
} from '../jobs';
import { Deadline, count, formatCount, plural } from '../../platform';
import { confirm, inform, toast } from '../../ui';
import { isAllRoles, readRoleChoice } from './role-choice';
import { ensureKey } from '../settings';
import { UNLOCK_JOB, UnlockCounts, UnlockUnit } from './unlock-job';
import { showUnlockQuestion } from './unlock-question';
import { currentPlan, markMismatched, mismatchedRowsText, startUnlock, unknownRowsText } from './unlock-plan';

/** Menu: Unlock selected companies. One run at a time per document (see withJobLease). */
export function unlockSelectedCompanies(): void {
  if (!ensureKey('outreach')) return;
  withJobLease(UNLOCK_JOB.kind, unlockSelection, () => inform('Unlock companies', BUSY_MESSAGE));
}

function unlockSelection(): void {
  reportBackgroundWork(UNLOCK_JOB);
  if (resumeUnfinished()) return;
  const plan = currentPlan();
  markMismatched(plan);
  if (plan.leftToOthers) {
    const n = plan.leftToOthers;
    toast(
      `${count(n, 'selected company', 'selected companies')} ${plural(n, 'is', 'are')} in another editor's unfinished unlock: left to it (their key pays for ${plural(n, 'it', 'them')}).`,
      'Unlock companies',
      10,
    );
  }
  if (plan.toUnlock.length === 0 && plan.alreadyUnlocked.length === 0) {
    const reason = plan.mismatchedRows.length
      ? mismatchedRowsText(plan.mismatchedRows)
      : plan.unknownRows.length
        ? unknownRowsText(plan.unknownRows)
        : 'Select one or more company rows.';
    inform('Nothing to unlock', reason);
    return;
  }
  // Only rows unlocked before (free): asked only when the user's roles choice leaves some contacts out.
  if (plan.toUnlock.length === 0 && isAllRoles(readRoleChoice())) {
    startUnlock(plan, [], readRoleChoice());
    return;
  }
  showUnlockQuestion(plan);
}

/**
 * The user's own interrupted unlock is continued, or dropped. True when continued. The question states what
 * is left, what it may cost and the usable balance, as a first run does.
 */
function resumeUnfinished(): boolean {
  const previous = savedJob<UnlockUnit, UnlockCounts>(UNLOCK_JOB.kind);
  if (!previous || !hasWorkLeft(previous)) return false;
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
    runSlice(UNLOCK_JOB, previous, MENU_REPORTER, Deadline.forExecution());
    return true;
  }
  clearJob(UNLOCK_JOB.kind);
  return false;
}
