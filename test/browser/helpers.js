'use strict';
/* global document, window, getComputedStyle, DataTransfer, ClipboardEvent */ // inside page.waitForFunction and evaluate callbacks, which run in the browser
// Shared set-up for the browser tests: the playground in this process on a free port, Chromium (see
// dev/chromium.js: CHROMIUM_PATH, else /usr/bin/chromium, else the npm-packaged build) driven by
// playwright-core, screenshots of each step in test-output/browser/.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const { launchChromium } = require('../../dev/chromium');

const SHOTS = path.join(ROOT, 'test-output', 'browser');
const CODE = path.join(ROOT, 'dist-local', 'Code.js'); // dist/ plus the loopback sandbox in its allowlist

/** The top-level entry points of the built add-on (read from the file, not run). */
function builtEntryPoints() {
  if (!fs.existsSync(CODE)) return new Set();
  const code = fs.readFileSync(CODE, 'utf8');
  return new Set([...code.matchAll(/^function\s+([A-Za-z_$][\w$]*)\s*\(/gm)].map((m) => m[1]));
}

/**
 * Starts the playground (the built add-on, or `options.codePath`/`htmlDir`) and a browser page on it, in a
 * browser window of `viewport` (default 1400×860).
 * @param {{ codePath?: string, htmlDir?: string, viewport?: { width: number, height: number } }} [options]
 */
async function openPlayground({ viewport = { width: 1400, height: 860 }, ...options } = {}) {
  const codePath = options.codePath || CODE;
  if (!fs.existsSync(codePath)) {
    throw new Error(
      `${path.relative(ROOT, codePath)} is missing: run \`npm run build\` before the browser tests.`,
    );
  }
  const { startPlayground } = require('../../dev/playground/start');
  fs.mkdirSync(SHOTS, { recursive: true });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-chromium-'));
  const env = { playground: null, context: null, browser: null, page: null, userDataDir, consoleErrors: [] };
  try {
    env.playground = await startPlayground({ port: 0, ...options });
    ({ context: env.context, browser: env.browser } = await launchChromium(userDataDir, {
      viewport,
    }));
    env.page = env.context.pages()[0] || (await env.context.newPage());
    env.page.on('pageerror', (err) => env.consoleErrors.push(err.message));
    env.page.setDefaultTimeout(15000);
    await env.page.goto(env.playground.url);
    await env.page.locator('body[data-ready="true"]').waitFor();
    return env;
  } catch (err) {
    await closePlayground(env);
    throw err;
  }
}

async function closePlayground(env) {
  if (!env) return;
  if (env.context) await env.context.close().catch(() => {});
  if (env.playground) await env.playground.stop().catch(() => {});
  if (env.userDataDir) fs.rmSync(env.userDataDir, { recursive: true, force: true });
}

/**
 * Registers the file's hooks: the playground opened before its tests (openPlayground(options), within
 * `timeout` ms) and closed after them. The returned object gets openPlayground's fields (page, playground,
 * consoleErrors, …) when the file's tests start.
 */
function usePlayground(options, timeout = 60000) {
  const env = {};
  beforeAll(async () => {
    Object.assign(env, await openPlayground(options));
  }, timeout);
  afterAll(() => closePlayground(env));
  return env;
}

async function screenshot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Extensions › <add-on menu> › item, or › sub-menu › … › item when given several labels. */
async function clickMenuItem(page, ...labels) {
  await page.locator('#extensions-menu').click();
  let menu = page.locator('#extensions-popup');
  await menu.locator('.menu-item.has-sub').first().click();
  menu = menu.locator('.menu-popup').first();
  for (const label of labels.slice(0, -1)) {
    const holder = menu.locator(':scope > .menu-root', {
      has: page.locator(':scope > .menu-item', { hasText: label }),
    });
    await holder.locator(':scope > .menu-item').click();
    menu = holder.locator(':scope > .menu-popup');
  }
  await menu
    .locator(':scope > .menu-item', { hasText: labels[labels.length - 1] })
    .first()
    .click();
}

/** A cell's row and column in the drawn grid (1-based): 'B3' → { r: 3, c: 2 }. */
function gridPosition(a1) {
  const m = /^([A-Z]+)(\d+)$/.exec(a1);
  let c = 0;
  for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
  return { r: Number(m[2]), c };
}

/** The td of a cell in the drawn grid. */
function cell(page, a1) {
  const { r, c } = gridPosition(a1);
  return page.locator(`#grid td[data-r="${r}"][data-c="${c}"]`);
}

async function cellText(page, a1) {
  return (await cell(page, a1).textContent()).trim();
}

/**
 * Waits until the page shows `expected` (string or RegExp) in a cell. The grid draws the rows near where it is
 * scrolled: a cell not drawn is scrolled to, as a user scrolls to look at it (the selection stays).
 */
async function waitForCell(page, a1, expected, timeout = 15000) {
  const pattern = expected instanceof RegExp ? { source: expected.source, flags: expected.flags } : null;
  try {
    await page.waitForFunction(
      ({ r, c, text, pattern: p }) => {
        const td = document.querySelector(`#grid td[data-r="${r}"][data-c="${c}"]`);
        if (!td) {
          const wrap = document.getElementById('grid-wrap');
          const shown = [...document.querySelectorAll('#grid tbody tr:not(.frozen) th.row-head')].map((th) =>
            Number(th.dataset.r),
          );
          if (shown.length && (r < Math.min(...shown) || r > Math.max(...shown)))
            wrap.scrollTop = Math.max(0, (r - 10) * 24);
          return false;
        }
        if (td.classList.contains('pending')) return false;
        const shown = td.textContent.trim();
        return p ? new RegExp(p.source, p.flags).test(shown) : shown === text;
      },
      { ...gridPosition(a1), text: pattern ? null : expected, pattern },
      { timeout },
    );
  } catch (error) {
    // The log of a failed run says what the cell showed instead.
    const shown = await cell(page, a1)
      .textContent({ timeout: 1000 })
      .catch(() => '(no such cell)');
    throw new Error(`${a1} shows ${JSON.stringify(shown)}, not ${expected}`, { cause: error });
  }
}

/**
 * A column of a sheet below its header, as the page shows it (the emulator's display values: the page draws
 * only the rows near where it is scrolled). { col: 1-based, values: [row 2, row 3, …] }.
 */
async function columnShown(env, sheetName, header) {
  const reply = await env.playground.emulator.call({ op: 'values', name: sheetName });
  const rows = reply.result;
  const c = rows[0].indexOf(header);
  if (c < 0) throw new Error(`${sheetName} has no column ${header}`);
  return { col: c + 1, values: rows.slice(1).map((row) => row[c]) };
}

/** Waits until no execution is running. */
async function waitIdle(page, timeout = 20000) {
  await page.waitForFunction(() => document.body.dataset.busy !== 'true', null, { timeout });
}

/** Moves the service clock with the playground's button ('+1 min', '+1 hour') and waits for what it ran. */
async function advanceServiceClock(page, label) {
  await page.locator('.clock-advance', { hasText: label }).click();
  await waitIdle(page, 60000);
}

/** Runs a test's steps; on failure keeps a screenshot of where they stopped (`<name>-failure.png`). */
async function screenshotOnFailure(page, name, steps) {
  try {
    await steps();
  } catch (error) {
    await screenshot(page, `${name}-failure`);
    throw error;
  }
}

/** Types into a cell as a user does: select it, type, Enter. */
async function typeInCell(page, a1, text) {
  await cell(page, a1).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

async function sheetTabs(page) {
  return page.locator('#tabs .tab').allTextContents();
}

async function openTab(page, name) {
  await page.locator('#tabs .tab', { hasText: name }).first().click();
  await page.locator('#tabs .tab[aria-selected="true"]', { hasText: name }).waitFor();
}

/**
 * What of an add-on frame (sidebar or dialog) lies outside what the frame shows without scrolling:
 * ['the page is 572 px tall > 560', 'dd "1000" ends at y 590 > 560', …]. `axis` 'x' checks widths only (a
 * sidebar may scroll down).
 */
async function clippedElements(frame, axis = 'xy') {
  return frame.locator('body').evaluate((body, checkHeight) => {
    const width = document.documentElement.clientWidth;
    const height = window.innerHeight;
    const page = document.documentElement;
    const out = [];
    // Content (its padding included) taller or wider than the frame: the user would have to scroll.
    if (page.scrollWidth > width) out.push(`the page is ${page.scrollWidth} px wide > ${width}`);
    if (checkHeight && page.scrollHeight > height)
      out.push(`the page is ${page.scrollHeight} px tall > ${height}`);
    for (const el of body.querySelectorAll('*')) {
      if (/^(SCRIPT|STYLE|TEMPLATE)$/.test(el.tagName)) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${el.textContent.trim().slice(0, 30)}"`;
      if (box.right > width + 0.5) out.push(`${name} ends at x ${Math.round(box.right)} > ${width}`);
      if (checkHeight && box.bottom > height + 0.5)
        out.push(`${name} ends at y ${Math.round(box.bottom)} > ${height}`);
    }
    return out;
  }, axis.includes('y'));
}

/**
 * Which of the elements (CSS selectors) of an add-on frame the user cannot see without scrolling or at all:
 * ['#close ends at y 610 > 557', …] (the frame as the page shows it, clipped by the page's window).
 */
async function outOfView(page, frameSelector, selectors) {
  const frame = page.locator(frameSelector);
  const box = await frame.boundingBox();
  const windowSize = page.viewportSize();
  const visibleHeight = Math.min(box.height, windowSize.height - box.y);
  const out = [];
  for (const selector of selectors) {
    const rect = await frame
      .contentFrame()
      .locator(selector)
      .first()
      .evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, right: r.right, width: window.innerWidth };
      });
    if (rect.top < 0) out.push(`${selector} starts at y ${Math.round(rect.top)} < 0`);
    if (rect.bottom > visibleHeight + 0.5)
      out.push(`${selector} ends at y ${Math.round(rect.bottom)} > ${Math.round(visibleHeight)}`);
    if (rect.right > rect.width + 0.5)
      out.push(`${selector} ends at x ${Math.round(rect.right)} > ${rect.width}`);
  }
  return out;
}

