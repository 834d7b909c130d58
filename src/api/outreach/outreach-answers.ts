// The outreach service's answers: a 2xx is the schema's value; a failure is its HTTP status and RFC 7807 body
// (problem.ts). An address that answers without a problem body is not the service.
import {
  endpointOf,
  type Interpreted,
  isProblemBody,
  parseRetryAfter,
  parseSuccess,
  probed,
  type RawResponse,
  type RequestSpec,
  wrongAddressInit,
} from '../transport';
import { outreachProblemInit } from './problem';
import { DAY_MS } from '../../platform';

export function interpretOutreach<T>(
  spec: RequestSpec<T>,
  response: RawResponse,
  baseUrl: string,
): Interpreted<T> {
  const { status } = response;
  if (status >= 200 && status <= 299) {
    return probed('outreach', spec, baseUrl, status, parseSuccess('outreach', spec, response.text));
  }
  if (spec.probe && status < 500 && status !== 429 && !isProblemBody(response.text)) {
    const why = `answered ${status} without a problem body`;
    return { ok: false, init: wrongAddressInit('outreach', endpointOf(spec), baseUrl, status, why) };
  }
  const ctx = {
    service: 'outreach' as const,
    endpoint: endpointOf(spec),
    baseUrl,
    notFound: spec.notFound,
    unsafe: spec.unsafe,
  };
  // A quota's Retry-After may be hours away (a daily reset): not capped like a rate limit's.
  const retryAfterMs = parseRetryAfter(
    response.headers['retry-after'],
    Date.now(),
    status === 429 ? DAY_MS : undefined,
  );
  return { ok: false, init: outreachProblemInit(ctx, status, response.text, retryAfterMs) };
}
