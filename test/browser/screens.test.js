'use strict';
/* global document */ // inside evaluate callbacks, which run in the browser
// What the sidebar, the dialogs and the playground show is the current state and fits on screen:
// each new action clears what it replaces, a dialog shows all it holds at the size Sheets gives it, what
// the add-on can check itself is checked before the round trip, and the status line follows Settings.
const { usePlayground, screenshot, clickMenuItem, waitIdle, waitUntilNothingClipped } = require('./helpers');
const { control, DEMO_KEYS } = require('../support/harness');

let page;

const env = usePlayground(undefined, 30000);
beforeAll(() => (page = env.page));

afterEach(async () => {
  expect(env ? env.consoleErrors : []).toEqual([]);
  if (!env) return;
  // Each test starts from the playground's settings, whatever the last one saved.
  await control(env.playground.outreachUrl, 'DELETE', '/faults');
  await env.playground.emulator.call({
    op: 'run',
    name: 'saveSettings',
    kind: 'webapp',
    args: [
      {
        outreachApiKey: DEMO_KEYS.paid,
        outreachBaseUrl: env.playground.outreachUrl,
        phoneApiKey: DEMO_KEYS.phone,
        phoneBaseUrl: env.playground.phoneUrl,
      },
    ],
  });
  if (await page.locator('#html-dialog-layer').isVisible())
    await closeDialog(page.frameLocator('#html-dialog-frame'));
  if (await page.locator('#sidebar').isVisible()) await page.locator('#sidebar-close').click();
});

async function openSettings() {
  await clickMenuItem(page, 'Settings…');
  await page.locator('#html-dialog-layer').waitFor({ state: 'visible' });
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#outreachApiKey[placeholder^="Saved"]').waitFor();
  return dialog;
}

