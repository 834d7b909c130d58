'use strict';
// Through the bundle against the sandbox: the search filters the service leaves to the client
// (employees, founded, e-mails, WhatsApp, how many), decision roles from job titles (PROSPECT_ROLE, Contacts),
// and the unlock's roles choice.
const { useServices, newAddon, control, DEMO_KEYS, dataset } = require('../support/harness');
const { unlock, unlockQuestion } = require('../support/unlock');
const sheets = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const BROAD = { products: 'a', operator: 'OR', industries: 'e' };
/** Spec 4.2: the only fields a search request may carry. */
const SPEC_FIELDS = [
  'companyTypeKeywords',
  'productKeywords',
  'industryKeywords',
  'includeCountry',
  'excludeCountry',
  'withEmails',
  'crossFieldOperator',
  'from',
  'size',
];
const byId = new Map(dataset().companies.map((c) => [c.id, c]));

const search = (form) => emu.run('searchCompanies', [form], { kind: 'webapp' });
const searchBodies = () =>
  emu.fetchLog.filter((r) => r.url.includes('/companies/search-advanced')).map((r) => JSON.parse(r.payload));
const rowsOf = (name) => sheets.rowsOf(emu, name);
const everyMessage = () =>
  [...emu.ui.toasts, ...emu.ui.alerts, ...emu.ui.dialogs]
    .map((m) => `${m.message || m.html || ''}`)
    .join('\n');

