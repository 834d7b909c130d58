'use strict';
/* global document, window, getComputedStyle */ // inside page.evaluate / waitForFunction callbacks, which run in the browser
// The playground's own mechanics, with a tiny fixture project instead of the add-on (test/browser/fixtures):
// prompts and alerts that block the execution until clicked, the selection as the active range, the
// google.script.run bridge, and how sheets are drawn (display values, notes, frozen and hidden rows, text
// that looks like markup or a formula), typing at a typist's speed, checkboxes. Without saveSettings in the
// fixture, the settings are written to the user properties directly. The window is a laptop's, 1366×768.
// The emulator's busy-loop guard is set to 1.5 s here: a dialog left open longer must still get its answer.
const path = require('node:path');
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  cell,
  cellText,
  waitForCell,
  waitIdle,
  typeInCell,
  openTab,
} = require('./helpers');

const FIXTURES = path.join(__dirname, 'fixtures');

let page;

const GUARD_MS = 1500;
const env = usePlayground(
  {
    codePath: path.join(FIXTURES, 'Code.js'),
    htmlDir: FIXTURES,
    viewport: { width: 1366, height: 768 },
    emulatorOptions: { realTimeoutMs: GUARD_MS },
  },
  30000,
);
beforeAll(() => (page = env.page));

afterEach(() => {
  expect(env ? env.consoleErrors : []).toEqual([]);
});

test('the menu has the fixture items, sub-menu included; the settings went to user properties', async () => {
  await page.locator('#extensions-menu').click();
  await page.locator('#extensions-popup .menu-item.has-sub').first().click();
  const items = await page.locator('#extensions-popup .menu-popup .menu-item').allTextContents();
  expect(items).toEqual(
    expect.arrayContaining(['Ask a name', 'Yes, no or cancel', 'Report selection', 'More', 'Fail loudly']),
  );
  await page.keyboard.press('Escape');
  expect(env.playground.warnings.join('\n')).toMatch(/saveSettings.*user properties/);
  await expect(page.locator('#status').textContent()).resolves.toContain(env.playground.phoneUrl);
});

test('a prompt waits for the answer: typed text and OK (Enter), then Escape closes', async () => {
  await openTab(page, 'Sheet1');
  await clickMenuItem(page, 'Ask a name');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await expect(page.locator('#alert-title').textContent()).resolves.toBe('Your name');
  await expect(page.locator('#alert-message').textContent()).resolves.toBe('Who is there?');
  const labels = await page.locator('#alert-buttons button').allTextContents();
  expect(labels).toEqual(['Cancel', 'OK']);
  // The busy line names the menu item, not the function behind it.
  await expect(page.locator('#busy').textContent()).resolves.toMatch(/"Ask a name"/);
  await page.locator('#alert-input').fill('Ada <b>');
  await screenshot(page, 'mechanics-01-prompt');
  await page.keyboard.press('Enter');
  await waitForCell(page, 'A1', 'OK:Ada <b>');

  await clickMenuItem(page, 'Ask a name');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await waitForCell(page, 'A1', 'CLOSE:');
  await waitIdle(page);
});

test('a prompt left open longer than the busy-loop guard still gets its answer (waiting is not looping)', async () => {
  await clickMenuItem(page, 'Ask a name');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await page.waitForTimeout(2 * GUARD_MS); // the user reads, thinks, answers
  await page.locator('#alert-input').fill('Grace');
  await page.keyboard.press('Enter');
  await waitForCell(page, 'A1', 'OK:Grace');
  await waitIdle(page);
  await expect(page.locator('#toasts').textContent()).resolves.not.toMatch(/Exceeded|busy loop/);
});

test('a three-button alert returns the clicked button', async () => {
  await clickMenuItem(page, 'Yes, no or cancel');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  expect(await page.locator('#alert-buttons button').allTextContents()).toEqual(['Cancel', 'No', 'Yes']);
  await page.locator('#alert-buttons button', { hasText: 'No' }).click();
  await waitForCell(page, 'B1', 'button NO');
});

