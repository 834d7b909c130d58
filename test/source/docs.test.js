'use strict';
// The documentation a newcomer reads: a short README, a development guide by concept (a section per capability),
// lines of at most 120 characters in it and in docs/,
// and code that cites docs/services.md (the project's own words for what it relies on of both services),
// never the services' documents, which are not in the repository.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const MAX_LINE = 120;
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const docs = () => [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function filesUnder(dir, endings) {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(file, endings);
    return endings.some((ending) => entry.name.endsWith(ending)) ? [file] : [];
  });
}

/** Lines over MAX_LINE outside code blocks, except a line that is only a URL or a link. */
function longLines(text) {
  let code = false;
  return text.split('\n').flatMap((line, i) => {
    if (line.trimStart().startsWith('```')) code = !code;
    if (code || [...line].length <= MAX_LINE) return [];
    if (/^\s*(<?https?:\/\/\S+>?|\[[^\]]*\]\([^)]*\))\s*$/.test(line)) return [];
    return [`${i + 1}: ${line.slice(0, 60)}…`];
  });
}

test('the README is at most 200 lines and shows the add-on, the two commands, the tour, deploying and links', () => {
  const readme = read('README.md');
  expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  const image = readme.match(/!\[[^\]]*\]\(([^)]+)\)/);
  expect(image).not.toBeNull();
  expect(fs.existsSync(path.join(ROOT, image[1]))).toBe(true);
  expect(readme).toContain('npm start');
  expect(readme).toContain('npm test');
  expect(readme).toMatch(/^## A five-minute tour$/m);
  expect(readme).toMatch(/^## Deploying/m);
  for (const [, target] of readme.matchAll(/\]\(((?:docs|dev)\/[^)#]+)/g)) {
    expect(fs.existsSync(path.join(ROOT, target))).toBe(true);
  }
});

test('docs/development.md is by concept: the layers, a glossary, and a section per capability folder', () => {
  const guide = read('docs/development.md');
  expect(guide).toMatch(/^## Layers$/m);
  expect(guide).toMatch(/^## Glossary$/m);
  const sections = new Set([...guide.matchAll(/^### (\S+)$/gm)].map((m) => m[1]));
  const folders = fs
    .readdirSync(path.join(ROOT, 'src/features'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(folders.filter((folder) => !sections.has(folder))).toEqual([]);
});

test.each(docs())('%s: every line outside code blocks has at most 120 characters', (file) => {
  expect(longLines(read(file))).toEqual([]);
});

test('no file of src/ or dev/ cites a service document that is not in the repository', () => {
  const citing = filesUnder('src', ['.ts', '.html'])
    .concat(filesUnder('dev', ['.js', '.mjs']))
    .filter((file) => /spec\/[\w-]+\.md|outreach-api\.md|phone-check-api\.md/.test(read(file)));
  expect(citing).toEqual([]);
});

test('each section of docs/services.md that the code names exists', () => {
  const headings = new Set([...read('docs/services.md').matchAll(/^## (.+)$/gm)].map((m) => m[1]));
  const cited = filesUnder('src', ['.ts']).flatMap((file) =>
    [...read(file).matchAll(/docs\/services\.md, ([A-Z][\w ]+: [a-z][a-z ]+)/g)].map(
      (m) => `${file}: ${m[1]}`,
    ),
  );
  expect(cited.length).toBeGreaterThan(0);
  expect(cited.filter((entry) => !headings.has(entry.split(': ').slice(1).join(': ')))).toEqual([]);
});
