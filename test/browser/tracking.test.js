'use strict';
/* global document */ // inside page.evaluate callbacks, which run in the browser
// Tracking in a real browser: a send of three mails, Refresh tracking, the service clock moved on (the
// sandbox's clock: mails get sent, delivered or bounced), the statuses moving on Tracking and on the list,
// the summary's chart, Show mail, and auto-refresh running from the hourly trigger when an hour passes.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  pasteAtA1,
  advanceServiceClock,
  screenshotOnFailure,
  waitForPreview,
} = require('./helpers');

let page;

const env = usePlayground({ viewport: { width: 1366, height: 768 } });
beforeAll(() => (page = env.page));

async function answerAlert(button, expected) {
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  if (expected) expect(await page.locator('#alert-message').textContent()).toMatch(expected);
  await page.locator(`#alert-buttons button[data-button="${button}"]`).click();
  await page.locator('#alert-layer').waitFor({ state: 'hidden' });
}

async function refreshTracking() {
  await clickMenuItem(page, 'Refresh tracking');
  await page.locator('#toasts .toast', { hasText: 'Tracking refreshed' }).waitFor({ timeout: 30000 });
  await waitIdle(page, 30000);
}

test('send, refresh, time passing, statuses moving, the chart, Show mail and the hourly trigger', async () => {
  await screenshotOnFailure(page, 'tracking', steps);
}, 180000);

async function steps() {
  await pasteAtA1(
    page,
    [
      'Name\tEmail',
      'Jane\tjane@example.com',
      'Bob\tbounce.bob@example.com',
      'Ann\topen.ann@example.com',
    ].join('\n'),
  );
  await waitForCell(page, 'B4', 'open.ann@example.com');
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#campaign').fill('Tracking demo');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}, shall we meet?');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Jane');
  await compose.locator('#sendAll').click();
  await answerAlert('YES', /Send 3 e-mails/);
  await waitIdle(page, 60000);
  await waitForCell(page, 'C2', 'Accepted', 30000);
  await screenshot(page, 'tracking-01-sent');
  await page.locator('#html-dialog-close').click(); // the compose dialog stays open after a send

  // At once: the mails are still on their way.
  await refreshTracking();
  await openTab(page, /^Tracking$/);
  await waitForCell(page, 'E2', 'jane@example.com');
  await waitForCell(page, 'H2', /^(Pending|Requested|Sent|Delivered)$/);
  await screenshot(page, 'tracking-02-first-refresh');

  // A minute later (the sandbox's clock): sent, confirmed, or bounced with a reason.
  await advanceServiceClock(page, '+1 min');
  await refreshTracking();
  await waitForCell(page, 'H2', 'Delivered');
  await waitForCell(page, 'H3', 'Failed');
  await waitForCell(page, 'M3', 'Mailbox unavailable (550 hard bounce)');
  await waitForCell(page, 'H4', 'Delivered');
  await screenshot(page, 'tracking-03-delivered');

  await openTab(page, 'Sheet1');
  await waitForCell(page, 'C2', 'Delivered');
  await waitForCell(page, 'C3', 'Failed: Mailbox unavailable (550 hard bounce)');

  await openTab(page, 'Tracking summary');
  const chart = page.locator('#charts figure.chart');
  await chart.waitFor();
  // One bar per campaign, 100 % of its mails: the shares waiting / sent / delivered / failed (a campaign of
  // 50 mails reads like one of 7,000).
  expect(await chart.locator('figcaption').textContent()).toBe(
    "Share of each campaign's mails: waiting, sent, delivered, failed (3 mails)",
  );
  expect(await chart.locator('.chart-legend').textContent()).toMatch(/Waiting.*Sent.*Delivered.*Failed/);
  expect(await chart.locator('.chart-bar-row').count()).toBe(1);
  expect(await chart.locator('.chart-bar-part').evaluateAll((parts) => parts.map((p) => p.title))).toEqual([
    'Delivered: 2 (66.7 %)',
    'Failed: 1 (33.3 %)',
  ]);
  expect(await page.locator('#charts figure.chart').count()).toBe(1);
  // The chart covers no cell of the table (header row 8, the campaign in row 9), and is in view.
  const chartBox = await chart.boundingBox();
  const lastTableRow = await page.locator('#grid tr[data-r="9"]').boundingBox();
  expect(chartBox.y).toBeGreaterThanOrEqual(lastTableRow.y + lastTableRow.height);
  expect(chartBox.y + chartBox.height).toBeLessThanOrEqual(768);
  // The rates beside the campaign, in view at 1366 px; no label cut off (chart, headers, status texts).
  await waitForCell(page, 'C9', '66.7%');
  await waitForCell(page, 'D9', '33.3%');
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll('#grid td, #charts .chart-bar-label, #charts figcaption')]
      .filter((node) => node.textContent.trim() && node.scrollWidth > node.clientWidth + 1)
      .map((node) => node.textContent.trim().slice(0, 40)),
  );
  expect(cut).toEqual([]);
  await screenshot(page, 'tracking-04-summary-chart');

  // Show mail on a Tracking row: the body in the dialog.
  await openTab(page, /^Tracking$/);
  await page.locator('#grid td[data-r="2"][data-c="3"]').click();
  await clickMenuItem(page, 'Show mail');
  const mail = page.frameLocator('#html-dialog-frame');
  await mail.locator('#body-text').waitFor();
  expect(await mail.locator('#body-text').textContent()).toBe('Hi Jane, shall we meet?');
  expect(await mail.locator('#fields').textContent()).toMatch(/jane@example\.com/);
  await screenshot(page, 'tracking-05-show-mail');
  await page.locator('#html-dialog-close').click();

  // Auto-refresh on; an hour passes and the trigger runs by itself; every mail is final, but opens can still
  // come for 14 days after the send: it stays on (it turns itself off after that).
  await clickMenuItem(page, 'Auto-refresh tracking: on / off');
  await answerAlert('YES', /Auto-refresh is OFF/);
  await page.locator('#clock-next', { hasText: 'onHourlyTimer' }).waitFor();
  await advanceServiceClock(page, '+1 hour');
  await page.locator('#toasts .toast', { hasText: 'onHourlyTimer: completed' }).waitFor();
  await openTab(page, 'Tracking summary');
  await waitForCell(
    page,
    'B6',
    /Tracking refreshed: .*opens of the mails sent in the last 14 days brought up to date/,
  );
  await waitForCell(page, 'B5', /^On for 1 editor .*14 days have passed since the last send/);
  await page.locator('#clock-next', { hasText: 'onHourlyTimer' }).waitFor();
  await screenshot(page, 'tracking-06-auto-refresh');
  expect(env.consoleErrors).toEqual([]);
}
