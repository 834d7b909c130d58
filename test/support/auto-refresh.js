'use strict';
// Auto-refresh switched as a user does it: the menu item "Auto-refresh tracking: on / off" states the setting
// and asks whether to switch; the user runs it only when the switch is not already where they want it.

/** The active user's switch in this document, as the add-on keeps it (their record `timer.user.<token>`). */
function autoRefreshIsOn(emu) {
  const token = emu.properties.user.getProperty('timer.userToken');
  const record = token && emu.properties.document.getProperty(`timer.user.${token}`);
  return !!(record && JSON.parse(record).auto && JSON.parse(record).auto.on);
}

/** Turns the active user's auto-refresh on or off from the menu, answering Yes to its question. */
function turnAutoRefresh(emu, on) {
  if (autoRefreshIsOn(emu) === on) return;
  emu.ui.queue('YES');
  emu.run('toggleAutoRefresh', [], { kind: 'menu' });
}

module.exports = { autoRefreshIsOn, turnAutoRefresh };
