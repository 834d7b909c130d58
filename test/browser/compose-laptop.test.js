'use strict';
/* global document, getComputedStyle, window, HTMLProgressElement */ // inside page.evaluate callbacks, which run in the browser
// Compose and progress at 1366×768. The compose dialog keeps Save, Send and Close on one
// row, answers every action right under them, in view, and lets the preview use the free height; a sheet
// without an e-mail column opens the dialog with the explanation and the fix at the top. The unlock
// progress bar moves inside a step, the elapsed time counts from the job's start, and after Stop the rows
// whose contacts were not fetched say so in their own Unlock status.
const {
  usePlayground,
  columnShown,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  outOfView,
  waitInView,
  pasteAtA1,
  openTab,
  screenshotOnFailure,
  answerUnlockDialog,
  waitForPreview,
} = require('./helpers');

let page;
const FRAME = '#html-dialog-frame';

// The pages' timers run 10 times faster (the progress dialog polls every 0.5 s): the bar's moves come sooner.
const env = usePlayground({ viewport: { width: 1366, height: 768 }, frameTimerScale: 0.1 });
beforeAll(() => (page = env.page));

async function closeDialog() {
  await page.locator('#html-dialog-close').click();
  await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
  await waitIdle(page);
}

/** The top offsets of the compose dialog's three buttons (one row: the same top). */
async function buttonTops(compose) {
  return Promise.all(
    ['#save', '#sendAll', '#close'].map((id) =>
      compose.locator(id).evaluate((el) => Math.round(el.getBoundingClientRect().top)),
    ),
  );
}

test('compose at 1366×768: a sheet without an e-mail column opens with the fix at the top', async () => {
  await screenshotOnFailure(page, 'compose-laptop-no-email', async () => {
    await pasteAtA1(page, 'Name\tCity\nJane\tParis');
    await waitForCell(page, 'B2', 'Paris');
    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator(FRAME);
    const problem = compose.locator('#sheetProblem');
    await problem
      .filter({ hasText: /has no e-mail column: name the column of addresses "E-mail"/ })
      .waitFor();
    await waitInView(page, FRAME, ['#sheetProblem']);
    await screenshot(page, 'compose-laptop-01-no-email-column');
    // At the top: above the form, in view without scrolling; said once (not again under the buttons).
    const [problemBottom, formTop] = await Promise.all([
      problem.evaluate((el) => el.getBoundingClientRect().bottom),
      compose.locator('#form').evaluate((el) => el.getBoundingClientRect().top),
    ]);
    expect(problemBottom).toBeLessThanOrEqual(formTop);
    expect(await outOfView(page, FRAME, ['#sheetProblem'])).toEqual([]);
    expect(await compose.locator('#message').textContent()).not.toMatch(/no e-mail column/);
    await closeDialog();
  });
}, 60000);

