'use strict';
// Stop means stop, in a real browser: an unlock of 150 companies goes on in the progress dialog;
// Stop, clicked while the dialog's step works, ends the job after the batch under way. The Stop call runs
// as an execution of its own beside the step, as google.script.run calls do in Apps Script.
const {
  usePlayground,
  columnShown,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  openTab,
  waitUntilNothingClipped,
  screenshotOnFailure,
  answerUnlockDialog,
  waitForProgressDialogOrToast,
} = require('./helpers');
const { control, DEMO_KEYS } = require('../support/harness');

let page;

const env = usePlayground();
beforeAll(() => (page = env.page));

const ROWS = 150;

/** The unlock's progress dialog, which replaces the unlock question once Unlock is answered (not a toast). */
async function progressDialog() {
  expect(await waitForProgressDialogOrToast(page, 'Unlocking companies', /Unlock finished/)).toBe('dialog');
}

async function unlockedAtSandbox() {
  const url = env.playground.outreachUrl;
  return (await control(url, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`)).unlocks.length;
}

test('Stop ends the unlock after the batch under way; Close lets the step go on, and the next Unlock says what it did', async () => {
  await screenshotOnFailure(page, 'stop', steps);
}, 180000);

async function steps() {
  const { emulator, outreachUrl } = env.playground;
  for (let from = 0; from < ROWS; from += 50) {
    const form = { products: 'a', operator: 'OR', industries: 'e', size: 50, from };
    const reply = await emulator.call({ op: 'run', name: 'searchCompanies', kind: 'webapp', args: [form] });
    expect(reply.ok).toBe(true);
  }
  await openTab(page, 'Companies');
  await waitForCell(page, 'B151', /\S/);
  await page.locator('#name-box').fill(`A2:C${ROWS + 1}`);
  await page.locator('#name-box').press('Enter');
  // A service that takes 300 ms per unlock, on the service's clock for the answer's execution; from the
  // dialog's first step on, in real time too: a batch of 10 takes 3 s, time enough to click Stop in it.
  const unlockDelay = (real) => ({
    path: '/api/v1/companies/unlock',
    kind: 'delay',
    delayMs: 300,
    ...(real ? {} : { serviceTime: true }),
    count: 1000,
  });
  await control(outreachUrl, 'POST', '/faults', unlockDelay(false));
  let slowed = null;
  const slowedDown = new Promise((resolve) => (slowed = resolve));
  const slowDialogSteps = async (route) => {
    if (!slowed || !/"name":"continueJob"/.test(route.request().postData() || '')) return route.continue();
    const done = slowed;
    slowed = null;
    await control(outreachUrl, 'DELETE', '/faults');
    await control(outreachUrl, 'POST', '/faults', unlockDelay(true));
    await route.continue();
    done();
  };
  await page.route('**/api/run', slowDialogSteps);

  await clickMenuItem(page, 'Unlock selected companies');
  // 150 unlocks and their contacts take more than one execution at 60 requests a minute: the unlock goes on
  // in the progress dialog.
  expect(await answerUnlockDialog(page)).toMatch(/^Unlock 150 companies/);
  await progressDialog();
  await slowedDown; // the dialog's first step is on its way, slow
  await page.unroute('**/api/run', slowDialogSteps);
  const dialog = page.frameLocator('#html-dialog-frame');
  await expect(dialog.locator('#choices').textContent()).resolves.toMatch(
    /Close hides this window: the run under way goes on in the background, and the next\s+“Unlock selected companies” says what it did/,
  );
  expect(await waitUntilNothingClipped(dialog)).toEqual([]);
  await screenshot(page, 'stop-01-progress-dialog');

  await dialog.locator('#stop').click();
  await dialog.locator('#message', { hasText: 'Stopping after the batch under way' }).waitFor();
  await screenshot(page, 'stop-02-stopping');
  const message = dialog.locator('#message.info', { hasText: /^Stopped, as you asked\./ });
  await message.waitFor({ timeout: 30000 });
  const text = await message.textContent();
  const left = Number(/(\d+) companies were not unlocked, nothing charged for them/.exec(text)[1]);
  expect(left).toBeGreaterThan(0);
  await expect(dialog.locator('#stop').isDisabled()).resolves.toBe(true);
  await screenshot(page, 'stop-03-stopped');

  // Nothing more is unlocked (no step goes on), and what was unlocked is what the sheet says.
  const unlocked = await unlockedAtSandbox();
  await waitIdle(page); // a step going on would keep the playground busy
  expect(await unlockedAtSandbox()).toBe(unlocked);
  expect(unlocked + left).toBe(ROWS);
  await dialog.locator('#close').click();
  await waitIdle(page);
  const { values: statuses } = await columnShown(env, 'Companies', 'Unlock status');
  expect(statuses.filter((s) => s.startsWith('Stopped: not unlocked'))).toHaveLength(left);
  expect(statuses.filter((s) => s.startsWith('Unlocked'))).toHaveLength(unlocked);
  await screenshot(page, 'stop-04-rows-stopped');

  // Unlock the rows left, and Close the dialog while its step works: the step goes on in the background.
  await control(outreachUrl, 'DELETE', '/faults');
  await control(outreachUrl, 'POST', '/faults', {
    path: '/api/v1/companies/unlock',
    kind: 'delay',
    delayMs: 100,
    count: 1000,
  });
  await page.locator('#name-box').fill(`A2:C${ROWS + 1}`);
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Unlock selected companies');
  // The answer's execution runs the first step (on the emulator's clock it may unlock all the rows left);
  // then the progress dialog asks for the next step (continueJob), the one that goes on after Close. That
  // request waits until the sandbox has counted the first step's unlocks and reads contacts slowly (2 s on
  // the service's clock, half a second of real time), so that the step is still working when Close is clicked.
  let afterFirstStep;
  let stepStarted;
  const dialogStep = new Promise((resolve) => (stepStarted = resolve));
  const holdStep = async (route) => {
    if (stepStarted === null || !/"name":"continueJob"/.test(route.request().postData() || ''))
      return route.continue();
    const started = stepStarted;
    stepStarted = null; // the next continueJob calls go through
    afterFirstStep = await unlockedAtSandbox();
    await control(outreachUrl, 'POST', '/faults', {
      path: '/api/v1/companies/', // profile and profileEmails (the unlock is a POST)
      method: 'GET',
      kind: 'delay',
      delayMs: 2000,
      serviceTime: true,
      realMs: 500,
      count: 1000,
    });
    const stepEnded = page.waitForResponse((response) => response.request() === route.request(), {
      timeout: 150000,
    });
    await route.continue();
    started({ stepEnded });
  };
  await page.route('**/api/run', holdStep);
  expect(await answerUnlockDialog(page)).toMatch(`Unlock ${left} companies`);
  await progressDialog();
  const { stepEnded } = await dialogStep;
  await dialog.locator('#close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await stepEnded; // the background step ends (at its time limit, or done)
  await page.unroute('**/api/run', holdStep);
  await waitIdle(page, 90000);
  await control(outreachUrl, 'DELETE', '/faults');
  const afterBackground = await unlockedAtSandbox();

  // The next Unlock first says what that step did.
  await page.locator('#name-box').fill('A2');
  await page.locator('#name-box').press('Enter');
  await clickMenuItem(page, 'Unlock selected companies');
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  await expect(page.locator('#alert-title').textContent()).resolves.toBe(
    'Unlock: what happened after the dialog closed',
  );
  const report = await page.locator('#alert-message').textContent();
  const did =
    /^The run that was under way when the progress dialog closed went on in the background: it (?:unlocked (\d+) compan(?:y|ies) \((\d+) points?\))?(?: and )?(?:filled the contacts of (\d+) compan(?:y|ies) \((\d+) new contacts?\))?\.( The unlock has finished\.)?$/.exec(
      report,
    );
  expect(did).not.toBeNull();
  const [backgroundUnlocks, points, filled] = [did[1], did[2], did[3]].map((n) => Number(n || 0));
  expect(backgroundUnlocks + filled).toBeGreaterThan(0); // the step went on: it did something, and says what
  expect(points).toBe(backgroundUnlocks); // none of these companies was unlocked before: each is charged
  // What it says it unlocked is what the sandbox unlocked after the first step (the dialog came up after it),
  // and at most all of this unlock's.
  expect(backgroundUnlocks).toBe(afterBackground - afterFirstStep);
  expect(backgroundUnlocks).toBeLessThanOrEqual(afterBackground - unlocked);
  const finishedInBackground = !!did[5];
  if (finishedInBackground) expect(afterBackground).toBe(ROWS);
  await screenshot(page, 'stop-05-background-report');
  await page.locator('#alert-buttons button[data-button="OK"]').click();
  if (!finishedInBackground) {
    // Then it offers the rest (the step stopped at its time limit).
    await page.locator('#alert-title', { hasText: 'Unfinished unlock' }).waitFor();
    await expect(page.locator('#alert-message').textContent()).resolves.toMatch(
      /^The last unlock was interrupted\.\n(Left to unlock: \d+ compan(y|ies), at most \d+ search points? .*\nUsable balance: \d+ points .*\n)?(Contacts still to fill: \d+ compan(y|ies) \(free\)\.\n)?\nContinue it now\?$/,
    );
    await page.locator('#alert-buttons button[data-button="NO"]').click();
  }
  await waitIdle(page, 60000);
  expect(env.consoleErrors).toEqual([]);
}
