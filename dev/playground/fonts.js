'use strict';
// The fonts the playground brings with it, so the page and the add-on's dialogs measure the same on any
// machine and show every script a list may hold. Sheets users see the add-on's `Arial, Helvetica, sans-serif`
// in Arial; a machine without Arial falls back to whatever its fontconfig picks (DejaVu Sans here, about 12 %
// wider), and lines wrap differently. Arimo (npm @fontsource/arimo, SIL OFL) has Arial's metrics, so the
// playground declares it under the names Arial and Helvetica: a family declared with @font-face wins over an
// installed one. A Sheets user's browser also draws Chinese, Japanese and emoji with the system's fonts; the
// packaged Chromium has none (empty boxes), so the same two families get Noto Sans SC and Noto Color Emoji
// (npm @fontsource, SIL OFL) for those characters only: each face has its unicode-range, a browser loads a
// file only when a character of its range is on the page, and of faces covering one character the one
// declared last wins (CSS Fonts 4 §4.5): Noto Sans SC first, the emoji next (over its plain emoji glyphs),
// Arimo last (over the emoji font's digits and signs).
const fs = require('node:fs');
const path = require('node:path');

/** Each package: the CSS files read, the font files it serves, and which of its faces are kept. */
const PACKAGES = [
  {
    name: '@fontsource/noto-sans-sc',
    styles: ['400.css'],
    file: /^noto-sans-sc-\d+-400-normal\.woff2$/,
  },
  // The package's split files draw their glyphs as SVG, which Chromium does not draw (blank); its whole font
  // has COLR glyphs too: that one, for the characters of the split files.
  {
    name: '@fontsource/noto-color-emoji',
    styles: ['emoji-400.css'],
    file: /^noto-color-emoji-emoji-400-normal\.woff2$/,
    rangesOf: '400.css',
  },
  {
    name: '@fontsource/arimo',
    styles: ['400.css', '700.css', '400-italic.css', '700-italic.css'],
    file: /^arimo-[a-z-]+-[47]00-(normal|italic)\.woff2$/,
  },
].map((pkg) => ({ ...pkg, dir: packageDir(pkg.name) }));

function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new Error(`The playground needs the devDependency ${name}: run \`npm ci\`.`);
  }
}

/** The package's @font-face rules whose file it serves, as family `family`, pointing at /fonts/. */
function faces(pkg, family) {
  const css = pkg.styles.map((file) => fs.readFileSync(path.join(pkg.dir, file), 'utf8')).join('\n');
  const rules = css.match(/@font-face\s*{[^}]*}/g) || [];
  return rules
    .filter((rule) => {
      const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(rule);
      return file && pkg.file.test(file[1]);
    })
    .map((rule) =>
      (pkg.rangesOf ? rule.replace(/}\s*$/, `  unicode-range: ${rangesOf(pkg)};\n}`) : rule)
        .replace(/font-family: '[^']+'/, `font-family: '${family}'`)
        // Only the woff2 files are served; `block` keeps text hidden (not drawn in a fallback) for the few ms
        // a loopback load takes, so nothing is ever measured in another font's metrics and left that way.
        .replace(
          /src: url\(\.\/files\/([^)]+\.woff2)\) format\('woff2'\)[^;]*;/,
          "src: url(/fonts/$1) format('woff2');",
        )
        .replace(/font-display: swap/, 'font-display: block'),
    )
    .join('\n');
}

/** Every unicode-range of a package's CSS file, as one. */
function rangesOf(pkg) {
  const css = fs.readFileSync(path.join(pkg.dir, pkg.rangesOf), 'utf8');
  return [...css.matchAll(/unicode-range: ([^;]+);/g)].map((m) => m[1]).join(',');
}

function fontsCss() {
  const families = ['Arial', 'Helvetica'];
  const rules = PACKAGES.flatMap((pkg) => families.map((family) => faces(pkg, family)));
  return `/* Noto Sans SC, Noto Color Emoji and Arimo (Arial's metrics) as Arial and Helvetica: see dev/playground/fonts.js */\n${rules.join('\n')}\n`;
}

/** The path of a served font file, or null for any other name. */
function fontFile(name) {
  const pkg = PACKAGES.find((p) => p.file.test(name));
  return pkg ? path.join(pkg.dir, 'files', name) : null;
}

module.exports = { fontsCss, fontFile };
