'use strict';
// Targeting (issue 27) in a real browser: the search sidebar's filters (a range it cannot read is named under
// its field, nothing sent; a long run shows its progress and ends with the counts), then the unlock's roles
// choice (No → the roles prompt → the confirmation states the choice → Yes) and the Contacts it writes.
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  cellText,
  screenshotOnFailure,
} = require('./helpers');
const { dataset } = require('../support/harness');

let page;

const env = usePlayground();
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
    /^Added 8 of 8 companies; \d+ left out by the filters \(employees \d+\); read \d+ of \d+ results\.$/,
  );
  await screenshot(page, 'targeting-02-filtered-search');
  await waitIdle(page);
  await openTab(page, 'Companies');
  await waitForCell(page, 'B9', /\S/);
  for (let row = 2; row <= 9; row++) {
    const id = await cellText(page, `A${row}`);
    expect(byName.get(id).employees_count).toBe('10001+');
  }
  // Load more goes on from the result after the eighth match, to the end of the results.
  await sidebar.locator('#more').click();
  await sidebar
    .locator('#message.ok', { hasText: /read (\d+) of \1 results\. No more results: widen a filter/ })
    .waitFor({ timeout: 30000 });
  await expect(sidebar.locator('#message').textContent()).resolves.toMatch(/^Added \d+ of 8 companies;/);
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
    .locator('#message.ok', { hasText: /read 599 of 599 results\. No more results/ })
    .waitFor({ timeout: 30000 });
  await expect(sidebar.locator('#message').textContent()).resolves.toMatch(
    /^Added 0 of 20 companies; \d+ already on the sheet; \d+ left out by the filters \(employees \d+\); read 599 of 599 results\./,
  );
  await page.locator('#sidebar-close').click();

  // Unlock the eight: No chooses the roles, the confirmation states them, Yes unlocks.
  await page.locator('#name-box').fill('A2:C9');
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Unlock selected companies');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await expect(page.locator('#alert-message').textContent()).resolves.toMatch(
    /Contacts to expect: about \d+ \(the E-mails column\)\. Added to Contacts: all departments and seniorities;/,
  );
  await screenshot(page, 'targeting-03-unlock-confirmation');
  await page.locator('#alert-buttons button[data-button="NO"]').click();
  await page.locator('#alert-input').waitFor({ state: 'visible' });
  await expect(page.locator('#alert-message').textContent()).resolves.toMatch(
    /Departments: Management, Sales/,
  );
  await page.locator('#alert-input').fill('Purchasing, Management');
  await screenshot(page, 'targeting-04-roles-prompt');
  await page.locator('#alert-buttons button[data-button="OK"]').click();
  await page.locator('#alert-message', { hasText: 'Added to Contacts: Management, Purchasing' }).waitFor();
  await page.locator('#alert-buttons button[data-button="YES"]').click();
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