/** Waits (the frame may still be growing to fit) until nothing is clipped; returns what still is. */
async function waitUntilNothingClipped(frame, axis = 'xy', timeout = 3000) {
  const until = Date.now() + timeout;
  let clipped = await clippedElements(frame, axis);
  while (clipped.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    clipped = await clippedElements(frame, axis);
  }
  return clipped;
}

/**
 * Waits until the elements of an add-on frame are in view (the frame grows to fit its content, and scrolls a
 * new message into view: src/ui/_client.js.html); throws with what is still out of view after `timeout`.
 */
async function waitInView(page, frameSelector, selectors, timeout = 10000) {
  const until = Date.now() + timeout;
  let out = await outOfView(page, frameSelector, selectors);
  while (out.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    out = await outOfView(page, frameSelector, selectors);
  }
  if (out.length > 0) throw new Error(`still out of view after ${timeout} ms: ${out.join('; ')}`);
}

/** Pastes tab-separated text into the grid at A1, as a user pasting from a spreadsheet or a text file. */
async function pasteAtA1(page, text) {
  await page.locator('#grid-wrap').click({ position: { x: 60, y: 40 } });
  await page.keyboard.press('Control+Home');
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text', value);
    document.getElementById('grid-wrap').focus();
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, text);
}

/**
 * Menu: Unlock selected companies opens the unlock dialog: waits for it and returns its text (the cost lines),
 * then answers Unlock with the boxes as it ticked them (features/prospecting/unlock-question.ts).
 */
