// src/platform/version.ts: the version the add-on reports is the package's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ADDON_VERSION } from '../../src/platform/version';

test('ADDON_VERSION equals package.json version', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  expect(ADDON_VERSION).toBe(pkg.version);
});
