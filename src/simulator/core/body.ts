// Request bodies: the service's size limit, and the text of a body read straight from the socket.
//
// Under the Node server, the request a handler sees is a light stand-in that becomes a full web Request
// (headers, abort signal, a web stream over the socket) as soon as its body is touched: most of the cost of
// a small JSON request. The limit therefore checks the declared length without touching the body, and the
// text of a body is read from the Node request itself. Requests made in process (`app.request`) are full
// web Requests already and take hono's own paths.

import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { incomingMessage, type SimEnv } from "./context.js";
import { SimError } from "./errors.js";

/** Requests larger than the specification's attachment limit are refused. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

function largeBodyError(): SimError {
  return new SimError("attachmentInvalid", [{ property: "body", reason: `the request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB` }]);
}

/** The Node server gives requests of these methods no body. */
const BODILESS_METHODS = new Set(["GET", "HEAD", "TRACE"]);

/**
 * Refuses a body over `MAX_BODY_BYTES` before any handler runs, as hono's `bodyLimit` does: by its declared
 * length when it has one, else by reading it (a chunked body, or a request made in process), which only
 * `bodyLimit` then does.
 */
export function limitBodySize(): MiddlewareHandler<SimEnv> {
  const bufferingLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw largeBodyError();
    },
  });
  return (c, next) => {
    const incoming = incomingMessage(c);
    if (!incoming) return bufferingLimit(c, next);
    if (BODILESS_METHODS.has(incoming.method ?? "GET")) return next();
    const declared = incoming.headers["content-length"];
    if (declared === undefined || incoming.headers["transfer-encoding"] !== undefined) return bufferingLimit(c, next);
    if (parseInt(declared, 10) > MAX_BODY_BYTES) throw largeBodyError();
    return next();
  };
}

/** Decodes as a web Request's `text()` does: UTF-8, a leading byte order mark dropped, bad bytes replaced. */
const utf8 = new TextDecoder();

/** The body text of each request read from its socket, which gives it only once. */
const bodyTexts = new WeakMap<IncomingMessage, Promise<string>>();

/** The request body as text; the way to read a body that `c.req.text()` would otherwise read. */
export function readBodyText(c: Context<SimEnv>): Promise<string> {
  const incoming = incomingMessage(c);
  if (!incoming) return c.req.text();
  let text = bodyTexts.get(incoming);
  if (text) return text;
  // Read already, through the web Request (by `limitBodySize`, for one): hono keeps the text. A body with
  // neither length nor chunks (a DELETE with only a Content-Type) ends without a byte, so `readableDidRead`
  // stays false; the socket then gives no further 'end' to wait for.
  if (incoming.readableDidRead || incoming.readableEnded) return c.req.text();
  text = readIncoming(incoming);
  bodyTexts.set(incoming, text);
  return text;
}

function readIncoming(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      // The declared length was checked; the parser delivers no more than it, but the limit does not rest on that.
      if (size > MAX_BODY_BYTES) return done(() => reject(largeBodyError()));
      chunks.push(chunk);
    };
    const onEnd = () => done(() => resolve(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))));
    const onError = (error: Error) => done(() => reject(error));
    // Closed before its end: the client went away mid-body.
    const onClose = () => done(() => reject(new Error("the connection closed before the whole request body arrived")));
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}