describe('Search filters', () => {
  test("employees '11-200', limit 40: 40 companies of 11-50 or 51-200, in the pages the order of results needs", () => {
    emu = newAddon(services);
    const summary = search({ ...BROAD, employees: '11-200', limit: 40 });
    expect(summary.added).toBe(40);
    expect(summary.done).toBe(true);
    const rows = rowsOf('Companies');
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(['11-50', '51-200']).toContain(row.Employees);
    // Exactly the pages up to the 40th match: read = added + left out; pages = ceil(read / 50).
    expect(summary.read).toBe(summary.added + summary.leftOut + summary.alreadyPresent);
    expect(summary.loaded).toBe(summary.read);
    expect(summary.pages).toBe(Math.ceil(summary.loaded / 50));
    const bodies = searchBodies();
    expect(bodies).toHaveLength(summary.pages);
    expect(bodies.map((b) => b.from)).toEqual(bodies.map((_, i) => i * 50));
    for (const body of bodies) {
      expect(body.size).toBe(50);
      for (const key of Object.keys(body)) expect(SPEC_FIELDS).toContain(key);
    }
    // The 40th match is the last row read: the next run starts right after it.
    const ids = rows.map((r) => r['Search ID']);
    expect(byId.get(ids[39]).employees_count).toMatch(/^(11-50|51-200)$/);
    expect(summary.leftOutBy).toEqual({ employees: summary.leftOut });
    expect(summary.message).toBe(
      `Read ${summary.loaded} of ${summary.total} results: 40 added, ${summary.leftOut} left out by the filters (employees ${summary.leftOut}); all 40 companies asked for.`,
    );
    // Load more goes on from there: 40 more, none repeated, none skipped.
    const more = search({ ...BROAD, employees: '11-200', limit: 40, from: summary.loaded });
    expect(more.added).toBe(40);
    const all = rowsOf('Companies').map((r) => r['Search ID']);
    expect(new Set(all).size).toBe(80);
    expect(searchBodies()[summary.pages].from).toBe(summary.loaded);
  });

  test('founded, e-mails and WhatsApp together; each left-out row is counted under every filter it fails', () => {
    emu = newAddon(services);
    const form = { ...BROAD, founded: '1990-2010', minEmails: 5, withWhatsApp: true, limit: 30 };
    const summary = search(form);
    expect(summary.added).toBe(30);
    for (const id of rowsOf('Companies').map((r) => r['Search ID'])) {
      const company = byId.get(id);
      expect(Number(company.founding_time)).toBeGreaterThanOrEqual(1990);
      expect(Number(company.founding_time)).toBeLessThanOrEqual(2010);
      expect(company.email_count).toBeGreaterThanOrEqual(5);
      expect(company.whatsapp_count).toBeGreaterThanOrEqual(1);
    }
    expect(Object.keys(summary.leftOutBy).sort()).toEqual(['founded', 'minEmails', 'withWhatsApp']);
    expect(summary.message).toMatch(
      /^Read \d+ of \d+ results: 30 added, \d+ left out by the filters \(founded \d+, e-mails \d+, WhatsApp \d+\); all 30 companies asked for\.$/,
    );
    // Filters never reach the service; "at least 5 e-mails" asks the service's own withEmails (fewer pages).
    for (const body of searchBodies()) {
      for (const key of Object.keys(body)) expect(SPEC_FIELDS).toContain(key);
      expect(body.withEmails).toBe(1);
    }
    // "before 2000" and "<10" read as people mean them.
    const older = search({ ...BROAD, founded: 'before 2000', employees: '<10', limit: 5 });
    expect(older.added).toBe(5);
    const added = rowsOf('Companies').slice(30);
    for (const row of added) {
      expect(row.Founded).toBeLessThan(2000);
      expect(row.Employees).toBe('1-10');
    }
  });

  test('an unreadable filter is refused before any request, naming the field and an example', () => {
    emu = newAddon(services);
    expect(() => search({ ...BROAD, employees: 'lots' })).toThrow(
      'Employees: "lots" is not a range of employees. Write it like 11-200, 50+, <10 or 1000 or more.',
    );
    expect(() => search({ ...BROAD, employees: '200-11' })).toThrow(/^Employees: "200-11"/);
    expect(() => search({ ...BROAD, founded: 'the nineties' })).toThrow(
      'Founded: "the nineties" is not a year or a range of years. Write it like 2005, 1990-2010, before 2000 or after 2010.',
    );
    expect(() => search({ ...BROAD, founded: '50' })).toThrow(/^Founded: "50"/);
    expect(() => search({ ...BROAD, minEmails: 'some' })).toThrow(/Minimum e-mails must be a whole number/);
    expect(() => search({ ...BROAD, limit: 5000 })).toThrow(
      'How many companies must be a whole number from 1 to 1000.',
    );
    expect(emu.fetchLog).toHaveLength(0);
  });

  test('employee ranges as people type them', () => {
    emu = newAddon(services);
    let seen = 0;
    const employeesOf = (employees) => {
      const summary = search({ ...BROAD, employees, limit: 15 });
      expect(summary.added).toBeGreaterThan(0);
      const added = rowsOf('Companies').slice(seen);
      seen += added.length;
      return new Set(added.map((r) => r.Employees));
    };
    for (const range of employeesOf('1,000+'))
      expect(['501-1000', '1001-5000', '5001-10000', '10001+']).toContain(range);
    for (const range of employeesOf('5000+')) expect(['1001-5000', '5001-10000', '10001+']).toContain(range);
    for (const range of employeesOf('up to 50')) expect(['1-10', '11-50']).toContain(range);
  });

  test('a long run pauses after 10 pages with its progress; the next call goes on where it stopped', () => {
    emu = newAddon(services);
    // Few companies match: the run reads page after page.
    const form = { ...BROAD, employees: '10001+', minEmails: 3, limit: 1000 };
    const first = search(form);
    expect(first.pages).toBe(10);
    expect(first.paused).toBe('pages');
    expect(first.done).toBe(false);
    expect(first.hasMore).toBe(true);
    expect(first.loaded).toBe(500);
    expect(first.remaining).toBe(1000 - first.added);
    const next = search({ ...form, limit: first.remaining, from: first.loaded });
    expect(next.done).toBe(true);
    expect(next.hasMore).toBe(false);
    expect(next.loaded).toBe(next.total);
    expect(next.message).toMatch(
      /^Read (\d+) more results \(to (\d+) of \2 results\): \d+ added, .* asked for\. No more results: widen a filter or change the keywords to find more\.$/,
    );
    const ids = rowsOf('Companies').map((r) => r['Search ID']);
    expect(ids).toHaveLength(first.added + next.added);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(byId.get(id).employees_count).toBe('10001+');
  });
});

