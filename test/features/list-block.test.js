'use strict';
// Through the built bundle: a list is its block (it ends at its first fully blank
// row; what lies below, and a cell that holds a formula or an array formula's output, is never written), and
// only the add-on's ids are mails (a date or a word in Mail ID / Task ID is never tracked).
const harness = require('../support/harness');
const { useServices, newAddon, control, DEMO_KEYS } = harness;
const sheets = require('../support/sheets');
const { sendFromSheet } = require('../support/sent-mail');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');
const { unlock } = require('../support/unlock');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const LIST = 'Outreach';
const HEADERS = ['Name', 'Email', 'Company', 'Greeting', 'Mail status', 'Task ID', 'Mail ID', 'Sent at'];
const sheet = (name = LIST) => emu.spreadsheet.getSheetByName(name);

function saveTemplate() {
  emu.run(
    'saveTemplate',
    [
      {
        campaign: 'Spring offer',
        subject: 'Hello {{Name}}',
        body: 'Dear {{Name}},\nour offer.',
        bodyFormat: 'text',
      },
    ],
    { kind: 'webapp' },
  );
}

/** Sends every unsent row: YES to the confirmation; the progress dialog's steps to the end. */
function sendAll() {
  emu.ui.reset();
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails')
    harness.driveToEnd(emu, 'send');
  return emu.ui.alerts.map((a) => a.message).join('\n');
}

/** Values and formulas of rows first..last, columns A..L: what must not change. */
function cells(first, last, name = LIST) {
  const range = sheet(name).getRange(first, 1, last - first + 1, 12);
  return { values: range.getValues(), formulas: range.getFormulas() };
}

/** Every cell of the document that shows an error now (#REF! of a broken array output, #ERROR!). */
function errors() {
  const found = [];
  const snapshot = emu.snapshot();
  for (const s of snapshot.spreadsheet.sheets) {
    s.errors.forEach((row, r) =>
      row.forEach(
        (message, c) => message && found.push(`${s.name} row ${r + 1} column ${c + 1}: ${message}`),
      ),
    );
  }
  return found;
}

async function mailsAtSandbox() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

