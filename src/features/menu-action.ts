// Entry points a user starts report what went wrong in the words every surface uses (describe()): a menu
// action in a dialog, a google.script.run endpoint to its page (sidebar or dialog), never as the transport's
// developer text ("POST /api/v1/... answered 401 (...)").
import { ApiError } from '../api/errors';
import { ensureInstallId } from '../platform/attribution';
import { UserError } from './inputs';
import { describe, showSettingsDialog } from './settings';
import { inform } from '../ui/dialogs';

export function runMenuAction(title: string, action: () => void): void {
  ensureInstallId(); // a menu execution may write user properties; custom functions may not
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'missing-key') {
      showSettingsDialog(`${error.userMessage} ${error.action}`);
    } else if (error instanceof ApiError || error instanceof UserError) {
      inform(title, describe(error));
    } else throw error;
  }
}

/** google.script.run endpoints: the page's failure handler gets the sentence a dialog would show. */
export function forPage<T>(endpoint: () => T): T {
  try {
    return endpoint();
  } catch (error) {
    if (error instanceof ApiError) throw new Error(describe(error), { cause: error });
    throw error;
  }
}
