'use strict';
// The demo list sent with a follow-up, then +1 day: the 24 hourly runs that come due go through the whole
// list each time (replies, stops, steps), and the page shows where every row is when the day has passed. The
// list has 700 rows here (the playground's option): that hourly runs of 10,000 rows end within their time is
// the bench's (Follow-up step, Tracking refresh (auto, 1 day)).
const {
  usePlayground,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  screenshot,
  screenshotOnFailure,
  waitForPreview,
} = require('./helpers');

let page;
const ROWS = 700;
const env = usePlayground({ viewport: { width: 1366, height: 768 }, demoListRows: ROWS });
beforeAll(() => (page = env.page));

/** Extensions › Playground demo › item. */
async function demo(label) {
  await page.locator('#extensions-menu').click();
  const holder = page.locator('#extensions-popup > .menu-root', {
    has: page.locator(':scope > .menu-item', { hasText: 'Playground demo' }),
  });
  await holder.locator(':scope > .menu-item').click();
  await holder.locator(':scope > .menu-popup > .menu-item', { hasText: label }).click();
}

test('+1 day on the demo list with follow-ups: every hourly run completes and the Sequence column moves', async () => {
  await screenshotOnFailure(page, 'demo-day', async () => {
    await demo('Add a demo mailing list');
    await page
      .locator('#toasts .toast', { hasText: `"Demo list" has ${ROWS} rows` })
      .waitFor({ timeout: 90000 });
    await openTab(page, 'Demo list');
    await waitForCell(page, 'A2', 'Person 1');
    await waitForCell(page, 'C2', 'Company 1');

    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator('#html-dialog-frame');
    await compose.locator('b', { hasText: 'Demo list' }).first().waitFor({ timeout: 60000 });
    await compose.locator('#campaign').fill('Demo day');
    await compose.locator('#subject').fill('Hello {{Name}}');
    await compose.locator('#body').fill('Hi {{Name}} of {{Company}}.');
    await compose.locator('#addStep').click();
    await compose.locator('#steps .step .days').first().fill('1');
    await compose.locator('#steps .step .step-body').first().fill('Just checking in, {{Name}}.');
    await compose.locator('#save').click();
    await waitForPreview(compose, 'Hello Person 1');
    await compose.locator('#sendAll').click();
    await page.locator('#alert-message', { hasText: `Send ${ROWS} e-mails` }).waitFor({ timeout: 120000 });
    await page.locator('#alert-buttons button[data-button="YES"]').click();
    // Sent in the compose dialog, or in the progress dialog that takes its place.
    const finished = page
      .frameLocator('#html-dialog-frame')
      .locator('#message', { hasText: /Send finished|Done\./ });
    await finished.waitFor({ timeout: 300000 });
    await page.locator('#html-dialog-close').click();
    await waitIdle(page, 120000);
    await waitForCell(page, `D${ROWS + 1}`, 'Accepted', 60000);

    const started = Date.now();
    await page.locator('.clock-advance', { hasText: '+1 day' }).click();
    await page
      .locator('#toasts .toast', { hasText: /onHourlyTimer: completed ×2[45]/ })
      .waitFor({ timeout: 600000 });
    await waitIdle(page, 600000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`+1 day on the ${ROWS}-row demo list with a follow-up: ${seconds.toFixed(1)} s`);
    // Columns: Name, Email, Company, Mail status, Task ID, Mail ID, Sent at, Replied (H), Sequence (I).
    await waitForCell(page, 'I3', /^(Next: step 1 on |Step 1 of 1 sent|Finished: step 1 of 1 sent)/);
    await screenshot(page, 'demo-day-01-after-a-day');
    expect(env.consoleErrors).toEqual([]);
  });
}, 1200000);
