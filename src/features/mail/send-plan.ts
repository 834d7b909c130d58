// Before any request, every row of a send is checked; what cannot be sent gets its reason in "Mail status"
// with no charge: no or an invalid address, a subject or body too long after filling in, a recipient already
// in an earlier row of the same send, an address on the do-not-contact list, an address whose earlier mail
// from this document failed (the user who selected such rows is asked first). A row where a placeholder
// without fallback would insert nothing ("Hi ,") is held: "Not sent: {{First name}} is empty; …". Rows
// already sent or in flight are left as they are, and a row whose own mail failed keeps its "Failed:
// <reason>" whatever skips it (only the other rows with its address say that an earlier mail to it failed).
import { MailState, SkipCode, skipped, ListRow } from '../../sheets';
import {
  DoNotContact,
  listedReason,
  listedStatus,
  MailTemplate,
  problemState,
  rowProblem,
  SEND_TEXTS,
  withFallback,
} from '../outbox';
import { EarlierFailure, failureText } from './earlier-failures';
import { count, formatCount } from '../../platform';

/** What a plan checks rows against besides the rows themselves. */
export interface PlanContext {
  doNotContact: DoNotContact;
  failures: Map<string, EarlierFailure>;
  zone: string;
  unsubscribeAddress: string;
}

/** A row whose address failed before, with the failure and the state it gets when left out. */
interface FailedBefore {
  row: ListRow;
  failure: EarlierFailure;
  state: MailState;
  /** The row's own mail failed: when it is not sent, it keeps its "Failed: <reason>". */
  own?: boolean;
}

export interface SendPlan {
  /** Rows to send, in sheet order. */
  rows: ListRow[];
  /** Row number → its "Skipped" state, to write now. */
  skipped: Map<number, MailState>;
  /** Reason → rows, for the confirmation. */
  reasons: Map<SkipCode, number>;
  /** Held rows ('empty-placeholder'): each placeholder that inserts nothing (as written) → its rows. */
  emptyPlaceholders: Map<string, number>;
  alreadySent: number;
  /** Rows whose own earlier mail failed (a bounce): "all unsent" leaves them as they are. */
  failedEarlier: number;
  /** Selected rows whose address failed before: sent only if the user says so (see send.ts). */
  failedBefore: FailedBefore[];
  /** The send retries failed rows (the selected rows): its own advice never points back to it. */
  retryFailed: boolean;
}

/** A row whose mail is with the service (ids written) and did not fail: never sent again by "all unsent". */
export function isSent(row: Pick<ListRow, 'mailId' | 'state'>): boolean {
  return row.mailId !== '' && !ownFailure(row);
}

/**
 * The row's own mail failed: "Failed: <reason>". A row with a Mail ID that says "Skipped: …" failed too
 * (earlier versions wrote over its failure when a later send skipped it): it is not a sent row.
 */
export function ownFailure(row: Pick<ListRow, 'mailId' | 'state'>): boolean {
  if (row.mailId === '') return false;
  return row.state.kind === 'failed' || row.state.kind === 'skipped';
}

/** Checks the rows of a send (`candidates`, among all the sheet's `rows`). */
export function planSend(
  template: MailTemplate,
  candidates: ListRow[],
  rows: ListRow[],
  retryFailed: boolean,
  context: PlanContext,
): SendPlan {
  const plan = emptyPlan(retryFailed);
  const firstRowOf = new Map<string, number>();
  const sentTo = sentAddresses(rows);
  // A row whose own mail failed is counted with the reason, and keeps its own "Failed: <reason>".
  const skip = (row: ListRow, state: MailState, code: SkipCode) => {
    if (!ownFailure(row)) plan.skipped.set(row.rowNumber, state);
    plan.reasons.set(code, (plan.reasons.get(code) || 0) + 1);
  };
  for (const row of candidates) {
    if (isSent(row)) {
      plan.alreadySent++;
      continue;
    }
    const listed = row.key ? listedReason(context.doNotContact, row.key) : null;
    if (listed !== null) {
      skip(row, listedStatus(listed), 'do-not-contact');
      continue;
    }
    if (!retryFailed && row.mailId !== '') {
      plan.failedEarlier++; // its own mail failed: "Failed: <reason>" stays on the row
      continue;
    }
    const problem = rowProblem(template, row, context.unsubscribeAddress);
    if (problem) {
      skip(row, problemState(problem), problem.code);
      for (const name of problem.placeholders || [])
        plan.emptyPlaceholders.set(name, (plan.emptyPlaceholders.get(name) || 0) + 1);
      continue;
    }
    const first = firstRowOf.get(row.key);
    if (first !== undefined) {
      skip(row, skipped('duplicate', SEND_TEXTS.duplicateOf(first)), 'duplicate');
      continue;
    }
    const sent = sentTo.get(row.key);
    if (sent !== undefined) {
      skip(row, skipped('duplicate', SEND_TEXTS.alreadySentIn(sent)), 'duplicate');
      continue;
    }
    firstRowOf.set(row.key, row.rowNumber);
    const failure = context.failures.get(row.key);
    if (failure) {
      const state = skipped('failed-before', failureText(failure, context.zone));
      if (retryFailed) plan.failedBefore.push({ row, failure, state, own: ownFailure(row) });
      else skip(row, state, 'failed-before');
      continue;
    }
    plan.rows.push(row);
  }
  return plan;
}