test('compose at 1366×768: buttons on one row, every answer in view under them, the preview fills the height', async () => {
  await screenshotOnFailure(page, 'compose-laptop', async () => {
    await pasteAtA1(page, 'Name\tEmail\nJane\tjane@example.com\nJohn\tjohn@example.com');
    await waitForCell(page, 'B2', 'jane@example.com');
    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator(FRAME);
    await compose.locator('#headers button', { hasText: 'Name' }).waitFor();
    expect(await compose.locator('#sheetProblem').textContent()).toBe('');
    const [save, send, close] = await buttonTops(compose);
    expect([send, close]).toEqual([save, save]);

    // An error (no campaign name given) and a warning answer under the buttons, in view.
    await compose.locator('#subject').fill('Hello {{Name}}');
    await compose.locator('#body').fill('Hi {{Name}},\n\n' + 'A line of the mail.\n'.repeat(30));
    await compose.locator('#campaign').fill('Laptop');
    await compose.locator('#save').click();
    await waitForPreview(compose, 'Hello Jane');
    const saved = compose.locator('#message', { hasText: /^Saved\./ });
    await saved.waitFor();
    await waitInView(page, FRAME, ['#save', '#sendAll', '#close', '#message']);
    await screenshot(page, 'compose-laptop-02-saved');
    expect(await outOfView(page, FRAME, ['#save', '#sendAll', '#close', '#message'])).toEqual([]);
    // Right under the buttons.
    const [actionsBottom, messageTop] = await Promise.all([
      compose.locator('#form .actions').evaluate((el) => el.getBoundingClientRect().bottom),
      compose.locator('#message').evaluate((el) => el.getBoundingClientRect().top),
    ]);
    expect(messageTop - actionsBottom).toBeGreaterThanOrEqual(0);
    expect(messageTop - actionsBottom).toBeLessThan(20);
    expect(await buttonTops(compose)).toEqual(await buttonTops(compose).then((t) => [t[0], t[0], t[0]]));

    // The preview uses the height the form column leaves: its body box ends near the pane's test field, and
    // nothing of the preview is clipped.
    const heights = await compose.locator('.preview').evaluate((pane) => {
      const box = pane.querySelector('.body-box').getBoundingClientRect();
      const form = document.getElementById('form').getBoundingClientRect();
      return { body: box.height, pane: pane.getBoundingClientRect().height, form: form.height };
    });
    expect(heights.body).toBeGreaterThan(160);
    expect(heights.pane).toBeGreaterThanOrEqual(heights.form - 1);
    expect(await outOfView(page, FRAME, ['.preview', '#textBody', '#test'])).toEqual([]);

    // A schedule's answer: under the buttons too, scrolled into view.
    await compose.locator('#schedule').click();
    await compose.locator('#message.error', { hasText: 'Choose the date and time' }).waitFor();
    await waitInView(page, FRAME, ['#message']);
    await screenshot(page, 'compose-laptop-03-schedule-error');
    expect(await outOfView(page, FRAME, ['#message'])).toEqual([]);

    // The send's outcome.
    await compose.locator('#sendAll').click();
    await page.locator('#alert-buttons button[data-button="YES"]').click();
    await compose
      .locator('#message.ok', { hasText: /^Send finished: Sent 2 e-mails/ })
      .waitFor({ timeout: 30000 });
    await waitInView(page, FRAME, ['#message', '#sendAll', '#close']);
    await screenshot(page, 'compose-laptop-04-sent');
    expect(await outOfView(page, FRAME, ['#message', '#sendAll', '#close'])).toEqual([]);
    const [s2, send2, close2] = await buttonTops(compose);
    expect([send2, close2]).toEqual([s2, s2]);
    await closeDialog();
  });
}, 90000);

/**
 * The visible form fields of the frame (inputs, selects, text areas; not the hidden ones) that have no
 * visible label with words: a <label for> or a <label> around them.
 */
function unlabelledFields() {
  const visible = (el) =>
    !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const fields = [...document.querySelectorAll('input, select, textarea')].filter(
    (el) => el.type !== 'hidden' && visible(el),
  );
  return fields
    .filter((el) => {
      const labels = [...(el.labels || [])].filter((l) => visible(l) && l.textContent.trim());
      return labels.length === 0;
    })
    .map((el) => el.id || el.className || el.outerHTML.slice(0, 60));
}

/** How many times `text` shows in the frame's visible text. */
function timesShown(_body, text) {
  return document.body.innerText.split(text).length - 1;
}

