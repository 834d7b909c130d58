// A service address that points at something else (the other service, a web server, a path with `/api/v1`
// added) answers 404s and bodies of another shape. Reporting those as "company not unlocked" or "key
// refused" names the wrong fix: the error names the address instead.
import type { ApiErrorInit, ApiService } from '../errors';

const API_NAME: Record<ApiService, string> = { outreach: 'Outreach API', phone: 'phone-check API' };

export function wrongAddressInit(
  service: ApiService,
  endpoint: string,
  baseUrl: string,
  status: number | undefined,
  why: string,
): ApiErrorInit {
  return {
    service,
    kind: 'address',
    endpoint,
    status,
    message: `${endpoint} at ${baseUrl}: ${why}`,
    userMessage: `Nothing that speaks the ${API_NAME[service]} answers at ${baseUrl}: check the service address.`,
    action: 'It is in Extensions › Outreach › Settings.',
    retryable: false,
  };
}

/** True for a JSON object in the RFC 7807 shape the outreach service answers every failure with. */
export function isProblemBody(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
    const { type, title, status } = body as Record<string, unknown>;
    return typeof type === 'string' || typeof title === 'string' || typeof status === 'number';
  } catch {
    return false;
  }
}
