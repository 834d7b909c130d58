'use strict';
// Through the built bundle: "Add next contact for failed mails". Mails are sent and
// bounce at the sandbox (a local part starting with "bounce"), Refresh tracking marks the rows Failed, and
// the menu action appends, for each selected failed row, the next contact of the same company from Contacts
// (same Department first; never one already on the list or on Do not contact), marked as replacing it.
const { useServices, newAddon } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const sheets = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => sheets.numberedRowsOf(emu, name);

const CONTACT_HEADERS = ['Company', 'Company hash ID', 'Name', 'Title', 'Department', 'E-mail'];
/** The Contacts sheet as an unlock leaves it. */
function contacts(rows) {
  const target = emu.spreadsheet.insertSheet('Contacts');
  target.getRange(1, 1, rows.length + 1, CONTACT_HEADERS.length).setValues([CONTACT_HEADERS, ...rows]);
}

/** A list (Company hash ID optional), sent to the end, the service clock moved on and tracking refreshed. */
function sentList(header, rows, name = 'Leads') {
  listWithMail(emu, name, [header, ...rows], {
    campaign: 'Spring',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
  });
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  services.clock.advance(20_000);
  emu.run('refreshTracking', [], { kind: 'menu' });
  emu.spreadsheet.setActiveSheet(sheet(name));
}

const ACME = [
  ['Acme', 'h-acme', 'Bo Unce', 'Buyer', 'Purchasing', 'bounce.bo@acme.example'],
  ['Acme', 'h-acme', 'Cy Sales', 'Sales lead', 'Sales', 'cy@acme.example'],
  ['Acme', 'h-acme', 'Di Buyer', 'Head of purchasing', 'Purchasing', 'di@acme.example'],
  ['Acme', 'h-acme', 'Ed Buyer', 'Purchasing assistant', 'Purchasing', 'ed@acme.example'],
  ['Beta', 'h-beta', 'Flo Bounce', 'Owner', 'Management', 'bounce.flo@beta.example'],
  ['Gmail user', 'h-g1', 'Gus', 'Owner', 'Management', 'bounce.gus@gmail.com'],
  ['Other gmail', 'h-g2', 'Hal', 'Owner', 'Management', 'hal@gmail.com'],
];

test('a bounced row gets the next contact of its company, same Department first, marked as replacing it', () => {
  emu = newAddon(services);
  contacts(ACME);
  // di@acme is on Do not contact: the next purchaser, ed, comes before cy of Sales.
  emu.spreadsheet
    .insertSheet('Do not contact')
    .getRange('A1:B2')
    .setValues([
      ['E-mail', 'Reason'],
      ['di@acme.example', 'asked'],
    ]);
  emu.spreadsheet.setActiveSheet(sheet('Contacts'));
  sentList(
    ['Name', 'Email', 'Department'],
    [
      ['Bo', 'bounce.bo@acme.example', 'Purchasing'],
      ['Flo', 'bounce.flo@beta.example', 'Management'],
      ['Gus', 'bounce.gus@gmail.com', 'Management'],
      ['Kim', 'kim@fine.example', ''],
    ],
  );
  expect(rowsOf('Leads').map((r) => String(r['Mail status']).split(':')[0])).toEqual([
    'Failed',
    'Failed',
    'Failed',
    'Delivered',
  ]);
  emu.select('A2:B5');
  // The question names each new address and the row it takes before anything is written: No adds nothing.
  emu.ui.queue('NO');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  const question = emu.ui.alerts.at(-1);
  expect(question).toMatchObject({ title: 'Next contact after a bounce', buttons: 'YES_NO' });
  expect(question.message).toBe(
    [
      'Add 1 contact to "Leads" as row 6, replacing a failed mail of the same company?',
      '• row 6: ed@acme.example (Ed Buyer), replacing bounce.bo@acme.example (row 2)',
      'Nothing is sent or charged now: you send the new rows as any unsent row.',
      '',
      'No contact found for 2 rows:',
      '• row 3 (bounce.flo@beta.example): no other contact of its company on Contacts',
      '• row 4 (bounce.gus@gmail.com): no other contact of its company on Contacts',
      'Unlock the company again, or search for more contacts, to find others (Search companies…).',
      '1 selected row whose mail did not fail was left as it is.',
    ].join('\n'),
  );
  expect(rowsOf('Leads')).toHaveLength(4);
  expect(emu.ui.toasts.at(-1).message).toBe('No contact was added.');
  expect(sheet('Leads').getRange(1, 1, 1, sheet('Leads').getLastColumn()).getValues()[0]).not.toContain(
    'Replaces',
  );

  emu.ui.queue('YES');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  const rows = rowsOf('Leads');
  expect(rows).toHaveLength(5);
  // Bo's company is known from Contacts (no hash column on the list): ed, same Department, di being listed.
  expect(rows[4]).toMatchObject({
    Name: 'Ed Buyer',
    Email: 'ed@acme.example',
    Department: 'Purchasing',
    'Mail status': '',
    Replaces: 'bounce.bo@acme.example (row 2, failed)',
  });
  expect(emu.ui.toasts.at(-1).message).toMatch(/^1 contact added \(row 6\)/);
  // Beta has no one else; Gus's company would be a gmail.com domain, never taken for a company, but
  // Contacts knows his hash ID, and that company has no one else either (hal is another company): the
  // question above said both.

  // Run again: Bo is already replaced; nothing is added twice.
  emu.select('A2:A2');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  expect(rowsOf('Leads')).toHaveLength(5);
  expect(emu.ui.alerts.at(-1).message).toMatch(/row 2 \(bounce\.bo@acme\.example\): already replaced/);
});