test('compose at 1366×768: every field has a visible label, the test answers beside its button, an error is said once', async () => {
  await screenshotOnFailure(page, 'compose-laptop-labels', async () => {
    // The list the test before sent, and a row 4 without an address.
    await pasteAtA1(page, 'Name\tEmail\nJane\tjane@example.com\nJohn\tjohn@example.com\nKim\t');
    await waitForCell(page, 'A4', 'Kim');
    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator(FRAME);
    await compose.locator('#headers button', { hasText: 'Name' }).waitFor();
    await compose.locator('#campaign').fill('Labels');
    await compose.locator('#subject').fill('Hello {{Name}}');
    await compose.locator('#body').fill('Hi {{Nmae}},\nshall we meet?');
    await compose.locator('#addStep').click();
    await compose.locator('#addStep').click();
    await compose.locator('#steps .step-body').first().fill('Any news, {{Name}}?');
    await compose.locator('#steps .step-body').nth(1).fill('Last try, {{Name}}.');
    await compose.locator('#save').click();
    const problem = '{{Nmae}} matches no column of this sheet';
    await compose.locator('#message.error', { hasText: problem }).waitFor();
    await compose.locator('#textBody', { hasText: 'This mail cannot be shown' }).waitFor();
    await waitInView(page, FRAME, ['#message']);
    await screenshot(page, 'compose-laptop-08-problem-said-once');
    const body = compose.locator('body');
    // Said once: under the buttons, not again in the preview.
    expect(await body.evaluate(timesShown, problem)).toBe(1);
    // Every field, the follow-ups' and the preview's mail picker included, has a visible label.
    expect(await body.evaluate(unlabelledFields)).toEqual([]);
    await expect(compose.getByLabel('Subject', { exact: true }).count()).resolves.toBe(1); // the first mail's
    await expect(compose.locator('label[for="step2-body"]').textContent()).resolves.toBe('Body');
    await expect(compose.locator('label[for="stepPick"]').isVisible()).resolves.toBe(true);

    // The test refused for the same problem: its answer beside the button, the problem still said once.
    await compose.locator('#testTo').fill('me@seller.example');
    await compose.locator('#test').click();
    await compose.locator('#testMessage.error', { hasText: `The test was not sent: ${problem}` }).waitFor();
    await waitInView(page, FRAME, ['#testMessage']);
    await screenshot(page, 'compose-laptop-09-test-refused');
    expect(await body.evaluate(timesShown, problem)).toBe(1);
    await expect(compose.locator('#message').textContent()).resolves.toBe('');

    // Fixed and saved; the test of row 4 (no address of its own) goes to the typed address, and says so
    // right under its button, in the preview's column, in view.
    // The save's preview of row 2 answers while row 4 is being typed: it must not put row 2 back.
    let release;
    const typed = new Promise((resolve) => (release = resolve));
    const holdRowTwo = async (route) => {
      if (!/"name":"previewMail","args":\[2,/.test(route.request().postData() || '')) return route.continue();
      const response = await route.fetch();
      await typed;
      return route.fulfill({ response });
    };
    await page.route('**/api/run', holdRowTwo);
    await compose.locator('#body').fill('Hi {{Name}},\nshall we meet?');
    await compose.locator('#save').click();
    await compose.locator('#message', { hasText: /^Saved\./ }).waitFor();
    await compose.locator('#row').fill('4');
    release();
    await waitIdle(page);
    await compose.locator('#row').press('Tab');
    await compose.locator('#problems li', { hasText: 'Row 4: no e-mail address.' }).waitFor();
    await page.unroute('**/api/run', holdRowTwo);
    await expect(compose.locator('#row').inputValue()).resolves.toBe('4');
    await compose.locator('#test').click();
    const done = compose.locator('#testMessage.ok', { hasText: /^Test of row 4 sent to me@seller\.example/ });
    await done.waitFor({ timeout: 30000 });
    await waitInView(page, FRAME, ['#testMessage']);
    await screenshot(page, 'compose-laptop-10-test-beside-button');
    await expect(compose.locator('#message').textContent()).resolves.toBe('');
    const [button, answer, preview] = await Promise.all(
      ['#test', '#testMessage', '.preview'].map((sel) =>
        compose.locator(sel).evaluate((el) => el.getBoundingClientRect().toJSON()),
      ),
    );
    expect(answer.top - button.bottom).toBeGreaterThanOrEqual(0);
    expect(answer.top - button.bottom).toBeLessThan(20);
    expect(answer.left).toBeGreaterThanOrEqual(preview.left);
    expect(answer.right).toBeLessThanOrEqual(preview.right);
    expect(await outOfView(page, FRAME, ['#test', '#testMessage'])).toEqual([]);
    await closeDialog();
  });
}, 90000);

test('Show mail at 1366×768: the body takes the free height, Close ends the dialog with no empty area under it', async () => {
  await screenshotOnFailure(page, 'compose-laptop-show-mail', async () => {
    // Row 2 of the list sent two tests before.
    await page.locator('#grid td[data-r="2"][data-c="1"]').click();
    await clickMenuItem(page, 'Show mail');
    const mail = page.frameLocator(FRAME);
    await mail.locator('#body-text').waitFor();
    await waitInView(page, FRAME, ['#close', '#body-text']);
    await screenshot(page, 'compose-laptop-11-show-mail');
    const frame = await page.locator(FRAME).boundingBox();
    const close = await mail.locator('#close').boundingBox();
    const text = await mail.locator('#body-text').boundingBox();
    expect(frame.y + frame.height - (close.y + close.height)).toBeLessThan(30); // only the page's margin
    expect(text.height).toBeGreaterThan(200); // the short mail's box fills what the fields leave
    expect(await outOfView(page, FRAME, ['#close', '#body-text'])).toEqual([]);
    await mail.locator('#close').click();
    await page.locator('#html-dialog-layer').waitFor({ state: 'hidden' });
    await waitIdle(page);
  });
}, 60000);

/** Extensions › Playground demo › item. */
async function demo(label) {
  await page.locator('#extensions-menu').click();
  const holder = page.locator('#extensions-popup > .menu-root', {
    has: page.locator(':scope > .menu-item', { hasText: 'Playground demo' }),
  });
  await holder.locator(':scope > .menu-item').click();
  await holder.locator(':scope > .menu-popup > .menu-item', { hasText: label }).click();
}

function seconds(text) {
  const m = /Elapsed: (\d+) min (\d+) s/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

test('unlock of 300 demo companies at 1366×768: the bar moves inside a step, elapsed counts from the start, Stop marks the rows', async () => {
  await screenshotOnFailure(page, 'compose-laptop-unlock', async () => {
    await demo('Add 300 demo companies');
    await page
      .locator('#toasts .toast', { hasText: '300 companies on "Companies"' })
      .waitFor({ timeout: 60000 });
    await openTab(page, 'Companies');
    await demo('Slow service: on');
    await page.locator('#toasts .toast', { hasText: 'Slow service on' }).waitFor();
    await page.locator('#name-box').fill('A2:A301');
    await page.locator('#name-box').press('Enter');
    await clickMenuItem(page, 'Unlock selected companies');
    expect(await answerUnlockDialog(page)).toMatch(/^Unlock 300 companies/);
    const confirmed = Date.now();
    // The dialog's first poll is answered only after the bar has moved on: read late, it must not take the
    // bar back.
    let release;
    const released = new Promise((resolve) => (release = resolve));
    let polls = 0;
    const holdFirstPoll = async (route) => {
      if (!/"name":"getJobProgress"/.test(route.request().postData() || '') || ++polls > 1)
        return route.continue();
      const response = await route.fetch();
      await released;
      return route.fulfill({ response });
    };
    await page.route('**/api/run', holdFirstPoll);
    await page.locator('#html-dialog-title', { hasText: 'Unlocking companies' }).waitFor({ timeout: 120000 });
    const dialog = page.frameLocator(FRAME);
    await dialog.locator('#elapsed', { hasText: 'Elapsed' }).waitFor();

    // The bar and the elapsed time, sampled while the dialog's steps work, until the bar has moved twice
    // (the dialog polls the step's progress; a loaded machine answers later): at most a minute.
    const samples = [];
    const fraction = (sample) => sample.value / sample.max;
    const rises = () => samples.filter((s, i) => i > 0 && fraction(s) > fraction(samples[i - 1])).length;
    const until = Date.now() + 60000;
    while (samples.length < 3 || (rises() < 2 && Date.now() < until)) {
      samples.push(
        await dialog.locator('body').evaluate(() => ({
          value: document.getElementById('bar').value,
          max: document.getElementById('bar').max,
          elapsed: document.getElementById('elapsed').textContent,
          at: Date.now(),
        })),
      );
      await page.waitForTimeout(250); // the next sample: the loop's condition is the bar's moves
    }
    await screenshot(page, 'compose-laptop-05-unlock-progress');
    // Every fraction the bar shows from now on: the late answer, then two more polls.
    await dialog.locator('#bar').evaluate((bar) => {
      const value = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
      const shown = [bar.value / bar.max];
      window.barShown = shown;
      Object.defineProperty(bar, 'value', {
        get: () => value.get.call(bar),
        set: (v) => {
          value.set.call(bar, v);
          shown.push(value.get.call(bar) / bar.max);
        },
      });
    });
    const pollsBefore = polls;
    release();
    const barShown = () => dialog.locator('body').evaluate(() => window.barShown);
    // A step's own answer moves the bar too: wait for the late answer and for polls after it.
    for (const until = Date.now() + 60000; (await barShown()).length < 3 || polls <= pollsBefore;) {
      if (Date.now() > until)
        throw new Error(
          `after the late answer the bar showed ${await barShown()}, ${polls - pollsBefore} polls`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100)); // the next look: the loop's condition is the bar
    }
    expect(polls).toBeGreaterThan(pollsBefore);
    const shown = await barShown();
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeGreaterThanOrEqual(shown[i - 1]);
    for (let i = 1; i < samples.length; i++)
      expect(fraction(samples[i])).toBeGreaterThanOrEqual(fraction(samples[i - 1]));
    const last = samples[samples.length - 1];
    expect(fraction(last)).toBeGreaterThan(fraction(samples[0]));
    expect(rises()).toBeGreaterThanOrEqual(2); // it moves during the run, not once at the end of a step
    const times = samples.map((s) => seconds(s.elapsed));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
    // From the job's start (the first step ran before the dialog opened), by the service's clock (the
    // playground's slow service counts 5 s per request): at least the real time since the confirmation.
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(Math.floor((last.at - confirmed) / 1000) - 1);
    expect(times[times.length - 1]).toBeLessThan(3600);

    await dialog.locator('#stop').click();
    const stopped = dialog.locator('#message', { hasText: /^Stopped, as you asked\./ });
    await stopped.waitFor({ timeout: 120000 });
    await waitInView(page, FRAME, ['#message', '#close']);
    await screenshot(page, 'compose-laptop-06-unlock-stopped');
    expect(await outOfView(page, FRAME, ['#message', '#close'])).toEqual([]);
    const message = await stopped.textContent();
    await closeDialog();
    await demo('Slow service: off');
    await waitIdle(page, 60000);
    await page.unroute('**/api/run', holdFirstPoll);

    // Each row's Unlock status says what Stop left it: not unlocked, or unlocked with its contacts not
    // fetched (as many as the dialog's message counts).
    const { col, values: statuses } = await columnShown(env, 'Companies', 'Unlock status');
    expect(statuses.length).toBe(300);
    const notUnlocked = statuses.filter((s) => s.startsWith('Stopped: not unlocked')).length;
    const noContacts = statuses.filter((s) =>
      s.startsWith('Unlocked; contacts not fetched (stopped): select the row and run Unlock again'),
    ).length;
    expect(notUnlocked).toBeGreaterThan(0);
    const counted =
      /The contacts of (\d+) compan(?:y|ies) already unlocked were not fetched: their Unlock status says so/.exec(
        message,
      );
    expect(noContacts).toBe(counted ? Number(counted[1]) : 0);
    const m = /(\d+) compan(?:y|ies) (?:was|were) not unlocked/.exec(message);
    expect(notUnlocked).toBe(Number(m[1]));
    // Shown where a user looks: the grid at the Unlock status of the last rows unlocked.
    const letter = col <= 26 ? String.fromCharCode(64 + col) : 'A' + String.fromCharCode(64 + col - 26);
    const lastUnlocked = statuses.findIndex((s) => s.startsWith('Stopped: not unlocked')) + 1;
    await page.locator('#name-box').fill(`${letter}${Math.max(2, lastUnlocked - 8)}`);
    await page.locator('#name-box').press('Enter');
    await page.locator('#name-box').fill(`${letter}${lastUnlocked + 8}`);
    await page.locator('#name-box').press('Enter');
    await screenshot(page, 'compose-laptop-07-unlock-statuses');
    expect(env.consoleErrors).toEqual([]);
  });
}, 300000);
