// The unlock dialog: the cost, the balance and the contacts to expect, with the departments and seniorities
// to add to Contacts as checkboxes, and two buttons: Unlock (or Refresh the contacts) and Cancel. The dialog's
// answer is a new execution: the selection is read again there and must be the plan the dialog stated (its
// check), so what is charged is what was confirmed, whatever another editor changed meanwhile.
import { outreachClient } from '../clients';
import { BUSY_MESSAGE, withJobLease } from '../jobs';
import { count, formatCount } from '../../platform';
import { inform, scriptJson, showDialogFile } from '../../ui';
import { DEPARTMENTS, SENIORITIES } from './roles';
import { readRoleChoice, roleChoiceOf, type RoleChoice, saveRoleChoice } from './role-choice';
import { UNLOCK_JOB } from './unlock-job';
import {
  currentPlan,
  hasUnfinishedUnlock,
  mismatchedRowsText,
  startUnlock,
  unknownRowsText,
  type UnlockPlan,
} from './unlock-plan';
import { UserError } from '../errors';

/** What the dialog sends back: the plan's check, how many to unlock, the roles ticked (names, checked here). */
interface UnlockAnswer {
  check: string;
  limit: number;
  roles: { departments: string[]; seniorities: string[] };
}

/** What the dialog shows. */
interface UnlockQuestion {
  lines: string[];
  contacts: string;
  button: string;
  roles: RoleChoice;
  departments: readonly string[];
  seniorities: readonly string[];
  answer: { check: string; limit: number };
}

const DIALOG_TITLE = 'Unlock companies';

/** States the cost and the balance in the unlock dialog (or says why nothing can be unlocked). */
export function showUnlockQuestion(plan: UnlockPlan): void {
  const question = unlockQuestion(plan);
  if (!question) return;
  const height = 330 + 22 * question.lines.length;
  showDialogFile('unlock', DIALOG_TITLE, { question: scriptJson(question) }, { width: 520, height });
}

function unlockQuestion(plan: UnlockPlan): UnlockQuestion | null {
  const lines: string[] = [];
  let toUnlock = plan.toUnlock;
  if (toUnlock.length) {
    const client = outreachClient();
    const balance = client.balance();
    const usable = balance.monthlyPoints + balance.addonPoints;
    lines.push(
      `Unlock ${count(toUnlock.length, 'company', 'companies')}${ofSelected(plan)}: at most ${count(toUnlock.length, 'search point')} (search points pay for unlocks, 1 per company; a company unlocked in the last 30 days is free).`,
      `Usable balance: ${count(usable, 'point')} (${formatCount(balance.monthlyPoints)} monthly + ${formatCount(balance.addonPoints)} add-on).`,
    );
    lines.push(...otherLines(plan));
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
  } else {
    lines.push(
      `${count(plan.alreadyUnlocked.length, 'selected row is', 'selected rows are')} already unlocked: nothing is charged, their contacts are refreshed.`,
      ...otherLines(plan),
    );
  }
  return {
    lines,
    contacts: `Contacts to expect: about ${formatCount(plan.expectedContacts)} (the E-mails column). The roles ticked go to Contacts; the others are counted, not added. They do not change the cost.`,
    button: toUnlock.length
      ? `Unlock ${count(toUnlock.length, 'company', 'companies')}`
      : 'Refresh the contacts',
    roles: readRoleChoice(),
    departments: DEPARTMENTS,
    seniorities: SENIORITIES,
    answer: { check: planCheck(toUnlock, plan.alreadyUnlocked), limit: toUnlock.length },
  };
}

/** " of the 6 selected rows (the other 2: see below)" when some selected rows are not companies to unlock. */
function ofSelected(plan: UnlockPlan): string {
  const others = plan.selectedRows - plan.toUnlock.length;
  if (others <= 0) return '';
  return ` of the ${count(plan.selectedRows, 'selected row')} (the other ${formatCount(others)}: see below)`;
}

/** Why some selected rows are not among the companies to unlock: one line per reason. */
function otherLines(plan: UnlockPlan): string[] {
  const lines: string[] = [];
  if (plan.toUnlock.length && plan.alreadyUnlocked.length) {
    lines.push(
      `${count(plan.alreadyUnlocked.length, 'selected row is', 'selected rows are')} already unlocked: not charged, contacts refreshed.`,
    );
  }
  if (plan.repeatedRows) {
    lines.push(
      `${count(plan.repeatedRows, 'row repeats a company', 'rows repeat companies')} of a row above: unlocked once.`,
    );
  }
  if (plan.mismatchedRows.length) lines.push(mismatchedRowsText(plan.mismatchedRows));
  if (plan.unknownRows.length) lines.push(unknownRowsText(plan.unknownRows));
  if (plan.leftToOthers) {
    lines.push(
      `${count(plan.leftToOthers, 'company is', 'companies are')} in another editor's unfinished unlock: left to it.`,
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

/** The dialog's Unlock: the same plan as the one stated, then the job (its first step runs here). */
export function confirmUnlock(answer: UnlockAnswer): { started: true } {
  const limit = Number(answer && answer.limit);
  if (!answer || typeof answer.check !== 'string' || !Number.isSafeInteger(limit) || limit < 0)
    throw new UserError('This unlock dialog is out of date: run Unlock selected companies again.');
  const roles = roleChoiceOf(answer.roles);
  return withJobLease(
    UNLOCK_JOB.kind,
    () => {
      if (hasUnfinishedUnlock())
        throw new UserError(
          'An unlock of yours is unfinished: run Unlock selected companies again to continue or drop it.',
        );
      const plan = currentPlan();
      const toUnlock = plan.toUnlock.slice(0, limit);
      if (planCheck(toUnlock, plan.alreadyUnlocked) !== answer.check)
        throw new UserError(
          'The selected rows changed since this dialog opened (another editor, a sort, or new rows): nothing was unlocked. Select the rows and run Unlock selected companies again.',
        );
      saveRoleChoice(roles);
      startUnlock(plan, toUnlock, roles);
      return { started: true as const };
    },
    () => {
      throw new UserError(BUSY_MESSAGE);
    },
  );
}

/** 64 bits of SHA-256 over what the dialog stated: the ids to unlock and the rows to refresh. */
function planCheck(toUnlock: string[], alreadyUnlocked: string[]): string {
  const text = JSON.stringify([toUnlock, alreadyUnlocked]);
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8);
  return bytes
    .slice(0, 8)
    .map((b) => ((b + 256) % 256).toString(16).padStart(2, '0'))
    .join('');
}
