/**
 * The steps of the request path a benchmark may leave out (bench/request-steps-bench.ts measures
 * what each costs by starting the service without it). Only buildApp's caller chooses them, in
 * code: no setting of the environment turns authentication or admission off.
 */
export const LEAVABLE_STEPS = [
  'admission',
  'shedding',
  'authentication',
  'rate-limit',
  'access-log',
  'metrics',
  'cors',
  'compression',
  'scim-error-format',
] as const;

export type LeavableStep = (typeof LEAVABLE_STEPS)[number];

/** Steps left out: none in production. */
export type LeaveOut = ReadonlySet<LeavableStep>;

export const NOTHING_LEFT_OUT: LeaveOut = new Set();
