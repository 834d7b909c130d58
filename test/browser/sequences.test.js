'use strict';
// Follow-up sequences in a real browser, through the playground: Compose e-mail… with two
// follow-ups and the preview of each, the first send's confirmation with the most the sequence can cost,
// then the service clock moved on day by day: the Sequence column moves (next step, sent, finished), a reply
// ticked on one row stops its colleague at the same company.
const {
  openPlayground,
  closePlayground,
  screenshot,
  clickMenuItem,
  waitForCell,
  waitIdle,
  typeInCell,
  pasteAtA1,
  advanceServiceClock,
  screenshotOnFailure,
  waitForPreview,
} = require('./helpers');

let env;
let page;

beforeAll(async () => {
  env = await openPlayground();
  page = env.page;
}, 60000);
afterAll(() => closePlayground(env));

test('compose a sequence with steps and previews; the Sequence column moves as the clock moves on', async () => {
  await screenshotOnFailure(page, 'sequences', steps);
}, 240000);

async function steps() {
  await pasteAtA1(
    page,
    [
      'Name\tEmail\tCompany',
      'Jane\tjane@acme.example\tAcme',
      'Bob\tbob@acme.example\tAcme',
      'Kim\tkim@beta.example\tBeta',
    ].join('\n'),
  );
  await waitForCell(page, 'B4', 'kim@beta.example');
  await clickMenuItem(page, 'Compose e-mail…');
  const compose = page.frameLocator('#html-dialog-frame');
  await compose.locator('#campaign').fill('Spring launch');
  await compose.locator('#subject').fill('Hello {{Name}}');
  await compose.locator('#body').fill('Hi {{Name}}, shall we meet?');
  await compose.locator('#addStep').click();
  await compose.locator('#steps .step .days').first().fill('1');
  await compose.locator('#steps .step .step-body').first().fill('Just checking in, {{Name}}.');
  await compose.locator('#addStep').click();
  const second = compose.locator('#steps .step').nth(1);
  await second.locator('.days').fill('2');
  await second.locator('.step-subject').fill('Last note for {{Name}}');
  await second.locator('.step-body').fill('Bye {{Name}}.');
  await compose.locator('#save').click();
  await waitForPreview(compose, 'Hello Jane');
  await compose
    .locator('#sequenceNote', { hasText: '2 follow-ups (1: 1 day later, 2: 2 days later)' })
    .waitFor();
  // The preview shows each step for any row.
  await compose.locator('#stepPick').selectOption('1');
  await waitForPreview(compose, 'Re: Hello Jane');
  await compose.locator('#textBody', { hasText: 'Just checking in, Jane.' }).waitFor();
  await compose.locator('#next').click();
  await waitForPreview(compose, 'Re: Hello Bob');
  await compose.locator('#stepPick').selectOption('2');
  await waitForPreview(compose, 'Last note for Bob');
  await screenshot(page, 'sequences-01-compose-preview');
  await compose.locator('#addStep').scrollIntoViewIfNeeded();
  await screenshot(page, 'sequences-02-compose-steps');

  await compose.locator('#sendAll').click();
  await page.locator('#alert-layer').waitFor({ state: 'visible' });
  expect(await page.locator('#alert-message').textContent()).toMatch(
    /Follow-ups: 2 steps after this mail.*at most 9 e-mail credits \(3 rows × 3 mails\)/s,
  );
  await page.locator('#alert-buttons button[data-button="YES"]').click();
  await compose.locator('#message', { hasText: 'Send finished' }).waitFor({ timeout: 30000 });
  await page.locator('#html-dialog-close').click();
  await waitIdle(page);
  await waitForCell(page, 'D2', 'Accepted');

  // Columns: Name, Email, Company, Mail status, Task ID, Mail ID, Sent at, Replied (H), Sequence (I).
  await advanceServiceClock(page, '+1 hour');
  await waitForCell(page, 'I4', /^Next: step 1 on \d{4}-\d\d-\d\d \d\d:\d\d$/, 30000);
  await typeInCell(page, 'H2', 'TRUE'); // Jane replied
  await screenshot(page, 'sequences-03-next-step');
  await advanceServiceClock(page, '+1 day');
  await waitForCell(page, 'I4', /^Step 1 of 2 sent .*; next: step 2 on /, 30000);
  await waitForCell(page, 'I2', 'Stopped: replied');
  await waitForCell(page, 'I3', 'Stopped: someone at acme.example replied (jane@acme.example)');
  await screenshot(page, 'sequences-04-step-1-sent');
  await advanceServiceClock(page, '+1 day');
  await advanceServiceClock(page, '+1 day');
  await advanceServiceClock(page, '+1 hour'); // the first hourly run after the delay
  await waitForCell(page, 'I4', /^Finished: step 2 of 2 sent /, 30000);
  await screenshot(page, 'sequences-05-finished');
  expect(env.consoleErrors).toEqual([]);
}
