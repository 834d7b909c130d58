'use strict';
// The compose dialog as a new user meets it: the preview of an HTML mail loads nothing from
// outside (a tracking pixel in the preview would count as an open); "Send to all unsent rows…" shows how the
// send ended in the dialog, not in a toast behind it; a double click on a button that spends (Send, Send
// test) posts once; a row where {{First name}} would be empty is previewed with the gap named
// and held by the send, counted in its confirmation.
const http = require('node:http');
const {
  openPlayground,
  closePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  pasteAtA1,
  typeInCell,
  cellText,
  waitForPreview,
} = require('./helpers');

let env;
let page;
let pixel; // a server standing for a mail tracker: counts what asks it for anything
const requests = [];

beforeAll(async () => {
  pixel = http.createServer((req, res) => {
    requests.push(req.url);
    res.writeHead(200, { 'content-type': 'image/gif', 'access-control-allow-origin': '*' });
    res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
  });
  await new Promise((resolve) => pixel.listen(0, '127.0.0.1', resolve));
  env = await openPlayground();
  page = env.page;
}, 60000);
afterAll(async () => {
  await closePlayground(env);
  await new Promise((resolve) => pixel.close(resolve));
});

test('the preview of an HTML mail loads no remote image, style, font or page: a tracker sees nothing', async () => {
  const tracker = `http://127.0.0.1:${pixel.address().port}`;
  await pasteAtA1(page, ['Name\tEmail', 'Jane\tjane@example.com', 'Bob\tbob@example.com'].join('\n'));
  await waitForCell(page, 'B3', 'bob@example.com');
  await clickMenuItem(page, 'Compose e-mail…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#campaign').fill('Pixel check');
  await dialog.locator('#subject').fill('Hello {{Name}}');
  await dialog.locator('#formatHtml').check();
  await dialog
    .locator('#body')
    .fill(
      [
        `<meta http-equiv="refresh" content="0;url=${tracker}/refresh">`,
        `<link rel="stylesheet" href="${tracker}/style.css">`,
        `<style>@import url("${tracker}/import.css"); p { background: url("${tracker}/background.gif"); }</style>`,
        `<p>Hi {{Name}}</p><img id="pixel" src="${tracker}/pixel?to={{Email}}" width="1" height="1">`,
        `<iframe src="${tracker}/frame"></iframe><video poster="${tracker}/poster.gif"></video>`,
      ].join('\n'),
    );
  await dialog.locator('#save').click();
  await waitForPreview(dialog, 'Hello Jane');
  const body = dialog.frameLocator('#htmlBody');
  await body.locator('p', { hasText: 'Hi Jane' }).waitFor();
  // The mail is there, tracker and all: only its remote parts are not fetched.
  await expect(body.locator('#pixel').getAttribute('src')).resolves.toBe(
    `${tracker}/pixel?to=jane@example.com`,
  );
  await dialog.locator('#next').click();
  await body.locator('p', { hasText: 'Hi Bob' }).waitFor();
  // The preview's document has loaded: an image it fetched would have been requested before its load event.
  const preview = await dialog.locator('#htmlBody').elementHandle();
  await (await preview.contentFrame()).waitForLoadState('load');
  await screenshot(page, 'compose-01-html-preview-no-remote');
  expect(requests).toEqual([]);
  await expect(dialog.locator('#htmlBody').getAttribute('sandbox')).resolves.toBe('');

  // The tracker is reachable from this page: nothing but the preview's policy kept the requests away.
  await page.evaluate((url) => fetch(url, { mode: 'no-cors' }).then(() => true), `${tracker}/control`);
  expect(requests).toEqual(['/control']);
  await dialog.locator('#close').click();
  await waitIdle(page);
  expect(env.consoleErrors).toEqual([]);
}, 60000);

test('Send to all unsent rows shows the outcome in the compose dialog: sent, skipped, EDM used', async () => {
  // The list of the test before (Jane, Bob) plus a row without an address.
  await page.locator('#name-box').fill('A4');
  await page.locator('#name-box').press('Enter');
  await page.keyboard.type('Nobody');
  await page.keyboard.press('Enter');
  await waitForCell(page, 'A4', 'Nobody');
  await clickMenuItem(page, 'Compose e-mail…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#campaign').fill('Outcome shown');
  await dialog.locator('#formatText').check();
  await dialog.locator('#body').fill('Hi {{Name}}');
  await dialog.locator('#sendAll').click();
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  expect(await page.locator('#alert-message').textContent()).toMatch(/^Send 2 e-mails/);
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  const outcome = dialog.locator('#message.ok');
  await outcome.waitFor({ timeout: 30000 });
  await expect(outcome.textContent()).resolves.toBe(
    'Send finished: Sent 2 e-mails, 1 skipped (campaign "Outcome shown"). 2 e-mail credits (EDM) used. Each row\'s Mail status, Task ID, Mail ID and Sent at: columns C–F of "Sheet1".',
  );
  await expect(page.locator('#toasts .toast').count()).resolves.toBe(0);
  await screenshot(page, 'compose-02-send-outcome');
  await dialog.locator('#close').click();
  await waitIdle(page);
  expect(env.consoleErrors).toEqual([]);
}, 60000);