describe('A list is its block', () => {
  test('a send writes only into its list: notes and formulas below it, and rows without a value inside, stay as they were', async () => {
    emu = newAddon(services);
    const rows = [
      HEADERS,
      ['Person 1', 'person1@example.com', 'Acme', '', '', '', '', ''],
      ['Person 2', 'person2@example.com', 'Acme', '', '', '', '', ''],
      ['Person 3', '', 'Acme', '', '', '', '', ''], // a Name without an address: said so
      ['', '', '', '', '', '', '', ''], // Greeting's formula only: no value, left alone
      ['', '', '', '', '', '', '', ''],
      ['Person 4', 'person4@example.com', 'Beta', '', '', '', '', ''],
      ['Person 5', 'person5@example.com', 'Beta', '', '', '', '', ''], // a formula in its Mail ID
    ];
    sheets.writeList(emu, LIST, rows);
    for (let r = 2; r <= 8; r++) emu.setFormula(`${LIST}!D${r}`, `=TRIM(A${r})`);
    emu.setFormula(`${LIST}!G8`, '=ROW()*1000');
    // Row 9 is blank: the list ends there. Below: notes, the user's own formulas and their outputs.
    sheet().getRange('A10').setValue('Notes: call Anna before the 5th');
    sheet().getRange('E10').setValue('to do');
    emu.setFormula(`${LIST}!E11`, '=PROSPECT_BALANCE()');
    emu.setFormula(`${LIST}!A14`, '=PROSPECT_BALANCE()');
    emu.recalculate();
    expect(errors()).toEqual([]);
    const below = cells(9, 20);
    expect(below.values[2][5]).not.toBe(''); // E11's output reaches F11: a real spill to keep
    saveTemplate();

    const said = sendAll();
    expect(emu.ui.alerts.find((a) => /Send e-mails/.test(a.title)).message).toMatch(/^Send 3 e-mails/);
    const status = sheet()
      .getRange('E2:E8')
      .getValues()
      .map((r) => r[0]);
    expect(status).toEqual(['Accepted', 'Accepted', 'Skipped: no e-mail address', '', '', 'Accepted', '']);
    expect(said).not.toMatch(/Skipped: .*\b[4-9] rows?\b/);
    expect(sheet().getRange('G8').getFormula()).toBe('=ROW()*1000');
    expect(cells(9, 20)).toEqual(below);
    emu.recalculate();
    expect(errors()).toEqual([]);
    const mails = await mailsAtSandbox();
    expect(mails.map((m) => m.recipientEmail).sort()).toEqual([
      'person1@example.com',
      'person2@example.com',
      'person4@example.com',
    ]);

    // Sending again: nothing is left to send, and still nothing below the list is written.
    sendAll();
    expect(cells(9, 20)).toEqual(below);
    expect(errors()).toEqual([]);
  });

  test("an array formula's output inside the list is never written, and its rows are left alone", () => {
    emu = newAddon(services);
    const rows = [
      HEADERS,
      ['Person 1', 'person1@example.com', 'Acme', 'Hi', '', '', '', ''],
      ['', '', '', '', '', '', '', ''], // A3: =PROSPECT_BALANCE() spills over A3:…4, Mail status included
      ['', '', '', '', '', '', '', ''],
      ['Person 2', 'person2@example.com', 'Beta', 'Hi', '', '', '', ''],
    ];
    sheets.writeList(emu, LIST, rows);
    emu.setFormula(`${LIST}!A3`, '=PROSPECT_BALANCE()');
    emu.recalculate();
    expect(errors()).toEqual([]);
    const output = cells(3, 4);
    expect(output.values[0][4]).not.toBe(''); // the output covers Mail status
    saveTemplate();

    sendAll();
    expect(cells(3, 4)).toEqual(output);
    expect(sheet().getRange('E2').getValue()).toBe('Accepted');
    expect(sheet().getRange('E5').getValue()).toBe('Accepted');
    emu.recalculate();
    expect(errors()).toEqual([]);
  });

  test('a phone check of a whole column checks and writes only the list above the first blank row', () => {
    emu = newAddon(services);
    const s = emu.spreadsheet.getSheets()[0];
    const list = [registeredPhoneNumber(1), unregisteredPhoneNumber(2)];
    s.getRange('A1:B3').setValues([
      ['Name', 'Phone'],
      ['Ann', list[0]],
      ['Bob', list[1]],
    ]);
    // Row 4 blank; below it, a note with a number of its own and a formula's output in the results column.
    s.getRange('A5:B5').setValues([['Office line', registeredPhoneNumber(3)]]);
    emu.setFormula(`${s.getName()}!C6`, '=PROSPECT_BALANCE()');
    emu.recalculate();
    const below = cells(4, 9, s.getName());
    emu.spreadsheet.setActiveSheet(s);
    s.getRange('B:B').activate();
    emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    const asked = emu.ui.alerts.map((a) => a.message).join('\n');
    expect(asked).toMatch(/\b2 (phone )?numbers?\b/);
    const checked = emu.fetchLog.filter((r) => r.url.includes('/api/wa/check'));
    expect(checked.map((r) => r.url + (r.payload || '')).join(' ')).not.toContain(
      registeredPhoneNumber(3).slice(1),
    );
    expect(
      s
        .getRange('C2:C3')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['registered', 'not registered']);
    expect(cells(4, 9, s.getName())).toEqual(below);
    emu.recalculate();
    expect(errors()).toEqual([]);
  });

  test('"Add next contact" puts the contact right below the list, and the notes below it move down', () => {
    emu = newAddon(services);
    const contacts = emu.spreadsheet.insertSheet('Contacts');
    contacts.getRange(1, 1, 3, 4).setValues([
      ['Company', 'Name', 'Department', 'E-mail'],
      ['Acme', 'Bo Unce', 'Purchasing', 'bounce.bo@acme.example'],
      ['Acme', 'Di Buyer', 'Purchasing', 'di@acme.example'],
    ]);
    sheets.writeList(emu, LIST, [
      ['Name', 'Email', 'Company'],
      ['Bo', 'bounce.bo@acme.example', 'Acme'],
    ]);
    saveTemplate();
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    services.clock.advance(20_000);
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(String(sheet().getRange('D2').getValue())).toMatch(/^Failed/);
    // Below the list: a blank row, then notes and a formula's output.
    sheet().getRange('A4').setValue('Notes: Acme buys in spring');
    emu.setFormula(`${LIST}!A5`, '=PROSPECT_BALANCE()');
    emu.recalculate();
    const notes = cells(4, 7);
    emu.spreadsheet.setActiveSheet(sheet());
    emu.select('A2:B2');
    emu.run('addNextContactForFailed', [], { kind: 'menu' });
    expect(sheet().getRange('B3').getValue()).toBe('di@acme.example');
    expect(sheet().getRange('A4').getValue()).toBe(''); // still a blank row between the list and the notes
    const moved = cells(5, 8);
    expect(moved.values).toEqual(notes.values);
    expect(moved.formulas[1][0]).toBe('=PROSPECT_BALANCE()');
    emu.recalculate();
    expect(errors()).toEqual([]);
  });

  test('an unlock never writes into a formula of Companies, nor below the companies', () => {
    emu = newAddon(services);
    emu.run('searchCompanies', [{ products: 'a', operator: 'OR', industries: 'e', size: 4 }], {
      kind: 'webapp',
    });
    const companies = sheet('Companies');
    const header = companies.getRange(1, 1, 1, companies.getLastColumn()).getValues()[0];
    const status = header.indexOf('Unlock status') + 1;
    // The user's own formula in row 3's Unlock status; below the companies, a blank row and a formula's output.
    emu.setFormula(`Companies!${String.fromCharCode(64 + status)}3`, '=TRIM("  call first ")');
    emu.setFormula('Companies!A7', '=PROSPECT_BALANCE()');
    emu.recalculate();
    const below = cells(6, 9, 'Companies');
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A2:C4').activate();
    unlock(emu);
    const statuses = companies
      .getRange(2, status, 3, 1)
      .getValues()
      .map((r) => r[0]);
    expect(statuses).toEqual(['Unlocked (1 point)', 'call first', 'Unlocked (1 point)']);
    expect(companies.getRange(3, status).getFormula()).toBe('=TRIM("  call first ")');
    expect(cells(6, 9, 'Companies')).toEqual(below);
    emu.recalculate();
    expect(errors()).toEqual([]);
  });
});

