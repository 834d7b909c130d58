'use strict';
/* global document, getComputedStyle */ // inside page.evaluate callbacks, which run in the browser
// What a user does to a sheet in Sheets, done in the playground at 1366×768: a column inserted from the
// column letter's right-click menu, a row deleted from the row number's, a range sorted from Data › Sort range,
// a sheet renamed on its tab, added with + and deleted from the tab's menu, the Name box scrolling to a far
// cell of a list whose every row is drawn, menus whose few items without meaning here are visibly disabled,
// Chinese and emoji drawn with glyphs. What the page shows is read back from the emulator's own cells.
const {
  usePlayground,
  screenshot,
  waitForCell,
  waitIdle,
  pasteAtA1,
  cell,
  openTab,
  sheetTabs,
  screenshotOnFailure,
  clickMenuItem,
  advanceServiceClock,
} = require('./helpers');

let page;
const env = usePlayground({ viewport: { width: 1366, height: 768 } });
beforeAll(() => (page = env.page));

/** The emulator's own cells of a sheet, as they show ([] when there is no such sheet). */
async function emulatorValues(name) {
  const reply = await env.playground.emulator.call({ op: 'values', name });
  return reply.result;
}

/** Right-clicks `target`, then the context menu's item `label`. */
async function contextItem(target, label) {
  await target.click({ button: 'right' });
  await page.locator('#context-menu:not([hidden])').waitFor();
  await page.locator('#context-menu .menu-item', { hasText: label }).click();
  await waitIdle(page);
}

/** Opens a menu of the menu bar (File, Edit, View, Insert, Data). */
async function openMenu(name) {
  await page.locator(`#menubar .sheet-menu[data-menu="${name}"]`).click();
  const popup = page.locator(`#menubar .sheet-menu[data-menu="${name}"] + .menu-popup`);
  await popup.waitFor();
  return popup;
}

test('insert a column and delete a row from the right-click menus, sort a range, rename, add and delete a sheet', async () => {
  await screenshotOnFailure(page, 'sheet-edits', async () => {
    await pasteAtA1(
      page,
      ['Name\tEmail', 'Kim\tkim@beta.example', 'Ann\tann@acme.example', 'Bob\tbob@acme.example'].join('\n'),
    );
    await waitForCell(page, 'B4', 'bob@acme.example');

    // Column B's right-click menu: a column inserted left of it; Email moves to C.
    await contextItem(page.locator('#grid th.col-head[data-c="2"]'), 'Insert 1 column left');
    await waitForCell(page, 'C1', 'Email');
    await waitForCell(page, 'B1', '');
    expect((await emulatorValues('Sheet1'))[0]).toEqual(['Name', '', 'Email']);
    await screenshot(page, 'sheet-edits-01-column-inserted');

    // Row 3's right-click menu: Ann's row deleted, Bob moves up.
    await contextItem(page.locator('#grid th.row-head[data-r="3"]'), 'Delete row 3');
    await waitForCell(page, 'A3', 'Bob');
    expect((await emulatorValues('Sheet1')).map((row) => row[0])).toEqual(['Name', 'Kim', 'Bob']);

    // Data › Sort range on A2:C3, by column A (A to Z): Bob before Kim, the emails with their names.
    await page.locator('#name-box').fill('A2:C3');
    await page.locator('#name-box').press('Enter');
    const data = await openMenu('Data');
    await data.locator('.menu-item.has-sub', { hasText: 'Sort range' }).click();
    await data.locator('.menu-item', { hasText: 'Sort range by column A (A to Z)' }).click();
    await waitForCell(page, 'A2', 'Bob');
    await waitForCell(page, 'C2', 'bob@acme.example');
    expect(await emulatorValues('Sheet1')).toEqual([
      ['Name', '', 'Email'],
      ['Bob', '', 'bob@acme.example'],
      ['Kim', '', 'kim@beta.example'],
    ]);
    await screenshot(page, 'sheet-edits-02-sorted');

    // The tab renamed in place (double-click, type, Enter), as in Sheets.
    await page.locator('#tabs .tab', { hasText: 'Sheet1' }).dblclick();
    await page.locator('#tabs .tab-rename').fill('People');
    await page.locator('#tabs .tab-rename').press('Enter');
    await page.locator('#tabs .tab[aria-selected="true"]', { hasText: 'People' }).waitFor();
    expect((await emulatorValues('People'))[1]).toEqual(['Bob', '', 'bob@acme.example']);

    // + adds a sheet after it and shows it; its tab's menu deletes it after a question.
    await page.locator('#add-sheet').click();
    await page.locator('#tabs .tab[aria-selected="true"]', { hasText: 'Sheet2' }).waitFor();
    expect(await sheetTabs(page)).toEqual(['People', 'Sheet2']);
    await contextItem(page.locator('#tabs .tab', { hasText: 'Sheet2' }), 'Delete');
    expect(await page.locator('#alert-message').textContent()).toContain('Delete "Sheet2"?');
    await page.locator('#alert-buttons button[data-button="OK"]').click();
    await page.locator('#tabs .tab', { hasText: 'Sheet2' }).waitFor({ state: 'detached' });
    expect(await sheetTabs(page)).toEqual(['People']);
    expect(await emulatorValues('Sheet2')).toEqual([]);
    expect(env.consoleErrors).toEqual([]);
  });
}, 120000);

