'use strict';
// The contract between the pages and the server: a page calls only functions src/index.ts exports, with the
// arguments they take, and reads only what they answer. Every page's scripts (src/ui/*.html, the shared
// parts inlined as the build does) are type-checked by TypeScript (checkJs) against ServerFunctions, the
// type src/index.ts derives from its exports: callServer(name, args, buttons, onSuccess) is typed in
// _client.js.html, google.script.run by the declarations below. A wrong name, a wrong argument count or a
// field the result does not have fails this test.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..', '..');
const UI = path.join(ROOT, 'src', 'ui');
const PAGES = path.join(ROOT, 'pages-contract'); // virtual files: nothing is written there

/** What google.script.run and google.script.host are for a page (the parts the pages use). */
const ENVIRONMENT = `
declare global {
  type ServerFunctions = import('./src/index').ServerFunctions;
  type ScriptRunner = { [K in keyof ServerFunctions]: (...args: Parameters<ServerFunctions[K]>) => void } & {
    withSuccessHandler(handler: (result: any) => void): ScriptRunner;
    withFailureHandler(handler: (error: Error) => void): ScriptRunner;
  };
  const google: {
    script: { run: ScriptRunner; host: { close(): void; setHeight(height: number): void } };
  };
}
export {};
`;

/** A page's scripts as the browser gets them; template values (<?!= x ?>) are of any type. */
function pageScripts(html) {
  const built = html.replace(/<!-- include: ([\w.-]+) -->/g, (_, name) =>
    fs.readFileSync(path.join(UI, name), 'utf8'),
  );
  const scripts = [...built.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  // Each page is a module of its own here (its globals are its own); the ones it shares come from above.
  return `${scripts.join('\n').replace(/<\?!?=[\s\S]*?\?>/g, '/** @type {any} */ (null)')}\nexport {};\n`;
}

/** Type errors in the given pages ({ name: html }), as `page:line: message`. */
function contractErrors(pages) {
  const files = { [path.join(ROOT, 'pages-contract.d.ts')]: ENVIRONMENT };
  for (const [name, html] of Object.entries(pages)) files[path.join(PAGES, `${name}.js`)] = pageScripts(html);
  const options = {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2019,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    types: ['google-apps-script'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) =>
    name in files
      ? ts.createSourceFile(name, files[name], version, true)
      : getSourceFile(name, version, ...rest);
  host.fileExists = (name) => name in files || fileExists(name);
  host.readFile = (name) => files[name] ?? readFile(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && d.file.fileName.startsWith(PAGES))
    .map((d) => {
      const line = d.file.getLineAndCharacterOfPosition(d.start).line + 1;
      const text = d.file.text.split('\n')[line - 1].trim();
      return `${path.basename(d.file.fileName, '.js')}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')} [${text}]`;
    });
}

const realPages = () =>
  Object.fromEntries(
    fs
      .readdirSync(UI)
      .filter((file) => file.endsWith('.html') && !file.startsWith('_'))
      .map((file) => [file, fs.readFileSync(path.join(UI, file), 'utf8')]),
  );

/** A page that breaks the contract in each way, one line each. */
const BROKEN = `<!-- include: _client.js.html -->
<script>
  callServer('continueJobs', ['unlock'], [], function () {});
  callServer('continueJob', [], [], function () {});
  callServer('stopJob', ['unlock', 'now'], [], function () {});
  callServer('continueJob', ['unlock'], [], function (progress) { return progress.finishd; });
  google.script.run.jobEndShow('unlock');
  google.script.run.jobEndShown();
</script>`;

test('every page calls the server only by names it exports, with their arguments, reading their results', () => {
  const pages = realPages();
  expect(Object.keys(pages)).toEqual(
    expect.arrayContaining(['compose.html', 'progress.html', 'settings.html']),
  );
  const broken = contractErrors({ ...pages, 'broken.html': BROKEN });
  // The real pages keep the contract.
  expect(broken.filter((e) => !e.startsWith('broken.html:'))).toEqual([]);
  // A page that breaks it is caught, each call on its own line: an unknown name, too few or too many
  // arguments, a field the result does not have, and the same through google.script.run.
  const lines = (pattern) => broken.filter((e) => e.startsWith('broken.html:') && pattern.test(e));
  expect(lines(/'continueJobs'/)).toHaveLength(1);
  expect(lines(/callServer\('continueJob', \[\]/)).toHaveLength(1);
  expect(lines(/'stopJob', \['unlock', 'now'\]/)).toHaveLength(1);
  expect(lines(/finishd/)).toHaveLength(1);
  expect(lines(/jobEndShow\(/)).toHaveLength(1);
  expect(lines(/jobEndShown\(\)/)).toHaveLength(1);
  expect(broken.filter((e) => e.startsWith('broken.html:'))).toHaveLength(6);
});
