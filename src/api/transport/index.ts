// api/transport: what other folders use of it (the only file they import).
export {
  type Interpreted,
  parseJson,
  parseRetryAfter,
  parseSuccess,
  probed,
  type RawResponse,
} from './answers';
export { type BatchResult, Transport, type TransportOptions } from './http';
export { redact } from './redact';
export { endpointOf, type Outcome, type QueryValue, type RequestSpec } from './request-spec';
export { type InputOf, lazySchema, type OutputOf, parseWith } from './schema-util';
export { isProblemBody, wrongAddressInit } from './wrong-address';