test('the menus do what their items say; the few without meaning here are visible and disabled', async () => {
  const file = await openMenu('File');
  const disabled = await file.locator('.menu-item.disabled').allTextContents();
  expect(disabled).toEqual(['Make a copy', 'Share', 'Version history']);
  expect(await file.locator('.menu-item.disabled').first().getAttribute('title')).toMatch(/one spreadsheet/);
  await page.keyboard.press('Escape');
  // View › Freeze › 1 row: the emulator's sheet has a frozen row.
  const view = await openMenu('View');
  await view.locator('.menu-item', { hasText: 'Freeze › 1 row' }).click();
  await waitIdle(page);
  await page.locator('#grid tr.frozen[data-r="1"]').waitFor();
  // Insert › 1 row above, on row 2: the rows below move down in the emulator too.
  await page.locator('#name-box').fill('A2');
  await page.locator('#name-box').press('Enter');
  const insert = await openMenu('Insert');
  await insert.locator('.menu-item', { hasText: 'Insert 1 row above' }).click();
  await waitForCell(page, 'A3', 'Bob');
  expect((await emulatorValues('People')).map((row) => row[0])).toEqual(['Name', '', 'Bob', 'Kim']);
  // Edit › Delete row 2 takes it away again.
  const edit = await openMenu('Edit');
  expect(await edit.locator(':scope > .menu-item.disabled').allTextContents()).toEqual(['Undo', 'Redo']);
  await edit.locator('.menu-item', { hasText: 'Delete row 2' }).click();
  await waitForCell(page, 'A2', 'Bob');
  expect((await emulatorValues('People')).map((row) => row[0])).toEqual(['Name', 'Bob', 'Kim']);
  // Edit › Move › Column left, on C: the Email column moves before B (Sheet.moveColumns).
  await page.locator('#name-box').fill('C1');
  await page.locator('#name-box').press('Enter');
  const again = await openMenu('Edit');
  await again.locator('.menu-item.has-sub', { hasText: 'Move' }).click();
  await again.locator('.menu-item', { hasText: 'Column left' }).click();
  await waitForCell(page, 'B1', 'Email');
  expect((await emulatorValues('People'))[1]).toEqual(['Bob', 'bob@acme.example']);
  expect(env.consoleErrors).toEqual([]);
}, 60000);

