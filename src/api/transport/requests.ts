// Request checks made before anything is sent: the first problem becomes an ApiError kind 'bad-request'
// with the offending `field`, the `index` of the e-mail of a send, and a message saying what to fix
// (`E-mail 3 (bob@@x): e-mail address is not valid`).
import type * as z from 'zod/mini';
import { ApiError, type ApiService } from '../errors';
import { badRequestInit } from '../error-texts';
import { plural } from '../../platform';
import { redactInit } from './redact';
import { formatPath, issueText, issuesOf, valueAt } from './schema-util';

const ENTRY_LABELS: Record<string, string> = { emails: 'E-mail' };

/** A value quoted in a message: printable, short. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001F\u007F]/g, ' ');
  return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean;
}

/**
 * Validates a request; returns the normalized request (trimmed, upper-cased codes...) or throws. The message
 * quotes the offending value, so the API keys in `secrets` are redacted from it.
 */
export function checkRequest<S extends z.ZodMiniType>(
  service: ApiService,
  endpoint: string,
  schema: S,
  data: unknown,
  secrets: readonly string[] = [],
): z.output<S> {
  const fail = (field: string, message: string, index?: number) =>
    new ApiError(redactInit(badRequestInit(service, endpoint, field, message, index), secrets));
  const result = issuesOf(schema, data);
  if (result.ok) return result.value;
  const { issue } = result;
  const path = issue.path;
  const field = formatPath(path);
  let text = issueText(issue, data);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    text = `Unsupported ${plural(issue.keys.length, 'field')} ${keys}${
      issue.message && issue.message !== 'Invalid input' ? `: ${issue.message}` : ''
    }`;
  }
  const entryLabel = typeof path[0] === 'string' ? ENTRY_LABELS[path[0]] : undefined;
  if (entryLabel && typeof path[1] === 'number') {
    const index = path[1];
    const rest = path.slice(2);
    let message: string;
    if (rest[0] === 'email') {
      message = `${entryLabel} ${index + 1} (${shown(valueAt(data, path))}): ${text}`;
    } else {
      message = `${entryLabel} ${index + 1}: ${text}`;
    }
    throw fail(field, message, index);
  }
  const custom = issue.message && issue.message !== 'Invalid input';
  const message = custom || issue.code === 'unrecognized_keys' ? text : `${field}: ${text}`;
  throw fail(field, message);
}