test('the rows just added are shown and selected; the sidebar opened again goes on from the last search', () => {
  emu = newAddon(services);
  const first = search({ ...BROAD, size: 5 });
  expect(emu.spreadsheet.getActiveSheet().getName()).toBe('Companies');
  expect(emu.spreadsheet.getActiveRange().getA1Notation()).toBe('A2:C6');
  const filtered = search({ ...BROAD, employees: '11-200', limit: 4, from: first.loaded });
  expect(emu.spreadsheet.getActiveRange().getA1Notation()).toBe('A7:C10');
  // Closed and opened again: the fields of the last search and where it stopped.
  emu.run('showSearchSidebar', [], { kind: 'menu' });
  const last = JSON.parse(/var LAST = (.*);\n/.exec(emu.ui.sidebar.html)[1]);
  expect(last).toEqual({
    form: { ...BROAD, employees: '11-200', limit: '4' },
    loaded: filtered.loaded,
    total: filtered.total,
    hasMore: true,
  });
});

describe('PROSPECT_SEARCH with the filters of the sidebar', () => {
  // products, industries, companyTypes, include, exclude, withEmails, size, from, then the sidebar's filters:
  // employees, founded, minEmails, withWhatsApp, limit.
  const formula = (...filters) =>
    emu.runCustomFunction('PROSPECT_SEARCH', ['a', '', '', '', '', false, '', 0, ...filters]);

  test('the same companies as the sidebar, with a header; the filters never reach the service', () => {
    emu = newAddon(services);
    const answer = formula('11-200', '1990-2010', 2, '', 25);
    expect(answer[0][0]).toBe('Search ID');
    expect(answer).toHaveLength(26);
    const ids = answer.slice(1).map((row) => row[0]);
    for (const id of ids) {
      const company = byId.get(id);
      expect(['11-50', '51-200']).toContain(company.employees_count);
      expect(Number(company.founding_time)).toBeGreaterThanOrEqual(1990);
      expect(Number(company.founding_time)).toBeLessThanOrEqual(2010);
      expect(company.email_count).toBeGreaterThanOrEqual(2);
    }
    for (const body of searchBodies()) {
      for (const key of Object.keys(body)) expect(SPEC_FIELDS).toContain(key);
      expect(body.size).toBe(50);
    }
    const formulaRequests = searchBodies().length;
    search({ products: 'a', employees: '11-200', founded: '1990-2010', minEmails: 2, limit: 25 });
    expect(rowsOf('Companies').map((row) => row['Search ID'])).toEqual(ids);
    // Recalculation is answered from the cache; WhatsApp and a limit alone are read too.
    expect(formula('11-200', '1990-2010', 2, '', 25)).toEqual(answer);
    expect(searchBodies()).toHaveLength(2 * formulaRequests);
    const whatsApp = formula('', '', '', true, 5);
    expect(whatsApp).toHaveLength(6);
    for (const row of whatsApp.slice(1)) expect(byId.get(row[0]).whatsapp_count).toBeGreaterThanOrEqual(1);
    expect(formula('', '', '', '', 3)).toHaveLength(4);
  });

  test('fewer matches than the limit in ten pages: a last row says where to go on', () => {
    emu = newAddon(services);
    const answer = formula('10001+', '', 3, '', 1000);
    const note = answer.at(-1);
    expect(note[0]).toMatch(
      /^Found \d+ of 1,000 companies in results 1 to 500 of [\d,]+: give from 500 to read on\.$/,
    );
    expect(note.slice(1).every((cell) => cell === '')).toBe(true);
    expect(answer.length - 2).toBe(Number(/^Found (\d+)/.exec(note[0])[1]));
    expect(() => formula('lots')).toThrow(/^Employees: "lots" is not a range of employees/);
  });
});

test('a run the rate budget cannot serve before the execution deadline pauses with what it added; the next call goes on', () => {
  emu = newAddon(services);
  let done = false;
  emu.onFetch = (entries) => {
    if (done || !entries.some((e) => e.url.includes('/companies/search-advanced'))) return;
    done = true;
    // The execution has run 4.4 minutes and the key's 60 slots of the minute are taken (other windows).
    services.clock.advance(4.4 * 60_000);
    const store = emu.cache.user(emu.users.active);
    const key = [...store.data.keys()].find((k) => k.startsWith('rate.outreach.'));
    store.data.get(key).value = `v1:${services.clock.now().toString(36)}:${Array(59).fill('0').join(',')}`;
  };
  const form = { ...BROAD, employees: '10001+', limit: 10 };
  const first = search(form);
  expect(first.pages).toBe(1);
  expect(first.paused).toBe('rate');
  expect(first.done).toBe(false);
  expect(first.loaded).toBe(50);
  expect(first.message).toMatch(
    /^Read 50 of \d+ results: 0 added, 50 left out by the filters \(employees 50\); 0 of the 10 companies asked for\. Paused for the rate limit \(60 requests a minute\): Load more goes on from here\.$/,
  );
  expect(emu.fetchLog.filter((r) => r.status === 429)).toHaveLength(0);
  const next = search({ ...form, limit: first.remaining, from: first.loaded });
  expect(next.added + first.added).toBe(10);
  // The next call started at the first result not read, and read on from there page by page.
  expect(searchBodies().map((b) => b.from)).toEqual(searchBodies().map((_, k) => k * 50));
});

