'use strict';
// The emulator thread of the playground. It owns the AppsScriptEmulator running dist/Code.js and handles one
// operation at a time from the main thread: run an entry point, select a range, edit cells, report state.
// ui.alert/prompt inside an execution are synchronous, as in Apps Script: the question is posted to the main
// thread and this thread blocks (Atomics.wait) until the browser's answer arrives on `answerPort`.
// google.script.run calls made while an execution runs arrive on `sidePort` (see host.js): each runs as an
// execution of its own whenever the running one waits on the network, or right after it.
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const { Clock } = require('../clock');
const { AppsScriptEmulator } = require('../../test/emulator');
const { sandboxMailbox } = require('../../test/emulator/gmail-sandbox');
const {
  buildState,
  newUiEvents,
  selectRange,
  editRange,
  toggleCheckboxes,
  pasteValues,
  editStructure,
  recalculate,
  advanceClock,
} = require('./emulator-state');

const { clockBuffer, codePath, htmlDir, emulatorOptions, signal, answerPort, sidePort, mailboxUrl } =
  workerData;
const flag = new Int32Array(signal);
const clock = new Clock(clockBuffer);
const emu = new AppsScriptEmulator({
  ...emulatorOptions,
  codePath,
  htmlDir,
  clock,
  addonName: 'Outreach',
});
// A build with reply detection reads each user's Gmail: it receives what the sandbox's mailbox answers to the
// mails sent with the outreach key that user saved in Settings (src/platform/settings.ts keeps it there).
if (mailboxUrl) {
  emu.gmail.incoming = sandboxMailbox(mailboxUrl, (user) =>
    emu.properties.forUser(user).getProperty('settings.outreachApiKey'),
  );
}
const tracker = { seen: null, uiSeq: 0, version: 0, selectSeq: 0 };
let promptSeq = 0;

/** Blocks this thread until the browser answers the alert/prompt; returns { button, text }. */
function askBrowser(prompt) {
  const id = ++promptSeq;
  // Whatever the execution showed so far (a toast, rows written) is drawn before the question.
  parentPort.postMessage({
    type: 'progress',
    events: newUiEvents(emu, tracker),
    state: buildState(emu, tracker),
  });
  Atomics.store(flag, 0, 0);
  parentPort.postMessage({ type: 'prompt', prompt: { id, ...prompt } });
  for (;;) {
    Atomics.wait(flag, 0, 0);
    Atomics.store(flag, 0, 0);
    let received;
    while ((received = receiveMessageOnPort(answerPort))) {
      if (received.message.id === id) return received.message;
    }
  }
}

/** Runs the google.script.run calls waiting on sidePort, each as an execution of its own. */
let runningAlongside = false;
function runAlongside() {
  if (runningAlongside) return;
  runningAlongside = true;
  try {
    let received;
    while ((received = receiveMessageOnPort(sidePort))) {
      const { id, name, args } = received.message;
      let reply;
      try {
        reply = { ok: true, result: jsonClone(emu.run(name, args || [], { kind: 'webapp' })) };
      } catch (e) {
        reply = { ok: false, error: errorOf(e) };
      }
      parentPort.postMessage({
        type: 'side-reply',
        id,
        ...reply,
        events: newUiEvents(emu, tracker),
        state: buildState(emu, tracker),
      });
    }
  } finally {
    runningAlongside = false;
  }
}
emu.onFetch = runAlongside;

emu.ui.respond((request) => {
  const buttons = buttonsOf(request);
  const answer = askBrowser({
    type: request.type === 'prompt' ? 'prompt' : 'alert',
    title: request.title || '',
    message: request.prompt != null ? String(request.prompt) : String(request.message || ''),
    buttons,
  });
  return request.type === 'prompt' ? { button: answer.button, text: answer.text } : answer.button;
});

/** Button names of an alert/prompt request ('OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL' or a list). */
function buttonsOf(request) {
  const set = request.buttons || request.buttonSet || 'OK';
  if (Array.isArray(set)) return set.map(String);
  const name = String(set && set.name ? set.name() : set);
  return (
    {
      OK: ['OK'],
      OK_CANCEL: ['OK', 'CANCEL'],
      YES_NO: ['YES', 'NO'],
      YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
    }[name] || ['OK']
  );
}

function errorOf(e) {
  return { name: (e && e.name) || 'Error', message: (e && e.message) || String(e) };
}

/** Results reach the page as JSON, as google.script.run returns them. */
function jsonClone(value) {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value));
}