describe("A list's columns are its header's", () => {
  /** Numbers pasted in column L, four blank columns right of the list's last column (G), past its end. */
  function pasteNumbers(s, rows) {
    const numbers = Array.from({ length: rows }, (_, i) => [registeredPhoneNumber(10 + i)]);
    s.getRange(2, 12, rows, 1).setValues(numbers);
    return numbers;
  }
  const column = (s, c) =>
    s
      .getRange(2, c, s.getLastRow() - 1, 1)
      .getValues()
      .map((r) => r[0]);

  test('phone numbers right of a list, longer than it and checked there, make no row of it', () => {
    emu = newAddon(services);
    const s = sendFromSheet(emu, ['ann@example.com', 'bob@example.com']).sheet; // Name, Email, D-G the add-on's
    pasteNumbers(s, 8);
    const numbers = column(s, 12);
    s.getRange('A4:B4').setValues([['Cy', 'cy@example.com']]);
    emu.spreadsheet.setActiveSheet(s);
    s.getRange('L2:L9').activate();
    emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
    emu.run('checkSelectedPhones', [], { kind: 'menu' }); // results in M, under the header "Phone check"
    expect(s.getRange('M1').getValue()).toBe('Phone check');
    const asked = sendAll();
    expect(asked).toMatch(/Send 1 e-mail\b/);
    expect(asked).not.toMatch(/without an e-mail address/);
    const statuses = sheets.rowsOf(emu, LIST).map((r) => r['Mail status']);
    expect(statuses).toEqual(['Accepted', 'Accepted', 'Accepted', '', '', '', '', '']);
    expect(column(s, 12)).toEqual(numbers);
  });

  test('companies and contacts added later go right below the last ones, beside numbers pasted right of them', () => {
    emu = newAddon(services);
    const search = (size) =>
      emu.run('searchCompanies', [{ products: 'a', operator: 'OR', industries: 'e', size }], {
        kind: 'webapp',
      });
    search(2);
    const companies = sheet('Companies');
    const beside = companies.getLastColumn() + 5;
    companies.getRange(2, beside, 9, 1).setValues(Array.from({ length: 9 }, (_, i) => [`note ${i}`]));
    const notes = column(companies, beside);
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A2:A3').activate();
    unlock(emu);
    const contacts = sheet('Contacts');
    const before = contacts.getLastRow() - 1;
    contacts
      .getRange(2, 16, before + 5, 1)
      .setValues(Array.from({ length: before + 5 }, (_, i) => [`n${i}`]));
    const pasted = column(contacts, 16);
    expect(search(4).added).toBe(2);
    expect(
      column(companies, 1)
        .slice(0, 4)
        .every((id) => id !== ''),
    ).toBe(true); // rows 2-5, no gap
    expect(column(companies, beside)).toEqual(notes);
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A4:A5').activate();
    unlock(emu);
    const names = column(contacts, 3); // Name
    const end = names.indexOf('') < 0 ? names.length : names.indexOf('');
    expect(end).toBeGreaterThan(before); // the new contacts follow the first ones, no gap
    expect(names.slice(end).every((name) => name === '')).toBe(true);
    expect(column(contacts, 16).slice(0, pasted.length)).toEqual(pasted);
  });
});

