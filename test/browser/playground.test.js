'use strict';
/* global document */ // inside page.waitForFunction callbacks, which run in the browser
// The add-on in a real browser: the playground page (npm start) driven by clicks and typing, the real
// dist/Code.js and dist/*.html running in the emulator against the sandbox. One user flow, step by step;
// each step leaves a screenshot in test-output/browser/. A step whose entry point is not in the built
// bundle yet is skipped (its name says why); every step that runs asserts on what the page shows.
const {
  builtEntryPoints,
  usePlayground,
  screenshot,
  clickMenuItem,
  cell,
  cellText,
  waitForCell,
  waitIdle,
  typeInCell,
  sheetTabs,
  openTab,
  answerUnlockDialog,
  waitForProgressDialogOrToast,
} = require('./helpers');

const built = builtEntryPoints();
/** `test`, or `test.skip` with the reason in its name when the bundle lacks one of `names`. */
function step(title, names, fn) {
  const missing = names.filter((n) => !built.has(n));
  if (missing.length) test.skip(`${title} — skipped: ${missing.join(', ')} not in dist/Code.js yet`, fn);
  else test(title, fn);
}

const MENU = {
  search: 'Search companies…',
  unlock: 'Unlock selected companies',
  phones: 'Check phone numbers in selection',
  settings: 'Settings…',
};
// Sandbox rule: a valid number is registered on the messaging platform iff its last digit is even.
const PHONES = ['+12025550000012', '+12025550000021', '+12025550000034'];
const REGISTERED = ['TRUE', 'FALSE', 'TRUE'];

let page;

/**
 * After a confirmed long action: either the progress dialog (titled `title`) appears and runs to 'Done.' (its
 * #message turns ok), or the action finished in one execution and a toast matching `toastText` says so.
 */
async function waitForProgressOrToast(page, title, toastText) {
  if ((await waitForProgressDialogOrToast(page, title, toastText)) === 'dialog') {
    const frame = page.frameLocator('#html-dialog-frame');
    await frame.locator('#message.ok').waitFor({ timeout: 60000 });
    expect(await frame.locator('#message').textContent()).toMatch(/done/i);
    expect(await frame.locator('#bar').evaluate((bar) => bar.value === bar.max)).toBe(true);
    return 'dialog';
  }
  return 'toast';
}
const state = { searched: false };

const env = usePlayground(undefined, 30000);
beforeAll(() => (page = env.page));

afterEach(() => {
  // A script error on the page itself (not the add-on's) is a playground bug.
  expect(env ? env.consoleErrors : []).toEqual([]);
});

step('the Extensions menu shows the add-on items from onOpen', ['onOpen'], async () => {
  await expect(page.locator('#status').textContent()).resolves.toMatch(/sandbox-paid/);
  await expect(page.locator('#status').textContent()).resolves.toContain(env.playground.outreachUrl);
  await page.locator('#extensions-menu').click();
  const sub = page.locator('#extensions-popup .menu-item.has-sub').first();
  await sub.click();
  const items = await page.locator('#extensions-popup .menu-popup .menu-item').allTextContents();
  expect(items).toEqual(expect.arrayContaining(Object.values(MENU)));
  await screenshot(page, '01-menu');
  await page.keyboard.press('Escape');
  await expect(page.locator('#extensions-popup').isHidden()).resolves.toBe(true);
});

step(
  'Settings shows masked keys and Test connection shows the balance',
  ['showSettings', 'getSettings', 'testConnection'],
  async () => {
    // While the saved settings are on their way, the fields take no typing (the answer would overwrite it).
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const holdSettings = async (route) => {
      if (!/"name":"getSettings"/.test(route.request().postData() || '')) return route.continue();
      const response = await route.fetch();
      await held;
      return route.fulfill({ response });
    };
    await page.route('**/api/run', holdSettings);
    await clickMenuItem(page, MENU.settings);
    await page.locator('#html-dialog-layer').waitFor({ state: 'visible' });
    const dialog = page.frameLocator('#html-dialog-frame');
    const key = dialog.locator('#outreachApiKey');
    await page.waitForFunction(() => {
      const frame = document.getElementById('html-dialog-frame');
      return frame && frame.srcdoc.length > 0;
    });
    await dialog.locator('#outreachApiKey:disabled').waitFor();
    await expect(dialog.locator('#unsubscribeAddress').isDisabled()).resolves.toBe(true);
    release();
    await dialog.locator('#outreachApiKey[placeholder^="Saved"]:enabled').waitFor();
    await page.unroute('**/api/run', holdSettings);
    await expect(dialog.locator('#unsubscribeAddress').isEnabled()).resolves.toBe(true);
    const placeholder = await key.getAttribute('placeholder');
    expect(placeholder).not.toContain('sandbox-paid');
    await expect(key.inputValue()).resolves.toBe('');
    await expect(key.getAttribute('type')).resolves.toBe('password');
    await expect(dialog.locator('#outreachBaseUrl').inputValue()).resolves.toBe(env.playground.outreachUrl);
    await dialog.locator('#test').click();
    await dialog.locator('#message.ok, #message.error').waitFor();
    const message = await dialog.locator('#message').textContent();
    const status = await dialog.locator('#status').textContent();
    await screenshot(page, '02-settings-test-connection');
    expect(await dialog.locator('#message.ok').count()).toBe(1);
    expect(`${message} ${status}`).toMatch(/\d/); // the balances
    await dialog.locator('#close').click();
    await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  },
);