test('every row of a long list is drawn: the Name box scrolls to a far cell; no text shows above the frozen row', async () => {
  const lines = ['Name\tNote'];
  for (let i = 1; i <= 3000; i++) lines.push(`Row ${i}\tline ${i}`);
  await page.locator('#add-sheet').click();
  await page.locator('#tabs .tab[aria-selected="true"]', { hasText: 'Sheet2' }).waitFor();
  await pasteAtA1(page, lines.join('\n'));
  await waitForCell(page, 'A2', 'Row 1');
  const view = await openMenu('View');
  await view.locator('.menu-item', { hasText: 'Freeze › 1 row' }).click();
  await page.locator('#grid tr.frozen[data-r="1"]').waitFor();

  await page.locator('#name-box').fill('B2900');
  await page.locator('#name-box').press('Enter');
  await waitForCell(page, 'B2900', 'line 2899');
  // The cell is in view, below the frozen header, and it is the selection.
  const box = await cell(page, 'B2900').boundingBox();
  const wrap = await page.locator('#grid-wrap').boundingBox();
  const header = await cell(page, 'A1').boundingBox();
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(box.y + box.height).toBeLessThanOrEqual(wrap.y + wrap.height);
  expect(await cell(page, 'B2900').getAttribute('class')).toContain('current');
  expect(await page.locator('#grid-wrap').evaluate((w) => w.scrollTop)).toBeGreaterThan(60000);
  // An edit there redraws the grid where it is scrolled.
  await page.keyboard.type('edited');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => {
    const td = document.querySelector('#grid td[data-r="2900"][data-c="2"]');
    return td && !td.classList.contains('pending') && td.textContent === 'edited';
  });
  expect(await page.locator('#grid-wrap').evaluate((w) => w.scrollTop)).toBeGreaterThan(60000);
  // Only rows near the view are drawn, and the grid is as tall as all the sheet's rows.
  expect(await page.locator('#grid tbody tr[data-r]').count()).toBeLessThan(500);
  // Right under the column letters comes the frozen row, with no gap a scrolled row shows through.
  const letters = await page.locator('#grid th.col-head[data-c="1"]').boundingBox();
  expect(header.y).toBe(letters.y + letters.height);
  const underGap = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y).closest('tr').dataset.r,
    {
      x: header.x + 10,
      y: header.y + 1,
    },
  );
  expect(underGap).toBe('1');
  await screenshot(page, 'sheet-edits-03-name-box-far-row');

  // A sheet-qualified range switches to that sheet and scrolls back up.
  await page.locator('#name-box').fill("'People'!C3");
  await page.locator('#name-box').press('Enter');
  await page.locator('#tabs .tab[aria-selected="true"]', { hasText: 'People' }).waitFor();
  expect(await cell(page, 'C3').getAttribute('class')).toContain('current');
  await openTab(page, 'Sheet2');
  expect(env.consoleErrors).toEqual([]);
}, 120000);

test('Chinese and emoji are drawn with glyphs from the fonts the playground brings, not as empty boxes', async () => {
  await openTab(page, 'People');
  await pasteAtA1(page, '你好，世界\t👋🎉');
  await waitForCell(page, 'A1', '你好，世界');
  await waitForCell(page, 'B1', '👋🎉');
  const drawn = await page.evaluate(async () => {
    const td = document.querySelector('#grid td[data-r="1"][data-c="1"]');
    const font = getComputedStyle(td).font;
    await document.fonts.load(font, '你好👋');
    // A character no font has (a private-use one) is drawn as the "missing glyph" box: a glyph drawn like it
    // is missing too.
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 32;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    const pixels = (text) => {
      ctx.clearRect(0, 0, 64, 32);
      ctx.font = font;
      ctx.fillStyle = '#000';
      ctx.fillText(text, 4, 24);
      return ctx.getImageData(0, 0, 64, 32).data;
    };
    const missing = pixels('\u{F8FF}');
    const same = (a, b) => a.every((v, i) => v === b[i]);
    const colored = (data) => {
      for (let i = 0; i < data.length; i += 4)
        if (
          data[i + 3] > 0 &&
          (Math.abs(data[i] - data[i + 1]) > 40 || Math.abs(data[i + 1] - data[i + 2]) > 40)
        )
          return true;
      return false;
    };
    const chinese = pixels('你');
    const emoji = pixels('👋');
    return {
      chineseIsGlyph: !same(chinese, missing) && chinese.some((v, i) => i % 4 === 3 && v > 0),
      emojiInColor: colored(emoji),
      fontsLoaded: [...document.fonts].filter((f) => f.status === 'loaded').length,
    };
  });
  expect(drawn).toEqual(expect.objectContaining({ chineseIsGlyph: true, emojiInColor: true }));
  await screenshot(page, 'sheet-edits-04-cjk-emoji');
  expect(env.consoleErrors).toEqual([]);
}, 60000);

test("the add-on's dialogs run on the service clock, as its executions do (a progress dialog's Elapsed adds the two)", async () => {
  await advanceServiceClock(page, '+1 hour');
  await clickMenuItem(page, 'Settings…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('body').waitFor();
  const ahead = await dialog
    .locator('body')
    .evaluate(() => Date.now() - performance.timeOrigin - performance.now());
  const service = await env.playground.emulator.call({ op: 'state' });
  const serviceAhead = service.state.clock.now - Date.now();
  // Both are an hour (and what the emulator simulated) ahead of real time, within the time this took.
  expect(ahead).toBeGreaterThan(3600000 - 60000);
  expect(Math.abs(ahead - serviceAhead)).toBeLessThan(60000);
  await page.locator('#html-dialog-close').click();
  expect(env.consoleErrors).toEqual([]);
}, 60000);