test('the selection (drag, Shift+click, Shift+arrows) is the active range of the next execution', async () => {
  const from = await cell(page, 'B2').boundingBox();
  const to = await cell(page, 'C4').boundingBox();
  await page.mouse.move(from.x + 10, from.y + 8);
  await page.mouse.down();
  await page.mouse.move(to.x + 10, to.y + 8, { steps: 5 });
  await page.mouse.up();
  await expect(page.locator('#name-box').inputValue()).resolves.toBe('B2:C4');
  await clickMenuItem(page, 'Report selection');
  await page.locator('#toasts .toast', { hasText: 'Sheet1!B2:C4' }).waitFor();
  await screenshot(page, 'mechanics-02-selection');

  await cell(page, 'D3').click();
  await cell(page, 'E6').click({ modifiers: ['Shift'] });
  await clickMenuItem(page, 'Report selection');
  await page.locator('#toasts .toast', { hasText: 'Sheet1!D3:E6' }).waitFor();

  await cell(page, 'A1').click();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.locator('#name-box').inputValue()).resolves.toBe('A1:B3');
  await clickMenuItem(page, 'Report selection');
  await page.locator('#toasts .toast', { hasText: 'Sheet1!A1:B3' }).waitFor();
});

test('google.script.run in a sidebar: success with user object, failure as Error, only public names, host.close', async () => {
  await clickMenuItem(page, 'Open bridge sidebar');
  await page.locator('#sidebar').waitFor({ state: 'visible' });
  await expect(page.locator('#sidebar-title').textContent()).resolves.toBe('Bridge test');
  const frame = page.frameLocator('#sidebar-frame');
  await frame.locator('#echo').click();
  await frame.locator('#out', { hasText: 'success' }).waitFor();
  await frame.locator('#fail').click();
  await frame.locator('#out', { hasText: 'failure' }).waitFor();
  await frame.locator('#missing').click();
  await frame.locator('#out', { hasText: 'has echo' }).waitFor();
  const out = (await frame.locator('#out').textContent()).trim().split('\n');
  expect(out).toEqual([
    'success {"got":{"a":[1,"two",true,null]},"kind":"object","count":1} user {"tag":"u1"}',
    'failure true Boom from the server user u2',
    'has sheet1_ undefined, has echo function',
  ]);
  await screenshot(page, 'mechanics-03-bridge-sidebar');
  await frame.locator('#close').click();
  await page.locator('#sidebar').waitFor({ state: 'hidden' });
});

test('a failing menu action shows its error', async () => {
  await clickMenuItem(page, 'More', 'Fail loudly');
  await page.locator('#toasts .toast', { hasText: 'Boom from the server' }).waitFor();
  await expect(page.locator('#toasts').textContent()).resolves.toMatch(/Error in Fail loudly/);
});

test('sheets are drawn as Sheets shows them: formats, notes, frozen header, hidden rows, text never markup', async () => {
  await clickMenuItem(page, 'Fill the fixture sheet');
  await waitIdle(page);
  await page.locator('#tabs .tab[aria-selected="true"]', { hasText: 'Fixture' }).waitFor();
  await waitForCell(page, 'B2', '1,234.50');
  expect(await cellText(page, 'A2')).toBe('<img src=x onerror="window.__xss=1">');
  expect(await page.locator('#grid img').count()).toBe(0);
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  expect(await cellText(page, 'C2')).toBe('2026-01-05');
  expect(await cellText(page, 'A4')).toBe('Row four');
  // Row 3 is hidden by the filter ('drop'), row 5 by hand.
  expect(await page.locator('#grid tr[data-r="3"]').count()).toBe(0);
  expect(await page.locator('#grid tr[data-r="5"]').count()).toBe(0);
  expect(await page.locator('#grid tr[data-r="4"]').getAttribute('class')).toContain('after-hidden');
  await expect(cell(page, 'D1').getAttribute('class')).resolves.toContain('filter-head');
  // Notes: a corner marker and a tooltip, as text.
  await expect(cell(page, 'A2').getAttribute('class')).resolves.toContain('has-note');
  await expect(cell(page, 'A2').getAttribute('title')).resolves.toContain('A note with <b>markup</b>');
  // The frozen header row stays on top when the grid scrolls.
  await expect(page.locator('#grid tr[data-r="1"]').getAttribute('class')).resolves.toContain('frozen');
  expect(await cell(page, 'A1').evaluate((td) => getComputedStyle(td).fontWeight)).toMatch(/bold|700/);
  await page.locator('#grid-wrap').evaluate((wrap) => (wrap.scrollTop = 200));
  const header = await cell(page, 'A1').boundingBox();
  const wrapBox = await page.locator('#grid-wrap').boundingBox();
  expect(header.y - wrapBox.y).toBeLessThan(40);
  await page.locator('#grid-wrap').evaluate((wrap) => (wrap.scrollTop = 0));
  await screenshot(page, 'mechanics-04-rendering');
});

