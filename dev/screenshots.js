'use strict';
// Makes the pictures of the README and the user guide (docs/images/*.png) from the playground, as a user
// sees it: `npm run screenshots`. Each picture is one step of the five-minute tour.
const fs = require('node:fs');
const path = require('node:path');
const {
  openPlayground,
  closePlayground,
  clickMenuItem,
  openTab,
  pasteAtA1,
  waitForCell,
  waitIdle,
  advanceServiceClock,
} = require('../test/browser/helpers');

const OUT = path.join(__dirname, '..', 'docs', 'images');

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  // The docs show a 1366×768 laptop; the Marketplace listing takes 1280×800 (SCREENSHOT_SIZE=1280x800).
  const [width, height] = (process.env.SCREENSHOT_SIZE || '1366x768').split('x').map(Number);
  const env = await openPlayground({ viewport: { width, height } });
  const page = env.page;
  const shot = (name) => page.screenshot({ path: path.join(OUT, `${name}.png`) });
  try {
    // Search.
    await clickMenuItem(page, 'Search companies…');
    const sidebar = page.frameLocator('#sidebar-frame');
    await sidebar.locator('#products').fill('solar');
    await sidebar.locator('#search').click();
    await openTab(page, 'Companies');
    await waitForCell(page, 'B2', /\S/, 30000);
    await waitIdle(page);
    await shot('search');

    // A mailing list, its mail and the preview.
    await openTab(page, 'Sheet1');
    await pasteAtA1(
      page,
      ['Name\tEmail\tCompany', 'Jane\tjane@example.com\tAcme', 'Lee\tbounce.lee@example.com\tGlobex'].join(
        '\n',
      ),
    );
    await waitForCell(page, 'B3', 'bounce.lee@example.com');
    await clickMenuItem(page, 'Compose e-mail…');
    const compose = page.frameLocator('#html-dialog-frame');
    await compose.locator('#campaign').fill('Spring offer');
    await compose.locator('#subject').fill('Hello {{Name}}');
    await compose
      .locator('#body')
      .fill('Dear {{Name}},\n\nour offer for {{Company}}: shall we meet next week?');
    await compose.locator('#save').click();
    await compose.locator('#previewSubject', { hasText: 'Hello Jane' }).waitFor();
    await shot('compose');

    // Sent, then tracked an hour later.
    await compose.locator('#sendAll').click();
    await page.locator('#alert-buttons button[data-button="YES"]').click();
    await waitForCell(page, 'D2', 'Accepted', 30000);
    await page.locator('#html-dialog-close').click();
    await advanceServiceClock(page, '+1 hour');
    await clickMenuItem(page, 'Refresh tracking');
    await waitIdle(page);
    await openTab(page, 'Tracking');
    await waitForCell(page, 'A2', /\S/, 30000);
    await shot('tracking');
  } finally {
    await closePlayground(env);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