step(
  'the search sidebar fills the Companies sheet, without domains or links',
  ['showSearchSidebar', 'searchCompanies'],
  async () => {
    await clickMenuItem(page, MENU.search);
    await page.locator('#sidebar').waitFor({ state: 'visible' });
    const box = await page.locator('#sidebar').boundingBox();
    expect(Math.round(box.width)).toBe(300);
    expect(Math.round(box.x + box.width)).toBe(page.viewportSize().width); // docked on the right, in view
    const sidebar = page.frameLocator('#sidebar-frame');
    await sidebar.locator('#products').fill('solar panels');
    await sidebar.locator('#search').click();
    await sidebar.locator('#message.ok').waitFor({ timeout: 20000 });
    await waitIdle(page);
    await page.locator('#tabs .tab', { hasText: 'Companies' }).waitFor();
    await openTab(page, 'Companies');
    await waitForCell(page, 'A2', /\S/);
    const headers = await page.locator('#grid tbody tr[data-r="1"] td').allTextContents();
    const shown = headers.filter(Boolean);
    expect(shown).toEqual(expect.arrayContaining(['Company', 'Country']));
    for (const header of shown) expect(header).not.toMatch(/domain|website|url|link/i);
    const rows = await page
      .locator('#grid tbody tr')
      .evaluateAll(
        (trs) =>
          trs.filter((tr) => tr.querySelector('td') && tr.querySelector('td').textContent.trim()).length,
      );
    expect(rows).toBeGreaterThan(3);
    const gridText = await page.locator('#grid').textContent();
    expect(gridText).not.toMatch(/https?:\/\/|www\./i);
    await screenshot(page, '03-search-companies');
    await page.locator('#sidebar-close').click();
    state.searched = true;
  },
);

step(
  'unlocking selected companies asks to confirm, finishes (progress dialog or toast), adds Contacts and Profiles',
  ['unlockSelectedCompanies', 'continueJob', 'searchCompanies'],
  async () => {
    expect(state.searched).toBe(true);
    await openTab(page, 'Companies');
    await cell(page, 'B2').click();
    await cell(page, 'B4').click({ modifiers: ['Shift'] });
    await expect(page.locator('#name-box').inputValue()).resolves.toBe('B2:B4');
    await clickMenuItem(page, MENU.unlock);
    await page.locator('#html-dialog-title', { hasText: /^Unlock companies$/ }).waitFor({ timeout: 30000 });
    await screenshot(page, '04-unlock-confirm');
    const question = await answerUnlockDialog(page);
    expect(question).toMatch(/^Unlock 3 companies/); // three companies, their cost
    // A selection the first execution cannot finish continues in the progress dialog (one execution per
    // step); a small one finishes in the dialog's execution and says so in a toast.
    const finished = await waitForProgressOrToast(page, 'Unlocking companies', /Unlock finished/);
    await screenshot(page, '05-unlock-finished');
    if (finished === 'dialog') {
      await page.frameLocator('#html-dialog-frame').locator('#close').click();
      await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
    } else {
      expect(await page.locator('#toasts').textContent()).toMatch(/3/);
    }
    await waitIdle(page);
    const tabs = await sheetTabs(page);
    expect(tabs).toEqual(expect.arrayContaining(['Companies', 'Contacts', 'Profiles']));
    await openTab(page, 'Contacts');
    await waitForCell(page, 'A2', /\S/);
    await screenshot(page, '06-contacts');
  },
);