test('typing in cells: Enter commits, a leading apostrophe keeps text, Delete clears', async () => {
  await typeInCell(page, 'F2', '42');
  await waitForCell(page, 'F2', '42');
  await expect(cell(page, 'F2').getAttribute('class')).resolves.toContain('num');
  await typeInCell(page, 'F4', "'=not a formula");
  await waitForCell(page, 'F4', '=not a formula');
  await cell(page, 'F4').click();
  await expect(page.locator('#formula-input').inputValue()).resolves.toBe("'=not a formula");
  await page.keyboard.press('Delete');
  await waitForCell(page, 'F4', '');
  // Double-click edits the existing content; Escape cancels.
  await cell(page, 'F2').dblclick();
  await page.keyboard.type('0');
  await page.keyboard.press('Escape');
  expect(await cellText(page, 'F2')).toBe('42');
  // The formula bar commits too.
  await cell(page, 'G2').click();
  await page.locator('#formula-input').fill('typed in the bar');
  await page.locator('#formula-input').press('Enter');
  await waitForCell(page, 'G2', 'typed in the bar');
  expect(await page.evaluate(() => document.activeElement.id)).toBe('grid-wrap');
});

test("typing then Tab at a typist's speed keeps every value, each in its cell", async () => {
  const rows = [
    ['Ann', 'Lee', 'ann@acme.com', 'Acme'],
    ['Bob', 'Ray', 'bob@acme.com', '42'],
  ];
  await cell(page, 'A30').click();
  for (const row of rows) {
    for (const [i, value] of row.entries()) {
      // No wait for the page between keys: a real keyboard's pace, the edit before still on its way.
      await page.keyboard.type(value, { delay: 40 });
      await page.keyboard.press(i < row.length - 1 ? 'Tab' : 'Enter', { delay: 20 });
    }
    // Enter went down from the last cell; back to column A of the new row, as a user does with Home.
    for (let i = 1; i < row.length; i++) await page.keyboard.press('ArrowLeft', { delay: 20 });
  }
  for (const [r, row] of rows.entries()) {
    for (const [c, value] of row.entries()) await waitForCell(page, `${'ABCD'[c]}${30 + r}`, value);
  }
  await expect(cell(page, 'D31').getAttribute('class')).resolves.toContain('num');
  await screenshot(page, 'mechanics-05b-typed-rows');
});

