'use strict';
// Request and answer hygiene through the built bundle: control characters in a nickname, a subject or a
// campaign never reach the service (cleaned, not refused), and an API key the service echoes back in an
// error (lower-cased, cut short) never reaches what the user sees or the shared cells.
const { useServices, control, newAddon } = require('../support/harness');
const sheets = require('../support/sheets');
const { listWithMail, sendFromSheet } = require('../support/sent-mail');
const { registeredPhoneNumber } = require('../../dev/sandbox/rules');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

/** Unicode control and format characters, and the line and paragraph separators. */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const LIST = 'Outreach';

const rowsOf = () => sheets.rowsOf(emu, LIST);
const sendPayloads = () =>
  emu.fetchLog.filter((r) => r.url.endsWith('/emails/send/personalized')).map((r) => JSON.parse(r.payload));

describe('control characters are cleaned before any request', () => {
  const NAME = `Ann\r\nBcc: evil@x.com${'x'.repeat(20000)}`;
  const template = {
    campaign: 'Spring\r\noffer\u200B',
    subject: 'Hello\tfrom {{Company}}',
    body: 'Dear {{Name|friend}},\nour offer.',
    bodyFormat: 'text',
  };

  /** Ann's row with a 20,000-character name holding "\r\nBcc:", her company with control characters. */
  function dirtyList() {
    emu = newAddon(services);
    listWithMail(
      emu,
      LIST,
      [
        ['Name', 'Email', 'Company'],
        [NAME, 'ann@example.com', 'Acme\u2028Corp\u0007'],
      ],
      template,
    );
  }

  test('a Name cell with "\\r\\nBcc:" and 20,000 characters, a campaign with a line break: the row is sent, the payload is clean, the nickname at most 200 characters', () => {
    dirtyList();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const [payload] = sendPayloads();
    expect(payload.emails).toHaveLength(1);
    const [mail] = payload.emails;
    for (const value of [payload.task_subject, mail.subject, mail.nickname, mail.email]) {
      expect(value).not.toMatch(CONTROL);
    }
    expect(payload.task_subject).toMatch(/^Spring offer · /);
    expect(mail.subject).toBe('Hello from Acme Corp');
    expect(mail.nickname.startsWith('Ann Bcc: evil@x.com')).toBe(true);
    expect(mail.nickname.length).toBeLessThanOrEqual(200);
    expect(mail.content).toContain('\n'); // the body keeps its line breaks
    expect(rowsOf()[0]['Mail status']).toBe('Accepted');
  });

  test('the compose preview shows the subject and nickname as sent, and the test mail sends them so', () => {
    dirtyList();
    const preview = emu.run('previewMail', [2], { kind: 'webapp' });
    expect(preview.subject).toBe('Hello from Acme Corp');
    expect(preview.nickname).toMatch(/^Ann Bcc: evil@x\.comx+$/);
    expect(preview.nickname).toHaveLength(200);
    emu.run('sendTestMail', [2, 'me@example.com'], { kind: 'webapp' });
    const [payload] = sendPayloads();
    expect(payload.emails[0]).toMatchObject({ subject: preview.subject, nickname: preview.nickname });
    expect(payload.task_subject).not.toMatch(CONTROL);
  });
});

describe('an API key echoed by the service is never shown', () => {
  // Mixed case, so an echo lower-cased differs from the key as stored.
  const KEY = 'SbxHygieneKey0123456789AbCdEfGhIjKlMn';
  const PHONE_KEY = 'SbxPhoneKeyZyXw9876543210MnOpQrStUv';

  /** Every 8-character piece of both keys, lower-cased. */
  const pieces = [KEY, PHONE_KEY].flatMap((key) =>
    Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8).toLowerCase()),
  );
  function expectNoKeyIn(text) {
    const lower = text.toLowerCase();
    const found = pieces.filter((piece) => lower.includes(piece));
    expect(found).toEqual([]);
  }
  function expectNoKeyShown() {
    expectNoKeyIn(JSON.stringify(emu.ui));
    expectNoKeyIn(JSON.stringify(emu.snapshot()));
    expectNoKeyIn(emu.logs.map((l) => JSON.stringify(l)).join('\n'));
    for (const request of emu.fetchLog) expectNoKeyIn(request.url);
  }

  async function addonWithOwnKeys() {
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: KEY,
      monthlyPoints: 100,
      monthlyEdm: 1000,
    });
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: PHONE_KEY, credits: 100 });
    return newAddon(services, { outreachKey: KEY, phoneKey: PHONE_KEY });
  }
  const echoFault = (spec) =>
    control(services.sandbox.outreachUrl, 'POST', '/faults', { kind: 'status', echoKey: true, ...spec });

  test('the sandbox fault echoes the key lower-cased and a 20-character fragment (the test is real)', async () => {
    emu = await addonWithOwnKeys();
    await echoFault({ path: '/api/v1/credit/balance', status: 400, slug: 'bad-request' });
    const answer = await fetch(`${services.sandbox.outreachUrl}/api/v1/credit/balance`, {
      headers: { Authorization: `ApiKey ${KEY}` },
    }).then((r) => r.json());
    expect(answer.detail).toContain(KEY.toLowerCase());
    expect(answer.detail).toContain(KEY.slice(2, 22));
  });

  test('a send refused with a 400 whose detail echoes the key: the alert and the Mail status cells hide it', async () => {
    emu = await addonWithOwnKeys();
    listWithMail(
      emu,
      LIST,
      [
        ['Name', 'Email'],
        ['Ann', 'ann@example.com'],
        ['Bob', 'bob@example.com'],
      ],
      { campaign: 'Spring', subject: 'Hello {{Name}}', body: 'Hi', bodyFormat: 'text' },
    );
    await echoFault({ path: '/api/v1/emails/send/personalized', status: 400, slug: 'bad-request' });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const statuses = rowsOf().map((r) => r['Mail status']);
    expect(statuses.every((s) => /rejected the request: .*\[key hidden\]/.test(s))).toBe(true);
    expectNoKeyShown();
  });

  test('a refused key (401 echoing it) at the confirmation, and a Tracking refresh whose answers echo it: the alert and the Tracking summary hide it', async () => {
    emu = await addonWithOwnKeys();
    sendFromSheet(emu, ['amy@example.com']);
    await echoFault({ path: '/api/v1/emails/', method: 'GET', status: 400, slug: 'bad-request', count: 5 });
    emu.run('refreshTracking', [], { kind: 'menu' });
    await control(services.sandbox.outreachUrl, 'DELETE', '/faults');
    await echoFault({ path: '/api/v1/credit/balance', status: 401, slug: 'unauthorized', count: 5 });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const shown = JSON.stringify(emu.ui) + JSON.stringify(emu.snapshot());
    expect(shown).toContain('[key hidden]');
    expectNoKeyShown();
  });

  test('a phone check whose failure echoes the phone key: the status cells hide it', async () => {
    emu = await addonWithOwnKeys();
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      kind: 'status',
      status: 500,
      echoKey: true,
      service: 'phone',
      path: '/',
      count: 20,
    });
    const sheet = emu.spreadsheet.getSheets()[0];
    sheet.getRange('A1:A3').setValues([[registeredPhoneNumber(0)], [registeredPhoneNumber(1)], ['']]);
    emu.spreadsheet.setActiveSheet(sheet);
    sheet.getRange('A1:A2').activate();
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(emu.fetchLog.some((r) => r.status === 500)).toBe(true); // the echoing answers came
    expect(emu.ui.alerts.at(-1).message).toMatch(/temporary failure/);
    expectNoKeyShown();
  });
});
