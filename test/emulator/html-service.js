'use strict';
// HtmlService: HtmlOutput and HtmlTemplate read from the built HTML files (htmlDir). Template scriptlets
// (<? code ?>, <?= escaped ?>, <?!= raw ?>) run inside the execution's context, so they can call the
// script's functions and read the properties the caller set on the template.
const fs = require('node:fs');
const path = require('node:path');
const { AppsScriptError, makeEnum } = require('./errors');
const { instrument, reenter } = require('./execution');

const SandboxMode = makeEnum('SandboxMode', ['EMULATED', 'IFRAME', 'NATIVE']);
const XFrameOptionsMode = makeEnum('XFrameOptionsMode', ['ALLOWALL', 'DEFAULT']);

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function readHtmlFile(emu, name) {
  const base = String(name).replace(/\.html$/, '');
  const file = emu.htmlDir && path.join(emu.htmlDir, `${base}.html`);
  if (!file || !fs.existsSync(file)) throw new AppsScriptError(`No HTML file named ${base} was found.`);
  return fs.readFileSync(file, 'utf8');
}

/** Turns template text into the body of a function (with(this) { ... }) that returns the output. */
function compileTemplate(text) {
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let code = '';
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) code += `__out.push(${JSON.stringify(text.slice(last, m.index))});\n`;
    const body = m[2].trim();
    if (m[1] === '=') code += `__out.push(__esc(${body}));\n`;
    else if (m[1] === '!=') code += `__out.push(__raw(${body}));\n`;
    else code += `${m[2]}\n`;
    last = re.lastIndex;
  }
  if (last < text.length) code += `__out.push(${JSON.stringify(text.slice(last))});\n`;
  return code;
}

class HtmlOutput {
  constructor(env, content = '') {
    this._env = env;
    this._data = {
      content: String(content),
      title: '',
      width: null,
      height: null,
      sandboxMode: 'IFRAME',
      xFrame: 'DEFAULT',
      meta: [],
    };
  }
  getContent() {
    return this._data.content;
  }
  setContent(content) {
    this._data.content = String(content);
    return this;
  }
  append(addedContent) {
    this._data.content += String(addedContent);
    return this;
  }
  appendUntrusted(addedContent) {
    this._data.content += escapeHtml(addedContent);
    return this;
  }
  clear() {
    this._data.content = '';
    return this;
  }
  setTitle(title) {
    this._data.title = String(title);
    return this;
  }
  getTitle() {
    return this._data.title;
  }
  setWidth(width) {
    this._data.width = Number(width);
    return this;
  }
  getWidth() {
    return this._data.width;
  }
  setHeight(height) {
    this._data.height = Number(height);
    return this;
  }
  getHeight() {
    return this._data.height;
  }
  setSandboxMode(mode) {
    this._data.sandboxMode = String(mode);
    return this;
  }
  getSandboxMode() {
    return SandboxMode[this._data.sandboxMode];
  }
  setXFrameOptionsMode(mode) {
    this._data.xFrame = String(mode);
    return this;
  }
  addMetaTag(name, content) {
    this._data.meta.push({ name: String(name), content: String(content) });
    return this;
  }
  setFaviconUrl(url) {
    this._data.favicon = String(url);
    return this;
  }
  asTemplate() {
    return new HtmlTemplate(this._env, this._data.content);
  }
}

class HtmlTemplate {
  constructor(env, source) {
    Object.defineProperty(this, '_env', { value: env, enumerable: false });
    Object.defineProperty(this, '_source', { value: String(source), enumerable: false });
  }
  getRawContent() {
    return this._source;
  }
  getCode() {
    return compileTemplate(this._source);
  }
  evaluate() {
    const { exec } = this._env;
    const output = new HtmlOutput(this._env, '');
    const props = {};
    for (const k of Object.keys(this)) props[k] = this[k];
    const code = compileTemplate(this._source);
    const str = (v) => (v === null || v === undefined ? '' : String(v));
    const esc = (v) => escapeHtml(str(v));
    let content;
    if (exec) {
      const fn = exec.realm.evaluate(
        `(function (__props, __esc, __raw, output) { var __out = []; with (__props) {\n${code}\n} return __out.join(''); })`,
        'HtmlTemplate.evaluate',
      );
      content = reenter(exec, () => fn(exec.realm.in(props), esc, str, output));
    } else {
      const fn = new Function(
        '__props',
        '__esc',
        '__raw',
        'output',
        `var __out = []; with (__props) {\n${code}\n} return __out.join('');`,
      );
      content = fn(props, esc, str, output);
    }
    output._data.content = content + output._data.content;
    return output;
  }
}

class HtmlServiceImpl {
  constructor(env) {
    this._env = env;
    this.SandboxMode = SandboxMode;
    this.XFrameOptionsMode = XFrameOptionsMode;
  }
  createHtmlOutput(html) {
    return new HtmlOutput(
      this._env,
      html === undefined
        ? ''
        : typeof html === 'object' && html.getDataAsString
          ? html.getDataAsString()
          : html,
    );
  }
  createHtmlOutputFromFile(filename) {
    return new HtmlOutput(this._env, readHtmlFile(this._env.emu, filename));
  }
  createTemplate(html) {
    return new HtmlTemplate(this._env, html);
  }
  createTemplateFromFile(filename) {
    return new HtmlTemplate(this._env, readHtmlFile(this._env.emu, filename));
  }
}

instrument(HtmlServiceImpl, { label: 'HtmlService', group: 'html' });
instrument(HtmlOutput, { label: 'HtmlOutput', group: 'html' });
instrument(HtmlTemplate, { label: 'HtmlTemplate', group: 'html' });

module.exports = {
  HtmlServiceImpl,
  HtmlOutput,
  HtmlTemplate,
  compileTemplate,
  escapeHtml,
  SandboxMode,
  XFrameOptionsMode,
};
