'use strict';
// The main-thread side of the emulator worker. The add-on runs synchronously inside the worker; when it
// shows an alert or a prompt the worker posts the question here and blocks (Atomics.wait) until the browser
// answers: answer() puts the reply on a MessagePort and wakes the worker, which reads it synchronously
// (receiveMessageOnPort). Operations are queued and sent one at a time, as one user works one thing at a time,
// except a google.script.run call that comes while an execution runs: in Apps Script each call is an execution
// of its own that runs at once (the progress dialog's Stop and polls, while its step works), so it goes to the
// worker on a second port and runs there as a separate execution when the running one next waits on the
// network (the emulator's onFetch), or as soon as it ends.
const path = require('node:path');
const { EventEmitter } = require('node:events');
const { Worker, MessageChannel } = require('node:worker_threads');

const WORKER = path.join(__dirname, 'emulator-worker.js');
const ANSWERED = 1;

class EmulatorHost extends EventEmitter {
  /**
   * @param {{ clock: import('../clock').Clock, codePath: string, htmlDir: string, emulatorOptions?: object,
   *   mailboxUrl?: string }} options emulatorOptions: more AppsScriptEmulator options (tests: realTimeoutMs);
   *   mailboxUrl: the sandbox's outreach address, whose mailbox feeds the users' Gmail
   */
  constructor({ clock, codePath, htmlDir, emulatorOptions = {}, mailboxUrl = null }) {
    super();
    this.clock = clock;
    this.codePath = codePath;
    this.htmlDir = htmlDir;
    this.queue = [];
    this.current = null; // the operation the worker is running
    this.alongside = new Map(); // id -> google.script.run call sent to run beside the current execution
    this.prompts = new Map(); // id -> prompt waiting for the browser
    this.state = null;
    this.uiSeq = 0;
    this.nextId = 1;
    this.stopped = false;
    this.signal = new Int32Array(new SharedArrayBuffer(4));
    const channel = new MessageChannel();
    this.answerPort = channel.port1;
    const side = new MessageChannel();
    this.sidePort = side.port1;
    this.worker = new Worker(WORKER, {
      workerData: {
        clockBuffer: clock.buffer,
        codePath,
        htmlDir,
        emulatorOptions,
        mailboxUrl,
        signal: this.signal.buffer,
        answerPort: channel.port2,
        sidePort: side.port2,
      },
      transferList: [channel.port2, side.port2],
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.on('message', (msg) => this._onMessage(msg));
    this.worker.on('error', (err) => this._fail(err));
    this.worker.on('exit', (code) => {
      if (!this.stopped) this._fail(new Error(`emulator worker exited (code ${code})`));
    });
  }

  /** Runs one operation in the worker ({ op: 'run'|'select'|'edit'|'state'|'init', ... }). */
  call(message) {
    if (this.stopped) return Promise.reject(new Error('the playground is stopped'));
    return new Promise((resolve, reject) => {
      const item = { message: { ...message, id: this.nextId++ }, resolve, reject };
      if (this._runsAlongside(item.message)) {
        this.alongside.set(item.message.id, item);
        this.sidePort.postMessage(item.message);
      } else {
        this.queue.push(item);
        this._pump();
      }
    });
  }

  /** A google.script.run call while an execution runs: an execution of its own, not queued behind it. */
  _runsAlongside(message) {
    return (
      message.op === 'run' && message.kind === 'webapp' && !!this.current && this.current.message.op === 'run'
    );
  }

  /** The browser's answer to an alert or prompt: { id, button: 'OK'|'CANCEL'|'YES'|'NO'|'CLOSE', text }. */
  answer({ id, button, text = '' }) {
    const prompt = this.prompts.get(id);
    if (!prompt) return false;
    this.prompts.delete(id);
    this.answerPort.postMessage({ id, button: String(button || 'CLOSE').toUpperCase(), text: String(text) });
    Atomics.store(this.signal, 0, ANSWERED);
    Atomics.notify(this.signal, 0);
    this.emit('prompt-done', { id });
    return true;
  }

  get running() {
    return this.current ? runningName(this.current.message, this.state) : null;
  }

  async stop() {
    if (this.stopped) return;
    // A blocked execution is released first (as if the user closed the dialog), then the worker ends.
    for (const id of [...this.prompts.keys()]) this.answer({ id, button: 'CLOSE' });
    this.stopped = true;
    for (const item of [...this.queue.splice(0), ...this.alongside.values()])
      item.reject(new Error('the playground is stopped'));
    this.alongside.clear();
    if (this.current) this.current.reject(new Error('the playground is stopped'));
    this.current = null;
    await this.worker.terminate();
    await this.exited;
    this.answerPort.close();
    this.sidePort.close();
  }

  _pump() {
    if (this.current || this.stopped || !this.queue.length) return;
    this.current = this.queue.shift();
    const running = runningName(this.current.message, this.state);
    if (running) this.emit('busy', { running });
    this.worker.postMessage(this.current.message);
  }

  _onMessage(msg) {
    if (msg.type === 'prompt') {
      this.prompts.set(msg.prompt.id, msg.prompt);
      this.emit('prompt', msg.prompt);
    } else if (msg.type === 'progress') {
      this._publish(msg);
    } else if (msg.type === 'side-reply') {
      const item = this.alongside.get(msg.id);
      this.alongside.delete(msg.id);
      this._publish(msg);
      if (item) item.resolve(msg);
    } else if (msg.type === 'reply') {
      const item = this.current;
      this.current = null;
      this._publish(msg);
      // An alert still shown belongs to an execution that ended without its answer (Apps Script's limit).
      for (const id of [...this.prompts.keys()]) {
        this.prompts.delete(id);
        this.emit('prompt-done', { id });
      }
      if (item && runningName(item.message, null)) this.emit('busy', { running: null });
      if (item) item.resolve(msg);
      // A call sent to run beside an execution that ended without waiting again: the worker runs it now.
      if (this.alongside.size && !this.queue.some((q) => q.message.op === 'side'))
        this.queue.push({ message: { op: 'side', id: this.nextId++ }, resolve() {}, reject() {} });
      this._pump();
    }
  }

  /** New UI events (toasts, sidebars, dialogs) and the new state go to every open page. */
  _publish(msg) {
    for (const event of msg.events || []) {
      this.uiSeq = Math.max(this.uiSeq, event.seq);
      this.emit('ui', event);
    }
    if (msg.state) {
      this.state = msg.state;
      this.emit('state', msg.state);
    }
  }

  _fail(err) {
    if (this.stopped) return;
    this.stopped = true;
    const items = [...this.queue.splice(0), ...this.alongside.values()];
    this.alongside.clear();
    if (this.current) items.push(this.current);
    this.current = null;
    for (const item of items) item.reject(err);
    this.emit('failed', err);
  }
}

/**
 * What the busy line names: the action in the menu's words (the item's label, or what a sidebar or dialog
 * does: "Settings: Test connection"), or the clock moving on (due triggers run meanwhile); never a function's
 * name, which the user never sees anywhere else.
 */
function runningName(message, state) {
  if (message.op === 'advance') return 'the clock (triggers that come due run)';
  if (message.op !== 'run') return null;
  const label = menuLabel((state && state.menus) || [], message.name);
  if (label) return `"${label}"`;
  if (Object.hasOwn(PAGE_ACTIONS, message.name)) return PAGE_ACTIONS[message.name];
  if (/^[A-Z_]+$/.test(message.name)) return `=${message.name}`;
  return 'an add-on action';
}

/** The label of the menu item that runs `fn`, looked for in sub-menus too; '' when none does. */
function menuLabel(items, fn) {
  for (const item of items) {
    if (item.fn === fn) return item.label;
    const inner = item.items ? menuLabel(item.items, fn) : '';
    if (inner) return inner;
  }
  return '';
}

/** What the add-on's sidebars, dialogs and trigger calls do, in the words those pages show. */
const PAGE_ACTIONS = {
  onOpen: 'the add-on menu (opening the spreadsheet)',
  onInstall: 'the add-on menu (installing)',
  onHourlyTimer: 'the hourly run (tracking, scheduled sends, follow-ups)',
  getSettings: 'Settings',
  saveSettings: 'Settings: Save',
  restoreDefaultAddresses: 'Settings: Restore default addresses',
  testConnection: 'Settings: Test connection',
  checkSavedKeys: 'Settings: checking the saved key with the service',
  searchCompanies: 'Search companies: Search',
  getComposeState: 'Compose e-mail',
  saveTemplate: 'Compose e-mail: Save',
  previewMail: 'Compose e-mail: Preview',
  sendTestMail: 'Compose e-mail: Send test mail',
  scheduleSend: 'Compose e-mail: Schedule',
  cancelScheduledSend: 'Compose e-mail: Cancel the scheduled send',
  continueJob: 'the progress dialog (working on the next part)',
  getJobProgress: 'the progress dialog',
  jobEndShown: 'the progress dialog (closing)',
  stopJob: 'the progress dialog: Stop',
};

module.exports = { EmulatorHost, runningName, PAGE_ACTIONS };