test('checkboxes toggle by a click on the box and by Space on a selection, as in Sheets', async () => {
  await openTab(page, 'Sheet1');
  await clickMenuItem(page, 'Add checkboxes');
  await waitIdle(page);
  await waitForCell(page, 'H2', '☐');
  await waitForCell(page, 'H3', '☑');
  await cell(page, 'H2').locator('.checkbox-box').click();
  await waitForCell(page, 'H2', '☑');
  await expect(page.locator('#formula-input').inputValue()).resolves.toBe('TRUE');
  // A click beside a box selects, as on any cell; the header cell is text.
  await cell(page, 'H1').click();
  await waitForCell(page, 'H1', 'Replied');

  await cell(page, 'H2').click({ position: { x: 5, y: 5 } }); // the cell, not its box
  await waitForCell(page, 'H2', '☑');
  await cell(page, 'H4').click({ modifiers: ['Shift'], position: { x: 5, y: 5 } });
  await page.keyboard.press('Space'); // one of them is unchecked: all get checked
  await waitForCell(page, 'H4', '☑');
  expect([await cellText(page, 'H2'), await cellText(page, 'H3')]).toEqual(['☑', '☑']);
  await page.keyboard.press('Space'); // all checked: all get unchecked
  await waitForCell(page, 'H2', '☐');
  await waitForCell(page, 'H3', '☐');
  await waitForCell(page, 'H4', '☐');
  await cell(page, 'H3').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await waitForCell(page, 'H3', '☑');
  await expect(page.locator('#formula-input').inputValue()).resolves.toBe('TRUE');
  expect(await cellText(page, 'H2')).toBe('☐');
  await screenshot(page, 'mechanics-05c-checkboxes');
});

test('the frozen header keeps its own row number when scrolled, and each tab keeps its own scroll', async () => {
  await openTab(page, 'Fixture');
  const wrap = page.locator('#grid-wrap');
  await wrap.evaluate((w) => (w.scrollTop = 400));
  // What is drawn where row 1's number stands: row 1's number, not one of a row scrolled under it.
  const shownNumber = () =>
    page.evaluate(() => {
      const box = document.querySelector('#grid th.row-head[data-r="1"]').getBoundingClientRect();
      return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2).textContent;
    });
  await expect(shownNumber()).resolves.toBe('1');
  await screenshot(page, 'mechanics-06-frozen-scrolled');

  const left = await wrap.evaluate((w) => {
    w.scrollLeft = 300;
    return w.scrollLeft; // as far as the sheet goes
  });
  expect(left).toBeGreaterThan(0);
  await openTab(page, 'Sheet1');
  await expect(wrap.evaluate((w) => [w.scrollLeft, w.scrollTop])).resolves.toEqual([0, 0]);
  await openTab(page, 'Fixture');
  await expect(wrap.evaluate((w) => [w.scrollLeft, w.scrollTop])).resolves.toEqual([left, 400]);
  await wrap.evaluate((w) => {
    w.scrollLeft = 0;
    w.scrollTop = 0;
  });
  await openTab(page, 'Sheet1');
});

test('text formulas show their result and follow their inputs; a formula the playground cannot evaluate shows as one', async () => {
  await typeInCell(page, 'A12', 'Ann');
  await typeInCell(page, 'B12', 'Acme Corp');
  await typeInCell(page, 'C12', '=LOWER(A12)&"@"&SUBSTITUTE(LOWER(B12)," ","")&".com"');
  await waitForCell(page, 'C12', 'ann@acmecorp.com');
  await typeInCell(page, 'D12', '=CONCATENATE(PROPER("ann lee"), " <", C12, ">")');
  await waitForCell(page, 'D12', 'Ann Lee <ann@acmecorp.com>');
  await typeInCell(page, 'A12', 'Bob');
  await waitForCell(page, 'C12', 'bob@acmecorp.com');
  await waitForCell(page, 'D12', 'Ann Lee <bob@acmecorp.com>');

  await typeInCell(page, 'E12', '=VLOOKUP(A12,A1:B2,2,FALSE)');
  await waitForCell(page, 'E12', '=VLOOKUP(A12,A1:B2,2,FALSE)'); // never a blank cell
  await expect(cell(page, 'E12').getAttribute('class')).resolves.toContain('unevaluated');
  await expect(cell(page, 'E12').getAttribute('title')).resolves.toMatch(
    /does not evaluate this formula \(VLOOKUP is not one of the functions it evaluates\)/,
  );
  await screenshot(page, 'mechanics-07-formulas');
  await cell(page, 'E12').click();
  await page.keyboard.press('Delete');
  await waitForCell(page, 'E12', '');
});