/** [title, Department, Seniority] per language, with the tricky ones of the issue. */
const TITLES = {
  English: [
    ['Export Sales Executive', 'Sales', 'Staff'],
    ['Chief Financial Officer', 'Finance', 'Owner / C-level'],
    ['CEO', 'Management', 'Owner / C-level'],
    ['MD', 'Management', 'Owner / C-level'],
    ['GM', 'Management', 'Owner / C-level'],
    ['VP Sales', 'Sales', 'Director'],
    ['Vice President of Marketing', 'Marketing', 'Director'],
    ['Dir. of Purchasing', 'Purchasing', 'Director'],
    ['Sales Mgr.', 'Sales', 'Manager'],
    ['Head of Procurement', 'Purchasing', 'Director'],
    ['Import Manager', 'Purchasing', 'Manager'],
    ['Supply Chain Manager', 'Operations', 'Manager'],
    ['Software Engineer', 'Engineering', 'Staff'],
    ['HR Manager', 'HR', 'Manager'],
    ['Executive Assistant to the CEO', 'Management', 'Staff'],
    ['Receptionist', 'Other', 'Staff'],
    ['CEO & Head of Sales', 'Management', 'Owner / C-level'],
    ['Product Owner', 'Other', 'Staff'],
    ['Import-Export Manager', 'Operations', 'Manager'],
    ['Logistics Coordinator', 'Operations', 'Staff'],
    ['Director', 'Management', 'Director'],
    ['Lead Generation Specialist', 'Marketing', 'Staff'],
    // Titles a new user saw sorted wrongly.
    ['Partner', 'Management', 'Owner / C-level'],
    ['Senior Partner', 'Management', 'Owner / C-level'],
    ['Board Member', 'Management', 'Owner / C-level'],
    ['Country Manager', 'Management', 'Director'],
    ['Category Manager', 'Purchasing', 'Manager'],
    ['Supply Manager', 'Purchasing', 'Manager'],
    ['Sales & Marketing Director', 'Sales', 'Director'],
    ['Marketing and Sales Manager', 'Sales', 'Manager'],
    ['CRO', 'Sales', 'Owner / C-level'],
    ['Chief Revenue Officer', 'Sales', 'Owner / C-level'],
    ['HR Business Partner', 'HR', 'Staff'],
    ['Partner Manager', 'Other', 'Manager'],
    ['Supply Chain Manager', 'Operations', 'Manager'],
  ],
  German: [
    ['Geschäftsführer', 'Management', 'Owner / C-level'],
    ['Einkaufsleiter', 'Purchasing', 'Director'],
    ['Vertriebsmitarbeiter Innendienst', 'Sales', 'Staff'],
    ['Stellvertretender Geschäftsführer', 'Management', 'Director'],
    ['Teamleiter Logistik', 'Operations', 'Manager'],
    ['Buchhalterin', 'Finance', 'Staff'],
    ['Prokurist', 'Management', 'Director'],
    ['Teamleiter Vertrieb Außendienst', 'Sales', 'Manager'],
  ],
  French: [
    ['PDG', 'Management', 'Owner / C-level'],
    ['Directeur commercial', 'Sales', 'Director'],
    ['Ingénieur commercial', 'Sales', 'Staff'],
    ['Responsable des achats', 'Purchasing', 'Manager'],
    ['Directrice financière', 'Finance', 'Director'],
    ['Responsable RH', 'HR', 'Manager'],
  ],
  Spanish: [
    ['Gerente General', 'Management', 'Owner / C-level'],
    ['Jefe de Compras', 'Purchasing', 'Manager'],
    ['Ejecutivo de Ventas', 'Sales', 'Staff'],
    ['Director de Marketing', 'Marketing', 'Director'],
    ['Jefe de Logística', 'Operations', 'Manager'],
  ],
  Portuguese: [
    ['Diretor Geral', 'Management', 'Owner / C-level'],
    ['Gerente de Compras', 'Purchasing', 'Manager'],
    ['Gerente de Exportação', 'Sales', 'Manager'],
    ['Diretora Financeira', 'Finance', 'Director'],
    ['Coordenador de Logística', 'Operations', 'Staff'],
  ],
  Italian: [
    ['Amministratore Delegato', 'Management', 'Owner / C-level'],
    ['Responsabile Acquisti', 'Purchasing', 'Manager'],
    ['Direttore Commerciale', 'Sales', 'Director'],
    ['Direttore Amministrativo', 'Finance', 'Director'],
    ['Impiegata Ufficio Acquisti', 'Purchasing', 'Staff'],
  ],
  Dutch: [
    ['Algemeen Directeur', 'Management', 'Owner / C-level'],
    ['Inkoopmanager', 'Purchasing', 'Manager'],
    ['Commercieel Directeur', 'Sales', 'Director'],
    ['Hoofd Logistiek', 'Operations', 'Director'],
    ['Medewerker Verkoop', 'Sales', 'Staff'],
  ],
  Turkish: [
    ['Genel Müdür', 'Management', 'Owner / C-level'],
    ['Satın Alma Müdürü', 'Purchasing', 'Manager'],
    ['Satış Temsilcisi', 'Sales', 'Staff'],
    ['İhracat Müdürü', 'Sales', 'Manager'],
    ['Mali İşler Müdürü', 'Finance', 'Manager'],
    ['İnsan Kaynakları Müdürü', 'HR', 'Manager'],
  ],
  Vietnamese: [
    ['Giám đốc', 'Management', 'Owner / C-level'],
    ['Phó Giám đốc', 'Management', 'Director'],
    ['Giám đốc Marketing', 'Marketing', 'Director'],
    ['Trưởng phòng Mua hàng', 'Purchasing', 'Manager'],
    ['Nhân viên Kinh doanh', 'Sales', 'Staff'],
    ['Kế toán trưởng', 'Finance', 'Manager'],
  ],
  Chinese: [
    ['总经理', 'Management', 'Owner / C-level'],
    ['副总经理', 'Management', 'Director'],
    ['采购经理', 'Purchasing', 'Manager'],
    ['外贸业务员', 'Sales', 'Staff'],
    ['财务总监', 'Finance', 'Director'],
    ['物流主管', 'Operations', 'Manager'],
  ],
};

