// Injected at the top of every sidebar and dialog the add-on shows (the real dist/*.html). It stands in for
// the client side of Apps Script: google.script.run calls the add-on's entry points through the playground
// page (which runs them one at a time in the emulator) and google.script.host closes or resizes the frame.
// The frame is sandboxed (an opaque origin), so everything goes through postMessage to the parent page.
(function () {
  'use strict';
  var config = window.__playgroundBridge__ || { functions: [], frame: '' };
  var pending = {};
  var nextId = 1;

  // The add-on's pages run on the clock its server side runs on, as in Sheets where both run on real time:
  // here that is the service clock (real time plus what the page's +1 hour added, the slow service's
  // delays and the emulator's simulated waits). A progress dialog's Elapsed adds the time since the server's
  // last answer to the time the server measured, so both halves must be read on one clock.
  var offset = Number(config.clockOffset) || 0;
  var RealDate = Date;
  function ServiceDate() {
    var args = Array.prototype.slice.call(arguments);
    if (!(this instanceof ServiceDate)) return new RealDate(RealDate.now() + offset).toString();
    if (args.length === 0) return Reflect.construct(RealDate, [RealDate.now() + offset], new.target);
    return Reflect.construct(RealDate, args, new.target);
  }
  Object.setPrototypeOf(ServiceDate, RealDate);
  ServiceDate.prototype = RealDate.prototype;
  ServiceDate.now = function () {
    return RealDate.now() + offset;
  };
  ServiceDate.UTC = RealDate.UTC;
  ServiceDate.parse = RealDate.parse;
  window.Date = ServiceDate;

  // A test may run the pages' timers faster (startPlayground's frameTimerScale: the progress dialog's poll of
  // 5 s then comes after 0.5 s at 0.1); the clock they read is the service clock above, whatever the scale.
  var timerScale = Number(config.timerScale) || 1;
  if (timerScale !== 1) {
    var realSetTimeout = window.setTimeout;
    var realSetInterval = window.setInterval;
    var scaled = function (real) {
      return function (fn, ms) {
        var rest = Array.prototype.slice.call(arguments, 2);
        return real.apply(window, [fn, (Number(ms) || 0) * timerScale].concat(rest));
      };
    };
    window.setTimeout = scaled(realSetTimeout);
    window.setInterval = scaled(realSetInterval);
  }

  function send(message) {
    message.__playground__ = true;
    message.frame = config.frame;
    window.parent.postMessage(message, '*');
  }

  // Arguments must be JSON-like, as in Apps Script: a form element becomes an object of its named fields.
  function toArgument(value) {
    if (typeof HTMLFormElement !== 'undefined' && value instanceof HTMLFormElement) {
      var fields = {};
      Array.prototype.forEach.call(value.elements, function (el) {
        if (!el.name || el.disabled) return;
        if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) return;
        fields[el.name] = el.value;
      });
      return fields;
    }
    if (value instanceof Date) throw new TypeError('Failed due to illegal value in property: a Date');
    if (typeof value === 'function') throw new TypeError('Failed due to illegal value: a function');
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  }

  function makeError(error) {
    var e = new Error((error && error.message) || String(error));
    e.name = (error && error.name) || 'Error';
    if (error && error.stack) e.stack = error.stack;
    return e;
  }

  function makeRunner(onSuccess, onFailure, userObject) {
    var runner = {
      withSuccessHandler: function (fn) {
        return makeRunner(fn, onFailure, userObject);
      },
      withFailureHandler: function (fn) {
        return makeRunner(onSuccess, fn, userObject);
      },
      withUserObject: function (object) {
        return makeRunner(onSuccess, onFailure, object);
      },
    };
    config.functions.forEach(function (name) {
      runner[name] = function () {
        var args;
        try {
          args = Array.prototype.map.call(arguments, toArgument);
        } catch (e) {
          if (onFailure) setTimeout(onFailure, 0, makeError(e), userObject);
          else throw e;
          return;
        }
        var id = nextId++;
        pending[id] = { onSuccess: onSuccess, onFailure: onFailure, userObject: userObject, name: name };
        send({ type: 'run', id: id, name: name, args: args });
      };
    });
    return runner;
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source !== window.parent || !data || !data.__playground__) return;
    if (data.type === 'clock') {
      offset = Number(data.offset) || 0;
      return;
    }
    if (data.type !== 'result') return;
    var call = pending[data.id];
    if (!call) return;
    delete pending[data.id];
    if (data.ok) {
      if (call.onSuccess) call.onSuccess(data.result, call.userObject);
    } else if (call.onFailure) {
      call.onFailure(makeError(data.error), call.userObject);
    } else if (window.console) {
      window.console.error(
        'google.script.run.' + call.name + ' failed: ' + (data.error && data.error.message),
      );
    }
  });

  window.google = window.google || {};
  window.google.script = {
    run: makeRunner(null, null, undefined),
    host: {
      origin: 'https://docs.google.com',
      close: function () {
        send({ type: 'close' });
      },
      setHeight: function (height) {
        send({ type: 'resize', height: Number(height) });
      },
      setWidth: function (width) {
        send({ type: 'resize', width: Number(width) });
      },
      editor: {
        focus: function () {
          send({ type: 'focus-editor' });
        },
      },
    },
    url: {
      getLocation: function (callback) {
        callback({ hash: '', parameter: {}, parameters: {} });
      },
    },
  };
})();
