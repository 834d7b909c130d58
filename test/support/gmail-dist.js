'use strict';
// The local build as REPLY_DETECTION=gmail makes it: dist-local/ copied with gmail.readonly in the manifest's
// oauthScopes and the Gmail advanced service enabled (the bundle is the same: the add-on finds `Gmail` at run
// time). For the reply-detection tests and the bench; the copy is made again whenever dist-local/ is newer.
const fs = require('node:fs');
const path = require('node:path');
const { LOCAL_DIST, ROOT } = require('./harness');

const GMAIL_DIST = path.join(ROOT, 'test-output', 'dist-gmail');
const GMAIL_READONLY = 'https://www.googleapis.com/auth/gmail.readonly';

/** The directory of the Gmail build (made or refreshed from dist-local/). */
function gmailDist() {
  const code = path.join(LOCAL_DIST, 'Code.js');
  const copy = path.join(GMAIL_DIST, 'Code.js');
  if (fs.existsSync(copy) && fs.statSync(copy).mtimeMs >= fs.statSync(code).mtimeMs) return GMAIL_DIST;
  fs.mkdirSync(GMAIL_DIST, { recursive: true });
  for (const file of fs.readdirSync(LOCAL_DIST))
    fs.copyFileSync(path.join(LOCAL_DIST, file), path.join(GMAIL_DIST, file));
  const manifest = JSON.parse(fs.readFileSync(path.join(LOCAL_DIST, 'appsscript.json'), 'utf8'));
  manifest.oauthScopes = [...manifest.oauthScopes.filter((s) => s !== GMAIL_READONLY), GMAIL_READONLY];
  manifest.dependencies = {
    enabledAdvancedServices: [{ userSymbol: 'Gmail', serviceId: 'gmail', version: 'v1' }],
  };
  fs.writeFileSync(path.join(GMAIL_DIST, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return GMAIL_DIST;
}

module.exports = { gmailDist, GMAIL_READONLY };