step(
  'checking phone numbers in a selection writes the results in the next column',
  ['checkSelectedPhones'],
  async () => {
    await openTab(page, 'Sheet1');
    await typeInCell(page, 'A1', 'Phone');
    for (let i = 0; i < PHONES.length; i++) await typeInCell(page, `A${i + 2}`, PHONES[i]);
    await waitForCell(page, 'A4', /2025550000034/);
    await cell(page, 'A2').click();
    await cell(page, 'A4').click({ modifiers: ['Shift'] });
    await expect(page.locator('#name-box').inputValue()).resolves.toBe('A2:A4');
    await clickMenuItem(page, MENU.phones);
    await page.locator('#alert-layer').waitFor({ state: 'visible' });
    expect(await page.locator('#alert-message').textContent()).toMatch(/3/);
    await screenshot(page, '07-phone-confirm');
    await page
      .locator('#alert-buttons button[data-button="YES"], #alert-buttons button[data-button="OK"]')
      .click();
    const finished = await waitForProgressOrToast(page, 'Checking phone numbers', /Phone check/);
    if (finished === 'dialog') {
      await page.frameLocator('#html-dialog-frame').locator('#close').click();
      await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
    }
    await waitIdle(page);
    await waitForCell(page, 'B2', /\S/, 20000);
    const results = [await cellText(page, 'B2'), await cellText(page, 'B3'), await cellText(page, 'B4')];
    expect(results[0]).toMatch(/registered|yes|true|✓/i);
    expect(results[1]).toMatch(/not|no|false|✗/i);
    expect(results[2]).toMatch(/registered|yes|true|✓/i);
    await screenshot(page, '08-phone-results');
  },
);

step('=PHONE_CHECK(A2:A4) typed in a cell spills TRUE/FALSE', ['PHONE_CHECK'], async () => {
  await openTab(page, 'Sheet1');
  if (!(await cellText(page, 'A2'))) {
    await typeInCell(page, 'A1', 'Phone');
    for (let i = 0; i < PHONES.length; i++) await typeInCell(page, `A${i + 2}`, PHONES[i]);
  }
  await typeInCell(page, 'F2', '=PHONE_CHECK(A2:A4)');
  await waitForCell(page, 'F2', /^(TRUE|FALSE)$/, 20000);
  const spilled = [await cellText(page, 'F2'), await cellText(page, 'F3'), await cellText(page, 'F4')];
  expect(spilled).toEqual(REGISTERED);
  await cell(page, 'F2').click();
  await expect(page.locator('#formula-input').inputValue()).resolves.toBe('=PHONE_CHECK(A2:A4)');
  await screenshot(page, '09-phone-check-formula');
});

step(
  'a long unlock goes on in the progress dialog, one execution per step, to the end',
  ['unlockSelectedCompanies', 'continueJob', 'searchCompanies'],
  async () => {
    // 200 more companies: more unlocks and contact reads than one execution may make at 60 requests a minute.
    await clickMenuItem(page, MENU.search);
    await page.locator('#sidebar').waitFor({ state: 'visible' });
    const sidebar = page.frameLocator('#sidebar-frame');
    await sidebar.locator('#products').fill('a');
    await sidebar.locator('#industries').fill('e');
    await sidebar.locator('#operator').selectOption('OR');
    await sidebar.locator('#size').fill('50');
    await sidebar.locator('#search').click();
    for (let page_ = 0; page_ < 4; page_++) {
      await sidebar.locator('#more:not([disabled])').waitFor({ timeout: 20000 });
      await sidebar.locator('#more').click();
    }
    await sidebar.locator('#progress', { hasText: /Loaded 250 of/ }).waitFor({ timeout: 20000 });
    await page.locator('#sidebar-close').click();
    await waitIdle(page);
    await openTab(page, 'Companies');
    await page.locator('#name-box').fill('A5:A204');
    await page.locator('#name-box').press('Enter');
    await expect(page.locator('#name-box').inputValue()).resolves.toBe('A5:A204');
    await clickMenuItem(page, MENU.unlock);
    expect(await answerUnlockDialog(page)).toMatch(/^Unlock 200 companies/);
    expect(await waitForProgressOrToast(page, 'Unlocking companies', /Unlock finished/)).toBe('dialog');
    await screenshot(page, '10-unlock-progress-dialog');
    const summary = await page.frameLocator('#html-dialog-frame').locator('#summary').textContent();
    expect(summary).toMatch(/Unlocked 200 \(200 charged, 0 free\)/);
    await page.frameLocator('#html-dialog-frame').locator('#close').click();
    await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  },
);
