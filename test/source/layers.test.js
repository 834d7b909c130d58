// The source tree's shape (the developers' guide and the README's layout): imports run one way
// (index.ts → features/ → api/, sheets/, ui/ → platform/), no import cycle between files (type-only
// imports included), small files, and features/ grouped into a folder per capability.
const fs = require('node:fs');
const path = require('node:path');

const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir = SRC) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports of a file (`import`, `import type`, `export … from`), resolved to files of src/. */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/g)].map(
    (m) => m[1],
  );
  return specs.map((spec) => {
    const base = path.resolve(path.dirname(file), spec);
    const candidates = [`${base}.ts`, path.join(base, 'index.ts')];
    const found = candidates.find((candidate) => fs.existsSync(candidate));
    if (!found) throw new Error(`${rel(file)} imports ${spec}, which is not a file of src/`);
    return found;
  });
}

const rel = (file) => path.relative(SRC, file).split(path.sep).join('/');
const dirOf = (file) => path.posix.dirname(rel(file));
/** Whether the folder outer holds the folder inner (or is it). */
const holds = (outer, inner) => outer === '.' || inner === outer || inner.startsWith(`${outer}/`);
const layerOf = (file) => (rel(file) === 'index.ts' ? 'index' : rel(file).split('/')[0]);

/** What each layer may import besides itself. */
const ALLOWED = {
  index: ['features', 'ui'],
  features: ['api', 'sheets', 'ui', 'platform'],
  api: ['platform'],
  sheets: ['platform'],
  ui: ['platform'],
  platform: [],
};

const files = sourceFiles();
const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Every cycle's files, found with Tarjan's strongly connected components. */
function cycles() {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (file) => {
    meta.set(file, { index, low: index, onStack: true });
    index++;
    stack.push(file);
    for (const next of graph.get(file)) {
      if (!meta.has(next)) {
        visit(next);
        meta.get(file).low = Math.min(meta.get(file).low, meta.get(next).low);
      } else if (meta.get(next).onStack) {
        meta.get(file).low = Math.min(meta.get(file).low, meta.get(next).index);
      }
    }
    if (meta.get(file).low === meta.get(file).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        meta.get(member).onStack = false;
        component.push(rel(member));
      } while (member !== file);
      if (component.length > 1 || graph.get(file).includes(file)) found.push(component.sort());
    }
  };
  for (const file of files) if (!meta.has(file)) visit(file);
  return found;
}

