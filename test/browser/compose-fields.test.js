'use strict';
/* global document */ // inside page.evaluate callbacks, which run in the browser
// Compose at 1366×768 on a wide list (the Contacts columns and more): the heading names the sheet from the first
// paint, the column chips show in whole rows (the last, Replaces, never half hidden), and the sending window's
// time fields are as wide as their text ("09:00 AM", not "09:00 AN"); after Send, the end names the columns the
// ids went to and the sheet shows them (they lie right of the window).
const {
  usePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  pasteAtA1,
  screenshotOnFailure,
  clippedElements,
} = require('./helpers');

let page;
const FRAME = '#html-dialog-frame';
const env = usePlayground({ viewport: { width: 1366, height: 768 } });
beforeAll(() => (page = env.page));

const HEADERS = [
  'Company',
  'Company hash ID',
  'Name',
  'First name',
  'Last name',
  'Title',
  'Department',
  'Seniority',
  'E-mail',
  'LinkedIn',
  'Country',
  'City',
  'Industry',
  'Phone',
  'Replaces',
];

/** Each chip's top and bottom against the chips box's visible part: [name, 'whole' | 'cut' | 'hidden']. */
function chipsSeen() {
  const box = document.getElementById('headers').getBoundingClientRect();
  return [...document.querySelectorAll('#headers button')].map((chip) => {
    const r = chip.getBoundingClientRect();
    const seen = r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    const hidden = r.bottom <= box.top + 0.5 || r.top >= box.bottom - 0.5;
    return [chip.textContent, seen ? 'whole' : hidden ? 'hidden' : 'cut'];
  });
}

/** Each time field's width and the width the browser gives it for its text (width: auto). */
function timeWidths() {
  return [...document.querySelectorAll('input[type=time]')].map((field) => {
    const natural = field.cloneNode();
    natural.style.width = 'auto';
    field.parentNode.appendChild(natural);
    const needs = natural.getBoundingClientRect().width;
    natural.remove();
    return { id: field.id, has: field.getBoundingClientRect().width, needs };
  });
}

test('compose at 1366×768 on a wide list: the sheet named, whole chips, time fields wide enough', async () => {
  await screenshotOnFailure(page, 'compose-fields', async () => {
    const row = HEADERS.map((h) => (h === 'E-mail' ? 'jane@example.com' : `${h} 1`));
    await pasteAtA1(page, `${HEADERS.join('\t')}\n${row.join('\t')}`);
    await waitForCell(page, 'I2', 'jane@example.com');
    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator(FRAME);
    // Named in the page as served, before the dialog's state arrives.
    const heading = compose.locator('#form .hint').first();
    await heading.waitFor();
    expect(await heading.textContent()).toMatch(/^Sheet Sheet1: one mail per row/);
    await compose.locator('#headers button', { hasText: 'Replaces' }).waitFor();
    await screenshot(page, 'compose-fields-01-wide-list');
    const body = compose.locator('body');

    const seen = await body.evaluate(chipsSeen);
    expect(seen.filter(([, how]) => how === 'cut')).toEqual([]);
    expect(seen.map(([name]) => name)).toEqual(HEADERS);
    // Scrolled to its end, the box shows the last chip whole.
    await compose.locator('#headers').evaluate((box) => (box.scrollTop = box.scrollHeight));
    expect((await body.evaluate(chipsSeen)).at(-1)).toEqual(['Replaces', 'whole']);

    await compose.locator('.timing').scrollIntoViewIfNeeded();
    await screenshot(page, 'compose-fields-02-window-times');
    const times = await body.evaluate(timeWidths);
    expect(times.map((t) => t.id)).toEqual(['windowFrom', 'windowTo']);
    for (const t of times) expect([t.id, t.has >= t.needs - 0.5]).toEqual([t.id, true]);
    expect(await clippedElements(compose, 'x')).toEqual([]);

    // Sent: the end names the columns the ids went to, right of the window, and the sheet scrolls to them.
    await compose.locator('#campaign').fill('Wide list');
    await compose.locator('#subject').fill('Hello {{First name}}');
    await compose.locator('#body').fill('Hi {{First name}}');
    await compose.locator('#sendAll').click();
    await page.locator('#alert-buttons button[data-button="YES"]').click();
    await compose
      .locator('#message.ok', {
        hasText: /Each row's Mail status, Task ID, Mail ID and Sent at: columns P–S of "Sheet1"\.$/,
      })
      .waitFor({ timeout: 30000 });
    await page.locator('#html-dialog-close').click();
    await waitForCell(page, 'P2', 'Accepted');
    await screenshot(page, 'compose-fields-03-sent-scrolled');
    const [status, grid] = await Promise.all([
      page.locator('#grid td[data-r="2"][data-c="16"]').boundingBox(),
      page.locator('#grid-wrap').boundingBox(),
    ]);
    expect(status.x).toBeGreaterThanOrEqual(grid.x);
    expect(status.x + status.width).toBeLessThanOrEqual(grid.x + grid.width);
    expect(await page.locator('#name-box').inputValue()).toMatch(/^P\d+:S\d+$/); // the rows selected, those columns
  });
}, 90000);
