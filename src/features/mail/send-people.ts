// One person across the document, for a send: the rows another list holds back (a reply there, at their
// company, or its running follow-ups) leave the plan with their reason, unless the user sends them a first
// mail on purpose; and a list whose steps changed since its payer confirmed them sends nothing new.
import { ownerStamp, count, formatCount, plural } from '../../platform';
import { skipped, type MailState, type ListRow } from '../../sheets';
import { confirm } from '../../ui';
import { STEPS_CHANGED, stepsChanged, Ledger, type StoredTemplate, SEND_TEXTS } from '../outbox';
import { type Elsewhere } from '../sequence';
import type { SendPlan } from './send-plan';

export interface HeldElsewhere {
  row: ListRow;
  why: Elsewhere;
  state: MailState;
}

/**
 * Rows another list holds back (a reply there, at their company, or its running follow-ups) leave the plan with
 * their reason; the user may send them the first mail on purpose (includeElsewhere).
 */
export function leaveOutElsewhere(plan: SendPlan, found: Map<string, Elsewhere>): HeldElsewhere[] {
  const held: HeldElsewhere[] = [];
  plan.rows = plan.rows.filter((row) => {
    const why = found.get(row.key);
    if (!why) return true;
    const state = skipped(why.code, elsewhereText(why));
    held.push({ row, why, state });
    plan.skipped.set(row.rowNumber, state);
    plan.reasons.set(why.code, (plan.reasons.get(why.code) || 0) + 1);
    return false;
  });
  return held;
}

function elsewhereText(why: Elsewhere): string {
  if (why.code === 'in-sequence') return SEND_TEXTS.inSequence(why.detail);
  if (why.code === 'company-replied') return SEND_TEXTS.companyReplied(why.detail);
  return SEND_TEXTS.repliedElsewhere;
}

/** The user chose to send the held rows their first mail anyway: they get it, and no follow-up. */
function includeElsewhere(plan: SendPlan, held: HeldElsewhere[], firstOnly: Set<string>): void {
  for (const { row, why } of held) {
    plan.skipped.delete(row.rowNumber);
    plan.reasons.set(why.code, (plan.reasons.get(why.code) || 1) - 1);
    if (!plan.reasons.get(why.code)) plan.reasons.delete(why.code);
    plan.rows.push(row);
    firstOnly.add(row.key);
  }
  plan.rows.sort((a, b) => a.rowNumber - b.rowNumber);
  held.length = 0;
}

/** A list whose steps differ from those its payer confirmed, with people still to get one: said, not sent. */
export function stepsChangedSince(sheetId: number, template: StoredTemplate): string | null {
  return stepsChanged(Ledger.read(), sheetId, template, ownerStamp('outreach').keyFp) ? STEPS_CHANGED : null;
}

/** The question about rows another list holds back: Yes sends them this first mail (no steps), No leaves them out. */
export function askAboutElsewhere(plan: SendPlan, held: HeldElsewhere[], firstOnly: Set<string>): void {
  const shown = held
    .slice(0, 10)
    .map(({ row, why }) => `Row ${row.rowNumber}: ${row.email} (${elsewhereText(why)})`);
  if (held.length > shown.length) shown.push(`… and ${formatCount(held.length - shown.length)} more.`);
  const question =
    `${count(held.length, 'row is', 'rows are')} held back by another list of this document:\n${shown.join('\n')}\n\n` +
    `Send ${plural(held.length, 'it', 'them')} this first mail anyway? No follow-up goes to ${plural(held.length, 'it', 'them')} from this list.\n\n` +
    `No: left out, with the reason in "Mail status".`;
  if (confirm('People on another list', question)) includeElsewhere(plan, held, firstOnly);
}