describe('Only the add-on’s ids are mails', () => {
  test('a date or a word in Mail ID / Task ID, inside the list or from a formula below it, is never tracked', () => {
    emu = newAddon(services);
    const { sent } = sendFromSheet(emu, ['jane@example.com', 'joe@example.com']);
    const s = sheet();
    s.insertColumnsBefore(3, 5); // the add-on's columns move right: Task ID is column I, Mail ID J
    const header = s.getRange(1, 1, 1, s.getLastColumn()).getValues()[0];
    const col = (name) => header.indexOf(name) + 1;
    // Inside the list: a typed date in Task ID and Mail ID, a typed word, TRUE.
    s.getRange(4, 1, 3, 2).setValues([
      ['Dated', 'dated@example.com'],
      ['Worded', 'worded@example.com'],
      ['Ticked', 'ticked@example.com'],
    ]);
    s.getRange(4, col('Task ID'), 1, 1).setValue('2024-01-05');
    s.getRange(4, col('Mail ID'), 1, 1).setValue('2024-01-06');
    expect(s.getRange(4, col('Mail ID')).getValue()).toBeInstanceOf(Date);
    s.getRange(5, col('Mail ID'), 1, 1).setValue('pending');
    s.getRange(6, col('Mail ID'), 1, 1).setValue(true);
    // Below the list (row 7 blank): PROSPECT_TASK's output, whose times land in Task ID and Mail ID.
    expect([col('Task ID'), col('Mail ID')]).toEqual([9, 10]);
    emu.setFormula(`${LIST}!B9`, `=PROSPECT_TASK(${sent[0].taskId})`); // created → I10, completed → J10
    emu.recalculate();
    const spilled = s.getRange(10, col('Task ID'), 1, 2).getValues()[0];
    expect(spilled.some((v) => /^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(String(v)))).toBe(true);

    emu.run('refreshTracking', [], { kind: 'menu' });
    const tracking = sheets.rowsOf(emu, 'Tracking');
    expect(tracking.map((r) => r['Mail ID']).sort()).toEqual(sent.map((m) => m.mailId).sort());
    expect(tracking.map((r) => r['Mail status'])).not.toContain('Sent with another key');
    expect(tracking.map((r) => r.Campaign)).not.toContain('(no campaign name)');
    const summary = emu.spreadsheet.getSheetByName('Tracking summary');
    const grid = summary.getDataRange().getDisplayValues();
    expect(grid.flat().join('\n')).not.toMatch(/no campaign name/i);
    const otherKey = grid.find((row) => row.includes('Sent with another key'));
    expect(otherKey[otherKey.indexOf('Sent with another key') + 1]).toBe('0');
    const said = JSON.stringify([emu.ui.toasts, emu.ui.alerts, emu.ui.dialogs.map((d) => d.title)]);
    expect(said).not.toMatch(/another API key|not of a mail this document sent/);
    expect(s.getRange(10, col('Task ID'), 1, 2).getValues()[0]).toEqual(spilled);
    expect(errors()).toEqual([]);
  });
});
