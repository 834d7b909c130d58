'use strict';
// Nothing clipped on a laptop: in a 1366×657 browser window the playground gives a dialog at
// most the window's height less its frame, as Sheets does; the buttons and results a user needs must be in
// view there without hunting for a scroll bar: the compose dialog's Send and Close, Settings' Test
// connection result, Show mail's Close.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  outOfView,
  waitInView,
  pasteAtA1,
  waitForPreview,
} = require('./helpers');

let page;
const FRAME = '#html-dialog-frame';

const env = usePlayground({ viewport: { width: 1366, height: 657 } });
beforeAll(() => (page = env.page));

async function closeDialog() {
  await page.locator('#html-dialog-close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await waitIdle(page);
}

test('compose: Send to all unsent rows and Close are in view; Show mail: Close is in view', async () => {
  await pasteAtA1(page, 'Name\tEmail\nJane\tjane@example.com');
  await waitForCell(page, 'B2', 'jane@example.com');

  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator(FRAME);
  await compose.locator('#campaign').fill('Laptop');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}},\n\nshall we meet?');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Jane');
  await screenshot(page, 'laptop-01-compose');
  expect(await outOfView(page, FRAME, ['#save', '#sendAll', '#close'])).toEqual([]);

  await compose.locator('#sendAll').click();
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await compose
    .locator('#message.ok', { hasText: /^Send finished: Sent 1 e-mail/ })
    .waitFor({ timeout: 30000 });
  await screenshot(page, 'laptop-02-compose-sent');
  expect(await outOfView(page, FRAME, ['#message', '#sendAll', '#close'])).toEqual([]);
  await compose.locator('#close').click();
  await waitIdle(page);

  await page.locator('#grid td[data-r="2"][data-c="1"]').click();
  await clickMenuItem(page, 'Show mail');
  const mail = page.frameLocator(FRAME);
  await mail.locator('#body-text').waitFor();
  await screenshot(page, 'laptop-03-show-mail');
  expect(await outOfView(page, FRAME, ['#close'])).toEqual([]);
  await mail.locator('#close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await waitIdle(page);
}, 90000);

test("Settings: Test connection's result is scrolled into view", async () => {
  await clickMenuItem(page, 'Settings…');
  const settings = page.frameLocator(FRAME);
  await settings.locator('#outreachApiKey[placeholder^="Saved"]').waitFor();
  await settings.locator('#test').click();
  await settings.locator('#status dt', { hasText: 'Phone credits' }).waitFor();
  await waitInView(page, FRAME, ['#message', '#status']); // the frame grows to fit and scrolls
  await screenshot(page, 'laptop-04-settings-test');
  expect(await outOfView(page, FRAME, ['#message', '#status'])).toEqual([]);
  await closeDialog();
  expect(env.consoleErrors).toEqual([]);
}, 60000);
