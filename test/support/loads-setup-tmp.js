const { Realm } = require('../emulator/realm');
const fs = require('fs');
const call = Realm.prototype.call;
Realm.prototype.call = function (fn, args) {
  try { return call.call(this, fn, args); } finally {
    let list = [];
    try { list = this.evaluate('globalThis[Symbol.for("outreach-addon.library")][Symbol.for("outreach-addon.modules")].compiled()'); } catch (e) { list = ['ERR ' + e.message]; }
    fs.appendFileSync('/tmp/loads2.log', JSON.stringify({ fn: fn.name, modules: Array.from(list) }) + '\n');
  }
};
