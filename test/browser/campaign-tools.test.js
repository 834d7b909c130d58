'use strict';
// Campaign tools in a real browser, through the playground: a row added to "Do not contact" from the menu
// (the sheet made on first use) and a whole @domain typed on it, then Compose e-mail… › Schedule two hours
// ahead on the service clock; an hour later nothing is sent, when due the hourly trigger sends the rest
// and the listed rows say why they were skipped.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  cell,
  waitForCell,
  waitIdle,
  typeInCell,
  openTab,
  pasteAtA1,
  advanceServiceClock,
  screenshotOnFailure,
  waitForPreview,
} = require('./helpers');

let page;

const env = usePlayground();
beforeAll(() => (page = env.page));

/** The service clock now (the sandbox's), as the compose dialog's date-time field takes it (UTC sheet). */
async function wallTimeIn(ms) {
  const clock = await (await fetch(`${env.playground.outreachUrl}/__sandbox/clock`)).json();
  return new Date(clock.now + ms).toISOString().slice(0, 16);
}

test('Do not contact from the menu, then Schedule a send: nothing an hour ahead, sent when due, listed rows skipped', async () => {
  await screenshotOnFailure(page, 'campaign', steps);
}, 180000);

async function steps() {
  await pasteAtA1(
    page,
    ['Name\tEmail', 'Jane\tjane@example.com', 'Bob\tbob@blocked.example', 'Ann\tann@example.com'].join('\n'),
  );
  await waitForCell(page, 'B4', 'ann@example.com');

  // Ann's row selected: the menu makes the "Do not contact" sheet and lists her.
  await cell(page, 'B4').click();
  await clickMenuItem(page, 'Add selected to Do not contact');
  await page.locator('#toasts .toast', { hasText: '1 address added to "Do not contact"' }).waitFor();
  await waitIdle(page);
  await openTab(page, 'Do not contact');
  await waitForCell(page, 'A2', 'ann@example.com');
  await typeInCell(page, 'A3', '@blocked.example');
  await typeInCell(page, 'B3', 'competitor');
  await waitForCell(page, 'B3', 'competitor');
  await screenshot(page, 'campaign-01-do-not-contact');

  // Compose, then Schedule two hours ahead.
  await openTab(page, 'Sheet1');
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#campaign').fill('Later demo');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}, shall we meet?');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Jane');
  // No {{Unsubscribe}} line: said, without stopping anything.
  await compose.locator('#message', { hasText: 'no unsubscribe line' }).waitFor();
  const when = await wallTimeIn(2 * 3600_000);
  await compose.locator('#laterAt').fill(when);
  await compose.locator('#schedule').click();
  // Asked first, as a charged action: the rows, the cost and when it starts; the user says Yes.
  await page.locator('#alert-layer').waitFor({ state: 'visible', timeout: 30000 });
  const question = await page.locator('#alert-message').textContent();
  expect(question).toMatch(
    /Send 1 e-mail from "Sheet1".*2 on the do-not-contact list.*Cost: 1 e-mail credit \(EDM, 1 per e-mail\)/s,
  );
  expect(question).toContain(`It starts between ${when.slice(11)} and`);
  expect(question).toMatch(/Schedule this send\?$/);
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await compose.locator('#message', { hasText: 'Scheduled:' }).waitFor({ timeout: 30000 });
  const message = await compose.locator('#message').textContent();
  expect(message).toContain(`Scheduled: 1 e-mail from "Sheet1" start between ${when.slice(11)} and`);
  await compose.locator('#scheduled', { hasText: 'is scheduled to start between' }).waitFor();
  await compose.locator('#cancelSchedule').waitFor({ state: 'visible' });
  await screenshot(page, 'campaign-02-send-later');
  await page.locator('#html-dialog-close').click();
  await page.locator('#clock-next', { hasText: 'onHourlyTimer' }).waitFor();

  // An hour on the service clock: the trigger runs and sends nothing yet.
  await advanceServiceClock(page, '+1 hour');
  await page.locator('#toasts .toast', { hasText: 'onHourlyTimer: completed' }).waitFor();
  expect(await cell(page, 'C2').textContent()).toBe('');

  // When due: sent; the listed rows say why they were skipped; the run after the send refreshes it (a bounce
  // is then known before a later send), and nothing is left for the trigger.
  await advanceServiceClock(page, '+1 hour');
  await advanceServiceClock(page, '+1 hour');
  await waitForCell(page, 'C2', /^(Accepted|Delivered)$/, 30000);
  if ((await cell(page, 'C2').textContent()) === 'Accepted') await advanceServiceClock(page, '+1 hour');
  await waitForCell(page, 'C2', 'Delivered', 30000);
  await waitForCell(page, 'C3', 'Skipped: on the do-not-contact list (competitor)');
  await waitForCell(page, 'C4', /^Skipped: on the do-not-contact list \(added from "Sheet1" on /);
  await screenshot(page, 'campaign-03-sent-when-due');
  await openTab(page, 'Tracking summary');
  await waitForCell(page, 'B7', /Last waiting or scheduled send .*Sent 1 e-mail, 2 skipped/);
  expect(await page.locator('#clock-next').textContent()).toBe('');
  expect(env.consoleErrors).toEqual([]);
}
