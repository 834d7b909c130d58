'use strict';
// Close on the unlock's progress dialog at 1366×768 only closes the view: the run under way goes on in the
// background and no row says "Stopped" (only Stop does that).
const {
  usePlayground,
  columnShown,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  answerUnlockDialog,
  waitForProgressDialogOrToast,
  screenshot,
  screenshotOnFailure,
} = require('./helpers');
const { control } = require('../support/harness');

let page;
const env = usePlayground({ viewport: { width: 1366, height: 768 } });
beforeAll(() => (page = env.page));
const ROWS = 150;

/** How many rows of Companies show each kind of Unlock status. */
async function statuses() {
  const { values } = await columnShown(env, 'Companies', 'Unlock status');
  return {
    unlocked: values.filter((s) => s.startsWith('Unlocked')).length,
    stopped: values.filter((s) => /^Stopped|\(stopped\)/.test(s)).length,
    blank: values.filter((s) => s === '').length,
  };
}

test('Close on the unlock progress dialog: the job goes on, nothing says Stopped', async () => {
  await screenshotOnFailure(page, 'unlock-close', async () => {
    const { emulator, outreachUrl } = env.playground;
    for (let from = 0; from < ROWS; from += 50) {
      const form = { products: 'a', operator: 'OR', industries: 'e', size: 50, from };
      expect(
        (await emulator.call({ op: 'run', name: 'searchCompanies', kind: 'webapp', args: [form] })).ok,
      ).toBe(true);
    }
    await openTab(page, 'Companies');
    await waitForCell(page, `B${ROWS + 1}`, /\S/);
    await page.locator('#name-box').fill(`A2:C${ROWS + 1}`);
    await page.locator('#name-box').press('Enter');
    // 100 ms per unlock: the job needs the progress dialog's steps.
    await control(outreachUrl, 'POST', '/faults', {
      path: '/api/v1/companies/unlock',
      kind: 'delay',
      delayMs: 100,
      count: 1000,
    });
    await clickMenuItem(page, 'Unlock selected companies');
    expect(await answerUnlockDialog(page)).toMatch(`Unlock ${ROWS} companies`);
    expect(await waitForProgressDialogOrToast(page, 'Unlocking companies', /Unlock finished/)).toBe('dialog');
    const beforeClose = await statuses();
    await screenshot(page, 'unlock-close-01-progress');
    await page.frameLocator('#html-dialog-frame').locator('#close').click();
    await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
    await waitIdle(page, 120000); // the run under way goes on and ends
    await control(outreachUrl, 'DELETE', '/faults');
    const afterClose = await statuses();
    expect(afterClose.stopped).toBe(0);
    expect(afterClose.unlocked).toBeGreaterThanOrEqual(beforeClose.unlocked);
    // The rest, if any, waits for the next Unlock (stop.test.js shows its report): nothing else changed.
    expect(afterClose.unlocked + afterClose.blank).toBe(ROWS);
    await screenshot(page, 'unlock-close-02-after');
  });
}, 300000);