describe('Decision roles (PROSPECT_ROLE)', () => {
  // One add-on for every language (custom functions only: no request).
  let roles;
  beforeAll(() => {
    roles = newAddon(services, { outreachKey: '' });
  });
  afterAll(() => roles.dispose());
  const role = (...args) => roles.runCustomFunction('PROSPECT_ROLE', args);

  test.each(Object.keys(TITLES))('%s titles', (language) => {
    const rows = TITLES[language];
    const answer = role(rows.map(([title]) => [title]));
    expect(answer.map((pair, i) => [rows[i][0], ...pair])).toEqual(rows);
  });

  test('a single title answers one row; blank cells stay blank; nothing is fetched', () => {
    expect(role('Purchasing Manager')).toEqual([['Purchasing', 'Manager']]);
    expect(
      role([
        ['CFO', ''],
        ['', 'Buyer'],
      ]),
    ).toEqual([
      ['Finance', 'Owner / C-level', '', ''],
      ['', '', 'Purchasing', 'Staff'],
    ]);
    expect(roles.fetchLog).toHaveLength(0);
  });

  test("every title in the sandbox's data gets a department", () => {
    const { LOCAL_TITLES } = require('../../dev/sandbox/data');
    const titles = Object.values(LOCAL_TITLES).flat();
    const answer = role(titles.map((t) => [t]));
    const other = titles.filter((_, i) => answer[i][0] === 'Other');
    expect(other).toEqual([]);
  });
});

