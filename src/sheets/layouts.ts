// The sheets the add-on writes. Columns are found by header text, so users may move, insert or delete
// columns; a missing header is added back at the right. The Companies sheet holds search results only: no
// domain, website, URL or link ever appears on it.
import { idOf, isOwnState } from './mail-state';
import { TableLayout } from './table';

/**
 * Text columns: the General format, set when the add-on writes them (which also undoes the plain-text
 * format '@' an older version gave them). Text stays text through the quote prefix (see cells.ts).
 */
const TEXT = 'General';

export const COMPANIES: TableLayout = {
  sheetName: 'Companies',
  columns: [
    { key: 'id', header: 'Search ID', format: TEXT },
    { key: 'name', header: 'Company', format: TEXT },
    { key: 'country', header: 'Country', format: TEXT },
    { key: 'companyType', header: 'Company type', format: TEXT },
    { key: 'industry', header: 'Industry', format: TEXT },
    { key: 'products', header: 'Main products', format: TEXT },
    { key: 'founded', header: 'Founded', format: '0' },
    { key: 'employees', header: 'Employees', format: TEXT },
    { key: 'emailCount', header: 'E-mails', format: '0' },
    { key: 'whatsappCount', header: 'WhatsApp', format: '0' },
    { key: 'description', header: 'Description', format: TEXT },
    { key: 'companyHashId', header: 'Company hash ID', format: TEXT },
    { key: 'charged', header: 'Charged' },
    { key: 'alreadyViewed', header: 'Already viewed' },
    { key: 'status', header: 'Unlock status', format: TEXT },
  ],
};

export const PROFILES: TableLayout = {
  sheetName: 'Profiles',
  columns: [
    { key: 'companyHashId', header: 'Company hash ID', format: TEXT },
    { key: 'name', header: 'Company', format: TEXT },
    { key: 'country', header: 'Country', format: TEXT },
    { key: 'industry', header: 'Industry', format: TEXT },
    { key: 'employees', header: 'Employees', format: '0' },
    { key: 'website', header: 'Website', format: TEXT },
    { key: 'description', header: 'Description', format: TEXT },
    { key: 'tradeData', header: 'Trade data', format: TEXT },
    { key: 'contacts', header: 'Contacts', format: '0' },
    { key: 'updatedAt', header: 'Updated', format: 'yyyy-mm-dd hh:mm' },
  ],
};

export const CONTACTS: TableLayout = {
  sheetName: 'Contacts',
  columns: [
    { key: 'company', header: 'Company', format: TEXT },
    { key: 'companyHashId', header: 'Company hash ID', format: TEXT },
    { key: 'name', header: 'Name', format: TEXT },
    { key: 'firstName', header: 'First name', format: TEXT },
    { key: 'lastName', header: 'Last name', format: TEXT },
    { key: 'title', header: 'Title', format: TEXT },
    { key: 'department', header: 'Department', format: TEXT },
    { key: 'seniority', header: 'Seniority', format: TEXT },
    { key: 'email', header: 'E-mail', format: TEXT },
    { key: 'linkedin', header: 'LinkedIn', format: TEXT },
  ],
};

/**
 * The add-on's columns on a mailing list (any sheet whose row 1 holds headers): added at the right when
 * missing, found by header afterwards wherever the user moved them.
 */
/** What the Mail status words mean, on the header cell of the column. */
const MAIL_STATUS_NOTE = [
  'Queued: being sent now.',
  'Accepted: the e-mail service took the mail (1 e-mail credit used); Refresh tracking shows when it is Sent, Delivered or Failed.',
  'Waiting for the sending quota: sent by the hourly run when the quota is back.',
  'Skipped / Not sent / Stopped: not sent, nothing charged; the row is sent by a later send.',
].join('\n');

const isId = (value: unknown) => idOf(value) !== null;

export const MAIL_COLUMNS: TableLayout['columns'] = [
  { key: 'mailStatus', header: 'Mail status', note: MAIL_STATUS_NOTE, own: isOwnState },
  { key: 'taskId', header: 'Task ID', format: '0', own: isId },
  { key: 'mailId', header: 'Mail ID', format: '0', own: isId },
  { key: 'sentAt', header: 'Sent at', format: 'yyyy-mm-dd hh:mm', own: (value) => value instanceof Date },
];

/**
 * Addresses and whole domains (`@example.com`) no send of this document ever mails, with an optional
 * reason. Created from the menu on first use; the user adds and removes rows freely.
 */
export const DO_NOT_CONTACT: TableLayout = {
  sheetName: 'Do not contact',
  columns: [
    { key: 'email', header: 'E-mail', format: TEXT },
    { key: 'reason', header: 'Reason', format: TEXT },
  ],
};

/** "Sent with another key", explained where it is shown. */
const OTHER_KEY_NOTE =
  "Sent with another key: this document sent the mail with an API key other than the one saved in your Settings (another editor's, or a key since replaced). Your key cannot read it: whoever holds that key refreshes it.";

/** What a task is, said on the headers that name one (Tracking and its summary). */
const TASK_NOTE =
  'A task is a batch of mails the e-mail service received together (one send request holds up to 100). Its status: waiting at the service, handed to the mail provider, all mails sent, some mails failed, all mails failed.';

const TASK_OPENS_NOTE =
  "How often the mails of this row's task were opened, as the e-mail service counts them: for a task of one mail, that mail's opens; for a task of several, all of theirs (which mail was opened is not known).";

const OPENED_RATE_NOTE =
  'Opened of the mails that reached the service (sent or delivered). Where the service counts opens per task of several mails, one open counts once for the task.';

