'use strict';
// The next contact after a bounce, in a real browser through the playground, as a user gets there: a company
// found and unlocked (Contacts filled by the add-on), a mail to an address of its domain that bounces, Refresh
// tracking, then Extensions › Outreach › Add next contact for failed mails on the failed row.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  cell,
  cellText,
  waitForCell,
  waitIdle,
  openTab,
  pasteAtA1,
  advanceServiceClock,
  screenshotOnFailure,
  answerUnlockDialog,
  waitForProgressDialogOrToast,
  waitForPreview,
} = require('./helpers');

let page;

const env = usePlayground();
beforeAll(() => (page = env.page));

async function answerYes() {
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await page.locator('#alert-layer').waitFor({ state: 'hidden' });
}

/**
 * Waits for a run that may go on in its progress dialog (titled `title`, not the question dialog before it)
 * or finish at once with a toast; closes the dialog when the run finished there.
 */
async function finished(title, toastText) {
  if ((await waitForProgressDialogOrToast(page, title, toastText)) === 'dialog') {
    await page.frameLocator('#html-dialog-frame').locator('#message.ok').waitFor({ timeout: 60000 });
    await page.frameLocator('#html-dialog-frame').locator('#close').click();
    await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  }
  await waitIdle(page, 60000);
}

test('a bounced row gets the next contact of its company from Contacts, marked as replacing it', async () => {
  await screenshotOnFailure(page, 'next-contact', steps);
}, 240000);

async function steps() {
  // A company found and unlocked: Contacts holds its people.
  await clickMenuItem(page, 'Search companies…');
  const sidebar = page.frameLocator('#sidebar-frame');
  await sidebar.locator('#products').fill('solar panels');
  await sidebar.locator('#search').click();
  await sidebar.locator('#message.ok').waitFor({ timeout: 20000 });
  await page.locator('#sidebar-close').click();
  await waitIdle(page);
  await openTab(page, 'Companies');
  await cell(page, 'B2').click();
  await clickMenuItem(page, 'Unlock selected companies');
  await answerUnlockDialog(page);
  await finished('Unlocking companies', /Unlock finished/);
  await openTab(page, 'Contacts');
  await waitForCell(page, 'I2', /@/);
  const colleague = await cellText(page, 'I2');
  const domain = colleague.split('@')[1];

  // A list with a mail to another address at that company, which bounces.
  await openTab(page, 'Sheet1');
  await pasteAtA1(page, ['Name\tEmail', `Xavier\tbounce.xavier@${domain}`].join('\n'));
  await waitForCell(page, 'B2', `bounce.xavier@${domain}`);
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#campaign').fill('Solar');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}, shall we talk about panels?');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Xavier');
  await compose.locator('#sendAll').click();
  await answerYes();
  await waitIdle(page, 60000);
  await waitForCell(page, 'C2', 'Accepted', 60000);
  await page.locator('#html-dialog-close').click(); // the compose dialog stays open after a send
  await advanceServiceClock(page, '+1 hour');
  await clickMenuItem(page, 'Refresh tracking');
  await waitIdle(page, 60000);
  await openTab(page, 'Sheet1');
  await waitForCell(page, 'C2', /^Failed/, 30000);

  // The failed row selected: its company's next contact is appended, marked as replacing it.
  await cell(page, 'B2').click();
  await clickMenuItem(page, 'Add next contact for failed mails');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  // Asked first, naming the new address and the row it takes.
  const question = await page.locator('#alert-message').textContent();
  expect(question).toMatch(
    /^Add 1 contact to "Sheet1" as row 3, replacing a failed mail of the same company\?/,
  );
  expect(question).toMatch(
    new RegExp(`• row 3: [^\\s]+@${domain.replace(/\./g, '\\.')}\\b.*, replacing bounce\\.xavier@`),
  );
  await screenshot(page, 'next-contact-01-question');
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await page
    .locator('#toasts .toast', {
      hasText: /1 contact added \(row 3\), replacing a failed mail of the same company/,
    })
    .waitFor();
  await screenshot(page, 'next-contact-02-added');
  await waitForCell(page, 'B3', new RegExp(`@${domain.replace(/\./g, '\\.')}$`));
  const headers = await page.locator('#grid tbody tr[data-r="1"] td').allTextContents();
  expect(headers).toContain('Replaces');
  const letter = String.fromCharCode(65 + headers.indexOf('Replaces'));
  expect(await cellText(page, `${letter}3`)).toBe(`bounce.xavier@${domain} (row 2, failed)`);
  expect(env.consoleErrors).toEqual([]);
}