describe('Roles in the unlock', () => {
  function searchAndSelect(rows) {
    search({ ...BROAD, size: rows, withEmails: true });
    emu.select(`Companies!A2:C${rows + 1}`);
    return rowsOf('Companies').reduce((sum, r) => sum + r['E-mails'], 0);
  }

  test('the dialog states the contacts to expect; the roles ticked go to Contacts, the others are counted; the charge is per company', async () => {
    emu = newAddon(services);
    const expected = searchAndSelect(6);
    // Cancel (or closing the dialog) does nothing: no job, nothing charged.
    emu.run('unlockSelectedCompanies', [], { kind: 'menu' });
    const shown = unlockQuestion(emu);
    expect(shown.text).toContain(`Contacts to expect: about ${expected} (the E-mails column).`);
    expect(shown.departments).toEqual([
      'Management',
      'Sales',
      'Purchasing',
      'Marketing',
      'Engineering',
      'Operations',
      'Finance',
      'HR',
      'Other',
    ]);
    expect(shown.seniorities).toEqual(['Owner / C-level', 'Director', 'Manager', 'Staff']);
    expect(shown.roles).toEqual({ departments: [], seniorities: [] }); // every box ticked
    expect(emu.ui.alerts).toEqual([]);
    expect(emu.ui.prompts).toEqual([]);
    expect(emu.fetchLog.filter((r) => r.url.includes('/companies/unlock'))).toHaveLength(0);
    // A group with no box ticked cannot be sent.
    expect(() =>
      emu.run('confirmUnlock', [{ ...shown.answer, roles: { departments: [], seniorities: ['Staff'] } }], {
        kind: 'webapp',
      }),
    ).toThrow('Tick at least one department to add to Contacts.');

    unlock(emu, { roles: { departments: ['Purchasing', 'Management'] } });
    const contacts = rowsOf('Contacts');
    expect(contacts.length).toBeGreaterThan(0);
    for (const c of contacts) expect(['Management', 'Purchasing']).toContain(c.Department);
    const all = rowsOf('Companies').flatMap((r) => byId.get(r['Search ID']).contacts);
    expect(everyMessage()).toContain(
      `${all.length} contacts found, ${contacts.length} added: Management, Purchasing; all seniorities.`,
    );
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks.filter((u) => u.charged)).toHaveLength(6);
    // Remembered for this user: the next dialog ticks them.
    expect(JSON.parse(emu.properties.user.getProperty('pref.unlockRoles'))).toEqual({
      departments: ['Management', 'Purchasing'],
      seniorities: [],
    });

    // The same rows again, now with every box: asked (the remembered choice leaves contacts out), the rest of
    // the contacts added, nothing charged.
    emu.ui.reset();
    const { question } = unlock(emu, {
      roles: { departments: shown.departments, seniorities: shown.seniorities },
    });
    expect(question.text).toMatch(
      /^6 selected rows are already unlocked: nothing is charged, their contacts are refreshed\.\nContacts to expect: about \d+ \(the E-mails column\)\./,
    );
    expect(question.button).toBe('Refresh the contacts');
    expect(question.roles).toEqual({ departments: ['Management', 'Purchasing'], seniorities: [] });
    expect(rowsOf('Contacts')).toHaveLength(all.length);
    const again = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(again.unlocks.filter((u) => u.charged)).toHaveLength(6);
  });

  test('the Contacts rows carry Department and Seniority as written text, never a formula', () => {
    emu = newAddon(services);
    searchAndSelect(4);
    unlock(emu);
    const sheet = emu.spreadsheet.getSheetByName('Contacts');
    const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0];
    expect(header.slice(0, 8)).toEqual([
      'Company',
      'Company hash ID',
      'Name',
      'First name',
      'Last name',
      'Title',
      'Department',
      'Seniority',
    ]);
    const contacts = rowsOf('Contacts');
    expect(contacts.length).toBeGreaterThan(0);
    const answer = emu.runCustomFunction('PROSPECT_ROLE', [contacts.map((c) => [c.Title])]);
    expect(contacts.map((c) => [c.Department, c.Seniority])).toEqual(
      answer.map(([d, s], i) => (contacts[i].Title === '' ? ['Other', 'Staff'] : [d, s])),
    );
    expect(sheet.getDataRange().getFormulas().flat().filter(Boolean)).toEqual([]);
  });
});
