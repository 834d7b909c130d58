// Who gets a follow-up step, from the sheets alone: a row whose first mail went (and is one the payer
// confirmed) is in the sequence; it gets step N when step N-1 was accepted and has not failed, its delay has
// passed, its Replied cell is not set, its address is not on Do not contact, nobody at its company replied
// (the same Company hash ID where the list has that column, else the same e-mail domain, public webmail
// domains excepted) and its sequence was not stopped. The service's own word on the previous mails (a
// failure it knows) is read by the run before anything is posted (sequence-run.ts).
import type { ListRow } from '../../sheets/mailing-list';
import { isQueued } from '../../sheets/mail-state';
import { normalizeHeader } from '../../sheets/table';
import { listedReason, type DoNotContact } from '../mail/do-not-contact';
import { companyDomain } from '../mail/webmail';
import { hasReplied, sequenceCell } from './sequence-column';
import { dueAt, type FollowUp } from './sequence-steps';
import { failed, type StepMail } from './step-mails';
import {
  companyRepliedText,
  finishedText,
  isStopped,
  listedText,
  nextText,
  SEQUENCE_TEXT,
} from './sequence-texts';

/** Where a row is. `prev`: the mail the due step follows (its status is read from the service first). */
export type RowPlan =
  /** Not in the sequence (yet: `pending`, its first mail is still queued for a send that goes on). */
  | { kind: 'out'; pending?: boolean }
  | { kind: 'stopped'; text: string }
  | { kind: 'finished'; text: string }
  | { kind: 'later'; step: number; at: number; text: string }
  | { kind: 'due'; step: number; at: number; prev: { mailId: number; taskId: number }; lastSent: string };

export interface EligibilityContext {
  now: number;
  zone: string;
  followUps: FollowUp[];
  doNotContact: DoNotContact;
  /** The address is one the payer confirmed for this sequence. */
  confirmed: (key: string) => boolean;
  stepMails: Map<string, Map<number, StepMail>>;
  /** "yyyy-MM-dd HH:mm" in the spreadsheet's zone. */
  when: (ms: number) => string;
}

const HASH_ID = normalizeHeader('Company hash ID');
const COMPANY = normalizeHeader('Company');

/** The row's company: its Company hash ID where the list has one, else its domain (none for webmail). */
export function companyOf(row: ListRow): { key: string; label: string } | null {
  const domain = companyDomain(row.key);
  const label = (row.display.get(COMPANY) || '').trim() || domain || 'their company';
  const hashId = (row.display.get(HASH_ID) || '').trim();
  if (hashId) return { key: `id:${hashId}`, label };
  return domain ? { key: `domain:${domain}`, label } : null;
}

/** Company key → who replied there (the first row with Replied set). */
export function repliedCompanies(rows: ListRow[]): Map<string, { label: string; email: string }> {
  const replied = new Map<string, { label: string; email: string }>();
  for (const row of rows) {
    if (!hasReplied(row)) continue;
    const company = companyOf(row);
    if (company && !replied.has(company.key))
      replied.set(company.key, { label: company.label, email: row.email });
  }
  return replied;
}

/** Where one row is in the sequence (see the module's comment). */
export function planRow(
  row: ListRow,
  context: EligibilityContext,
  replied: Map<string, { label: string; email: string }>,
): RowPlan {
  if (!row.key || !context.confirmed(row.key)) return { kind: 'out' };
  if (!row.mailId) return isQueued(row.state) ? { kind: 'out', pending: true } : { kind: 'out' };
  const current = sequenceCell(row);
  if (isStopped(current)) return { kind: 'stopped', text: current };
  if (hasReplied(row)) return { kind: 'stopped', text: SEQUENCE_TEXT.replied };
  const company = companyOf(row);
  const colleague = company && replied.get(company.key);
  if (colleague) return { kind: 'stopped', text: companyRepliedText(colleague.label, colleague.email) };
  const listed = listedReason(context.doNotContact, row.key);
  if (listed !== null) return { kind: 'stopped', text: listedText(listed) };
  const steps = context.stepMails.get(row.key) || new Map<number, StepMail>();
  let last = 0;
  while (steps.has(last + 1)) last++;
  const of = context.followUps.length;
  const prev =
    last === 0
      ? {
          failed: failed(row.state.kind),
          mailId: Number(row.mailId),
          taskId: Number(row.taskId) || 0,
          sentAt: row.sentAt ? row.sentAt.getTime() : 0,
        }
      : steps.get(last)!;
  if (prev.failed || !prev.mailId) return { kind: 'stopped', text: SEQUENCE_TEXT.failed };
  const lastSent = last > 0 ? context.when(prev.sentAt) : '';
  if (last >= of) return { kind: 'finished', text: finishedText(of, lastSent) };
  const step = context.followUps[last];
  const at = dueAt(prev.sentAt || context.now, step.afterDays, step.workingDaysOnly, context.zone);
  if (at > context.now)
    return { kind: 'later', step: last + 1, at, text: nextText(last + 1, of, context.when(at), lastSent) };
  return { kind: 'due', step: last + 1, at, prev: { mailId: prev.mailId, taskId: prev.taskId }, lastSent };
}
