'use strict';
// The browser for everything that drives one (browser tests, playground screenshots): CHROMIUM_PATH when set,
// else a system Chromium (/usr/bin/chromium) when present, else the build shipped inside the npm package
// @sparticuz/chromium, so `npm ci && npm test` needs nothing from apt.
//
//   node dev/chromium.js    prints which browser would be used and its version
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const execFile = promisify(require('node:child_process').execFile);

const ROOT = path.join(__dirname, '..');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'outreach-chromium');

// Flags for a full (system) Chromium run by tests: no first-run UI, no background traffic off the machine.
const SYSTEM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Unpacks the packaged browser once per package version. The package unpacks into os.tmpdir() and takes
 * any `chromium` file already there as finished, so it runs in a child process whose TMPDIR is a private
 * folder, which is then renamed into place whole: a half-written binary, another version's, or one being
 * written by a parallel Jest worker is never launched. (A child process, because Jest gives test code its
 * own process.env, which os.tmpdir() never reads.)
 */
async function unpackPackaged(cacheDir) {
  const main = require.resolve('@sparticuz/chromium'); // build/cjs/index.cjs; package.json is not exported
  const packageJson = path.join(main, '..', '..', '..', 'package.json');
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8'));
  const target = path.join(cacheDir, version);
  const unpacked = {
    executablePath: path.join(target, 'chromium'),
    fontsConf: path.join(target, 'fonts.conf'),
  };
  if (fs.existsSync(unpacked.fontsConf)) return unpacked; // written last, before the rename
  fs.mkdirSync(cacheDir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(cacheDir, `unpacking-${version}-`));
  try {
    const unpack = `require(${JSON.stringify(main)}).executablePath().then((p) => console.log(p))`;
    const { stdout } = await execFile(process.execPath, ['-e', unpack], {
      env: { ...process.env, TMPDIR: scratch },
    });
    if (stdout.trim() !== path.join(scratch, 'chromium')) throw new Error(`unexpected unpack: ${stdout}`);
    fs.writeFileSync(path.join(scratch, 'fonts.conf'), fontsConf(target));
    fs.renameSync(scratch, target);
  } catch (err) {
    fs.rmSync(scratch, { recursive: true, force: true });
    // Another process finished first: keep its copy.
    if (!['ENOTEMPTY', 'EEXIST'].includes(err.code)) throw err;
  }
  return unpacked;
}

/**
 * Fontconfig for the packaged browser: the system's fonts when there are any, and always the Open Sans it
 * ships (the package's own fonts.conf names /tmp/fonts). Without any fontconfig file it crashes on start.
 */
function fontsConf(dir) {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${path.join(dir, 'fonts')}</dir>
  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`;
}

/**
 * Which browser to launch and with which flags.
 * @param {{ env?: NodeJS.ProcessEnv, systemPath?: string, cacheDir?: string }} [options] for tests: another
 *   environment, system path, or folder for the unpacked browser
 * @returns {Promise<{ executablePath: string, args: string[], env?: NodeJS.ProcessEnv,
 *   source: 'CHROMIUM_PATH' | 'system' | 'package' }>} env: the browser's environment, when it needs one
 */
async function findChromium(options = {}) {
  const env = options.env || process.env;
  const systemPath = options.systemPath || SYSTEM_CHROMIUM;
  if (env.CHROMIUM_PATH) {
    if (!isExecutable(env.CHROMIUM_PATH)) {
      throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file: fix it or unset it.`);
    }
    return { executablePath: env.CHROMIUM_PATH, args: SYSTEM_ARGS, source: 'CHROMIUM_PATH' };
  }
  if (isExecutable(systemPath)) return { executablePath: systemPath, args: SYSTEM_ARGS, source: 'system' };
  const { executablePath, fontsConf } = await unpackPackaged(options.cacheDir || CACHE);
  const { args } = require('@sparticuz/chromium');
  return { executablePath, args, env: { ...env, FONTCONFIG_FILE: fontsConf }, source: 'package' };
}

/**
 * A persistent playwright-core context in `userDataDir` on the browser findChromium picks.
 * @param {string} userDataDir
 * @param {import('playwright-core').BrowserContextOptions & { findOptions?: object }} [options]
 */
async function launchChromium(userDataDir, options = {}) {
  const { findOptions, ...contextOptions } = options;
  const browser = await findChromium(findOptions);
  const { chromium } = require('playwright-core');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: browser.executablePath,
    headless: true,
    args: browser.args,
    env: browser.env,
    ...contextOptions,
  });
  return { context, browser };
}

module.exports = { findChromium, launchChromium, SYSTEM_CHROMIUM, CACHE };

if (require.main === module) {
  (async () => {
    const { chromium } = require('playwright-core');
    const found = await findChromium();
    const { executablePath, args, env } = found;
    const browser = await chromium.launch({ executablePath, args, env });
    console.log(`${found.source}: ${found.executablePath} (Chromium ${browser.version()})`);
    await browser.close();
  })().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
