// zod/mini schemas of the phone-check service (spec/phone-check-api.md). Every answer is an envelope
// {code, result} on success (code 0) or {code, message} on failure; the code is authoritative, whatever
// the HTTP status.
import * as z from 'zod/mini';

/** Any answer: only `code` is needed to decide what happened. */
export const PhoneEnvelopeSchema = z.object({
  code: z.int(),
  message: z.optional(z.nullable(z.string())),
  result: z.optional(z.unknown()),
});
export type PhoneEnvelope = z.output<typeof PhoneEnvelopeSchema>;

/** 4.1 GET /api/wa/check success */
export const PhoneCheckResponseSchema = z.object({
  code: z.literal(0),
  result: z.object({ exist: z.boolean() }),
});
export type PhoneCheckResponse = z.output<typeof PhoneCheckResponseSchema>;

/** 4.2 GET /api/user/credits success */
export const CreditsResponseSchema = z.object({
  code: z.literal(0),
  result: z.object({ total: z.int() }),
});
export type CreditsResponse = z.output<typeof CreditsResponseSchema>;

/** 7 failure envelope */
export const PhoneFailureSchema = z.object({
  code: z.int(),
  message: z.optional(z.nullable(z.string())),
});
export type PhoneFailure = z.output<typeof PhoneFailureSchema>;

/** 4.1 request: the `phone` query parameter, E.164 (`+14155550123`) or digits only. */
export const PhoneParamSchema = z
  .string()
  .check(z.regex(/^\+?[1-9]\d{6,14}$/, 'phone must be E.164 or digits'));

export interface Credits {
  total: number;
}