const OPENS_COUNTED_NOTE =
  "per mail: each of the campaign's tasks holds one mail, so its opens are that mail's. per task of several mails: the e-mail service counts the opens of a task as a whole; which of its mails was opened is not known.";

const ANSWERS_NOTE =
  'People of the campaign whose answer was read in Gmail (Settings › Detect replies in Gmail): each counted once, by their latest answer; Reply % is of the people the campaign mailed. A Replied box ticked by hand is not counted here.';

const REPLY_RATE_NOTE =
  'Reply %: the people of the campaign whose latest answer read in Gmail is a reply, of the people it mailed. Only the version of the add-on built with reply detection reads Gmail, once Settings › Detect replies in Gmail is on; otherwise the cell says what is missing. A Replied box ticked by hand is not counted here.';

const TRACKING_STATE_NOTE = [
  'Pending / Requested: the e-mail service has the mail and has not sent it yet; Sent: it left; Delivered: delivery confirmed; Failed: see Failure reason.',
  OTHER_KEY_NOTE,
].join('\n');

/**
 * One row per mail this document sent, upserted by Mail ID (users may sort and filter it). Opened: "Yes" or
 * "No" where the mail's task holds that one mail (the task's openedCount is the mail's), "per campaign only"
 * where it holds many; Task opens: the task's openedCount (the summary adds them up per campaign).
 */
export const TRACKING: TableLayout = {
  sheetName: 'Tracking',
  columns: [
    { key: 'taskId', header: 'Task ID', format: '0', note: TASK_NOTE },
    { key: 'campaign', header: 'Campaign' },
    { key: 'taskStatus', header: 'Task status', note: TASK_NOTE },
    { key: 'mailId', header: 'Mail ID', format: '0' },
    { key: 'recipient', header: 'Recipient' },
    { key: 'nickname', header: 'Nickname' },
    { key: 'subject', header: 'Subject' },
    { key: 'mailStatus', header: 'Mail status', note: TRACKING_STATE_NOTE },
    { key: 'opened', header: 'Opened' },
    { key: 'taskOpens', header: 'Task opens', format: '0', note: TASK_OPENS_NOTE },
    { key: 'sentAt', header: 'Sent at', format: 'yyyy-mm-dd hh:mm' },
    { key: 'confirmedAt', header: 'Delivery confirmed at', format: 'yyyy-mm-dd hh:mm' },
    { key: 'failureReason', header: 'Failure reason' },
    { key: 'refreshedAt', header: 'Refreshed at', format: 'yyyy-mm-dd hh:mm' },
  ],
};

/**
 * The campaign summary: a status block and the mails per status above (rows 1–7), one row per campaign from
 * row 9 with its rates, counted from every mail on the Tracking sheet (whatever the service grouped into
 * tasks), and a chart of the campaign rows (delivered / failed / waiting) beside them.
 */
const SENDING_NOTE =
  'Sending: about when its last mail goes (its rows left at its daily or hourly limit, then its follow-ups). Paused: the bounce guard stopped the list, its failed share since the last resume above the threshold set in Compose (default 5 %); the user who sent it resumes it from the menu (Resume a paused list).';

export const TRACKING_SUMMARY: TableLayout = {
  sheetName: 'Tracking summary',
  headerRow: 8,
  columns: [
    // The rates first, beside the campaign's size: a campaign of 50 mails and one of 7,000 read alike.
    { key: 'campaign', header: 'Campaign' },
    { key: 'mails', header: 'Mails', format: '#,##0' },
    { key: 'deliveredRate', header: 'Delivered %', format: '0.0%' },
    { key: 'failedRate', header: 'Failed %', format: '0.0%' },
    { key: 'openedRate', header: 'Opened %', format: '0.0%', note: OPENED_RATE_NOTE },
    { key: 'replyRate', header: 'Reply %', format: '0.0%', note: REPLY_RATE_NOTE },
    // Running or paused, and when its last mail goes: in view at 1366 px, beside the rates that pause it.
    { key: 'sending', header: 'Sending', note: SENDING_NOTE },
    { key: 'waiting', header: 'Waiting', format: '#,##0' },
    { key: 'sent', header: 'Sent', format: '#,##0' },
    { key: 'delivered', header: 'Delivered', format: '#,##0' },
    { key: 'failed', header: 'Failed', format: '#,##0' },
    { key: 'otherKey', header: 'Sent with another key', format: '#,##0', note: OTHER_KEY_NOTE },
    { key: 'opened', header: 'Opened', format: '#,##0' },
    { key: 'tasks', header: 'Tasks', format: '#,##0', note: TASK_NOTE },
    { key: 'firstSent', header: 'First sent', format: 'yyyy-mm-dd hh:mm' },
    { key: 'lastSent', header: 'Last sent', format: 'yyyy-mm-dd hh:mm' },
    { key: 'opensCounted', header: 'Opens counted', note: OPENS_COUNTED_NOTE },
  ],
};

/**
 * The summary's campaign columns in a build that reads Gmail (features/inbox), right of the others: the
 * answers read there, per person the campaign mailed.
 */
export const SUMMARY_ANSWER_COLUMNS: TableLayout['columns'] = [
  { key: 'replies', header: 'Replies', format: '#,##0', note: ANSWERS_NOTE },
  { key: 'outOfOffice', header: 'Out of office', format: '#,##0', note: ANSWERS_NOTE },
  { key: 'unsubscribed', header: 'Asked to be removed', format: '#,##0', note: ANSWERS_NOTE },
];
