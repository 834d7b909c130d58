// A mail goes to a person once: rows whose address got this campaign's first mail (the ledger says
// so, whatever their cells show: cleared, moved, another list) leave a send's plan. Sending it again is the
// user's choice, asked with a question whose No keeps them out; a send without a user (scheduled, waiting)
// never asks, and the record refuses them at post time too (confirm.ts firstVerdict).
import { skipped, type MailState, type ListRow } from '../../sheets';
import { confirm } from '../../ui';
import { mailedBefore, SEND_TEXTS } from '../outbox';
import type { SendPlan } from './send-plan';
import { formatCount, plural } from '../../platform';

export interface MailedBefore {
  rows: ListRow[];
  /** The days the campaign's first mails went ("2026-12-01", or "2026-11-30 to 2026-12-01"). */
  days: string;
}

/** The plan's rows that got the campaign's first mail leave it, each saying so. */
export function leaveOutMailedBefore(plan: SendPlan, campaign: string, zone: string): MailedBefore {
  const found = mailedBefore(campaign, plan.rows);
  if (found.rows.length === 0 || !found.span) return { rows: [], days: '' };
  const day = (ms: number) => Utilities.formatDate(new Date(ms), zone, 'yyyy-MM-dd');
  const first = day(found.span.first);
  const last = day(found.span.last);
  const days = first === last ? first : `${first} to ${last}`;
  const state: MailState = skipped('already-sent', SEND_TEXTS.mailedBefore(days));
  const out = new Set(found.rows);
  plan.rows = plan.rows.filter((row) => !out.has(row));
  for (const row of found.rows) plan.skipped.set(row.rowNumber, state);
  plan.reasons.set('already-sent', found.rows.length);
  return { rows: found.rows, days };
}

/** Asks whether the rows that got this mail get it again; Yes puts them back in the plan, into `again`. */
export function askAboutMailedBefore(
  plan: SendPlan,
  before: MailedBefore,
  campaign: string,
  again: Set<string>,
): void {
  const n = before.rows.length;
  const shown = before.rows.slice(0, 5).map((row) => `Row ${row.rowNumber}: ${row.email}`);
  if (n > shown.length) shown.push(`… and ${formatCount(n - shown.length)} more.`);
  const question =
    `${formatCount(n)} of these rows got this mail (campaign "${campaign}") from this document ` +
    `on ${before.days}, whatever ${plural(n, 'its', 'their')} cells show now:\n${shown.join('\n')}\n\n` +
    `Send it to ${plural(n, 'it', 'them')} again (1 EDM each)?\n\n` +
    `No (the safe answer): ${plural(n, 'it is', 'they are')} left out, with the reason in "Mail status".`;
  if (!confirm('Already sent', question)) return;
  for (const row of before.rows) {
    plan.skipped.delete(row.rowNumber);
    again.add(row.key);
  }
  plan.reasons.delete('already-sent');
  plan.rows = [...plan.rows, ...before.rows].sort((a, b) => a.rowNumber - b.rowNumber);
  before.rows = [];
}
