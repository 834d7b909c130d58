'use strict';
// The Tracking summary at 1366×768 with four campaigns: the chart right below the campaign table, wholly in view
// above the sheet tabs, its legend above the bars (as the chart's legend option says).
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  screenshotOnFailure,
} = require('./helpers');

let page;
const env = usePlayground({ viewport: { width: 1366, height: 768 } });
beforeAll(() => (page = env.page));
const CAMPAIGNS = ['Spring', 'Summer', 'Autumn', 'Winter'];

/** A sheet `name` with two rows, its campaign composed and sent from the compose dialog. */
async function sendCampaign(name, i) {
  const rows = [
    ['Name', 'Email'],
    ['Jane', `jane${i}@example.com`],
    ['Bob', `bounce.bob${i}@example.com`],
  ];
  await env.playground.emulator.call({ op: 'sheet', name });
  await env.playground.emulator.call({ op: 'paste', sheet: name, range: 'A1', values: rows });
  await openTab(page, name);
  await waitForCell(page, 'B3', rows[2][1]);
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#headers button', { hasText: 'Name' }).waitFor();
  await compose.locator('#campaign').fill(`${name} campaign`);
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}');
  await compose.locator('#sendAll').click();
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await compose.locator('#message.ok', { hasText: /^Send finished/ }).waitFor({ timeout: 30000 });
  await page.locator('#html-dialog-close').click();
  await waitIdle(page, 60000);
}

test('four campaigns at 1366×768: the summary chart and its legend in view, below the table', async () => {
  await screenshotOnFailure(page, 'tracking-fold', async () => {
    for (const [i, name] of CAMPAIGNS.entries()) await sendCampaign(name, i);
    await clickMenuItem(page, 'Refresh tracking');
    await page.locator('#toasts .toast', { hasText: 'Tracking refreshed' }).waitFor({ timeout: 30000 });
    await waitIdle(page, 30000);
    await openTab(page, 'Tracking summary');
    await waitForCell(page, 'A12', 'Winter campaign');
    const chart = page.locator('#charts figure.chart');
    await chart.waitFor();
    await screenshot(page, 'tracking-fold-01-summary');
    const [box, lastCampaign, tabs] = await Promise.all([
      chart.boundingBox(),
      page.locator('#grid tr[data-r="12"]').boundingBox(),
      page.locator('#tabs').boundingBox(),
    ]);
    expect(box.y).toBeGreaterThanOrEqual(lastCampaign.y + lastCampaign.height); // covers no campaign
    expect(box.y + box.height).toBeLessThanOrEqual(tabs.y); // the whole chart above the sheet tabs
    const [legend, bars] = await Promise.all([
      chart.locator('.chart-legend').boundingBox(),
      chart.locator('.chart-bar-list').boundingBox(),
    ]);
    expect(legend.y + legend.height).toBeLessThanOrEqual(bars.y);
    expect(await chart.locator('.chart-legend').textContent()).toMatch(/Waiting.*Sent.*Delivered.*Failed/);
    expect(await chart.locator('.chart-bar-label').allTextContents()).toEqual(
      CAMPAIGNS.map((name) => `${name} campaign`),
    );
  });
}, 180000);
