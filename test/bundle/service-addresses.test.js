'use strict';
// A deployment to the real service addresses without editing code:
// `OUTREACH_BASE_URL=https://… PHONE_BASE_URL=https://… npm run build` makes them the add-on's defaults and
// the manifest's urlFetchWhitelist; anything but https:// stops the build with what to write. The build runs
// here as `npm run build` runs it (rollup with the project's config), in a copy of the project, so the
// project's own dist/ is left alone.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { AppsScriptEmulator } = require('../emulator');

const ROOT = path.join(__dirname, '..', '..');
const INPUTS = ['src', 'dev/build', 'rollup.config.mjs', 'tsconfig.json', 'appsscript.json', 'package.json'];
const OUTREACH = 'https://outreach.acme-data.io/api';
const PHONE = 'https://api.phonecheck.example.com'; // the example host appsscript.json lists

let project;

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'service-addresses-'));
  for (const entry of INPUTS)
    fs.cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
});

afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** `npm run build`'s rollup step in the copy, with these variables (and none from the test's shell). */
function build(variables) {
  const env = { ...process.env, ...variables };
  for (const name of ['OUTREACH_BASE_URL', 'PHONE_BASE_URL', 'REPLY_DETECTION']) {
    if (!(name in variables)) delete env[name];
  }
  const rollup = path.join(ROOT, 'node_modules', 'rollup', 'dist', 'bin', 'rollup');
  return spawnSync(process.execPath, [rollup, '-c', 'rollup.config.mjs', '--silent'], {
    cwd: project,
    env,
    encoding: 'utf8',
  });
}

const manifestOf = (dir) => JSON.parse(fs.readFileSync(path.join(project, dir, 'appsscript.json'), 'utf8'));

test('the addresses from the environment become the defaults Settings show and the manifest allowlist; an empty one falls back to the example host', () => {
  const result = build({ OUTREACH_BASE_URL: `${OUTREACH}/`, PHONE_BASE_URL: ' ' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);

  const source = JSON.parse(fs.readFileSync(path.join(ROOT, 'appsscript.json'), 'utf8'));
  expect(manifestOf('dist')).toEqual({ ...source, urlFetchWhitelist: [`${OUTREACH}/`, `${PHONE}/`] });
  expect(manifestOf('dist-local').urlFetchWhitelist).toEqual([
    `${OUTREACH}/`,
    `${PHONE}/`,
    'http://127.0.0.1:*/',
    'http://localhost:*/',
  ]);

  const dist = path.join(project, 'dist');
  const emu = new AppsScriptEmulator({ codePath: path.join(dist, 'Code.js'), htmlDir: dist });
  try {
    const view = emu.run('getSettings', [], { kind: 'webapp' });
    expect(view).toMatchObject({ outreachBaseUrl: OUTREACH, phoneBaseUrl: PHONE });
    // The example outreach host is no longer allowed; an address under the given one is.
    expect(() =>
      emu.run('saveSettings', [{ outreachBaseUrl: 'https://api.outreach.example.com' }], { kind: 'webapp' }),
    ).toThrow(`lets this add-on reach only addresses under ${OUTREACH}/ or ${PHONE}/.`);
    expect(
      emu.run('saveSettings', [{ outreachBaseUrl: `${OUTREACH}/v2` }], { kind: 'webapp' }),
    ).toMatchObject({
      outreachBaseUrl: `${OUTREACH}/v2`,
    });
  } finally {
    emu.dispose();
  }
}, 180000);

test.each([
  ['OUTREACH_BASE_URL', 'http://api.acme-data.io', 'is not an https:// address'],
  ['PHONE_BASE_URL', 'phone.acme-data.io', 'is not an https:// address'],
  ['OUTREACH_BASE_URL', 'https://*.acme-data.io', 'is not a service address'],
  ['PHONE_BASE_URL', 'https://phone.acme-data.io/?key=1', 'is not a service address'],
  ['OUTREACH_BASE_URL', 'https://user@acme-data.io', 'is not a service address'],
])('%s=%s stops the build with what to write instead', (variable, value, why) => {
  const result = build({ [variable]: value });
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain(`The build stopped: ${variable}=${value} ${why}`);
  expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(result.stderr).toMatch(new RegExp(`${variable}=https://api\\.example\\.com`));
});
