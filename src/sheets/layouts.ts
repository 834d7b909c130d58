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
