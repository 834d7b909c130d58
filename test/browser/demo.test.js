'use strict';
// The playground's Demo menu: a demo mailing list big enough, and a slow service, make a
// send go on in the progress dialog where Stop ends it; the menu says how to see a bounce and an open.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  openTab,
  screenshotOnFailure,
  answerUnlockDialog,
  waitForPreview,
} = require('./helpers');

let page;

const env = usePlayground();
beforeAll(() => (page = env.page));

/** Extensions › Playground demo › item. */
async function demo(page, label) {
  await page.locator('#extensions-menu').click();
  const holder = page.locator('#extensions-popup > .menu-root', {
    has: page.locator(':scope > .menu-item', { hasText: 'Playground demo' }),
  });
  await holder.locator(':scope > .menu-item').click();
  await holder.locator(':scope > .menu-popup > .menu-item', { hasText: label }).click();
}

test('demo list + slow service: a send goes on in the progress dialog; Stop ends the unlock of the demo companies; bounces and opens explained', async () => {
  await screenshotOnFailure(page, 'demo', steps);
}, 240000);

async function steps() {
  await demo(page, 'How to see a bounce');
  await page.locator('#toasts .toast', { hasText: 'starts with "bounce."' }).waitFor();
  await demo(page, 'Add a demo mailing list');
  await page.locator('#toasts .toast', { hasText: '"Demo list" has 7,000 rows' }).waitFor({ timeout: 60000 });
  await openTab(page, 'Demo list');
  await waitForCell(page, 'B2', 'person1@company1.example');
  await waitForCell(page, 'B8', 'open.person7@company7.example');
  await waitForCell(page, 'B11', 'bounce.person10@company10.example');

  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('b', { hasText: 'Demo list' }).first().waitFor({ timeout: 30000 }); // its state is in
  await compose.locator('#campaign').fill('Demo');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}} of {{Company}}.');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Person 1');
  await page.locator('#html-dialog-close').click();

  await demo(page, 'Slow service: on');
  await page.locator('#toasts .toast', { hasText: 'Slow service on' }).waitFor();
  await page.locator('#name-box').fill('A2:C7001');
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Send e-mails to selected rows');
  await page.locator('#alert-message', { hasText: /^Send 7,?000 e-mails/ }).waitFor({ timeout: 60000 });
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await page.locator('#html-dialog-layer:not([hidden])').waitFor({ timeout: 120000 });
  expect(await page.locator('#html-dialog-title').textContent()).toBe('Sending e-mails');
  const dialog = page.frameLocator('#html-dialog-frame');
  await screenshot(page, 'demo-01-send-progress');
  await dialog.locator('#message', { hasText: 'Done.' }).waitFor({ timeout: 120000 });
  await page.locator('#html-dialog-close').click();

  // 300 demo companies, unlocked on the slow service: Stop ends the unlock after the batch under way.
  await demo(page, 'Add 300 demo companies');
  await page
    .locator('#toasts .toast', { hasText: '300 companies on "Companies"' })
    .waitFor({ timeout: 60000 });
  await openTab(page, 'Companies');
  await page.locator('#name-box').fill('A2:A301');
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Unlock selected companies');
  expect(await answerUnlockDialog(page)).toMatch(/^Unlock 300 companies/);
  await page.locator('#html-dialog-title', { hasText: 'Unlocking companies' }).waitFor({ timeout: 120000 });
  await dialog.locator('#stop').click();
  await dialog.locator('#message', { hasText: /^Stopped, as you asked\./ }).waitFor({ timeout: 120000 });
  await screenshot(page, 'demo-02-unlock-stopped');
  await page.locator('#html-dialog-close').click();
  await demo(page, 'Slow service: off');
  expect(env.consoleErrors).toEqual([]);
}
