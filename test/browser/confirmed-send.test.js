'use strict';
// What you confirmed is what is sent, in a real browser through the playground: a send scheduled for two
// rows, then a row typed in below them (as another editor could); when the hourly trigger runs, the two rows
// go and the new one says why it was not sent.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  typeInCell,
  pasteAtA1,
  advanceServiceClock,
  screenshotOnFailure,
  waitForPreview,
} = require('./helpers');

let page;

const env = usePlayground();
beforeAll(() => (page = env.page));

test('a row added after Schedule is not sent, and its Mail status says why', async () => {
  await screenshotOnFailure(page, 'confirmed-send', steps);
}, 180000);

async function steps() {
  await pasteAtA1(page, ['Name\tEmail', 'Jane\tjane@example.com', 'Lee\tlee@example.com'].join('\n'));
  await waitForCell(page, 'B3', 'lee@example.com');
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#campaign').fill('Confirmed demo');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}, shall we meet?');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Jane');
  const clock = await (await fetch(`${env.playground.outreachUrl}/__sandbox/clock`)).json();
  await compose.locator('#laterAt').fill(new Date(clock.now + 2 * 3600_000).toISOString().slice(0, 16));
  await compose.locator('#schedule').click();
  // Asked first: the cost, and that only these rows as they are now go; the user says Yes.
  await page.locator('#alert-layer').waitFor({ state: 'visible', timeout: 30000 });
  const question = await page.locator('#alert-message').textContent();
  expect(question).toContain('Cost: 2 e-mail credits');
  expect(question).toContain('Only this mail goes, to these rows as they are now');
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await compose.locator('#message', { hasText: 'Scheduled: 2 e-mails from "Sheet1"' }).waitFor({
    timeout: 30000,
  });
  await screenshot(page, 'confirmed-01-scheduled');
  await page.locator('#html-dialog-close').click();

  // A row typed in after the send was scheduled.
  await typeInCell(page, 'A4', 'Mallory');
  await typeInCell(page, 'B4', 'mallory@example.com');
  await waitForCell(page, 'B4', 'mallory@example.com');

  for (let i = 0; i < 3; i++) await advanceServiceClock(page, '+1 hour');
  await waitForCell(page, 'C2', /^(Accepted|Delivered)$/, 30000);
  await waitForCell(page, 'C3', /^(Accepted|Delivered)$/);
  await waitForCell(
    page,
    'C4',
    'Not sent: added or changed after the send was scheduled; schedule it again to include it',
  );
  await screenshot(page, 'confirmed-02-only-confirmed-rows');
  expect(env.consoleErrors).toEqual([]);
}
