'use strict';
// Targeting in a real browser: the search sidebar's filters (a range it cannot read is named under
// its field, nothing sent; a long run shows its progress and ends with the counts), then the unlock's roles
// choice (the unlock dialog's Department and Seniority boxes, at a laptop's 1366×657) and the Contacts it
// writes.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  cellText,
  screenshotOnFailure,
  outOfView,
} = require('./helpers');
const { dataset } = require('../support/harness');

let page;

const env = usePlayground({ viewport: { width: 1366, height: 657 } });
beforeAll(() => (page = env.page));

const byName = new Map(dataset().companies.map((c) => [c.id, c]));

test('search filters in the sidebar, then an unlock that adds only the chosen roles', async () => {
  await screenshotOnFailure(page, 'targeting', steps);
}, 180000);

async function steps() {
  await clickMenuItem(page, 'Search companies…');
  await page.locator('#sidebar').waitFor({ state: 'visible' });
  const sidebar = page.frameLocator('#sidebar-frame');
  await sidebar.locator('#products').fill('a');
  await sidebar.locator('#industries').fill('e');
  await sidebar.locator('#operator').selectOption('OR');
  // On a laptop the Search button is in view without scrolling, the filters filled in or not.
  expect(await outOfView(page, '#sidebar-frame', ['#search'])).toEqual([]);

  // A range the add-on cannot read: said under the field, with an example; nothing is added.
  await sidebar.locator('#employees').fill('lots');
  await sidebar.locator('#search').click();
  await sidebar.locator('#employees-error', { hasText: 'Write it like 11-200, 50+, <10' }).waitFor();
  await screenshot(page, 'targeting-01-unreadable-range');

  // Few companies have more than 10,000 people: the run reads page after page, shows its progress, and
  // ends with what it added and what each filter left out.
  await sidebar.locator('#employees').fill('10001+');
  await sidebar.locator('#limit').fill('8');
  await sidebar.locator('#search').click();
  const message = sidebar.locator('#message.ok');
  await message.waitFor({ timeout: 30000 });
  await expect(message.textContent()).resolves.toMatch(
    /^Read \d+ of \d+ results: 8 added, \d+ left out by the filters \(employees \d+\); all 8 companies asked for\.$/,
  );
  await screenshot(page, 'targeting-02-filtered-search');
  await waitIdle(page);
  await openTab(page, 'Companies');
  await waitForCell(page, 'B9', /\S/);
  // The rows just added are selected (ready for Unlock).
  await expect(page.locator('#name-box').inputValue()).resolves.toBe('A2:C9');
  for (let row = 2; row <= 9; row++) {
    const id = await cellText(page, `A${row}`);
    expect(byName.get(id).employees_count).toBe('10001+');
  }
  // Load more goes on from the result after the eighth match, to the end of the results.
  await sidebar.locator('#more').click();
  await sidebar
    .locator('#message.ok', {
      hasText:
        /^Read \d+ more results \(to (\d+) of \1 results\): .* asked for\. No more results: widen a filter/,
    })
    .waitFor({ timeout: 30000 });
  await expect(sidebar.locator('#message').textContent()).resolves.toMatch(
    /: \d+ added, .*(all 8 companies|\d+ of the 8 companies) asked for\./,
  );
  await waitIdle(page);
  await waitForCell(page, 'B10', /\S/);
  for (let row = 10; (await cellText(page, `A${row}`)) !== ''; row++) {
    expect(byName.get(await cellText(page, `A${row}`)).employees_count).toBe('10001+');
  }
  // A run of more pages than one call reads (10 pages, 500 results): the sidebar calls again by itself and
  // sums the calls; one call alone would have stopped at "read 500 of 599".
  await sidebar.locator('#limit').fill('20');
  await sidebar.locator('#search').click();
  await sidebar
    .locator('#message.ok', { hasText: /599 of 599 results\)?: .* asked for\. No more results/ })
    .waitFor({ timeout: 30000 });
  await expect(sidebar.locator('#message').textContent()).resolves.toMatch(
    /^Read (599 of 599 results|\d+ more results \(to 599 of 599 results\)): 0 added, \d+ already on the sheet, \d+ left out by the filters \(employees \d+\); 0 of the 20 companies asked for\./,
  );
  await page.locator('#sidebar-close').click();
  // Opened again, the sidebar has the last search and Load more goes on from where it stopped.
  await clickMenuItem(page, 'Search companies…');
  await sidebar.locator('#progress', { hasText: /^Your last search: loaded 599 of 599\./ }).waitFor();
  await expect(sidebar.locator('#employees').inputValue()).resolves.toBe('10001+');
  await page.locator('#sidebar-close').click();

  // Unlock the eight: the dialog states the cost and ticks every role; untick all but two departments.
  await page.locator('#name-box').fill('A2:C9');
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Unlock selected companies');
  await page.locator('#html-dialog-title', { hasText: /^Unlock companies$/ }).waitFor({ timeout: 30000 });
  const dialog = page.frameLocator('#html-dialog-frame');
  await expect(dialog.locator('#lines').textContent()).resolves.toMatch(/^Unlock 8 companies: at most 8/);
  await expect(dialog.locator('#contacts').textContent()).resolves.toMatch(
    /^Contacts to expect: about \d+ \(the E-mails column\)\./,
  );
  await expect(dialog.locator('#choice').textContent()).resolves.toBe(
    'Added to Contacts: all departments and seniorities.',
  );
  await screenshot(page, 'targeting-03-unlock-dialog');
  await dialog.locator('input[data-all="departments"]').uncheck();
  await expect(dialog.locator('#unlock').isDisabled()).resolves.toBe(true);
  await dialog.locator('#roles-error', { hasText: 'Tick at least a department.' }).waitFor();
  await dialog.locator('input[value="Purchasing"]').check();
  await dialog.locator('label', { hasText: 'Management' }).click();
  await expect(dialog.locator('#choice').textContent()).resolves.toBe(
    'Added to Contacts: Management, Purchasing; all seniorities.',
  );
  expect(await outOfView(page, '#html-dialog-frame', ['#unlock', '#cancel', '#choice'])).toEqual([]);
  await screenshot(page, 'targeting-04-roles-ticked');
  await dialog.locator('#unlock').click();
  await waitIdle(page, 60000);
  await openTab(page, 'Contacts');
  await waitForCell(page, 'G1', 'Department'); // after Name, First name, Last name and Title
  await waitForCell(page, 'G2', /^(Management|Purchasing)$/);
  await screenshot(page, 'targeting-05-contacts-with-roles');
  for (let row = 2; row <= 6; row++) {
    const department = await cellText(page, `G${row}`);
    if (department) expect(['Management', 'Purchasing']).toContain(department);
  }
}
