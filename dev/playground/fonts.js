'use strict';
// The fonts the playground brings with it, so the page and the add-on's dialogs measure the same on any
// machine. Sheets users see the add-on's `Arial, Helvetica, sans-serif` in Arial; a machine without Arial
// falls back to whatever its fontconfig picks (DejaVu Sans here, about 12 % wider), and lines wrap
// differently. Arimo (npm @fontsource/arimo, SIL OFL) has Arial's metrics, so the playground declares it
// under the names Arial and Helvetica: a family declared with @font-face wins over an installed one.
const fs = require('node:fs');
const path = require('node:path');

const FILES = path.join(path.dirname(resolveFontPackage()), 'files');
const STYLES = ['400.css', '700.css', '400-italic.css', '700-italic.css'];
const FILE_NAME = /^arimo-[a-z-]+-[47]00-(normal|italic)\.woff2$/;

function resolveFontPackage() {
  try {
    return require.resolve('@fontsource/arimo/400.css');
  } catch {
    throw new Error('The playground needs the devDependency @fontsource/arimo: run `npm ci`.');
  }
}

/** The @font-face rules of the package (every script subset), renamed, pointing at /fonts/. */
function fontsCss() {
  const css = STYLES.map((file) => fs.readFileSync(path.join(FILES, '..', file), 'utf8')).join('\n');
  const rules = css
    .replace(/font-family: 'Arimo'/g, "font-family: 'Arial'")
    // Only the woff2 files are served; `block` keeps text hidden (not drawn in a fallback) for the few ms
    // a loopback load takes, so nothing is ever measured in another font's metrics and left that way.
    .replace(
      /src: url\(\.\/files\/([^)]+\.woff2)\) format\('woff2'\)[^;]*;/g,
      "src: url(/fonts/$1) format('woff2');",
    )
    .replace(/font-display: swap/g, 'font-display: block');
  return `/* Arimo (Arial's metrics) as Arial and Helvetica: see dev/playground/fonts.js */\n${rules}\n${rules.replace(
    /font-family: 'Arial'/g,
    "font-family: 'Helvetica'",
  )}`;
}

/** The path of a served font file, or null for any other name. */
function fontFile(name) {
  return FILE_NAME.test(name) ? path.join(FILES, name) : null;
}

module.exports = { fontsCss, fontFile };
