'use strict';
// The entry points of src/index.ts, read from its source: what the build turns into top-level forwarders
// (dev/build/apps-script-entry-points.mjs), what the bundle test and the benchmark expect as globals.
const { existsSync, readFileSync } = require('node:fs');
const { dirname, resolve } = require('node:path');
const ts = require('typescript');

/**
 * The entry points of src/index.ts: `export function name(params) {}` declarations, and re-exports of
 * feature functions (`export { prospectSearch as PROSPECT_SEARCH } from './features/prospect-functions';`),
 * each with the JSDoc written above it. A re-export takes the parameter names of the function it names,
 * so a custom function's forwarder has the parameters its JSDoc documents.
 */
function readEntryPoints(indexPath) {
  const { text, source } = parse(indexPath);
  const entries = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isExported(statement)) {
      entries.push({
        name: statement.name.text,
        params: paramsOf(statement, source),
        jsDoc: jsDocAbove(text, statement),
      });
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const named = statement.exportClause && ts.isNamedExports(statement.exportClause);
      if (!named || !statement.moduleSpecifier) {
        throw new Error(`${indexPath}: name each entry point (export { name } from '...'), not export *`);
      }
      const target = resolveModule(indexPath, statement.moduleSpecifier.text);
      for (const element of statement.exportClause.elements) {
        if (element.isTypeOnly) continue;
        const declaration = exportedFunction(target, (element.propertyName ?? element.name).text);
        entries.push({
          name: element.name.text,
          params: declaration.params,
          jsDoc: jsDocAbove(text, statement),
        });
      }
    }
  }
  return entries;
}

function parse(file) {
  const text = readFileSync(file, 'utf8');
  return { text, source: ts.createSourceFile(file, text, ts.ScriptTarget.ES2020, true) };
}

function isExported(statement) {
  return statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

function paramsOf(declaration, source) {
  return declaration.parameters.map((p) => p.name.getText(source));
}

/** The last `/** … *\/` comment right above a statement. */
function jsDocAbove(text, statement) {
  const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  const docs = comments.filter((c) => text.startsWith('/**', c.pos));
  return docs.length ? text.slice(docs[docs.length - 1].pos, docs[docs.length - 1].end) : '';
}

function resolveModule(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const file = [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`${fromFile}: cannot find the module ${specifier}`);
  return file;
}

/**
 * What an entry point names in its module: `export function name`, or `export const name = guard(…, feature)`
 * (a feature inside an error guard, see src/features/entry-points.ts), whose parameters are the feature's (or
 * those of the function written in its place).
 */
function exportedFunction(file, name) {
  const { source } = parse(file);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name && isExported(statement)) {
      return { params: paramsOf(statement, source) };
    }
    if (!ts.isVariableStatement(statement) || !isExported(statement)) continue;
    const declaration = statement.declarationList.declarations.find((d) => d.name.getText(source) === name);
    const call = declaration?.initializer;
    const guarded = call && ts.isCallExpression(call) ? call.arguments[call.arguments.length - 1] : undefined;
    if (guarded && ts.isIdentifier(guarded)) return importedFunction(file, source, guarded.text);
    if (guarded && (ts.isArrowFunction(guarded) || ts.isFunctionExpression(guarded))) {
      return { params: paramsOf(guarded, source) };
    }
  }
  const door = reExported(file, source, name);
  if (door) return door;
  throw new Error(`${file}: the entry point ${name} must be an exported function declared in this file`);
}

/** The function a module imports under this name, from the module that declares it. */
function importedFunction(file, source, local) {
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const bindings = statement.importClause?.namedBindings;
    const element =
      bindings && ts.isNamedImports(bindings) && bindings.elements.find((e) => e.name.text === local);
    if (element) {
      const target = resolveModule(file, statement.moduleSpecifier.text);
      return exportedFunction(target, (element.propertyName ?? element.name).text);
    }
  }
  throw new Error(`${file}: ${local} is not imported by name`);
}

/** The module a folder's door (its index.ts: `export { name } from './file'`) takes this name from. */
function reExported(file, source, name) {
  for (const statement of source.statements) {
    const named = ts.isExportDeclaration(statement) && statement.exportClause;
    if (!named || !ts.isNamedExports(named) || !statement.moduleSpecifier) continue;
    const element = named.elements.find((e) => e.name.text === name);
    if (element) {
      const target = resolveModule(file, statement.moduleSpecifier.text);
      return exportedFunction(target, (element.propertyName ?? element.name).text);
    }
  }
  return undefined;
}

module.exports = { readEntryPoints };
