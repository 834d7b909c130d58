// The words a send writes after "Skipped:" and "Not sent:" in Mail status, made from the codes the plan
// and the send job give (one place; behaviour reads the codes, never these words). A test changes every
// text of the objects named *_TEXTS in the built bundle and runs the send again
// (test/features/texts-swapped.test.js).
import { formatCount, plural } from '../../platform';

export const SEND_TEXTS = {
  failed: 'failed',
  failedBefore: (why: string) => `an earlier mail to this address failed (${why})`,
  noAddress: 'no e-mail address',
  invalidAddress: (email: string) => `"${email}" is not a valid e-mail address`,
  duplicateOf: (row: number) => `duplicate of row ${row}`,
  alreadySentIn: (row: number) => `already sent to this address in row ${row}`,
  duplicate: 'duplicate recipient',
  subjectEmpty: 'the subject is empty for this row',
  subjectTooLong: (n: number, max: number) =>
    `the subject has ${n} characters after filling in (at most ${max})`,
  bodyTooLong: (n: number, max: number) => `the body has ${n} characters after filling in (at most ${max})`,
  /** Placeholders that insert nothing in this row (no value, no fallback): the row is held. */
  emptyPlaceholders: (names: string[]) =>
    `${names.map((n) => `{{${n}}}`).join(', ')} ${plural(names.length, 'is', 'are')} empty; a fallback such as ` +
    `${withFallback(names[0])} fills ${plural(names.length, 'it', 'each')}`,
  listed: (reason: string) => 'on the do-not-contact list' + (reason ? ' (' + reason + ')' : ''),
  stopped: 'not sent, nothing charged (the send was stopped)',
  notListed: 'the service did not list this address in its answer',
  gaveUp: (days: number, detail: string) =>
    `gave up waiting for the sending quota after ${days} days (${detail})`,
  sendStopped: (why: string) => `the send stopped (${why})`,
  cancelled: 'the send waiting for the sending quota was cancelled',
  waitCancelled: 'the waiting send was cancelled when you started another',
  /** A queued row that is not one the user confirmed, as it was then. */
  notConfirmed:
    'not part of the send you confirmed (the row was added or changed after it was confirmed); send again to include it',
  changed:
    'its data changed after the send was confirmed (by you or another editor); send again to send it as it is now',
  spent: 'its mail already went in this send: not sent again',
  /** The ledger says this address got the campaign's first mail (on `days`). */
  mailedBefore: (days: string) =>
    `got this mail on ${days} (the record of what you sent says so): not sent again`,
  stoppedElsewhere: 'it replied or opted out on another list of this document since the send was confirmed',
  repliedElsewhere: 'replied on another list of this document',
  companyReplied: (company: string) => `someone at ${company} replied on a list of this document`,
  inSequence: (sheet: string) => `in the running follow-ups of "${sheet}"`,
  mailChanged:
    'the mail was changed after the send was confirmed; check it and send again (nothing was charged for this row)',
  /** A waiting send whose mail changed since it was confirmed: held until the payer saves it in Compose. */
  reviewWait:
    'the mail was changed after the send was confirmed: the sender opens Compose e-mail, checks the mail and saves it',
  reviewHeld: (rows: string) =>
    `${rows} held: the mail was changed after you confirmed the send (by you or another editor). Open Compose e-mail, check the mail and save it: the hourly run then sends them, each once. Nothing was charged for them.`,
  scheduleChanged: 'the mail was changed after you scheduled the send; schedule it again',
  scheduleAdded: 'added or changed after the send was scheduled; schedule it again to include it',
  /** A confirmed row outside its recipient's send window: when it opens ("09:00 Mon 30 Nov in …"). */
  windowWait: (opening: string) => `goes from ${opening}`,
  /** Outside the subject test's share: it gets the winning subject once the test is decided. */
  testWait: (when: string) =>
    `gets the winning subject of the test, decided from ${when} (once a subject is opened)`,
  testNotStarted: 'gets the winning subject of the test, decided its hours after the first test mails',
  dailyWait: (cap: number, next: string) =>
    `${formatCount(cap)} today from this list; the next go from ${next}`,
  paceWait: (limit: number, next: string) =>
    `${formatCount(limit)} an hour from this list; the next go from ${next}`,
  /** The list's bounce guard paused it (`rate`: "bounce rate 12 % (24 of 200)"). */
  guardPaused: (sheet: string, rate: string, rows: number) =>
    `"${sheet}" is paused: ${rate}. ${formatCount(rows)} ${plural(rows, 'row waits', 'rows wait')}; nothing more of this list goes until you resume it (menu: Resume a paused list), and nothing that went is sent again.`,
  pausedNoSend: (sheet: string, rate: string) =>
    `"${sheet}" is paused by its bounce guard (${rate}): nothing more of it is sent until you resume it (menu: Resume a paused list). Nothing was sent.`,
  scheduleEdm: (needed: number, usable: number) =>
    `the scheduled send needed ${formatCount(needed)} EDM and ${formatCount(usable)} ${plural(usable, 'was', 'were')} usable`,
};

/**
 * The placeholder with an example fallback: one that reads well in a greeting for a name
 * ({{First name|there}}: "Hi there,"), {{Company|your company}} for the others.
 */
export function withFallback(placeholder: string): string {
  const name = placeholder.replace(/\s+/g, ' ').trim();
  const example = /^(first name|name|nickname)$/i.test(name) ? 'there' : `your ${name.toLowerCase()}`;
  return `{{${placeholder}|${example}}}`;
}
