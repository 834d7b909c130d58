'use strict';
// What a new user tripped over in the add-on's words, through the built bundle: each
// message says a thing once, where the user is, and names a cell as the cell shows it.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { unlockQuestion } = require('../support/unlock');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const webapp = (name, ...args) => emu.run(name, args, { kind: 'webapp' });
const balanceRequests = () => emu.fetchLog.filter((r) => r.url.endsWith('/credit/balance')).length;

describe('Settings', () => {
  test('Test connection with a free plan says that sending needs e-mail credits (EDM) or another plan', () => {
    emu = newAddon(services, { outreachKey: DEMO_KEYS.free });
    const report = webapp('testConnection');
    expect(report.ok).toBe(true);
    expect(report.message).toBe(
      `Both services answered.\nThis key has no e-mail credits (EDM), so it cannot send e-mail: sending needs e-mail credits or another plan (${services.sandbox.outreachUrl}/pricing).`,
    );
    expect(report.lines).toContainEqual(['E-mail credits (EDM)', '0 (0 monthly + 0 add-on)']);
  });

  test('a refused key is said in Settings as "the API key above", not as a menu path to Settings', () => {
    emu = newAddon(services, { outreachKey: DEMO_KEYS.revoked, phoneKey: 'not-a-phone-key' });
    const report = webapp('testConnection');
    expect(report.message).toBe(
      'Outreach: The Outreach service refused the API key (missing, invalid or revoked). Check the API key above.\n' +
        'Phone: The phone-check service refused the API key (missing or invalid). Check the API key above.',
    );
    expect(report.message).not.toMatch(/Extensions › Outreach › Settings/);
  });

  test('saving a key tries it with one free request: a refused key is never left at "Saved."', () => {
    emu = newAddon(services, { outreachKey: '' });
    const view = webapp('saveSettings', { outreachApiKey: DEMO_KEYS.revoked });
    expect(view.check).toEqual(['outreach']); // only what changed
    expect(emu.fetchLog).toHaveLength(0); // saving itself asks nothing
    expect(webapp('checkSavedKeys', view.check)).toEqual({
      ok: false,
      message:
        'Saved, but:\nThe Outreach service refused the API key (missing, invalid or revoked). Check the API key above.',
      lines: [],
    });
    expect(balanceRequests()).toBe(1);
    expect(emu.fetchLog).toHaveLength(1);

    const good = webapp('saveSettings', {
      outreachApiKey: DEMO_KEYS.paid,
      phoneApiKey: DEMO_KEYS.phoneEmpty,
    });
    expect(good.check).toEqual(['outreach', 'phone']);
    expect(webapp('checkSavedKeys', good.check)).toMatchObject({
      ok: true,
      message:
        'Saved.\nOutreach: The Outreach service accepted the key.\nPhone: The phone-check service accepted the key (0 credits).',
    });
    // The same values again: nothing changed, nothing to try.
    expect(webapp('saveSettings', { outreachApiKey: DEMO_KEYS.paid }).check).toEqual([]);
  });

  test('a key the service refuses does not replace the working one: the dialog says which key stays', () => {
    emu = newAddon(services); // a working key of each service is saved
    const view = webapp('saveSettings', {
      outreachApiKey: DEMO_KEYS.revoked,
      phoneApiKey: 'not-a-phone-key',
    });
    expect(view.check).toEqual(['outreach', 'phone']);
    const report = webapp('checkSavedKeys', view.check, view.previous);
    expect(report.ok).toBe(false);
    expect(report.message).toBe(
      'Not all saved:\n' +
        'Outreach: The Outreach service refused the API key (missing, invalid or revoked): the key you entered was not saved, and the key saved before (••••paid) stays. Check the new key and paste it again.\n' +
        'Phone: The phone-check service refused the API key (missing or invalid): the key you entered was not saved, and the key saved before (••••hone) stays. Check the new key and paste it again.',
    );
    const settings = webapp('getSettings');
    expect(settings.outreachApiKey).toBe('••••paid');
    expect(settings.phoneApiKey).toBe('••••hone');
    // The working keys are in use again: both services answer.
    expect(webapp('testConnection').ok).toBe(true);
    // Nothing of the refused keys is left to put back later.
    expect(Object.keys(emu.properties.user.getProperties()).filter((k) => k.includes('replaced'))).toEqual(
      [],
    );
  });

  test('a new address where nothing answers is not saved: the dialog says which, and keeps the one before', () => {
    emu = newAddon(services);
    const before = services.sandbox.outreachUrl;
    const nowhere = 'http://127.0.0.1:9/outreach';
    const view = webapp('saveSettings', { outreachBaseUrl: nowhere });
    expect(view.previous.outreachBaseUrl).toBe(before);
    const report = webapp('checkSavedKeys', view.check, view.previous);
    expect(report.ok).toBe(false);
    expect(report.message).toBe(
      `Not all saved:\nThe Outreach service could not be reached at ${nowhere}: check the service address above (or use Restore default addresses) and the connection. ${nowhere} was not saved: the service address stays ${before}.`,
    );
    expect(webapp('getSettings').outreachBaseUrl).toBe(before);
  });

  test('Restore default addresses puts both addresses back and keeps the keys', () => {
    emu = newAddon(services);
    const view = webapp('restoreDefaultAddresses');
    expect(view.outreachBaseUrl).toBe('https://api.outreach.example.com');
    expect(view.phoneBaseUrl).toBe('https://api.phonecheck.example.com');
    expect(view.outreachKeySet).toBe(true);
    expect(view.check).toEqual(['outreach', 'phone']);
    expect(view.previous.outreachBaseUrl).toBe(services.sandbox.outreachUrl);
  });

  test('Test connection says which address could not be reached', () => {
    emu = newAddon(services);
    webapp('saveSettings', { phoneBaseUrl: 'http://127.0.0.1:9/phone' });
    const report = webapp('testConnection');
    expect(report.message).toMatch(
      /^Phone: The phone-check service could not be reached at http:\/\/127\.0\.0\.1:9\/phone: check the service address above/,
    );
  });

  test('a new address where nothing speaks the API is said after saving, pointing at the field above', () => {
    emu = newAddon(services);
    const wrong = `${services.sandbox.outreachUrl}/api/v1`;
    const view = webapp('saveSettings', { outreachBaseUrl: wrong });
    expect(webapp('checkSavedKeys', view.check).message).toBe(
      `Saved, but:\nNothing that speaks the Outreach API answers at ${wrong}: check the service address above.`,
    );
  });
});

