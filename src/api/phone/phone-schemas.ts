// zod/mini schemas of the phone-check service (docs/services.md). Every answer is an envelope
// {code, result} on success (code 0) or {code, message} on failure; the code is authoritative, whatever
// the HTTP status.
import * as z from 'zod/mini';
import { lazySchema, type OutputOf } from '../transport';

/** Any answer: only `code` is needed to decide what happened. */
export const PhoneEnvelopeSchema = lazySchema(() =>
  z.object({
    code: z.int(),
    message: z.optional(z.nullable(z.string())),
    result: z.optional(z.unknown()),
  }),
);

/** 4.1 GET /api/wa/check success */
export const PhoneCheckResponseSchema = lazySchema(() =>
  z.object({
    code: z.literal(0),
    result: z.object({ exist: z.boolean() }),
  }),
);
export type PhoneCheckResponse = OutputOf<typeof PhoneCheckResponseSchema>;

/** 4.2 GET /api/user/credits success */
export const CreditsResponseSchema = lazySchema(() =>
  z.object({
    code: z.literal(0),
    result: z.object({ total: z.int() }),
  }),
);
export type CreditsResponse = OutputOf<typeof CreditsResponseSchema>;
