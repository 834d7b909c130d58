// The sheets the add-on writes. Columns are found by header text, so users may move, insert or delete
// columns; a missing header is added back at the right. The Companies sheet holds search results only: no
// domain, website, URL or link ever appears on it.
import { TableLayout } from './table';

export const COMPANIES: TableLayout = {
  sheetName: 'Companies',
  columns: [
    { key: 'id', header: 'Search ID', format: '@' },
    { key: 'name', header: 'Company', format: '@' },
    { key: 'country', header: 'Country', format: '@' },
    { key: 'companyType', header: 'Company type', format: '@' },
    { key: 'industry', header: 'Industry', format: '@' },
    { key: 'products', header: 'Main products', format: '@' },
    { key: 'founded', header: 'Founded', format: '@' },
    { key: 'employees', header: 'Employees', format: '@' },
    { key: 'emailCount', header: 'E-mails', format: '0' },
    { key: 'whatsappCount', header: 'WhatsApp', format: '0' },
    { key: 'description', header: 'Description', format: '@' },
    { key: 'companyHashId', header: 'Company hash ID', format: '@' },
    { key: 'charged', header: 'Charged' },
    { key: 'alreadyViewed', header: 'Already viewed' },
    { key: 'status', header: 'Unlock status', format: '@' },
  ],
};

export const PROFILES: TableLayout = {
  sheetName: 'Profiles',
  columns: [
    { key: 'companyHashId', header: 'Company hash ID', format: '@' },
    { key: 'name', header: 'Company', format: '@' },
    { key: 'country', header: 'Country', format: '@' },
    { key: 'industry', header: 'Industry', format: '@' },
    { key: 'employees', header: 'Employees', format: '0' },
    { key: 'website', header: 'Website', format: '@' },
    { key: 'description', header: 'Description', format: '@' },
    { key: 'tradeData', header: 'Trade data', format: '@' },
    { key: 'contacts', header: 'Contacts', format: '0' },
    { key: 'updatedAt', header: 'Updated', format: 'yyyy-mm-dd hh:mm' },
  ],
};

export const CONTACTS: TableLayout = {
  sheetName: 'Contacts',
  columns: [
    { key: 'company', header: 'Company', format: '@' },
    { key: 'companyHashId', header: 'Company hash ID', format: '@' },
    { key: 'name', header: 'Name', format: '@' },
    { key: 'title', header: 'Title', format: '@' },
    { key: 'email', header: 'E-mail', format: '@' },
    { key: 'linkedin', header: 'LinkedIn', format: '@' },
  ],
};

/**
 * The add-on's columns on a mailing list (any sheet whose row 1 holds headers): added at the right when
 * missing, found by header afterwards wherever the user moved them.
 */
export const MAIL_COLUMNS: TableLayout['columns'] = [
  { key: 'mailStatus', header: 'Mail status' },
  { key: 'taskId', header: 'Task ID', format: '0' },
  { key: 'mailId', header: 'Mail ID', format: '0' },
  { key: 'sentAt', header: 'Sent at', format: 'yyyy-mm-dd hh:mm' },
];

/**
 * What "Mail status" says. Queued: planned in a running send. Accepted: the service took the mail (ids
 * written). Tracking moves it on: Sent, Delivered, or "Failed: <reason>". "Skipped: …" (found by the checks,
 * nothing charged) and "Not sent: …" (the service refused the chunk) leave the row to be sent again.
 */
export const MAIL_STATUS = {
  queued: 'Queued',
  accepted: 'Accepted',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Skipped',
  notSent: 'Not sent',
} as const;