function emptyPlan(retryFailed: boolean): SendPlan {
  return {
    rows: [],
    skipped: new Map(),
    reasons: new Map(),
    emptyPlaceholders: new Map(),
    alreadySent: 0,
    failedEarlier: 0,
    failedBefore: [],
    retryFailed,
  };
}

/** An address this sheet already sent to (in any row) is not mailed again by another row. */
function sentAddresses(rows: ListRow[]): Map<string, number> {
  const sentTo = new Map<string, number>();
  for (const row of rows)
    if (isSent(row) && row.key && !sentTo.has(row.key)) sentTo.set(row.key, row.rowNumber);
  return sentTo;
}

/** The user said No to the rows that failed before: they are skipped with that reason. */
export function skipFailedBefore(plan: SendPlan): void {
  for (const { row, state, own } of plan.failedBefore) {
    if (own)
      plan.failedEarlier++; // its own "Failed: <reason>" stays
    else {
      plan.skipped.set(row.rowNumber, state);
      plan.reasons.set('failed-before', (plan.reasons.get('failed-before') || 0) + 1);
    }
  }
  plan.failedBefore = [];
}

/** The user said Yes: the rows that failed before are sent too, in sheet order. */
export function includeFailedBefore(plan: SendPlan): void {
  plan.rows = [...plan.rows, ...plan.failedBefore.map((f) => f.row)].sort(
    (a, b) => a.rowNumber - b.rowNumber,
  );
  plan.failedBefore = [];
}

/** Lines of the confirmation about the rows left out. */
export function skippedLines(plan: SendPlan, hidden: number): string[] {
  const lines: string[] = [];
  const reasons = [...plan.reasons]
    .filter(([code]) => code !== 'empty-placeholder')
    .map(([code, n]) => reasonText(code, n));
  if (reasons.length)
    lines.push(`Skipped (nothing charged; the reason is in "Mail status"): ${reasons.join(', ')}.`);
  const held = heldLine(plan);
  if (held) lines.push(held);
  if (plan.alreadySent) lines.push(`${formatCount(plan.alreadySent)} already sent: not sent again.`);
  if (plan.failedEarlier) {
    // Sending the selected rows is the retry: after its No, pointing back to it would send the user in a circle.
    const retry = plan.retryFailed
      ? 'as you chose'
      : 'select them and use "Send e-mails to selected rows" to retry';
    lines.push(
      `${formatCount(plan.failedEarlier)} failed earlier (see "Mail status"): not sent again; ${retry}.`,
    );
  }
  if (hidden) lines.push(`${formatCount(hidden)} hidden by a filter: skipped.`);
  return lines;
}

/** "1 duplicate recipient", "2 without an e-mail address". */
function reasonText(code: SkipCode, n: number): string {
  if (code === 'duplicate') return count(n, 'duplicate recipient');
  return `${formatCount(n)} ${REASON_TEXTS[code] || code}`;
}

/** The rows held by an empty placeholder, counted before anything is sent, with the fix. */
function heldLine(plan: SendPlan): string {
  const rows = plan.reasons.get('empty-placeholder') || 0;
  const names = [...plan.emptyPlaceholders];
  if (!rows || !names.length) return '';
  const which =
    names.length === 1
      ? `{{${names[0][0]}}} is empty`
      : `a placeholder is empty (${names.map(([name, n]) => `{{${name}}}: ${count(n, 'row')}`).join(', ')})`;
  return (
    `Not sent (nothing charged; "Mail status" says so on each): ${count(rows, 'row')} where ${which}. ` +
    `Fill the cells, or give the placeholder a fallback in Compose e-mail… such as ${withFallback(names[0][0])}.`
  );
}

const REASON_TEXTS: Partial<Record<SkipCode, string>> = {
  'no-address': 'without an e-mail address',
  'invalid-address': 'with an invalid address',
  'do-not-contact': 'on the do-not-contact list',
  'failed-before': 'whose address failed in an earlier mail',
  subject: 'with a subject too long or empty',
  body: 'with a body too long',
  'replied-elsewhere': 'who replied on a list of this document',
  'company-replied': 'at a company that replied on a list of this document',
  'in-sequence': "in another list's running follow-ups",
  'already-sent': 'that got this mail before',
};
