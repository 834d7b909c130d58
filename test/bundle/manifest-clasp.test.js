'use strict';
// What clasp pushes: the manifest (V8, explicit least-privilege scopes, a URL whitelist, exception
// logging) and the file list (`clasp status` reads .clasp.json's rootDir: dist, offline, no login needed).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(DIST, 'appsscript.json'), 'utf8'));

test('dist/appsscript.json: V8, explicit scopes (scopes.test.js checks which), urlFetchWhitelist, exceptionLogging', () => {
  expect(manifest.runtimeVersion).toBe('V8');
  expect(manifest.oauthScopes.length).toBeGreaterThan(0);
  expect(Array.isArray(manifest.urlFetchWhitelist)).toBe(true);
  expect(manifest.urlFetchWhitelist.length).toBeGreaterThan(0);
  for (const prefix of manifest.urlFetchWhitelist) {
    // a published add-on needs https prefixes with at least a path '/'
    expect(prefix).toMatch(/^https:\/\/[^/\s]+\/\S*$/);
  }
  expect(['STACKDRIVER', 'NONE']).toContain(manifest.exceptionLogging);
  expect(manifest.exceptionLogging).toBe('STACKDRIVER');
  expect(typeof manifest.timeZone).toBe('string');
  // the build copies the manifest as written, but for the prefixes of the service addresses it was built for
  // (OUTREACH_BASE_URL and PHONE_BASE_URL: service-addresses.test.js)
  const source = JSON.parse(fs.readFileSync(path.join(ROOT, 'appsscript.json'), 'utf8'));
  expect({ ...manifest, urlFetchWhitelist: source.urlFetchWhitelist }).toEqual(source);
});

test('`clasp status` (offline, no login) lists exactly Code.js, the HTML files and the manifest', () => {
  const clasp = path.join(ROOT, 'node_modules', '.bin', 'clasp');
  const out = execFileSync(clasp, ['status', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
  });
  const status = JSON.parse(out.slice(out.indexOf('{')));
  const html = fs
    .readdirSync(DIST)
    .filter((f) => f.endsWith('.html'))
    .map((f) => `dist/${f}`);
  expect([...status.filesToPush].sort()).toEqual(['dist/Code.js', 'dist/appsscript.json', ...html].sort());
  expect(status.untrackedFiles).toEqual([]);
  const claspConfig = JSON.parse(fs.readFileSync(path.join(ROOT, '.clasp.json'), 'utf8'));
  expect(claspConfig.rootDir).toBe('dist');
});
