'use strict';
// SpreadsheetApp.getUi(): menus, alerts, prompts, sidebars and dialogs, recorded in emu.ui so tests (and
// the playground) can read them. Alerts and prompts are answered by emu.ui.queue(...) answers, then by
// emu.ui.respond(fn), then by the default (OK / YES, empty text).
const { AppsScriptError, permissionError, makeEnum } = require('./errors');
const { instrument } = require('./execution');

const SCOPE_UI = 'https://www.googleapis.com/auth/script.container.ui';
const Button = makeEnum('Button', ['CLOSE', 'OK', 'CANCEL', 'YES', 'NO']);
const ButtonSet = makeEnum('ButtonSet', ['OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL']);
const BUTTONS_OF = {
  OK: ['OK', 'CLOSE'],
  OK_CANCEL: ['OK', 'CANCEL', 'CLOSE'],
  YES_NO: ['YES', 'NO', 'CLOSE'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL', 'CLOSE'],
};

/** What emu.ui holds: the records and the answering machinery. */
class UiRecorder {
  constructor(clock) {
    this._clock = clock;
    this.menus = []; // current menus: { name, addon, items }
    this.toasts = [];
    this.alerts = [];
    this.prompts = [];
    this.sidebars = [];
    this.dialogs = [];
    /** Consent prompts shown by ScriptApp.requireScopes: { scopes, atMs }. */
    this.authPrompts = [];
    this._queue = [];
    this._responder = null;
  }
  /** Answers the next alerts/prompts in order: 'YES' | 'NO' | 'OK' | 'CANCEL' | 'CLOSE' | { button, text }. */
  queue(...answers) {
    this._queue.push(...answers);
    return this;
  }
  /** fn({ type: 'alert'|'prompt', title, message, buttons }) => answer (used when the queue is empty). */
  respond(fn) {
    this._responder = fn;
    return this;
  }
  /** The sidebar or dialog shown last (what the user sees), or null. */
  get sidebar() {
    return this.sidebars[this.sidebars.length - 1] || null;
  }
  get dialog() {
    return this.dialogs[this.dialogs.length - 1] || null;
  }
  menu(name) {
    return this.menus.find((m) => m.name === name || (name === undefined && m.addon)) || null;
  }
  reset() {
    for (const k of ['menus', 'toasts', 'alerts', 'prompts', 'sidebars', 'dialogs', 'authPrompts'])
      this[k] = [];
    this._queue = [];
    this._responder = null;
  }
  _record(kind, entry) {
    const rec = { ...entry, atMs: this._clock.now() };
    this[kind].push(rec);
    return rec;
  }
  _answer(request) {
    let a;
    if (this._queue.length) a = this._queue.shift();
    else if (this._responder) a = this._responder(request);
    const allowed = BUTTONS_OF[request.buttons];
    if (a === undefined || a === null) a = allowed[0];
    const answer =
      typeof a === 'object'
        ? { button: a.button || allowed[0], text: a.text || '' }
        : { button: String(a), text: '' };
    if (!allowed.includes(answer.button)) {
      throw new Error(`emulator: answer ${answer.button} is not a button of ButtonSet.${request.buttons}`);
    }
    return answer;
  }
}

class Ui {
  constructor(env, host) {
    this._env = env;
    this._host = host;
    this.Button = Button;
    this.ButtonSet = ButtonSet;
  }
  get _rec() {
    return this._env.emu.ui;
  }
  createAddonMenu() {
    return new Menu(this._env, this._env.emu.addonName, true);
  }
  createMenu(caption) {
    return new Menu(this._env, String(caption), false);
  }
  _dialogArgs(args) {
    // alert(prompt) | alert(prompt, buttons) | alert(title, prompt, buttons)
    if (args.length >= 3) return { title: String(args[0]), message: String(args[1]), buttons: args[2] };
    if (args.length === 2 && typeof args[1] === 'object')
      return { title: '', message: String(args[0]), buttons: args[1] };
    if (args.length === 2) return { title: String(args[0]), message: String(args[1]), buttons: null };
    return { title: '', message: String(args[0]), buttons: null };
  }
  alert(...args) {
    const { title, message, buttons } = this._dialogArgs(args);
    const set = buttons ? String(buttons) : 'OK';
    const req = { type: 'alert', title, message, buttons: set };
    const { button } = this._rec._answer(req);
    this._rec._record('alerts', { ...req, response: button });
    return Button[button];
  }
  prompt(...args) {
    const { title, message, buttons } = this._dialogArgs(args);
    const set = buttons ? String(buttons) : 'OK';
    const req = { type: 'prompt', title, message, buttons: set };
    const { button, text } = this._rec._answer(req);
    this._rec._record('prompts', { ...req, response: button, text });
    return new PromptResponse(this._env, button, text);
  }
  showSidebar(userInterface) {
    this._rec._record('sidebars', describeOutput(userInterface, 'sidebar'));
  }
  showModalDialog(userInterface, title) {
    this._rec._record('dialogs', { ...describeOutput(userInterface, 'modal'), title: String(title) });
  }
  showModelessDialog(userInterface, title) {
    this._rec._record('dialogs', { ...describeOutput(userInterface, 'modeless'), title: String(title) });
  }
}

function describeOutput(output, type) {
  if (!output || typeof output.getContent !== 'function') {
    throw new AppsScriptError('Invalid argument: userInterface');
  }
  const d = output._data;
  return { type, title: d.title, width: d.width, height: d.height, html: d.content };
}

class PromptResponse {
  constructor(env, button, text) {
    this._env = env;
    this._button = button;
    this._text = text;
  }
  getResponseText() {
    return this._text;
  }
  getSelectedButton() {
    return Button[this._button];
  }
}

class Menu {
  constructor(env, name, addon) {
    this._env = env;
    this._menu = { name, addon, items: [] };
  }
  addItem(caption, functionName) {
    this._menu.items.push({ caption: String(caption), functionName: String(functionName) });
    return this;
  }
  addSeparator() {
    this._menu.items.push({ separator: true });
    return this;
  }
  addSubMenu(menu) {
    this._menu.items.push({ caption: menu._menu.name, submenu: menu._menu });
    return this;
  }
  addToUi() {
    const menus = this._env.emu.ui.menus;
    const i = menus.findIndex((m) => m.name === this._menu.name && m.addon === this._menu.addon);
    const copy = JSON.parse(JSON.stringify(this._menu));
    if (i >= 0) menus[i] = copy;
    else menus.push(copy);
  }
}

const UI_ONLY_MENUS = new Set(['createAddonMenu', 'createMenu']);

function uiGuard(exec, name) {
  if (UI_ONLY_MENUS.has(name)) return;
  if (exec.authMode === 'NONE' || exec.authMode === 'CUSTOM_FUNCTION' || !exec.emu._hasScope(SCOPE_UI)) {
    throw permissionError(`Ui.${name}`, SCOPE_UI);
  }
  if (exec.authMode === 'LIMITED' && /^show/.test(name)) throw permissionError(`Ui.${name}`, SCOPE_UI);
}

instrument(Ui, { label: 'Ui', group: 'ui', classify: () => 'other', guard: uiGuard });
instrument(Menu, { label: 'Menu', group: 'ui', classify: () => 'other' });
instrument(PromptResponse, { label: 'PromptResponse', group: 'ui' });

module.exports = { Ui, UiRecorder, Button, ButtonSet };
