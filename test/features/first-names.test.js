'use strict';
// Through the built bundle: First name and Last name on Contacts (from the contact's name),
// {{First name}} on any list with a Name column, an unknown placeholder named once, and a preview that says
// it cannot render instead of showing "Hi ,".
const { useServices, newAddon, control, driveToEnd, DEMO_KEYS } = require('../support/harness');
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

// No "Hi ,". An empty First name cell takes the Name's first word; a placeholder that
// would insert nothing (no value, no fallback) holds its row, counted in the confirmation before anything is
// sent, never charged, and named in the row's Mail status and in the preview.
describe('no "Hi ,"', () => {
  const HELD = 'Not sent: {{First name}} is empty; a fallback such as {{First name|there}} fills it';
  const mailsAtSandbox = async () =>
    (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
  const usableEdm = async () => {
    const { outreach } = await control(services.sandbox.outreachUrl, 'GET', '/accounts');
    return outreach[DEMO_KEYS.paid].monthlyEdm + outreach[DEMO_KEYS.paid].addonEdm;
  };
  const sendRequests = () => emu.fetchLog.filter((r) => r.url.endsWith('/emails/send/personalized')).length;

  /** Name, First name, Email: Anna has an empty First name, row 4 has no name at all. */
  function listWithEmptyFirstNames() {
    return sheets.writeList(emu, 'Outreach', [
      ['Name', 'First name', 'Email'],
      ['Dr. Anna Schmidt', '', 'anna@example.com'],
      ['Bob Stone', 'Bobby', 'bob@example.com'],
      ['', '', 'nobody@example.com'],
    ]);
  }

  /** "Send to all unsent rows", recording what the confirmation said and how much had been posted by then. */
  function sendAll() {
    const seen = {};
    emu.ui.respond((request) => {
      if (request.title === 'Send e-mails')
        Object.assign(seen, {
          message: request.message,
          posted: sendRequests(),
          status: rowsOf('Outreach')[2]['Mail status'],
        });
      return request.buttons === 'YES_NO' ? 'YES' : undefined;
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialog && emu.ui.dialog.title === 'Sending e-mails') driveToEnd(emu, 'send');
    return seen;
  }

  test("an empty First name cell takes the Name's first word; a row with no name at all is held, counted before anything is sent, not charged", async () => {
    emu = newAddon(services);
    listWithEmptyFirstNames();
    const state = saveTemplate({ subject: 'Hello {{First name}}', body: 'Hi {{First name}},\nour offer.' });
    expect(state.problems).toEqual([]);
    const before = await usableEdm();
    const seen = sendAll();
    // The confirmation counted the held row before anything was posted; its row already said why.
    expect(seen.posted).toBe(0);
    expect(seen.message).toMatch(/^Send 2 e-mails from "Outreach"/);
    expect(seen.message).toContain(
      'Not sent (nothing charged; "Mail status" says so on each): 1 row where {{First name}} is empty. Fill the cells, or give the placeholder a fallback in Compose e-mail… such as {{First name|there}}.',
    );
    expect(seen.message).toMatch(/Cost: 2 e-mail credits/);
    expect(seen.status).toBe(HELD);
    const mails = await mailsAtSandbox();
    expect(mails.map((m) => [m.recipientEmail, m.subject, m.content]).sort()).toEqual([
      ['anna@example.com', 'Hello Anna', 'Hi Anna,\nour offer.'],
      ['bob@example.com', 'Hello Bobby', 'Hi Bobby,\nour offer.'],
    ]);
    expect(mails.some((m) => /Hi ,|Hello $/.test(m.content + m.subject))).toBe(false);
    const rows = rowsOf('Outreach');
    expect(rows.map((r) => r['Mail status'])).toEqual(['Accepted', 'Accepted', HELD]);
    expect(rows[2]['Mail ID']).toBe('');
    expect(before - (await usableEdm())).toBe(2); // the two mails sent, not the held row
  });

  test("a fallback fills the gap and sends the row; an empty fallback ({{Title|}}) is the user's choice, not a gap", async () => {
    emu = newAddon(services);
    listWithEmptyFirstNames().getRange('D1').setValue('Title'); // a column of empty cells
    saveTemplate({ subject: 'Hello', body: 'Hi {{First name|there}},{{Title|}} our offer.' });
    const seen = sendAll();
    expect(seen.message).not.toMatch(/Not sent/);
    const mails = await mailsAtSandbox();
    expect(mails.map((m) => [m.recipientEmail, m.content]).sort()).toEqual([
      ['anna@example.com', 'Hi Anna, our offer.'],
      ['bob@example.com', 'Hi Bobby, our offer.'],
      ['nobody@example.com', 'Hi there, our offer.'],
    ]);
  });

  test('every placeholder that would be empty is named: in the row, in the confirmation, and once the cell is filled the row goes', async () => {
    emu = newAddon(services);
    const target = sheets.writeList(emu, 'Outreach', [
      ['Name', 'Email', 'Company'],
      ['Anna Schmidt', 'anna@example.com', ''],
      ['', 'nobody@example.com', ''],
      ['Bob Stone', 'bob@example.com', 'ACME'],
    ]);
    saveTemplate({ subject: 'For {{company}}', body: 'Hi {{First name}}, about {{Company}}.' });
    const seen = sendAll();
    expect(seen.message).toContain(
      'Not sent (nothing charged; "Mail status" says so on each): 2 rows where a placeholder is empty ({{company}}: 2 rows, {{First name}}: 1 row). Fill the cells, or give the placeholder a fallback in Compose e-mail… such as {{company|your company}}.',
    );
    expect(seen.message).toMatch(/Cost: 1 e-mail credit\b/);
    const statuses = rowsOf('Outreach').map((r) => r['Mail status']);
    expect(statuses).toEqual([
      'Not sent: {{company}} is empty; a fallback such as {{company|your company}} fills it',
      'Not sent: {{company}}, {{First name}} are empty; a fallback such as {{company|your company}} fills each',
      'Accepted',
    ]);
    // Filled in, the row is sent by the next "Send to all unsent rows"; the other stays held.
    target.getRange('C2').setValue('Schmidt GmbH');
    const again = sendAll();
    expect(again.message).toMatch(/^Send 1 e-mail from/);
    expect((await mailsAtSandbox()).map((m) => m.subject).sort()).toEqual(['For ACME', 'For Schmidt GmbH']);
    expect(rowsOf('Outreach')[0]['Mail status']).toBe('Accepted');
  });

  test('every row held: nothing to send, nothing posted', () => {
    emu = newAddon(services);
    sheets.writeList(emu, 'Outreach', [
      ['Name', 'Email'],
      ['', 'nobody@example.com'],
    ]);
    saveTemplate({ body: 'Hi {{Name}},' });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const alert = emu.ui.alerts.at(-1);
    expect(alert.title).toBe('Nothing to send');
    expect(alert.message).toMatch(/Not sent \(nothing charged.*\): 1 row where \{\{Name\}\} is empty/);
    expect(sendRequests()).toBe(0);
    expect(rowsOf('Outreach')[0]['Mail status']).toBe(
      'Not sent: {{Name}} is empty; a fallback such as {{Name|there}} fills it',
    );
  });

  test('the preview of a held row shows the placeholder where the gap would be, and says why; a test mail of it is refused', () => {
    emu = newAddon(services);
    listWithEmptyFirstNames();
    saveTemplate({ subject: 'Hello {{First name}}', body: 'Hi {{First name}},' });
    expect(webapp('previewMail', 2)).toMatchObject({ subject: 'Hello Anna', body: 'Hi Anna,', problems: [] });
    const held = webapp('previewMail', 4);
    expect(held).toMatchObject({ subject: 'Hello {{First name}}', body: 'Hi {{First name}},' });
    expect(held.problems).toEqual([
      'Row 4: {{First name}} is empty; a fallback such as {{First name|there}} fills it.',
    ]);
    // The row's problem is said once, in the preview above; the refusal points to it.
    expect(() => webapp('sendTestMail', 4, 'me@example.com')).toThrow(
      /the problem of row 4, listed under its preview/,
    );
    expect(sendRequests()).toBe(0);
  });
});
