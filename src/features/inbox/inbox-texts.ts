// What reply detection says: the reasons it writes on rows, the Settings switch and the Tracking summary's
// line. Behaviour reads the verdicts' codes, never these words.
import { count } from '../../platform';
import { consentText } from '../errors';

export interface ScanCounts {
  replied: number;
  outOfOffice: number;
  optedOut: number;
  bounced: number;
}

export const INBOX_TEXTS = {
  /** The Do not contact row's reason. */
  removalReason: (day: string) => `asked to be removed in a reply on ${day}`,
  /** A bounced row's Mail status reason. */
  bounceReason: (status: string) =>
    `returned as undeliverable${status ? ` (${status})` : ''}, seen in Gmail before the service reported it`,
  settingsLabel: 'Detect replies in Gmail',
  settingsHint:
    'The hourly run and Refresh tracking read the answers to your mails in your Gmail (sender and subject, never kept): a reply stops the follow-ups (their company too), an out-of-office answer pauses them until the return date, a request to be removed adds the address to "Do not contact", a bounce marks the row Failed.',
  summaryLabel: 'Replies from Gmail',
  /** The summary's Reply % where no reply is read (layouts.ts REPLY_RATE_NOTE says more). */
  replyRateMissing: {
    build: 'only with Gmail reply detection',
    off: 'reply detection is off',
    refused: 'Gmail permission refused',
  },
  off: 'off (tick Replied by hand, or turn "Detect replies in Gmail" on in Settings)',
  refused: () => `${consentText('Reply detection', ['gmail'])} Until then, tick Replied by hand.`,
  never: 'on; no scan yet',
  scanned: (at: string, counts: ScanCounts) =>
    `on; last read ${at}: ${[
      count(counts.replied, 'reply', 'replies'),
      `${count(counts.outOfOffice, 'out-of-office answer')}`,
      `${count(counts.optedOut, 'removal request')}`,
      `${count(counts.bounced, 'bounce')}`,
    ].join(', ')}.`,
  /** Show mail's line: the latest answer read from the recipient. */
  answer: {
    replied: (day: string) => `replied on ${day} (read in Gmail)`,
    outOfOffice: (day: string) => `out-of-office answer on ${day} (read in Gmail)`,
    optedOut: (day: string) => `asked to be removed on ${day} (read in Gmail)`,
    bounced: (day: string) => `bounced on ${day} (a delivery failure notice in Gmail)`,
  },
  busyLater: (error: string) => `on; the last read stopped (${error}); the next run goes on from there.`,
};
