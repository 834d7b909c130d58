'use strict';
// Issue 36 in the playground (the Gmail build): the user turns "Detect replies in Gmail" on in Settings, and
// the dialog shows it on when opened again; the dialog still shows everything at the size Sheets gives it.
const { usePlayground, screenshot, clickMenuItem, waitIdle, waitUntilNothingClipped } = require('./helpers');

let page;
const env = usePlayground(undefined, 30000);
beforeAll(() => (page = env.page));
afterEach(() => expect(env.consoleErrors).toEqual([]));

async function openSettings() {
  await clickMenuItem(page, 'Settings…');
  await page.locator('#html-dialog-layer').waitFor({ state: 'visible' });
  const dialog = page.frameLocator('#html-dialog-frame');
  await dialog.locator('#outreachApiKey[placeholder^="Saved"]').waitFor();
  return dialog;
}

async function closeDialog(dialog) {
  await dialog.locator('#close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await waitIdle(page);
}

const replyDetection = async () =>
  (await env.playground.emulator.call({ op: 'run', name: 'getSettings', kind: 'webapp', args: [] })).result
    .replyDetection;

test('Settings: Detect replies in Gmail is off until the user ticks it, and stays as saved', async () => {
  expect(await replyDetection()).toEqual({ available: true, on: false, refused: '' });
  const dialog = await openSettings();
  const box = dialog.locator('#detectReplies');
  await box.waitFor({ state: 'visible' });
  expect(await box.isChecked()).toBe(false);
  await box.check();
  await dialog.locator('#save').click();
  await dialog.locator('#message.ok', { hasText: /^Saved/ }).waitFor();
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  await screenshot(page, 'replies-01-settings-detect-replies');
  await closeDialog(dialog);
  expect(await replyDetection()).toEqual({ available: true, on: true, refused: '' });
  const again = await openSettings();
  await again.locator('#detectReplies:checked').waitFor();
  await again.locator('#detectReplies').uncheck();
  await again.locator('#save').click();
  await again.locator('#message.ok', { hasText: /^Saved/ }).waitFor();
  await closeDialog(again);
  expect(await replyDetection()).toEqual({ available: true, on: false, refused: '' });
});
