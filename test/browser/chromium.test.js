'use strict';
/* global document */ // inside page.evaluate callbacks, which run in the browser
// Which browser the tests drive (dev/chromium.js): CHROMIUM_PATH, else a system Chromium, else the one
// `npm ci` brings (@sparticuz/chromium), so a machine without apt's chromium still runs every browser test.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { findChromium } = require('../../dev/chromium');

const NO_SYSTEM = '/nonexistent/chromium';
let scratch;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-test-'));
});

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('CHROMIUM_PATH wins over everything, and a wrong one is named', async () => {
  const fake = path.join(scratch, 'my-chromium');
  fs.writeFileSync(fake, '#!/bin/sh\n', { mode: 0o755 });
  await expect(
    findChromium({ env: { CHROMIUM_PATH: fake }, systemPath: process.execPath }),
  ).resolves.toMatchObject({ executablePath: fake, source: 'CHROMIUM_PATH' });
  await expect(findChromium({ env: { CHROMIUM_PATH: path.join(scratch, 'missing') } })).rejects.toThrow(
    /CHROMIUM_PATH=.*missing is not an executable file/,
  );
});

test('a system Chromium is used when present', async () => {
  const system = path.join(scratch, 'system-chromium');
  fs.writeFileSync(system, '#!/bin/sh\n', { mode: 0o755 });
  await expect(findChromium({ env: {}, systemPath: system })).resolves.toMatchObject({
    executablePath: system,
    source: 'system',
  });
});

test('without either, the packaged browser is unpacked once, even by parallel callers, and renders text', async () => {
  const cacheDir = path.join(scratch, 'cache');
  const options = { env: {}, systemPath: NO_SYSTEM, cacheDir };
  const [first, second] = await Promise.all([findChromium(options), findChromium(options)]);
  expect(first.source).toBe('package');
  expect(second.executablePath).toBe(first.executablePath);
  expect(path.dirname(path.dirname(first.executablePath))).toBe(cacheDir);
  expect(fs.readdirSync(cacheDir)).toEqual([path.basename(path.dirname(first.executablePath))]);
  expect(first.env.FONTCONFIG_FILE).toBe(path.join(path.dirname(first.executablePath), 'fonts.conf'));

  const again = await findChromium(options);
  expect(again.executablePath).toBe(first.executablePath);

  const browser = await chromium.launch({
    executablePath: first.executablePath,
    args: first.args,
    env: first.env,
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<span id="t" style="font-size:20px">Outreach for Sheets</span>');
    const width = await page.evaluate(() => document.getElementById('t').getBoundingClientRect().width);
    expect(width).toBeGreaterThan(100); // glyphs were found: the fonts it ships or the system's
  } finally {
    await browser.close();
  }
}, 60000);
