'use strict';
// Issue 29, item 6, through the built bundle: First name and Last name on Contacts (from the contact's name),
// {{First name}} on any list with a Name column, an unknown placeholder named once, and a preview that says
// it cannot render instead of showing "Hi ,".
const { useServices, newAddon } = require('../support/harness');
const { unlock } = require('../support/unlock');
const sheets = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const webapp = (name, ...args) => emu.run(name, args, { kind: 'webapp' });
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => sheets.rowsOf(emu, name);

function list(names, headers = ['Name', 'Email']) {
  const target = emu.spreadsheet.insertSheet('Outreach');
  const rows = [headers, ...names.map((name, i) => [name, `p${i}@example.com`])];
  target.getRange(1, 1, rows.length, 2).setValues(rows);
  emu.spreadsheet.setActiveSheet(target);
  return target;
}

function saveTemplate(template) {
  return webapp('saveTemplate', { campaign: 'Spring', subject: 'Hello', bodyFormat: 'text', ...template });
}

describe('First name and Last name', () => {
  test('Unlock fills First name and Last name on Contacts from each contact name, safely', () => {
    emu = newAddon(services);
    webapp('searchCompanies', { products: 'a', operator: 'OR', industries: 'e', size: 3 });
    const companies = sheet('Companies');
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A2:C4').activate();
    emu.ui.queue('YES');
    unlock(emu);
    const header = sheet('Contacts').getRange('A1:H1').getValues()[0];
    expect(header.slice(0, 5)).toEqual(['Company', 'Company hash ID', 'Name', 'First name', 'Last name']);
    const contacts = rowsOf('Contacts');
    expect(contacts.length).toBeGreaterThan(0);
    for (const c of contacts) {
      const [first, ...rest] = String(c.Name).trim().split(/\s+/);
      expect(c['First name']).toBe(first);
      expect(c['Last name']).toBe(rest.join(' '));
    }
    // A name from the service that looks like a formula stays text in the new columns too.
    const formulas = sheet('Contacts').getDataRange().getFormulas().flat().filter(Boolean);
    expect(formulas).toEqual([]);
  });

  test('{{First name}} works on a list with only a Name column: honorifics dropped, family-name-first names kept whole', () => {
    emu = newAddon(services);
    const names = [
      'Dr. Anna Schmidt',
      'Frau Petra Müller',
      'Herr Prof. Dr. Klaus Weber',
      'M. Jean Dupont',
      'Mme Claire Martin',
      'Mrs Jane Doe',
      'Doe, John',
      '王小明',
      '김민준',
      'Cher',
    ];
    list(names);
    const state = saveTemplate({ body: 'Hi {{First name}} ({{Last name|-}}),' });
    expect(state.problems).toEqual([]);
    const bodies = names.map((_, i) => webapp('previewMail', i + 2).body);
    expect(bodies).toEqual([
      'Hi Anna (Schmidt),',
      'Hi Petra (Müller),',
      'Hi Klaus (Weber),',
      'Hi Jean (Dupont),',
      'Hi Claire (Martin),',
      'Hi Jane (Doe),',
      'Hi John (Doe),',
      'Hi 王小明 (-),',
      'Hi 김민준 (-),',
      'Hi Cher (-),',
    ]);
  });

  test('a First name column of the list wins over the name', () => {
    emu = newAddon(services);
    const target = list(['Dr. Anna Schmidt'], ['Name', 'Email']);
    target.getRange('C1:C2').setValues([['First name'], ['Annie']]);
    saveTemplate({ body: 'Hi {{First name}},' });
    expect(webapp('previewMail', 2).body).toBe('Hi Annie,');
  });
});

describe('unknown placeholders', () => {
  test('named once however often used; the preview says it cannot render instead of "Hi ,"', () => {
    emu = newAddon(services);
    list(['Anna Schmidt'], ['Full name', 'Email']);
    const state = saveTemplate({
      subject: 'Hello {{first name}}',
      body: 'Hi {{First Name}}, {{FIRST NAME}}',
    });
    const about = state.problems.filter((p) => /no column/.test(p));
    expect(about).toEqual([
      '{{first name}} matches no column of this sheet: use one of the headers in row 1.',
    ]);
    const preview = webapp('previewMail', 2);
    // The problem is said once, under the dialog's buttons (state.problems): the preview only says why it is blank.
    expect(preview.body).toBe(
      'This mail cannot be shown: a {{placeholder}} in it names no column of this sheet (the message under the buttons says which).',
    );
    expect(preview.body).not.toMatch(/Hi ,/);
    expect(preview.problems.filter((p) => /no column/.test(p))).toEqual([]);
  });
});
