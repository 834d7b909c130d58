// How the entry points a user starts report what went wrong, in the words every surface uses (describe()):
// a menu action in a dialog (a missing key opens Settings), a google.script.run endpoint to its page
// (sidebar or dialog), never as the transport's developer text ("POST /api/v1/... answered 401 (...)").
// Anything else stays a script error: a bug. Each guard is one function around the feature, so a stack
// trace reads forwarder → guard → feature.
import { ApiError } from '../api/errors';
import { ensureInstallId } from '../platform/attribution';
import { UserError } from './inputs';
import { describe, showSettingsDialog } from './settings';
import { isStoreFull } from './storage';
import { inform } from '../ui/dialogs';

/** A menu action: makes the install id, runs the action, shows what the user can act on in a dialog. */
export function menuAction<R>(title: string, action: () => R): () => R | undefined {
  return function fromMenu(): R | undefined {
    ensureInstallId(); // a menu execution may write user properties; custom functions may not
    try {
      return action();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'missing-key') {
        showSettingsDialog(`${error.userMessage} ${error.action}`);
      } else if (error instanceof ApiError || error instanceof UserError || isStoreFull(error)) {
        inform(title, describe(error));
      } else throw error;
    }
    return undefined;
  };
}

/** A google.script.run endpoint: the page's failure handler gets the sentence a dialog would show. */
export function pageEndpoint<A extends unknown[], R>(endpoint: (...args: A) => R): (...args: A) => R {
  return function forPage(...args: A): R {
    try {
      return endpoint(...args);
    } catch (error) {
      if (error instanceof ApiError || isStoreFull(error)) throw new Error(describe(error), { cause: error });
      throw error;
    }
  };
}
