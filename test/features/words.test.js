'use strict';
// What a new user tripped over in the add-on's words (issue 21, item 6), through the built bundle: each
// message says a thing once, where the user is, and names a cell as the cell shows it.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');

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
    const view = webapp('saveSettings', { outreachApiKey: DEMO_KEYS.revoked, phoneApiKey: 'not-a-phone-key' });
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
    expect(Object.keys(emu.properties.user.getProperties()).filter((k) => k.includes('replaced'))).toEqual([]);
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