describe('the source tree', () => {
  test('has no import cycle between files, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });

  test('imports run one way: index.ts → features/ → api/, sheets/, ui/ → platform/', () => {
    const against = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const from = layerOf(file);
        const to = layerOf(target);
        if (from !== to && !ALLOWED[from].includes(to)) against.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(against).toEqual([]);
  });

  test('has capability folders of features/ that depend one way: no folder reaches back to one that imports it', () => {
    const folderOf = (file) => {
      const parts = rel(file).split('/');
      return parts[0] === 'features' && parts.length > 2 ? parts[1] : null;
    };
    const edges = new Set();
    for (const [file, imports] of graph)
      for (const target of imports) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from && to && from !== to) edges.add(`${from} → ${to}`);
      }
    const next = (folder) =>
      [...edges].filter((e) => e.startsWith(`${folder} → `)).map((e) => e.split(' → ')[1]);
    const reaches = (from, to, seen = new Set()) =>
      from === to || (!seen.has(from) && seen.add(from) && next(from).some((n) => reaches(n, to, seen)));
    const back = [...edges].filter((edge) => {
      const [from, to] = edge.split(' → ');
      return reaches(to, from);
    });
    expect(back).toEqual([]);
  });

  // One door per folder: a file takes what another folder offers from that folder's index.ts only (the door of
  // the first folder the import enters: api/index.ts from features/, api/transport/index.ts from api/outreach/).
  // A file may reach the files of its own folder and of the folders that hold it (features/errors.ts from
  // features/mail/); src/index.ts names each entry point where it is declared (the build reads it there).
  test('takes what another folder offers through the index.ts of that folder only', () => {
    const doorOf = (from, to) => {
      let common = dirOf(from);
      while (!holds(common, dirOf(to))) common = path.posix.dirname(common);
      const [first] = path.posix.relative(common === '.' ? '' : common, dirOf(to)).split('/');
      return common === '.' ? first : `${common}/${first}`;
    };
    const against = [];
    for (const [file, imports] of graph) {
      if (rel(file) === 'index.ts') continue;
      for (const target of imports) {
        if (holds(dirOf(target), dirOf(file))) continue;
        const door = `${doorOf(file, target)}/index.ts`;
        if (rel(target) !== door) against.push(`${rel(file)} imports ${rel(target)}: take it from ${door}`);
      }
    }
    expect(against).toEqual([]);
  });

  test('never imports the index.ts of a folder from inside that folder', () => {
    const inward = [];
    for (const [file, imports] of graph)
      for (const target of imports)
        if (path.basename(target) === 'index.ts' && holds(dirOf(target), dirOf(file)))
          inward.push(`${rel(file)} imports ${rel(target)}`);
    expect(inward).toEqual([]);
  });

  // The glossary's one suffix for a table of texts (docs/development.md): `_WORDS` is retired.
  test('names a table of texts *_TEXTS, never *_WORDS', () => {
    const retired = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/\bconst ([A-Z][A-Z0-9_]*_WORDS)\b/g)].map(
        (m) => `${rel(file)}: ${m[1]}`,
      ),
    );
    expect(retired).toEqual([]);
  });

  // An export is a file's offer to others: one no other file (nor a test) takes stays inside its file.
  test('exports only what another file or a test uses', () => {
    const TEST = path.join(__dirname, '..');
    const testFiles = [];
    const walk = (dir) => {
      for (const name of fs.readdirSync(dir)) {
        const full = path.join(dir, name);
        if (fs.statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|js)$/.test(name)) testFiles.push(full);
      }
    };
    walk(TEST);
    const tests = testFiles.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    const texts = new Map(files.map((file) => [file, fs.readFileSync(file, 'utf8')]));
    const unused = [];
    for (const [file, text] of texts) {
      if (path.basename(file) === 'index.ts') continue;
      const declared =
        /^export (?:async )?(?:function|const|let|class|interface|type|enum) ([A-Za-z0-9_]+)/gm;
      for (const [, name] of text.matchAll(declared)) {
        const word = new RegExp(`\\b${name}\\b`);
        const used = [...texts].some(([other, t]) => other !== file && word.test(t)) || word.test(tests);
        if (!used) unused.push(`${rel(file)}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });

  // The glossary's one word per concept (docs/development.md): the retired names stay out of src/.
  test("uses the glossary's words: no retired name of a wait, a slice, the hourly trigger, a scheduled send, the ledger, a view or the spreadsheet's zone", () => {
    const RETIRED = [
      [/\bWaitKind\b/, 'WaitKind (a retry: RetryAfterKind)'],
      [/\bWaitingCode\b/, 'WaitingCode (WaitCode)'],
      [/\brunStep\b/, 'runStep (a slice: runSlice)'],
      // The stored names keep their spelling (the glossary's hourly trigger); every other "timer" is retired.
      [/timer(?!\.user)|Timer(?<!onHourlyTimer|byTimer)/, 'timer (the hourly trigger, an hourly run)'],
      [/\b[Tt]imed (work|sends?|jobs?)\b/, 'timed work or send (hourly work; a waiting or scheduled send)'],
      [/\b[Ss]end later\b|sendLater|send-later/, "send later (a scheduled send, Compose's Schedule)"],
      [
        /[Pp]ayer's record|\bSheetRecord\b|\breadMailRecord\b|mail-record/,
        "the payer's record (the ledger) or the sheets' (a view)",
      ],
    ];
    const found = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [pattern, word] of RETIRED) if (pattern.test(text)) found.push(`${rel(file)}: ${word}`);
      // The zone is asked once an execution (features/words.ts spreadsheetZone), never again elsewhere.
      if (!file.endsWith(path.join('features', 'words.ts')) && /getSpreadsheetTimeZone\(/.test(text))
        found.push(`${rel(file)}: getSpreadsheetTimeZone() (spreadsheetZone)`);
    }
    expect(found).toEqual([]);
  });

  // A file holds one concept; the cap only catches one that holds several (blank and comment lines not counted,
  // as ESLint's max-lines counts them).
  test('keeps every file of src/ at 600 lines of code or fewer', () => {
    const code = (line) => line.trim() !== '' && !/^(\/\/|\/\*|\*)/.test(line.trim());
    const long = files
      .map((file) => [rel(file), fs.readFileSync(file, 'utf8').split('\n').filter(code).length])
      .filter(([, lines]) => lines > 600);
    expect(long).toEqual([]);
  });

  test('groups features/ into a folder per capability, with at most ten shared files at its top', () => {
    const entries = fs.readdirSync(path.join(SRC, 'features'), { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const topFiles = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
    expect(folders).toEqual(expect.arrayContaining(['jobs', 'mail', 'phone', 'prospecting', 'tracking']));
    expect(topFiles.length).toBeLessThanOrEqual(10);
  });

  test('opens every folder of features/ and api/ with a README line saying what it owns', () => {
    const folders = ['features', 'api'].flatMap((layer) =>
      fs
        .readdirSync(path.join(SRC, layer), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(SRC, layer, entry.name)),
    );
    const without = folders.filter((folder) => {
      const readme = path.join(folder, 'README.md');
      return !fs.existsSync(readme) || fs.readFileSync(readme, 'utf8').trim().length < 20;
    });
    expect(without.map(rel)).toEqual([]);
  });
});