test('a plan without permission to send says so once, with where to upgrade', async () => {
  await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
    key: 'free-with-pack',
    plan: 'free',
    addonEdm: 100,
  });
  emu = newAddon(services, { outreachKey: 'free-with-pack' });
  const sheet = emu.spreadsheet.insertSheet('List');
  sheet.getRange('A1:B2').setValues([
    ['Name', 'Email'],
    ['Ann', 'ann@example.com'],
  ]);
  emu.spreadsheet.setActiveSheet(sheet);
  webapp('saveTemplate', { campaign: 'C', subject: 'Hi {{Name}}', body: 'Hello', bodyFormat: 'text' });
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const said = emu.ui.alerts.map((a) => a.message).join('\n');
  expect(said).toContain(
    `Your plan has no permission to send e-mail. Upgrade the plan (${services.sandbox.outreachUrl}/pricing).`,
  );
  expect(said.match(/send e-mail/g)).toHaveLength(1);
});

test('Show mail on a row of a sending sheet without a Mail ID talks about that row, not the Tracking sheet', () => {
  emu = newAddon(services);
  const sheet = emu.spreadsheet.insertSheet('List');
  sheet.getRange('A1:C2').setValues([
    ['Email', 'Mail status', 'Mail ID'],
    ['ann@example.com', '', ''],
  ]);
  emu.spreadsheet.setActiveSheet(sheet);
  emu.select('A2', 'A2');
  emu.ui.queue({ button: 'CANCEL' });
  emu.run('showMailDetail', [], { kind: 'menu' });
  const prompt = emu.ui.prompts.at(-1);
  expect(prompt.message).toBe(
    'Row 2 of "List" has no Mail ID: its mail has not been sent yet (or the service refused it). Select a row that has one and use Show mail again, or type a Mail ID:',
  );
  expect(prompt.message).not.toMatch(/Tracking/);
  expect(emu.fetchLog).toHaveLength(0);
});

test('a date or TRUE in the e-mail column is named as the cell shows it', () => {
  emu = newAddon(services);
  const sheet = emu.spreadsheet.insertSheet('List');
  sheet.getRange('A1:B4').setValues([
    ['Name', 'Email'],
    ['Ann', new Date(Date.UTC(2024, 0, 5))],
    ['Bob', true],
    ['Cy', 'cy@example.com'],
  ]);
  sheet.getRange('B2').setNumberFormat('yyyy-mm-dd');
  emu.spreadsheet.setActiveSheet(sheet);
  webapp('saveTemplate', { campaign: 'C', subject: 'Hi {{Name}}', body: 'Hello', bodyFormat: 'text' });
  emu.ui.queue('NO');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const status = sheet.getRange('C2:C3').getValues().flat();
  expect(status).toEqual([
    'Skipped: "2024-01-05" is not a valid e-mail address',
    'Skipped: "TRUE" is not a valid e-mail address',
  ]);
});

