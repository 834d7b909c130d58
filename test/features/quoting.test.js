'use strict';
// Through the built bundle: text from the services and text the user typed stay exactly
// that text however often the add-on rewrites the rows (unlock, contacts refresh, phone check). The quote
// prefix is used only where Sheets would parse the string, never with the plain-text format '@', and
// numbers stay numbers.
const { useServices, newAddon, dataset } = require('../support/harness');
const { unlock, editCompanyIndex } = require('../support/unlock');
const sheets = require('../support/sheets');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');

const services = useServices();
const data = dataset();
const byId = new Map(data.companies.map((c) => [c.id, c]));
let emu;

afterEach(() => emu && emu.dispose());

const rowsOf = (name) => sheets.rowsOf(emu, name);
const cell = (a1) => emu.range(a1).getValue();

/** What the user typed into cells the add-on rewrites: each would be parsed without its quote prefix. */
const USER_TEXT = { 'Companies!O3': '=call back', 'Companies!O4': '1-10', 'Companies!O5': 'TRUE' };

function typeAsText(a1, text) {
  emu.range(a1).setValue(`'${text}`);
  expect(cell(a1)).toBe(text);
}

/** Every company of the search answer is shown as the service sent it: text as text, numbers as numbers. */
function expectCompaniesAsSent() {
  for (const row of rowsOf('Companies')) {
    const company = byId.get(row['Search ID']);
    expect(company).toBeDefined();
    expect(row.Employees).toBe(company.employees_count);
    expect(row.Founded).toBe(Number(company.founding_time));
    expect(row.Country).toBe(company.country_code);
    expect(row['Company type']).toBe(company.company_type.join(', '));
    if (/^[=+\-@]/.test(company.company_name)) expect(row.Company).toBe(company.company_name);
  }
}

function expectNoApostropheNoFormulaNoTextFormat() {
  for (const s of emu.snapshot().spreadsheet.sheets) {
    const shown = [...s.values.flat(), ...s.displayValues.flat()].filter((v) => typeof v === 'string');
    expect(shown.filter((v) => v.startsWith("'"))).toEqual([]);
    expect(s.formulas.flat().filter((f) => f !== '')).toEqual([]);
    expect(s.numberFormats.flat()).not.toContain('@');
  }
}

test('rows rewritten three times (search again, unlock, contacts refresh, phone check) never grow an apostrophe', () => {
  emu = newAddon(services);
  const formulaCompany = byId.get(data.fixtures.formulaNames[0].id);
  const searches = [
    { products: formulaCompany.main_products[0], includeCountries: formulaCompany.country_code },
    { products: 'a', industries: 'e', operator: 'OR', size: 10 },
  ];
  const search = () => searches.forEach((form) => emu.run('searchCompanies', [form], { kind: 'webapp' }));
  search();
  expect(rowsOf('Companies').length).toBeGreaterThanOrEqual(10);
  expect(rowsOf('Companies').map((r) => r.Company)).toContain(formulaCompany.company_name);
  expectCompaniesAsSent();

  // Three companies unlocked (rows 8-10): Profiles rows 2-4. The user notes something in rows between.
  emu.select('Companies!A8:C10');
  unlock(emu);
  expect(rowsOf('Profiles')).toHaveLength(3);
  for (const [a1, text] of Object.entries(USER_TEXT)) typeAsText(a1, text);
  typeAsText('Profiles!H3', '2015-01');
  const profileRow3 = rowsOf('Profiles')[1];
  // Rows 2 and 6 cannot be found by the service (404, nothing charged): each run writes their status,
  // and rows 3-5 between them are written back as read.
  editCompanyIndex(emu, (id, [domain, ...rest]) => [`gone.${domain}`, ...rest]);
  // The phone check rewrites its results column over the rows between its changes too.
  const leads = emu.spreadsheet.insertSheet('Leads');
  leads.getRange('A1:B1').setValues([['Phone', 'Phone check']]);
  typeAsText('Leads!B3', '00123');

  for (let round = 1; round <= 3; round++) {
    search();
    // Rows 8 and 10 are unlocked already: their profiles (Profiles rows 2 and 4) are refreshed.
    emu.select('Companies!A2:C2', 'Companies!A6:C6', 'Companies!A8:C8', 'Companies!A10:C10');
    unlock(emu);
    expect(cell('Companies!O2')).toBe('No matching company: nothing charged.');

    const [a2, a4] =
      round % 2
        ? [registeredPhoneNumber, unregisteredPhoneNumber]
        : [unregisteredPhoneNumber, registeredPhoneNumber];
    leads.getRange('A2').setValue(a2(round));
    leads.getRange('A4').setValue(a4(round));
    emu.select('Leads!A2:A4');
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(leads.getRange('B2').getValue()).toBe(round % 2 ? 'registered' : 'not registered');

    for (const [a1, text] of Object.entries(USER_TEXT)) expect(cell(a1)).toBe(text);
    expect(cell('Profiles!H3')).toBe('2015-01');
    expect(cell('Leads!B3')).toBe('00123');
    expect(rowsOf('Profiles')[1]).toEqual(profileRow3);
    expectCompaniesAsSent();
    expectNoApostropheNoFormulaNoTextFormat();
  }
  expect(rowsOf('Profiles')).toHaveLength(3);
});

test('contacts and profiles keep API text exactly, formula-like names included', () => {
  emu = newAddon(services);
  const fixture = data.fixtures.formulaContacts[0];
  const company = byId.get(fixture.id);
  emu.run(
    'searchCompanies',
    [{ products: company.main_products[0], includeCountries: company.country_code, size: 50 }],
    { kind: 'webapp' },
  );
  const row = rowsOf('Companies').findIndex((r) => r['Search ID'] === company.id) + 2;
  emu.select(`Companies!A${row}:C${row}`);
  unlock(emu);
  const contacts = rowsOf('Contacts').filter((c) => c['Company hash ID'] === company.companyHashId);
  const sent = company.contacts.map((c) => [c.name, c.title]);
  expect(contacts.map((c) => [c.Name, c.Title])).toEqual(expect.arrayContaining(sent.slice(0, 4)));
  expect(rowsOf('Profiles')[0].Company).toBe(company.profile.name);
  expectNoApostropheNoFormulaNoTextFormat();
});