test('by Company hash ID where the list has it, by domain where Contacts does not know the address', () => {
  emu = newAddon(services);
  contacts(ACME);
  // Bo's mail from another list of the document failed: he is never anyone's next contact.
  sentList(['Name', 'Email'], [['Bo', 'bounce.bo@acme.example']], 'Earlier');
  sentList(
    ['Name', 'Email', 'Company hash ID'],
    [
      ['X', 'bounce.x@elsewhere.example', 'h-acme'], // the hash says Acme whatever the domain
      ['Y', 'bounce.y@acme.example', ''], // unknown to Contacts: Acme by its domain
    ],
  );
  emu.select('A2:A3');
  emu.ui.queue('YES');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  expect(emu.ui.alerts.at(-1).message).toMatch(
    /^Add 2 contacts to "Leads" as rows 4–5, .*\n• row 4: cy@acme\.example \(Cy Sales\), replacing bounce\.x@elsewhere\.example \(row 2\)\n• row 5: di@acme\.example \(Di Buyer\), replacing bounce\.y@acme\.example \(row 3\)\n/,
  );
  const added = rowsOf('Leads').slice(2);
  expect(added.map((r) => [r.Email, r['Company hash ID'], r.Replaces])).toEqual([
    ['cy@acme.example', 'h-acme', 'bounce.x@elsewhere.example (row 2, failed)'],
    ['di@acme.example', 'h-acme', 'bounce.y@acme.example (row 3, failed)'],
  ]);
  // The new rows are unsent rows like any other: the next send mails them, and only them.
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const statuses = rowsOf('Leads').map((r) => String(r['Mail status']).split(':')[0]);
  expect(statuses).toEqual(['Failed', 'Failed', 'Accepted', 'Accepted']);
});

test('says what to do when nothing selected failed, or there is no Contacts sheet', () => {
  emu = newAddon(services);
  sentList(['Name', 'Email'], [['Kim', 'kim@fine.example']]);
  emu.select('A2:B2');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  expect(emu.ui.alerts.at(-1).message).toMatch(/no Contacts sheet.*unlock companies first/i);
  contacts(ACME);
  emu.spreadsheet.setActiveSheet(sheet('Leads'));
  emu.select('A2:B2');
  emu.run('addNextContactForFailed', [], { kind: 'menu' });
  expect(emu.ui.alerts.at(-1).message).toMatch(/None of the selected rows has a failed mail/);
  expect(rowsOf('Leads')).toHaveLength(1);
});
