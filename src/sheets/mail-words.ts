// The words the add-on writes in "Mail status" (mailing lists and Tracking). The only texts of the mail
// record: mail-state.ts turns a state into them and reads them back. Behaviour never compares them; a test
// runs the send and tracking with every one of them changed (test/features/texts-swapped.test.js rewrites
// each object named *_TEXTS in the built bundle).
export const MAIL_STATUS_TEXTS = {
  queued: 'Queued',
  /** A send stopped by the sending quota: the hourly trigger sends the row when the quota is back. */
  waiting: 'Waiting for the sending quota',
  accepted: 'Accepted',
  pending: 'Pending',
  requested: 'Requested',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Skipped',
  notSent: 'Not sent',
  stopped: 'Stopped',
  otherKey: 'Sent with another key',
  notThisDocument:
    'Not a mail of this document: not read (this document sent no mail with this Mail ID and Task ID)',
  noReason: 'no reason given by the service',
  /** Confirmed, outside its recipient's send window (or on a date to skip): the hourly run sends it. */
  waitingWindow: 'Waiting for its send window',
  /** Confirmed, past the list's hourly limit: the hourly run sends it. */
  waitingPace: 'Waiting for the hourly limit',
  /** Confirmed, outside a subject test's share: the hourly run sends it the winning subject. */
  waitingTest: 'Waiting for the subject test',
  /** Confirmed, and its mail changed since: it goes once the sender has reviewed and saved the mail. */
  waitingReview: 'Held until the sender reviews the mail',
  /** Confirmed, its list paused by the bounce guard: it goes when the payer resumes the list. */
  waitingBounce: 'Paused',
  /** Confirmed, past the list's daily limit: the hourly run sends it on a later day. */
  waitingDaily: 'Waiting for the daily limit',
};
