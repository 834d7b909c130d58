'use strict';
// Reply detection is a build option (dev/build/reply-detection.mjs): the default build asks for no mail
// access and holds no code that reads mail; REPLY_DETECTION=gmail adds the read-only Gmail scope, the Gmail
// advanced service and the mailbox reads. dist-local-gmail/ is always the Gmail build.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { AppsScriptEmulator } = require('../emulator');

const ROOT = path.join(__dirname, '..', '..');
const GMAIL_SCOPE = 'https://www.googleapis.com/auth/gmail.readonly';
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const manifestOf = (dir) => JSON.parse(read(`${dir}/appsscript.json`));
/** Whether the bundle can read a mailbox: the Gmail reads and the classification of answers are in it. */
const readsMail = (dir) => {
  const code = read(`${dir}/Code.js`);
  return ['Gmail.Users.Messages', 'function readMailbox(', 'OUT_OF_OFFICE_SUBJECT'].map((part) =>
    code.includes(part),
  );
};
const gmailServices = (manifest) =>
  ((manifest.dependencies || {}).enabledAdvancedServices || []).filter((s) => s.serviceId === 'gmail');

/**
 * The build module's functions, run in a child node (the tests are CommonJS, the build's modules ES modules):
 * each call's arguments and answer cross as JSON; a throw comes back as { error: message }.
 */
function call(fn, ...args) {
  const script = `import * as build from './dev/build/reply-detection.mjs';
    let out; try { out = build.${fn}(...JSON.parse(process.argv[1])); } catch (e) { out = { error: e.message }; }
    process.stdout.write(JSON.stringify(out));`;
  const text = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(args)], {
    cwd: ROOT,
  }).toString();
  return JSON.parse(text);
}
const build = {
  replyDetectionOf: (env) => {
    const out = call('replyDetectionOf', env);
    if (out && out.error) throw new Error(out.error);
    return out;
  },
  manifestFor: (manifest, detection) => call('manifestFor', manifest, detection),
};

test('the default manifest asks for no mail access: no Gmail scope, no advanced service', () => {
  expect(build.replyDetectionOf({})).toBe('');
  expect(build.replyDetectionOf({ REPLY_DETECTION: ' ' })).toBe('');
  const source = JSON.parse(read('appsscript.json'));
  const manifest = build.manifestFor(source, '');
  expect(manifest).toEqual(source);
  expect(manifest.oauthScopes.filter((s) => /gmail|mail\.google/.test(s))).toEqual([]);
  expect(gmailServices(manifest)).toEqual([]);
});

test('REPLY_DETECTION=gmail: the read-only Gmail scope and the Gmail advanced service, once each', () => {
  expect(build.replyDetectionOf({ REPLY_DETECTION: 'gmail' })).toBe('gmail');
  const source = JSON.parse(read('appsscript.json'));
  const once = build.manifestFor(source, 'gmail');
  expect(once.oauthScopes).toEqual([...source.oauthScopes, GMAIL_SCOPE]);
  expect(gmailServices(once)).toEqual([{ userSymbol: 'Gmail', serviceId: 'gmail', version: 'v1' }]);
  expect(build.manifestFor(once, 'gmail')).toEqual(once);
  expect(once.urlFetchWhitelist).toEqual(source.urlFetchWhitelist);
});

test('another value stops the build with what to write instead', () => {
  expect(() => build.replyDetectionOf({ REPLY_DETECTION: 'imap' })).toThrow(
    /REPLY_DETECTION=imap is not a reply detection this build knows\. Write REPLY_DETECTION=gmail/,
  );
});

test("dist/ and dist-local/ are what this build's REPLY_DETECTION asked for (none by default)", () => {
  const wanted = build.replyDetectionOf({ REPLY_DETECTION: process.env.REPLY_DETECTION });
  for (const dir of ['dist', 'dist-local']) {
    const manifest = manifestOf(dir);
    expect(manifest.oauthScopes.includes(GMAIL_SCOPE)).toBe(wanted === 'gmail');
    expect(gmailServices(manifest)).toHaveLength(wanted === 'gmail' ? 1 : 0);
    expect(readsMail(dir)).toEqual(Array(3).fill(wanted === 'gmail'));
  }
});

test('dist-local-gmail/ is the Gmail build: the mailbox reads in its code, Gmail in its manifest', () => {
  const manifest = manifestOf('dist-local-gmail');
  expect(manifest.oauthScopes).toContain(GMAIL_SCOPE);
  expect(gmailServices(manifest)).toHaveLength(1);
  expect(readsMail('dist-local-gmail')).toEqual([true, true, true]);
  const { urlFetchWhitelist, ...rest } = manifest;
  const { urlFetchWhitelist: local, ...defaultRest } = build.manifestFor(manifestOf('dist-local'), 'gmail');
  expect(urlFetchWhitelist).toEqual(local);
  expect(rest).toEqual(defaultRest);
});

test('in the emulator the Gmail build has the Gmail global, the default build none', () => {
  const symbolOf = (dir) =>
    new AppsScriptEmulator({ codePath: path.join(ROOT, dir, 'Code.js'), htmlDir: path.join(ROOT, dir) })
      .gmailSymbol;
  expect(symbolOf('dist-local-gmail')).toBe('Gmail');
  if (!process.env.REPLY_DETECTION) expect(symbolOf('dist-local')).toBeNull();
});