/** The active user's Gmail, newest first, as a mail client lists it (what arrived until now included). */
function inbox() {
  if (!emu.gmailSymbol) return null;
  emu.services[emu.gmailSymbol].Users.Messages.list('me', {}); // test side: no quota; delivers what arrived
  const header = (m, name) => (m.headers.find((h) => h.name === name) || { value: '' }).value;
  const messages = emu.gmail.messages(emu.users.active).reverse();
  return {
    user: emu.users.active,
    total: messages.length,
    messages: messages.slice(0, 20).map((m) => ({
      date: new Date(m.internalDate).toISOString(),
      from: header(m, 'From'),
      subject: header(m, 'Subject'),
      text: m.body.slice(0, 160),
    })),
  };
}

function handle(message) {
  switch (message.op) {
    case 'init': {
      const warnings = [];
      try {
        emu.run('saveSettings', [message.settings], { kind: 'webapp' });
      } catch (e) {
        // Older bundles without saveSettings: the same user properties, written directly.
        warnings.push(`saveSettings: ${errorOf(e).message}; settings written as user properties`);
        const props = emu.properties.getUserProperties
          ? emu.properties.getUserProperties()
          : emu.properties.user;
        for (const [key, value] of Object.entries(message.settings))
          props.setProperty(`settings.${key}`, value);
      }
      emu.open(); // as Sheets runs onOpen when the file opens (LIMITED: the add-on is in use here)
      return { ok: true, warnings };
    }
    case 'run': {
      try {
        const result = emu.run(message.name, message.args || [], { kind: message.kind });
        return { ok: true, result: jsonClone(result) };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      } finally {
        recalculate(emu); // cells the execution wrote may feed custom-function formulas
      }
    }
    case 'select': {
      // The page's posts may arrive out of order: a selection older than the last one applied is dropped (a late
      // "cell below the edit" would otherwise take the active sheet back from the tab the user opened since).
      const seq = Number(message.seq) || 0;
      if (seq > 0 && seq < tracker.selectSeq) return { ok: true };
      tracker.selectSeq = Math.max(tracker.selectSeq, seq);
      selectRange(emu, message.sheet, message.range, message.current);
      return { ok: true };
    }
    case 'edit':
      try {
        editRange(emu, message.sheet, message.range, message.input);
        return { ok: true };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'toggle':
      try {
        return { ok: true, result: toggleCheckboxes(emu, message.sheet, message.range) };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'sheet': // the Demo menu's sheet, made when missing (as a user adds a sheet)
      try {
        if (!emu.spreadsheet.getSheetByName(message.name)) emu.spreadsheet.insertSheet(message.name);
        emu.spreadsheet.setActiveSheet(emu.spreadsheet.getSheetByName(message.name));
        return { ok: true };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'values': // what the Demo menu reads of a sheet, as its cells show (no sheet: none)
      try {
        const sheet = emu.spreadsheet.getSheetByName(message.name);
        const values = sheet && sheet.getLastRow() > 0 ? sheet.getDataRange().getDisplayValues() : [];
        return { ok: true, result: values };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'structure':
      try {
        return { ok: true, result: editStructure(emu, message.sheet, message.action, message.args) };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'paste':
      try {
        pasteValues(emu, message.sheet, message.range, message.values);
        return { ok: true };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'advance':
      try {
        return { ok: true, result: advanceClock(emu, message.ms) };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      } finally {
        recalculate(emu);
      }
    case 'inbox': // the Demo menu's look at the user's Gmail (null: a build without reply detection)
      try {
        return { ok: true, result: inbox() };
      } catch (e) {
        return { ok: false, error: errorOf(e) };
      }
    case 'state':
      return { ok: true };
    case 'side':
      return { ok: true }; // the calls beside are run below, before the reply
    default:
      return { ok: false, error: { name: 'Error', message: `unknown operation ${message.op}` } };
  }
}

parentPort.on('message', (message) => {
  let reply;
  try {
    reply = handle(message);
  } catch (e) {
    reply = { ok: false, error: errorOf(e) };
  }
  runAlongside(); // calls that came while this operation ran and found no network wait to run in
  let events = [];
  let state = null;
  try {
    events = newUiEvents(emu, tracker);
    // A selection changes no cell: the page already draws it, and later states carry its number.
    if (message.op !== 'select') state = buildState(emu, tracker);
  } catch (e) {
    reply = { ok: false, error: errorOf(e) };
  }
  parentPort.postMessage({ type: 'reply', id: message.id, ...reply, events, state });
});
