// Turns zod/mini issues into short messages that name the field path: `list[3].email_count: expected
// integer, got string`. zod/mini ships no locale, so every message is written here or in the schemas.
import * as z from 'zod/mini';
import { plural } from '../../platform';

type Parsed<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

type Issue = z.core.$ZodIssue;

/**
 * A schema built on its first use, then kept. Apps Script evaluates the whole bundle on every execution,
 * each custom-function cell included, and building zod schemas is most of that work: the schemas are
 * exported as these getters (`SearchRequestSchema()`), so evaluating the file builds none.
 */
export function lazySchema<S extends z.ZodMiniType>(build: () => S): () => S {
  let schema: S | undefined;
  return () => (schema ??= build());
}

/** What a lazy schema reads and gives (`z.input` and `z.output` of the schema it builds). */
export type InputOf<L extends () => z.ZodMiniType> = z.input<ReturnType<L>>;
export type OutputOf<L extends () => z.ZodMiniType> = z.output<ReturnType<L>>;
type PathKey = PropertyKey;

/** `list[3].company_name`; `body` for the root. */
export function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || 'body';
}

/** The value found at a path of the parsed data (for "got string" and request messages). */
export function valueAt(data: unknown, path: readonly PathKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const EXPECTED_NAMES: Record<string, string> = { int: 'integer', safeint: 'integer' };

/** Message of one issue, without the path. Custom messages written in the schemas win. */
export function issueText(issue: Issue, data: unknown): string {
  const custom = issue.message && issue.message !== 'Invalid input' ? issue.message : '';
  if (custom) return custom;
  const got = valueAt(data, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      return `expected ${expected}, got ${typeName(got)}`;
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(got) ?? 'nothing'}`;
    case 'unrecognized_keys':
      return `unexpected ${plural(issue.keys.length, 'field')} ${issue.keys.join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_key':
    case 'invalid_element': {
      const inner = issue.issues[0];
      return inner && inner.message !== 'Invalid input' ? inner.message : 'is not valid';
    }
    case 'invalid_union':
      return `does not have an expected shape (got ${typeName(got)})`;
    default:
      return 'is not valid';
  }
}

/** The most useful issue first: a custom message, else the first. */
function firstIssue(issues: readonly Issue[]): Issue {
  return issues[0];
}

/** Parses data with a schema; on failure gives the first issue's path and message. */
export function parseWith<S extends z.ZodMiniType>(schema: S, data: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data as z.output<S> };
  const issue = firstIssue(result.error.issues);
  return { ok: false, path: formatPath(issue.path), message: issueText(issue, data) };
}

/** Issues of a failed parse with their raw paths (request checks build their own messages). */
export function issuesOf<S extends z.ZodMiniType>(
  schema: S,
  data: unknown,
): { ok: true; value: z.output<S> } | { ok: false; issue: Issue } {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data as z.output<S> };
  return { ok: false, issue: firstIssue(result.error.issues) };
}
