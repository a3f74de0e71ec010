// When a request may be tried again, and how long to wait first: exponential backoff with full
// jitter, honouring the service's Retry-After up to a cap. A read is tried again on any server error or
// broken connection. A mutating request is sent again only when the service certainly did not act on it
// (429, or a connection that was never made): after a 5xx or a connection broken in flight its outcome is
// unknown, and the caller observes the object before deciding to send it again.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 15_000 };

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** The longest wait a Retry-After header is honoured for, unless NETFORM_MAX_RETRY_AFTER_S says otherwise. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Connection errors after which the request certainly never reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/** Requests that change nothing on the service, so sending them twice is harmless. */
export const isReadOnly = (method: string) => method === "GET" || method === "HEAD";

export function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  while (e && typeof e === "object") {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const neverSent = (error: unknown) => NOT_SENT_CODES.has(errorCode(error) ?? "");

/** Milliseconds to wait before attempt `attempt` (1 = the first retry). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** A Retry-After header in milliseconds (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