async function answerUnlockDialog(page, { timeout = 60000 } = {}) {
  await page.locator('#html-dialog-title', { hasText: /^Unlock companies$/ }).waitFor({ timeout });
  const dialog = page.frameLocator('#html-dialog-frame');
  // The title is the host page's: the frame's own script writes the lines a moment later.
  await dialog.locator('#lines p').first().waitFor({ timeout });
  const text = await dialog.locator('#lines').textContent();
  await dialog.locator('#unlock:not([disabled])').click();
  return text;
}

/**
 * After a confirmed job (its question answered): waits until either its progress dialog, titled `title`, is
 * shown, or a toast matching `toastText` says the job finished in one execution. Returns 'dialog' or 'toast'.
 * Waiting for the title, not for any visible dialog, skips the question dialog still closing.
 */
async function waitForProgressDialogOrToast(page, title, toastText, { timeout = 60000 } = {}) {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const dialog = page.locator('#html-dialog-layer:not([hidden])', {
    has: page.locator('#html-dialog-title', { hasText: exact }),
  });
  const toast = page.locator('#toasts .toast', { hasText: toastText });
  await dialog.or(toast).first().waitFor({ timeout });
  return (await dialog.isVisible()) ? 'dialog' : 'toast';
}

/**
 * Waits until the compose dialog's preview shows `subject` (a save or a row's preview is two executions: a
 * loaded machine answers late); a failure says what the preview, the answer and the problems showed instead.
 */
async function waitForPreview(compose, subject, timeout = 60000) {
  try {
    await compose.locator('#previewSubject', { hasText: subject }).waitFor({ timeout });
  } catch (error) {
    const shown = async (selector) =>
      (
        await compose
          .locator(selector)
          .first()
          .textContent({ timeout: 1000 })
          .catch(() => '(none)')
      ).trim();
    const [preview, message, problems] = await Promise.all(
      ['#previewSubject', '#message', '#problems'].map(shown),
    );
    throw new Error(
      `the preview shows ${JSON.stringify(preview)}, not ${JSON.stringify(subject)} (answer: ${JSON.stringify(message)}; problems: ${JSON.stringify(problems)})`,
      { cause: error },
    );
  }
}

module.exports = {
  waitForPreview,
  answerUnlockDialog,
  waitForProgressDialogOrToast,
  advanceServiceClock,
  screenshotOnFailure,
  pasteAtA1,
  builtEntryPoints,
  clippedElements,
  waitUntilNothingClipped,
  outOfView,
  waitInView,
  openPlayground,
  closePlayground,
  usePlayground,
  screenshot,
  clickMenuItem,
  cell,
  cellText,
  waitForCell,
  columnShown,
  waitIdle,
  typeInCell,
  sheetTabs,
  openTab,
  SHOTS,
};