describe('words and numbers', () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const root = path.join(__dirname, '..', '..');
  const sourceFiles = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return sourceFiles(full);
      return /\.(ts|html)$/.test(e.name) ? [full] : [];
    });
  // The sending core is being rewritten in its own branch: its texts are listed for that rewrite.
  const lines = sourceFiles(path.join(root, 'src')).flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((text, i) => ({ where: `${path.relative(root, file)}:${i + 1}`, text }))
      .filter(({ text }) => !/^\s*(\/\/|\*|\/\*)/.test(text)),
  );
  const offending = (pattern) =>
    lines.filter(({ text }) => pattern.test(text)).map((l) => `${l.where}: ${l.text.trim()}`);

  test('every plural goes through the one helper (plural / count), never a hand-made "s" or was/were', () => {
    expect(
      offending(
        /[=!]== 1 \? ['"`](|s|es| was|s were|is|are|was|were|it|them|it is|they are|its|their|has|have)['"`]/,
      ),
    ).toEqual([]);
    expect(offending(/> 1 \? ['"`]s['"`]/)).toEqual([]);
    expect(offending(/\$\{[^}]*=== 1 \? '' : 'e?s'\}/)).toEqual([]);
  });

  test('a count of things is written with count() (thousands separators), not as a bare number', () => {
    const nouns =
      'rows?|mails?|e-mails?|compan(?:y|ies)|numbers?|contacts?|recipients?|address(?:es)?|credits?|tasks?|results?|records?|editors?|points?';
    // "The ${name} address" names a service (its name ends in "service"), it counts nothing.
    const counts = offending(new RegExp(`\\$\\{[A-Za-z_.]+\\} (${nouns})\\b`));
    expect(counts.filter((line) => !line.includes('${name} address'))).toEqual([]);
  });

  test('no date the add-on writes or says shows seconds', () => {
    expect(offending(/[hH]{2}:mm:ss/)).toEqual([]);
  });

  test("the playground names what runs in the menu's words, never a function name", () => {
    const { runningName } = require('../../dev/playground/host');
    const { menusOf } = require('../../dev/playground/emulator-state');
    emu = newAddon(services);
    const menus = menusOf(emu);
    // Every name Apps Script can run: the exports of src/index.ts (menus, pages, triggers, custom functions).
    const index = fs.readFileSync(path.join(root, 'src', 'index.ts'), 'utf8');
    const names = [
      ...index.matchAll(/^export (?:\{ \w+ as (\w+) \}|\{ (\w+) \}|(?:const|function) (\w+))/gm),
    ].map((m) => m[1] || m[2] || m[3]);
    expect(names).toEqual(expect.arrayContaining(['unlockSelectedCompanies', 'jobEndShown', 'saveSettings']));
    for (const name of names) {
      const words = runningName({ op: 'run', name }, { menus });
      // A custom function is named as the user types it (=PROSPECT_TASK); every other name is the code's own.
      if (/^[A-Z_]+$/.test(name)) expect(words).toBe(`=${name}`);
      else expect(words).not.toContain(name);
    }
    expect(runningName({ op: 'run', name: 'unlockSelectedCompanies' }, { menus })).toBe(
      '"Unlock selected companies"',
    );
    expect(runningName({ op: 'run', name: 'jobEndShown' }, { menus })).toBe('the progress dialog (closing)');
  });

  test('Unlock for selected rows that are not all companies to unlock says why the others are not counted', () => {
    emu = newAddon(services);
    emu.run('searchCompanies', [{ products: 'a', operator: 'OR', industries: 'e', size: 6 }], {
      kind: 'webapp',
    });
    const companies = emu.spreadsheet.getSheetByName('Companies');
    const headers = companies.getRange(1, 1, 1, companies.getLastColumn()).getValues()[0];
    const idColumn = headers.indexOf('Search ID') + 1;
    // Row 4 repeats the company of row 2 (the whole row); row 5 has a Search ID this document never saw.
    const width = companies.getLastColumn();
    companies.getRange(4, 1, 1, width).setValues(companies.getRange(2, 1, 1, width).getValues());
    companies.getRange(5, idColumn).setValue('not-a-search-id');
    emu.spreadsheet.setActiveSheet(companies);
    companies.getRange('A2:C7').activate();
    emu.run('unlockSelectedCompanies', [], { kind: 'menu' });
    // The unlock dialog opens; nothing is charged until its Unlock button (confirmUnlock).
    const question = unlockQuestion(emu).text;
    expect(question).toMatch(
      /^Unlock 4 companies of the 6 selected rows \(the other 2: see below\): at most 4 search points/,
    );
    expect(question).toContain('1 row repeats a company of a row above: unlocked once.');
    expect(question).toContain('1 row (5) has no search data to unlock with');
  });

  test("a text mail's unsubscribe line has no raw mailto: address", () => {
    emu = newAddon(services);
    webapp('saveSettings', { unsubscribeAddress: 'stop@seller.example' });
    const sheet = emu.spreadsheet.insertSheet('List');
    sheet.getRange('A1:B2').setValues([
      ['Name', 'Email'],
      ['Ann', 'ann@example.com'],
    ]);
    emu.spreadsheet.setActiveSheet(sheet);
    webapp('saveTemplate', {
      campaign: 'C',
      subject: 'Hi',
      body: 'Hello\n{{Unsubscribe}}',
      bodyFormat: 'text',
    });
    const body = webapp('previewMail', 2).body;
    expect(body).toBe('Hello\nTo unsubscribe, reply to stop@seller.example with the subject "Unsubscribe".');
    expect(body).not.toMatch(/mailto:|\?subject=/);
  });
});
