// The phone service's answers: its {code, message} envelope decides (phone-codes.ts), else the HTTP status. An
// address that answers a 404 or a 4xx without a code is not the service.
import type { ApiErrorInit } from '../errors';
import { invalidResponseInit } from '../error-texts';
import {
  endpointOf,
  type Interpreted,
  parseJson,
  parseRetryAfter,
  parseSuccess,
  parseWith,
  probed,
  type RawResponse,
  type RequestSpec,
  wrongAddressInit,
} from '../transport';
import { phoneCodeInit } from './phone-codes';
import { PhoneEnvelopeSchema } from './phone-schemas';

/** The body's {code, message} decides, whatever the HTTP status; without it, the status does. */
export function interpretPhone<T>(
  spec: RequestSpec<T>,
  response: RawResponse,
  baseUrl: string,
): Interpreted<T> {
  const endpoint = endpointOf(spec);
  const { status } = response;
  const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
  const json = parseJson(response.text);
  const envelope = json.ok ? PhoneEnvelopeSchema().safeParse(json.value) : undefined;
  // The service answers every failure with a code and never a 404: a 404, or a 4xx without a code, comes
  // from something else at that address.
  if (status === 404 || (!envelope?.success && status >= 400 && status < 500 && status !== 429)) {
    const why = `answered ${status}${envelope?.success ? ` with code ${envelope.data.code}` : ' without a code'}`;
    return { ok: false, init: wrongAddressInit('phone', endpoint, baseUrl, status, why) };
  }
  if (envelope?.success) {
    const { code, message } = envelope.data;
    if (code === 0) return probed('phone', spec, baseUrl, status, parseSuccess('phone', spec, response.text));
    return { ok: false, init: phoneCodeInit(endpoint, code, message ?? undefined, status, retryAfterMs) };
  }
  if (status >= 500 || status === 429) {
    return { ok: false, init: phoneStatusInit(endpoint, status, retryAfterMs) };
  }
  const what = json.ok ? parseWith(PhoneEnvelopeSchema(), json.value) : undefined;
  const detail = what && !what.ok ? `${what.path}: ${what.message}` : 'body is not JSON';
  return probed('phone', spec, baseUrl, status, {
    ok: false,
    init: { ...invalidResponseInit('phone', endpoint, detail), status },
  });
}

/** A 429 or 5xx of the phone service without a {code} envelope. */
function phoneStatusInit(endpoint: string, status: number, retryAfterMs?: number): ApiErrorInit {
  return {
    service: 'phone',
    kind: status === 429 ? 'rate-limit' : 'server',
    endpoint,
    status,
    retryAfterMs,
    message: `${endpoint} answered ${status} without a code`,
    userMessage:
      status === 429
        ? 'The phone-check service allows 1000 checks per hour; the limit was reached.'
        : `The phone-check service had a temporary failure (${status}).`,
    action: 'Try again later.',
    retryable: true,
  };
}
