'use strict';
// Issue 37 in the compose dialog, in the playground: a user sets a send window in each recipient's time zone,
// dates to skip, an hourly limit and a subject test, saves, sees which zones the rows are timed in (and that a
// country over several zones uses its capital's), finds them again on reopening, and the send's confirmation
// says how many go now and at what pace.
const {
  openPlayground,
  closePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  pasteAtA1,
} = require('./helpers');

let env;
let page;
beforeAll(async () => {
  env = await openPlayground();
  page = env.page;
}, 60000);
afterAll(() => closePlayground(env));

test('Compose: when mails go and a subject test, saved, shown again, and stated in the confirmation', async () => {
  await pasteAtA1(
    page,
    [
      'Name\tEmail\tCountry',
      'Jane\tjane@example.com\tUS',
      'Bob\tbob@example.com\tDE',
      'Kim\tkim@example.com\tJP',
    ].join('\n'),
  );
  await waitForCell(page, 'C4', 'JP');
  await clickMenuItem(page, 'Compose e-mail…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#campaign').fill('Timed');
  await dialog.locator('#subject').fill('Hello {{Name}}');
  await dialog.locator('#body').fill('Hi {{Name}}');
  await dialog.locator('#windowOn').check();
  await dialog.locator('#windowFrom').fill('08:30');
  await dialog.locator('#windowTo').fill('18:00');
  await dialog.locator('#skipDates').fill('2026-12-24, 2026-12-25');
  await dialog.locator('#hourlyLimit').fill('2');
  await dialog.locator('#variant1').fill('Hello {{Name}}');
  await dialog.locator('#variant2').fill('A question, {{Name}}');
  await dialog.locator('#testShare').fill('50');
  await dialog.locator('#save').click();
  await dialog.locator('#message').filter({ hasText: 'Saved.' }).waitFor({ timeout: 30000 });
  const note = dialog.locator('#timingNote');
  await expect(note.textContent()).resolves.toMatch(
    /Mails go Mon, Tue, Wed, Thu, Fri, 08:30 to 18:00 in each recipient's time zone.*Rows timed: 3 by their Country.*US spans several time zones: their rows use the capital's.*No mail and no follow-up goes on 2026-12-24, 2026-12-25\. At most 2 mails an hour/,
  );
  await screenshot(page, 'compose-timing');
  await dialog.locator('#close').click();
  await waitIdle(page);

  await clickMenuItem(page, 'Compose e-mail…');
  const again = page.frameLocator('#html-dialog-frame');
  await again.locator('#timingNote').filter({ hasText: 'Rows timed' }).waitFor({ timeout: 30000 });
  await expect(again.locator('#windowOn').isChecked()).resolves.toBe(true);
  await expect(again.locator('#windowFrom').inputValue()).resolves.toBe('08:30');
  await expect(again.locator('#skipDates').inputValue()).resolves.toBe('2026-12-24, 2026-12-25');
  await expect(again.locator('#hourlyLimit').inputValue()).resolves.toBe('2');
  await expect(again.locator('#variant2').inputValue()).resolves.toBe('A question, {{Name}}');
  await expect(again.locator('#testShare').inputValue()).resolves.toBe('50');

  await again.locator('#sendAll').click();
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  const question = await page.locator('#alert-message').textContent();
  expect(question).toMatch(/Subject test: about 2 of these rows \(50%\) get the subjects/);
  expect(question).toMatch(
    /Hourly limit: 2 mails an hour from this list \(follow-ups included\): these 3 take at least 2 sending hours[,.]/,
  );
  await page.locator('#alert-buttons button[data-button="NO"]').click();
  await page.locator('#alert-layer').waitFor({ state: 'hidden' });
  await again.locator('#close').click();
  await waitIdle(page);
  expect(env.consoleErrors).toEqual([]);
}, 90000);