test('a double click on Send to all unsent rows, or on Send test, posts once: the buttons wait for the answer', async () => {
  const runs = [];
  const listen = (request) => {
    if (!request.url().endsWith('/api/run') || request.method() !== 'POST') return;
    runs.push(JSON.parse(request.postData() || '{}').name);
  };
  page.on('request', listen);
  try {
    // A row more, not sent yet.
    await typeInCell(page, 'A5', 'Kim');
    await typeInCell(page, 'B5', 'kim@example.com');
    await waitForCell(page, 'B5', 'kim@example.com');
    await clickMenuItem(page, 'Compose e-mail…');
    const dialog = page.frameLocator('#html-dialog-frame');
    await dialog.locator('#campaign').fill('Double click');
    await dialog.locator('#formatText').check();
    await dialog.locator('#body').fill('Hi {{Name}}');

    runs.length = 0;
    await dialog.locator('#sendAll').dblclick();
    await page.locator('#alert-layer').waitFor({ state: 'visible' });
    expect(await page.locator('#alert-message').textContent()).toMatch(/^Send 1 e-mail/);
    await expect(dialog.locator('#sendAll').isDisabled()).resolves.toBe(true); // while the call runs
    await page.locator('#alert-buttons button[data-button="YES"]').click();
    await dialog.locator('#message.ok').waitFor({ timeout: 30000 });
    await expect(dialog.locator('#sendAll').isDisabled()).resolves.toBe(false); // answered: usable again
    expect(runs.filter((name) => name === 'saveTemplate')).toHaveLength(1);
    expect(runs.filter((name) => name === 'sendAllUnsentRows')).toHaveLength(1);
    await expect(page.locator('#alert-layer').isVisible()).resolves.toBe(false); // no second confirmation

    runs.length = 0;
    await dialog.locator('#testTo').fill('me@seller.example');
    await dialog.locator('#test').dblclick();
    await dialog.locator('#testMessage.ok').waitFor({ timeout: 30000 });
    await expect(dialog.locator('#testMessage').textContent()).resolves.toMatch(/me@seller\.example/);
    await expect(dialog.locator('#message').textContent()).resolves.toBe(''); // one answer at a time
    await waitIdle(page); // a second call would be running or waiting to run
    expect(runs.filter((name) => name === 'sendTestMail')).toHaveLength(1);
    await screenshot(page, 'compose-03-double-click-posts-once');
    await dialog.locator('#close').click();
    await waitIdle(page);
    expect(env.consoleErrors).toEqual([]);
  } finally {
    page.off('request', listen);
  }
}, 60000);

test('no "Hi ,": an empty First name takes the Name; a row with no name is previewed with the gap named and held by the send', async () => {
  // The list of the tests before (Jane, Bob, Nobody, Kim: sent) with a First name column far to the right,
  // empty, and two new rows: one with a Name, one with none.
  const cells = { L1: 'First name', A6: 'Dr. Lee Park', B6: 'lee@example.com', B7: 'anon@example.com' };
  for (const [a1, text] of Object.entries(cells)) {
    await typeInCell(page, a1, text);
    await waitForCell(page, a1, text);
  }
  await clickMenuItem(page, 'Compose e-mail…');
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#campaign').fill('No gaps');
  await dialog.locator('#subject').fill('Hello {{First name}}');
  await dialog.locator('#formatText').check();
  await dialog.locator('#body').fill('Hi {{First name}},');
  await dialog.locator('#save').click();
  await dialog.locator('#textBody', { hasText: 'Hi Jane,' }).waitFor(); // saved: row 2 previewed
  await dialog.locator('#row').fill('6');
  await dialog.locator('#row').dispatchEvent('change');
  await dialog.locator('#textBody', { hasText: 'Hi Lee,' }).waitFor();
  await expect(dialog.locator('#problems li').count()).resolves.toBe(0);
  // The row typed in the same field (a click elsewhere would blur it and preview row 6 again meanwhile).
  await dialog.locator('#row').fill('7');
  await dialog.locator('#row').dispatchEvent('change');
  await dialog.locator('#textBody', { hasText: 'Hi {{First name}},' }).waitFor();
  await expect(dialog.locator('#previewSubject').textContent()).resolves.toBe('Hello {{First name}}');
  await expect(dialog.locator('#problems li').allTextContents()).resolves.toEqual([
    'Row 7: {{First name}} is empty; a fallback such as {{First name|there}} fills it.',
  ]);
  await screenshot(page, 'compose-04-empty-first-name-previewed');

  await dialog.locator('#sendAll').click();
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  const confirmation = await page.locator('#alert-message').textContent();
  expect(confirmation).toMatch(/^Send 1 e-mail from/);
  expect(confirmation).toContain(
    'Not sent (nothing charged; "Mail status" says so on each): 1 row where {{First name}} is empty.',
  );
  await screenshot(page, 'compose-05-held-row-counted');
  await page.locator('#alert-buttons button[data-button="NO"]').click();
  await waitIdle(page);
  // The held row says why before anything is sent.
  let status = '';
  for (const column of 'CDEFGHIJK') {
    if ((await cellText(page, `${column}1`)) !== 'Mail status') continue;
    await waitForCell(page, `${column}7`, /^Not sent: /);
    status = await cellText(page, `${column}7`);
  }
  expect(status).toBe('Not sent: {{First name}} is empty; a fallback such as {{First name|there}} fills it');
  await dialog.locator('#close').click();
  await waitIdle(page);
  expect(env.consoleErrors).toEqual([]);
}, 60000);
