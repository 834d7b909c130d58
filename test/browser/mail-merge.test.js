'use strict';
// Mail merge in a real browser: a pasted list of 300 recipients, Compose e-mail… (placeholders inserted from
// the header chips, save, preview row by row), then "Send to all unsent rows…", confirmed, run to the end.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  pasteAtA1,
  waitForPreview,
} = require('./helpers');

let page;
const ROWS = 300;

const env = usePlayground();
beforeAll(() => (page = env.page));

test('compose, preview and send 300 rows to the end, every row marked Accepted', async () => {
  const lines = ['Name\tEmail\tCompany'];
  for (let i = 1; i <= ROWS; i++) lines.push(`Person ${i}\tperson${i}@example.com\tCompany ${i % 5}`);
  await pasteAtA1(page, lines.join('\n'));
  await waitForCell(page, 'B3', 'person2@example.com');

  await clickMenuItem(page, 'Compose e-mail…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#headers button', { hasText: 'Company' }).waitFor();
  await dialog.locator('#campaign').fill('Autumn launch');
  await dialog.locator('#subject').fill('Hello ');
  await dialog.locator('#subject').focus();
  await dialog.locator('#subject').press('End');
  await dialog.locator('#headers button', { hasText: 'Name' }).click();
  await dialog.locator('#body').fill('We would like to meet {{Company|your team}}.');
  await dialog.locator('#save').click();
  await waitForPreview(dialog, 'Hello Person 1');
  expect(await dialog.locator('#to').textContent()).toBe('person1@example.com');
  expect(await dialog.locator('#textBody').textContent()).toBe('We would like to meet Company 1.');
  await dialog.locator('#next').click();
  await waitForPreview(dialog, 'Hello Person 2');
  await screenshot(page, 'mail-01-compose-preview');

  await dialog.locator('#sendAll').click();
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  const question = await page.locator('#alert-message').textContent();
  expect(question).toMatch(/Send 300 e-mails/);
  expect(question).toMatch(/Cost: 300 e-mail credits \(EDM, 1 per e-mail\)/);
  expect(question).toMatch(/Usable e-mail credits \(EDM\): [\d,]+/);
  await screenshot(page, 'mail-02-confirm');
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await page.locator('#alert-layer').waitFor({ state: 'hidden' });
  // The end shows where the user looks: in the compose dialog (a send that ends at once), or in the
  // progress dialog that takes its place.
  const outcome = dialog.locator('#message.ok', { hasText: /^Send finished: Sent 300 e-mails/ });
  const progress = page.locator('#html-dialog-title', { hasText: 'Sending e-mails' });
  await Promise.race([outcome.waitFor({ timeout: 60000 }), progress.waitFor({ timeout: 60000 })]);
  await waitIdle(page, 60000);
  await waitForCell(page, 'D2', 'Accepted', 60000);
  await waitForCell(page, `D${ROWS + 1}`, 'Accepted', 60000);
  await screenshot(page, 'mail-03-sent');
  expect(env.consoleErrors).toEqual([]);
}, 180000);