async function closeDialog(dialog) {
  await dialog.locator('#close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await waitIdle(page);
}

/** Types into the Settings fields and saves; waits for "Saved…" and what the service said of a new key. */
async function saveSettings(dialog, fields) {
  for (const [id, value] of Object.entries(fields)) await dialog.locator(`#${id}`).fill(value);
  await dialog.locator('#save').click();
  await dialog.locator('#message.ok, #message.error', { hasText: /^(Saved|Not all saved)/ }).waitFor();
  return shown(dialog, 'message');
}

async function testConnection(dialog) {
  await dialog.locator('#test').click();
  await dialog.locator('#message.ok, #message.error').waitFor();
  return dialog.locator('#message').textContent();
}

async function openSidebar() {
  await clickMenuItem(page, 'Search companies…');
  await page.locator('#sidebar').waitFor({ state: 'visible' });
  const sidebar = page.frameLocator('#sidebar-frame');
  await sidebar.locator('#products').waitFor();
  return sidebar;
}

/** Saves settings as the dialog's Save does, without the check that puts back a refused key. */
const saveDirectly = (settings) =>
  env.playground.emulator.call({ op: 'run', name: 'saveSettings', kind: 'webapp', args: [settings] });

const shown = async (frame, id) => ((await frame.locator(`#${id}`).textContent()) || '').trim();

test('the status line shows the addresses and keys Settings saved, not the ones the playground started with', async () => {
  const status = page.locator('#status');
  await expect(status.textContent()).resolves.toContain(env.playground.phoneUrl);
  const dialog = await openSettings();
  const otherPhoneUrl = `${env.playground.phoneUrl}/moved`;
  await saveSettings(dialog, { phoneBaseUrl: otherPhoneUrl, phoneApiKey: DEMO_KEYS.phoneEmpty });
  await closeDialog(dialog);
  await page.locator('#status', { hasText: otherPhoneUrl }).waitFor();
  const text = await status.textContent();
  expect(text).toContain(DEMO_KEYS.phoneEmpty);
  expect(text).not.toContain(` / ${DEMO_KEYS.phone} `);
  await screenshot(page, 'screens-01-status-line-after-settings');

  // A key of the user's own is never printed: only its last 4 characters.
  await control(env.playground.phoneUrl, 'POST', '/accounts', { key: 'my-own-phone-key-9876', credits: 5 });
  const again = await openSettings();
  await saveSettings(again, {
    phoneBaseUrl: env.playground.phoneUrl,
    phoneApiKey: 'my-own-phone-key-9876',
  });
  await closeDialog(again);
  await page.locator('#status', { hasText: '••••9876' }).waitFor();
  expect(await status.textContent()).not.toContain('my-own-phone-key');
});

test('Settings shows every line at the size Sheets gives it: on opening, after Test connection, after errors', async () => {
  const dialog = await openSettings();
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  expect(await testConnection(dialog)).toBe('Both services answered.');
  await dialog.locator('#status dt', { hasText: 'Phone credits' }).waitFor();
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  await screenshot(page, 'screens-02-settings-balances');

  // Both services failing: two error paragraphs (keys saved past the dialog, which would not keep them).
  await saveDirectly({ outreachApiKey: DEMO_KEYS.revoked, phoneApiKey: 'not-a-real-phone-key' });
  expect(await testConnection(dialog)).toMatch(/^Outreach: .+\nPhone: .+/s);
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  await screenshot(page, 'screens-03-settings-two-errors');
});

test('the dialogs are drawn in Arial as Sheets users see it, from the font the playground brings, not the machine', async () => {
  const dialog = await openSettings();
  const fonts = await dialog.locator('body').evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family} ${f.weight}`);
  });
  expect(fonts).toEqual(expect.arrayContaining(['Arial 400', 'Arial 700']));
});

test("a dialog whose content is taller in the user's fonts than the size Sheets gives it grows to fit, on opening", async () => {
  const dialog = await openSettings();
  const frame = page.locator('#html-dialog-frame');
  const before = (await frame.boundingBox()).height;
  // A font larger than the one the dialog's size was chosen for (a user's own fonts or zoom).
  await dialog.locator('body').evaluate((body) => {
    body.style.fontSize = '16px';
  });
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  expect((await frame.boundingBox()).height).toBeGreaterThan(before);
  await screenshot(page, 'screens-02b-settings-larger-font');
});

test('saving a key the service refuses keeps the working one and says so: the key is tried at once, free', async () => {
  const dialog = await openSettings();
  const before = await control(env.playground.outreachUrl, 'GET', '/stats');
  const refused = await saveSettings(dialog, { outreachApiKey: DEMO_KEYS.revoked });
  expect(refused).toBe(
    'Not all saved:\nThe Outreach service refused the API key (missing, invalid or revoked): the key you entered was not saved, and the key saved before (••••paid) stays. Check the new key and paste it again.',
  );
  await expect(dialog.locator('#message.error').count()).resolves.toBe(1);
  await dialog.locator('#outreachApiKey[placeholder="Saved: ••••paid"]').waitFor();
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  await screenshot(page, 'screens-03b-settings-refused-key');

  await expect(saveSettings(dialog, { outreachApiKey: DEMO_KEYS.low })).resolves.toBe(
    'Saved. The Outreach service accepted the key.',
  );
  const after = await control(env.playground.outreachUrl, 'GET', '/stats');
  expect(after.total - before.total).toBe(2); // one balance request per save
  // Nothing changed: nothing to try.
  await expect(saveSettings(dialog, {})).resolves.toBe('Saved.');
});

test('Settings: a new action clears the old error and the old balances', async () => {
  const dialog = await openSettings();
  await testConnection(dialog);
  await expect(dialog.locator('#status').isVisible()).resolves.toBe(true);

  // A save refused before the round trip: only its own error is left.
  await dialog.locator('#outreachBaseUrl').fill('not an address');
  await dialog.locator('#save').click();
  await expect(shown(dialog, 'outreachBaseUrl-error')).resolves.toMatch(/https:\/\//);
  await expect(dialog.locator('#status').isVisible()).resolves.toBe(false);
  await expect(shown(dialog, 'message')).resolves.toBe('');

  // A failed Test connection, then a save: the old red error and the balances of the old key go.
  await dialog.locator('#outreachBaseUrl').fill(env.playground.outreachUrl);
  await saveDirectly({ outreachApiKey: DEMO_KEYS.revoked });
  await expect(testConnection(dialog)).resolves.toMatch(/^Outreach: /);
  await saveSettings(dialog, { outreachApiKey: DEMO_KEYS.paid });
  await expect(dialog.locator('#message.error').count()).resolves.toBe(0);
  await expect(dialog.locator('#status').isVisible()).resolves.toBe(false);
  await screenshot(page, 'screens-04-settings-after-save');
});

test('the search sidebar checks country codes before sending, and each search clears what the last one showed', async () => {
  const sidebar = await openSidebar();
  expect(await waitUntilNothingClipped(sidebar, 'x')).toEqual([]);
  await sidebar.locator('#products').fill('a');
  await sidebar.locator('#industries').fill('e');
  await sidebar.locator('#operator').selectOption('OR');
  // Spaces separate codes as commas do.
  await sidebar.locator('#includeCountries').fill('BE NO GB');
  await sidebar.locator('#search').click();
  await sidebar.locator('#message.ok').waitFor({ timeout: 20000 });
  await expect(shown(sidebar, 'progress')).resolves.toMatch(/^Loaded \d+ of \d+\.$/);
  await waitIdle(page);

  // "UK" is answered on the spot, without a round trip; the old summary and count do not stay beside it.
  const requestsBefore = await control(env.playground.outreachUrl, 'GET', '/stats');
  await sidebar.locator('#includeCountries').fill('DE UK');
  await sidebar.locator('#search').click();
  await expect(shown(sidebar, 'includeCountries-error')).resolves.toBe(
    '"UK" is not an ISO country code: use GB.',
  );
  // Several: in the order typed, the same words as the server's check.
  await sidebar.locator('#includeCountries').fill('XX UK YY');
  await sidebar.locator('#search').click();
  await expect(shown(sidebar, 'includeCountries-error')).resolves.toBe(
    '"XX", "YY" are not ISO country codes (two letters, e.g. DE, US). "UK" is not an ISO country code: use GB.',
  );
  await expect(shown(sidebar, 'message')).resolves.toBe('');
  await expect(shown(sidebar, 'progress')).resolves.toBe('');
  await expect(sidebar.locator('#more').isDisabled()).resolves.toBe(true);
  await expect(control(env.playground.outreachUrl, 'GET', '/stats')).resolves.toEqual(requestsBefore);
  expect(await waitUntilNothingClipped(sidebar, 'x')).toEqual([]);
  await screenshot(page, 'screens-05-sidebar-uk');

  // A search that fails after the round trip: its error alone, no count from the search before.
  await sidebar.locator('#includeCountries').fill('DE FR');
  await sidebar.locator('#search').click();
  await sidebar.locator('#message.ok').waitFor({ timeout: 20000 });
  await waitIdle(page);
  await control(env.playground.outreachUrl, 'POST', '/faults', {
    path: '/api/v1/companies/search',
    kind: 'status',
    status: 400,
  });
  await sidebar.locator('#includeCountries').fill('GB');
  await sidebar.locator('#search').click();
  await sidebar.locator('#message.error').waitFor({ timeout: 30000 });
  await expect(shown(sidebar, 'progress')).resolves.toBe('');
  await expect(sidebar.locator('#more').isDisabled()).resolves.toBe(true);
  await screenshot(page, 'screens-06-sidebar-error');
});

test('the search sidebar shows the words the dialogs use: a refused key, a wrong address, a used-up quota', async () => {
  const sidebar = await openSidebar();
  const searchFails = async () => {
    await sidebar.locator('#products').fill('solar');
    await sidebar.locator('#search').click();
    await sidebar.locator('#message.error').waitFor({ timeout: 20000 });
    await waitIdle(page);
    const text = await shown(sidebar, 'message');
    expect(text).not.toMatch(/ answered \d|POST|search-advanced/); // the transport's own text
    return text;
  };
  await saveDirectly({ outreachApiKey: DEMO_KEYS.revoked });
  await expect(searchFails()).resolves.toBe(
    'The Outreach service refused the API key (missing, invalid or revoked). Check the API key in Extensions › Outreach › Settings.',
  );
  const wrong = `${env.playground.outreachUrl}/api/v1`;
  await saveDirectly({ outreachApiKey: DEMO_KEYS.paid, outreachBaseUrl: wrong });
  await expect(searchFails()).resolves.toBe(
    `Nothing that speaks the Outreach API answers at ${wrong}: check the service address. It is in Extensions › Outreach › Settings.`,
  );
  await saveDirectly({ outreachApiKey: DEMO_KEYS.quota, outreachBaseUrl: env.playground.outreachUrl });
  await expect(searchFails()).resolves.toMatch(
    /^The Outreach service's quota is used up: Daily quota exceeded; it resets at 00:00 UTC\. Try again after \d{4}-\d\d-\d\d 00:00 UTC\.$/,
  );
  expect(await waitUntilNothingClipped(sidebar, 'x')).toEqual([]);
  await screenshot(page, 'screens-07-sidebar-quota');
});
