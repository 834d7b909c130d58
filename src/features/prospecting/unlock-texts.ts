// What the unlock job says: each row's Unlock status, made from its typed RowStatus, and the job's progress,
// summary and stop. The job counts and decides by the codes; nothing reads these words back.
import { type ApiError } from '../../api';
import { neededText } from '../words';
import { isAllRoles, type RoleChoice, roleChoiceText } from './role-choice';
import { count, formatCount, plural } from '../../platform';

/** What an unlock did to one row (or why it did not), as its Unlock status says it. */
export type RowStatus =
  | { code: 'charged' | 'free' | 'not-found' | 'unknown' | 'no-index' | 'mismatch' }
  | { code: 'stopped' | 'contacts-stopped' }
  /** `why`: the error in the user's words (describe()). */
  | { code: 'refused' | 'not-done' | 'waiting'; why: string };

/** The counts the summary is made from (the job's UnlockCounts). */
export interface SummaryCounts {
  unlocked: number;
  charged: number;
  free: number;
  notFound: number;
  unknown: number;
  companiesFilled: number;
  contactsAdded: number;
  /** Rows of the selection that were unlocked before this run (contacts refreshed only). */
  alreadyUnlocked: number;
  /** The roles that go to Contacts (absent: all), and the new contacts found. */
  roles?: RoleChoice;
  contactsFound?: number;
}

const companies = (n: number) => count(n, 'company', 'companies');

export const UNLOCK_TEXTS = {
  charged: 'Unlocked (1 point)',
  free: 'Unlocked (free: viewed in the last 30 days)',
  'not-found': 'No matching company: nothing charged.',
  unknown: 'Outcome unknown (connection lost): run Unlock again, a repeat within 30 days is free.',
  'no-index': 'Cannot unlock: search again to restore this row.',
  mismatch:
    'Not unlocked, nothing charged: this Search ID was found for another company than the name and country this row shows (changed by hand?). Run the search again to restore the row.',
  stopped: 'Stopped: not unlocked, nothing charged. Select the row and run Unlock to unlock it.',
  'contacts-stopped': 'Unlocked; contacts not fetched (stopped): select the row and run Unlock again, free.',
  refused: (why: string) => why,
  'not-done': (why: string) => `Not unlocked: ${why}`,
  waiting: (why: string) => `Waiting: ${why}`,
  idsStopped: (n: number) =>
    `${companies(n)} ${plural(n, 'was', 'were')} not unlocked, nothing charged for them: their Unlock status says "Stopped".`,
  contactsLeft: (n: number) =>
    `The contacts of ${companies(n)} already unlocked were not fetched: their Unlock status says so; select them and run Unlock again (free).`,
  unlockedDone: (n: number, points: number) => `unlocked ${companies(n)} (${count(points, 'point')})`,
  filledDone: (n: number, added: number) =>
    `filled the contacts of ${companies(n)} (${count(added, 'new contact')})`,
  and: ' and ',
  funds: (needed: string, pricingUrl: string) =>
    `Not enough search points.${needed} Buy an add-on pack at ${pricingUrl}; the rows unlocked so far are kept.`,
  onlyRefreshed: (rows: number, added: number) =>
    `${count(rows, 'row')} ${plural(rows, 'was', 'were')} already unlocked: ${added ? `nothing charged, ${count(added, 'new contact')} added` : 'nothing to do'}.`,
  unlocked: (c: SummaryCounts) =>
    `Unlocked ${formatCount(c.unlocked)} (${formatCount(c.charged)} charged, ${formatCount(c.free)} free)`,
  notFound: (n: number) => `${formatCount(n)} not found (not charged)`,
  unknownCount: (n: number) => `${formatCount(n)} with unknown outcome (run Unlock again)`,
  contacts: (c: SummaryCounts) =>
    `contacts for ${companies(c.companiesFilled)} (${formatCount(c.contactsAdded)} new)`,
  working: (parts: string[]) => `Working: ${parts.join(', ')}.`,
  finished: (parts: string[]) => `${parts.join(', ')}.`,
  roles: (c: SummaryCounts) =>
    `${count(c.contactsFound || 0, 'contact')} found, ${formatCount(c.contactsAdded)} added: ${roleChoiceText(c.roles)}.`,
};

/** A row's Unlock status. */
export function statusText(status: RowStatus): string {
  return 'why' in status ? UNLOCK_TEXTS[status.code](status.why) : UNLOCK_TEXTS[status.code];
}

export function fundsText(error: ApiError, pricingUrl: string): string {
  return UNLOCK_TEXTS.funds(neededText(error), pricingUrl);
}

/** The job's progress (not finished) or final summary. */
export function summaryText(c: SummaryCounts, finished: boolean, stopped: boolean): string {
  const withRoles = (text: string) => (isAllRoles(c.roles) ? text : `${text} ${UNLOCK_TEXTS.roles(c)}`);
  if (finished && c.alreadyUnlocked > 0 && c.unlocked + c.notFound + c.unknown === 0 && !stopped) {
    const text = UNLOCK_TEXTS.onlyRefreshed(c.alreadyUnlocked, c.contactsAdded);
    return isAllRoles(c.roles) || !c.contactsFound ? text : withRoles(text);
  }
  const parts = [UNLOCK_TEXTS.unlocked(c)];
  if (c.notFound) parts.push(UNLOCK_TEXTS.notFound(c.notFound));
  if (c.unknown) parts.push(UNLOCK_TEXTS.unknownCount(c.unknown));
  parts.push(UNLOCK_TEXTS.contacts(c));
  return withRoles(finished ? UNLOCK_TEXTS.finished(parts) : UNLOCK_TEXTS.working(parts));
}
